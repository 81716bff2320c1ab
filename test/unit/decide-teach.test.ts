/**
 * teach reads once, then decides without the disk: decideTeach (a skill, the members' agents that
 * list it) and decideStandingRule (a rule) run on what readTeachState and readRuleState read, with
 * the file system switched off, and plan exactly what planTeach / planStandingRule plan and what
 * the whole command reports and writes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { summarizeChanges } from '../../src/core/base/plan.js';
import { STATE_FILE_MAX_BYTES } from '../../src/core/fs/fs-safe.js';
import { memberProfilePath } from '../../src/core/squad/agents/member-profile.js';
import { decideStandingRule } from '../../src/core/team/standing-rules.js';
import { decideTeach } from '../../src/core/team/teach.js';
import { planStandingRule, planTeach, readRuleState, readTeachState } from '../../src/core/team/teach-state.js';
import { cleanupTempDirs, hashTree, runCli, writeFiles } from '../helpers/cli.js';
import { sharedInitSquad as initSquad } from '../helpers/shared-init.js';
import { withoutFileSystem, withoutFileSystemAsync } from '../helpers/no-fs.js';
import { expectEqual } from '../helpers/fast-equal.js';

afterAll(cleanupTempDirs);

const date = new Date('2026-11-22T10:00:00Z');

/** The members of a fresh squad that are not Scribe, sorted. */
function members(root: string): string[] {
  return fs
    .readdirSync(path.join(root, '.ai-team/agents'))
    .filter((name) => !name.startsWith('_') && name !== 'scribe')
    .sort();
}

describe('decideTeach: a skill decided off the disk', () => {
  it("plans a member's skill after its agent, exactly as planTeach does, with node:fs off", async () => {
    const root = await initSquad(['--yes']);
    const [member] = members(root);
    const options = { agent: member!, instruction: 'When you release, tag the commit, then write the changelog', name: 'release-steps', date };
    const whole = await planTeach(root, options);
    const state = readTeachState(root, options);
    const pure = await withoutFileSystemAsync(() => decideTeach(state, options));
    expectEqual(pure, whole);
    // The agent that lists the skill first, the skill last: a rerun after a kill in between finishes.
    expect(pure.changes.map((change) => change.kind)).toEqual(['replace', 'create']);
    expect(pure.changes.map((change) => ('path' in change ? change.path : ''))).toEqual([memberProfilePath(member!), pure.path]);
  });

  it('plans a team skill over every active agent, and backs up an agent edited by hand, with node:fs off', async () => {
    const root = await initSquad(['--yes']);
    const [first] = members(root);
    fs.appendFileSync(path.join(root, memberProfilePath(first!)), '\nMy own note.\n');
    const options = { instruction: 'Squash-merge every pull request', name: 'merge-policy', date };
    const whole = await planTeach(root, options);
    const state = readTeachState(root, options);
    const pure = await withoutFileSystemAsync(() => decideTeach(state, options));
    expectEqual(pure, whole);
    const summary = summarizeChanges(pure.changes);
    expect(summary.backedUp).toEqual([{ path: memberProfilePath(first!), backup: expect.stringMatching(/^\.ai-team\/backups\/[^/]+\/\.github\/agents\//) }]);
    expect(summary.created).toEqual([`${pure.dir}/SKILL.md`]);
    // A team skill without MCP servers leaves the other agents as they are; the edited one is brought back in step.
    expect(summary.replaced).toEqual([memberProfilePath(first!)]);
  });

  it('refuses off the disk what the disk refuses: a skill already there, a file in the folder’s place', async () => {
    const root = await initSquad(['--yes']);
    const [member] = members(root);
    const taken = { agent: member!, instruction: 'use ADRs', name: 'adrs', date };
    writeFiles(root, { [`.ai-team/agents/${member}/skills/adrs/SKILL.md`]: '---\nname: adrs\ndescription: ADRs.\n---\n' });
    const stateTaken = readTeachState(root, taken);
    await expect(withoutFileSystemAsync(() => decideTeach(stateTaken, taken))).rejects.toMatchObject({ code: 'skill-exists' });
    const blocked = { ...taken, name: 'notes' };
    writeFiles(root, { [`.ai-team/agents/${member}/skills/notes`]: 'a file' });
    const stateBlocked = readTeachState(root, blocked);
    await expect(withoutFileSystemAsync(() => decideTeach(stateBlocked, blocked))).rejects.toMatchObject({
      code: 'file-exists',
      message: `.ai-team/agents/${member}/skills/notes is in the way: it is not a skill folder`,
    });
  });

  it("equals the whole command: the plan's changes are what --dry-run --json and the real run report", async () => {
    const root = await initSquad(['--yes']);
    const [member] = members(root);
    const args = ['teach', member!, 'When you deploy, run the smoke tests first', '--skill', '--name', 'deploy-steps'];
    const options = { agent: member!, instruction: 'When you deploy, run the smoke tests first', name: 'deploy-steps' };
    const state = readTeachState(root, options);
    const pure = await withoutFileSystemAsync(() => decideTeach(state, options));
    const dry = await runCli([...args, '--dry-run', '--json'], { cwd: root });
    const real = await runCli([...args, '--json'], { cwd: root });
    expect(real.code, real.stderr).toBe(0);
    expect(dry.data<{ changes: unknown }>().changes).toEqual(summarizeChanges(pure.changes));
    expect(real.data<{ changes: unknown }>().changes).toEqual(summarizeChanges(pure.changes));
    expect(fs.readFileSync(path.join(root, pure.path), 'utf8').replace(/taught-on: .*/, '')).toBe(pure.skill.content.replace(/taught-on: .*/, ''));
  });
});

describe('decideStandingRule: a rule decided off the disk', () => {
  it('replaces the charter, only while it holds what was read, exactly as planStandingRule does, with node:fs off', async () => {
    const root = await initSquad(['--yes']);
    const [member] = members(root);
    const whole = planStandingRule(root, 'Use tabs for indentation', member);
    const state = readRuleState(root, member);
    const pure = withoutFileSystem(() => decideStandingRule(state, 'Use tabs for indentation'));
    expectEqual(pure, whole);
    const charter = `.ai-team/agents/${member}/charter.md`;
    expect(pure.changes).toEqual([{ kind: 'replace', path: charter, content: pure.content, base: fs.readFileSync(path.join(root, charter)) }]);
  });

  it("creates the team's rules file on first use, and plans nothing for a rule that is there", async () => {
    const root = await initSquad(['--yes']);
    const fresh = readRuleState(root, undefined);
    const first = withoutFileSystem(() => decideStandingRule(fresh, 'Never commit to main'));
    expect(first.changes).toEqual([{ kind: 'create', path: '.ai-team/rules.md', content: first.content }]);
    expectEqual(first, planStandingRule(root, 'Never commit to main', undefined));
    writeFiles(root, { '.ai-team/rules.md': first.content! });
    const before = hashTree(root);
    const state = readRuleState(root, undefined);
    const again = withoutFileSystem(() => decideStandingRule(state, 'never commit to main'));
    expect(again).toMatchObject({ present: true, changes: [] });
    expect(hashTree(root)).toBe(before);
  });

  it('meets what reading threw where the decision reads it: an oversized rule is refused before an oversized charter', async () => {
    const root = await initSquad(['--yes']);
    const [member] = members(root);
    fs.writeFileSync(path.join(root, `.ai-team/agents/${member}/charter.md`), `# Big\n\n${'x'.repeat(STATE_FILE_MAX_BYTES)}\n`);
    const state = readRuleState(root, member);
    expect(() => withoutFileSystem(() => decideStandingRule(state, `Always ${'y'.repeat(3000)}`))).toThrow(
      expect.objectContaining({ code: 'invalid-input', message: expect.stringMatching(/^the rule is 3,008 bytes/) }),
    );
    expect(() => withoutFileSystem(() => decideStandingRule(state, 'Use tabs'))).toThrow(
      expect.objectContaining({ message: expect.stringMatching(/more than create-squad reads/) }),
    );
  });

  it('refuses off the disk, as on it, a member without a charter', async () => {
    const root = await initSquad(['--yes']);
    const [member] = members(root);
    fs.rmSync(path.join(root, `.ai-team/agents/${member}/charter.md`));
    const state = readRuleState(root, member);
    expect(() => withoutFileSystem(() => decideStandingRule(state, 'Use tabs'))).toThrow(expect.objectContaining({ code: 'not-found' }));
  });
});
