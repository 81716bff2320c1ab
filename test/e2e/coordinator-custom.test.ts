/**
 * The team's own instructions in the coordinator: between the "your instructions" lines of
 * `.github/agents/squad.agent.md`, carried into every upgraded coordinator; anything edited
 * elsewhere in the file is backed up, and upgrade says where.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CUSTOM_BEGIN, CUSTOM_END, carriedInstructions, customInstructions, readCoordinatorStamp, withCustomInstructions } from '../../src/core/squad/coordinator.js';
import { planUpgrade } from '../../src/core/scaffold/upgrade.js';
import { applyPlan } from '../../src/core/fs/apply-plan.js';
import { COORDINATOR_PATH, PACKAGE_COORDINATOR_SOURCE } from '../../src/core/base/paths.js';
import { cleanupTempDirs, runCli, tempRepo } from '../helpers/cli.js';
import { writeOriginalSquad } from '../helpers/original-squad.js';

afterAll(cleanupTempDirs);

const OURS = '\n- Answer in French.\n- Never touch the billing module without asking Dana.\n';

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

async function squadWithInstructions(): Promise<string> {
  const root = tempRepo();
  const init = await runCli(['init', '--yes'], { cwd: root });
  expect(init.code, init.stderr).toBe(0);
  const file = path.join(root, COORDINATOR_PATH);
  fs.writeFileSync(file, withCustomInstructions(fs.readFileSync(file, 'utf8'), OURS));
  return root;
}

describe('the coordinator\'s "your instructions" lines', () => {
  it('are shipped empty, and read and written without touching anything else', () => {
    const shipped = fs.readFileSync(PACKAGE_COORDINATOR_SOURCE, 'utf8');
    expect(customInstructions(shipped)).toBe('\n');
    const mine = withCustomInstructions(shipped, OURS);
    expect(customInstructions(mine)).toBe(OURS);
    expect(mine.replace(OURS, '\n')).toBe(shipped);
    expect(withCustomInstructions('no markers', OURS)).toBe('no markers');
    expect(customInstructions(`${CUSTOM_END}\n${CUSTOM_BEGIN}`)).toBeUndefined();
    expect(carriedInstructions(Buffer.from(shipped), Buffer.from(shipped))).toBeUndefined();
  });

  it('upgrade carries them into the new coordinator, without a backup or a note, again and again', async () => {
    const root = await squadWithInstructions();
    for (const version of ['9.9.0', '9.10.0']) {
      const plan = await planUpgrade(root, { version });
      expect(plan.backedUp.map((b) => b.path)).not.toContain(COORDINATOR_PATH);
      expect(plan.notes.join('\n')).not.toMatch(/your instructions/);
      applyPlan(root, plan, 'upgrading');
      const coordinator = read(root, COORDINATOR_PATH);
      expect(readCoordinatorStamp(coordinator)).toBe(version);
      expect(customInstructions(coordinator)).toBe(OURS);
    }
  });

  it('an edit elsewhere in the file is backed up and named, and the lines are still carried over', async () => {
    const root = await squadWithInstructions();
    const file = path.join(root, COORDINATOR_PATH);
    const edited = fs.readFileSync(file, 'utf8').replace('## Your instructions', '## Our house rules\n\nShip on Fridays.\n\n## Your instructions');
    fs.writeFileSync(file, edited);
    const upgrade = await runCli(['upgrade', '--json'], { cwd: root });
    // The same version: only the edit outside the lines makes the coordinator differ.
    expect(upgrade.code, upgrade.stderr).toBe(0);
    const data = upgrade.data<{ backedUp: { path: string; backup: string }[]; notes: string[] }>();
    const backup = data.backedUp.find((b) => b.path === COORDINATOR_PATH)!;
    expect(read(root, backup.backup)).toBe(edited);
    expect(data.notes.join('\n')).toContain(
      `${COORDINATOR_PATH} had changes of yours outside its "your instructions" lines: they are not carried over, and the whole file is backed up`,
    );
    expect(read(root, COORDINATOR_PATH)).not.toContain('Ship on Fridays');
    expect(customInstructions(read(root, COORDINATOR_PATH))).toBe(OURS);
  });

  it("the original Squad's coordinator (no such lines) is backed up, and the note says where to put what should stay", async () => {
    const root = tempRepo();
    writeOriginalSquad(root);
    const before = read(root, COORDINATOR_PATH);
    const upgrade = await runCli(['upgrade', '--json'], { cwd: root });
    expect(upgrade.code, upgrade.stderr).toBe(0);
    const data = upgrade.data<{ backedUp: { path: string; backup: string }[]; notes: string[] }>();
    const backup = data.backedUp.find((b) => b.path === COORDINATOR_PATH)!;
    expect(read(root, backup.backup)).toBe(before);
    expect(data.notes.join('\n')).toMatch(/Put what should stay between those lines: upgrade keeps it/);
  });
});
