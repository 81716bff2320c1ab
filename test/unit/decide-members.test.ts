/**
 * retire, rehire and role: read once, then decide without the disk. Each decider runs with node:fs
 * switched off on the state its read step read and plans what the whole command does; the plan
 * holds the member's Copilot agent too, decided on the tree as the member change leaves it, so the
 * dry run lists what the real run writes, and the text names exactly the changed paths.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { alumniDir, agentDir, charterPath, squadPaths } from '../../src/core/base/paths.js';
import { type ChangeSummary, changeLines, commitHint, summarizeChanges } from '../../src/core/base/plan.js';
import { applyPlan } from '../../src/core/fs/apply-plan.js';
import { memberProfilePath } from '../../src/core/squad/agents/member-profile.js';
import { planMemberProfiles, profileChanges } from '../../src/core/squad/agents/profile-sync.js';
import { decideRehire, decideRetire, type MemberChangePlan } from '../../src/core/team/member-change-plan.js';
import { planRehire, planRetire, readMemberChangeState } from '../../src/core/team/retire.js';
import { decideRoleChange } from '../../src/core/team/role-change-plan.js';
import { planRoleChange } from '../../src/core/team/role-change.js';
import type { MemberChangeData } from '../../src/commands/member-change.js';
import { cleanupTempDirs, hashTree, runCli, runOk, tempDir, validSkill, writeFiles } from '../helpers/cli.js';
import { sharedInitSquad as initSquad } from '../helpers/shared-init.js';
import { withoutFileSystemAsync } from '../helpers/no-fs.js';
import { expectEqual } from '../helpers/fast-equal.js';

afterAll(cleanupTempDirs);

const now = new Date('2026-01-02T03:04:05Z');
const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');
const keptAgent = (folder: string) => `${alumniDir(folder)}/${folder}.agent.md`;

/** Backup folders are named by the time of the run: plans made at other times differ only there. */
const stampless = (value: string) => value.replace(new RegExp(`^(${squadPaths.backups}/)[^/]+/`), '$1<time>/');

function normalized(changes: ChangeSummary): ChangeSummary {
  return {
    created: changes.created.map(stampless),
    replaced: changes.replaced.map(stampless),
    moved: changes.moved.map((m) => ({ from: stampless(m.from), to: stampless(m.to) })),
    backedUp: changes.backedUp.map((b) => ({ path: b.path, backup: stampless(b.backup) })),
    removed: changes.removed.map(stampless),
  };
}

function serverSkill(name: string, server: string): string {
  return validSkill(name, `Use when working on ${name}.`, `metadata:\n  mcp-servers:\n    - name: ${server}\n      reason: read the data\n`);
}

/** `text` with the backup folders' timestamps taken out. */
const withoutStamps = (text: string) => text.replace(new RegExp(`${squadPaths.backups}/[^/\\s]+/`, 'g'), `${squadPaths.backups}/<time>/`);

/** Bring the members' agents in step with the squad as it is (what upgrade does for them). */
async function syncAgents(root: string): Promise<void> {
  applyPlan(root, { changes: profileChanges(await planMemberProfiles(root)) }, 'test');
}

/**
 * The command's dry run and real run agree with the plan decided off disk: the same changes, the
 * dry run writes nothing, the real run's text lists each change of the plan and the commit hint of
 * exactly the paths its --json names.
 */
async function agreesWithCommand(root: string, args: string[], plan: MemberChangePlan): Promise<MemberChangeData> {
  const before = hashTree(root);
  const dry = (await runOk(root, [...args, '--dry-run', '--json'])).data<MemberChangeData>();
  expect(hashTree(root)).toBe(before);
  const copy = tempDir('squad-text-');
  fs.cpSync(root, copy, { recursive: true, verbatimSymlinks: true });
  const real = (await runOk(root, [...args, '--json'])).data<MemberChangeData>();
  const planned = normalized(summarizeChanges(plan.changes));
  expect(normalized(dry.changes)).toEqual(planned);
  expect(normalized(real.changes)).toEqual(planned);
  const unstamped = (reports: MemberChangeData['agentProfiles']) => reports.map((a) => (a.backup ? { ...a, backup: withoutStamps(a.backup) } : a));
  expect(unstamped(dry.agentProfiles)).toEqual(unstamped(real.agentProfiles));
  expect(dry.commit).toEqual(real.commit);
  const text = withoutStamps((await runOk(copy, args)).stdout);
  for (const line of changeLines(plan.changes, false)) expect(text).toContain(`  ${withoutStamps(line)}\n`);
  if (real.commit.length > 0) expect(text).toContain(`git add -A -- ${real.commit.join(' ')} && git commit -m`);
  else expect(text).not.toContain('git add');
  return real;
}

describe('retire: read once, then decide without the disk', () => {
  it("decideRetire plans, with node:fs off, the member change and the agent's move into the alumni folder the plan makes", async () => {
    const root = await initSquad(['--yes']);
    const whole = await planRetire(root, 'hockney', now); // warms the templates, as the command's own run would
    const state = readMemberChangeState(root, 'retire', 'hockney');
    const pure = await withoutFileSystemAsync(() => decideRetire(state, { now }));
    expectEqual(pure, whole);
    // The agent moves after team.md, into the folder the retire moved a step before.
    expect(pure.changes.at(-1)).toEqual({ kind: 'move', from: memberProfilePath('hockney'), to: keptAgent('hockney') });
    expect(pure.changes.at(-2)).toMatchObject({ kind: 'replace', path: squadPaths.team });
    expect(pure.agentProfiles).toEqual([{ action: 'retire', path: memberProfilePath('hockney'), to: keptAgent('hockney') }]);
    await agreesWithCommand(root, ['retire', 'hockney'], pure);
    expect(fs.existsSync(path.join(root, keptAgent('hockney')))).toBe(true);
  });

  it('a rerun after a kill between team.md and the agent moves only the agent, and says so', async () => {
    const root = await initSquad(['--yes']);
    await runOk(root, ['retire', 'hockney']);
    // What a run killed right after its team.md write leaves: the agent still in .github/agents/.
    fs.renameSync(path.join(root, keptAgent('hockney')), path.join(root, memberProfilePath('hockney')));
    const state = readMemberChangeState(root, 'retire', 'hockney');
    const pure = await withoutFileSystemAsync(() => decideRetire(state, { now }));
    expect(pure).toMatchObject({ done: false, madeAlready: true, changes: [{ kind: 'move', from: memberProfilePath('hockney'), to: keptAgent('hockney') }] });
    const text = await runOk(root, ['retire', 'hockney']);
    expect(text.stdout).toBe(
      [
        '✓ Hockney is already retired (.ai-team/agents/_alumni/hockney/); brought their Copilot agent in step',
        `  moved     ${memberProfilePath('hockney')} → ${keptAgent('hockney')}`,
        `  Commit it: ${commitHint(pure.changes, 'chore(squad): retire Hockney')}`,
        '',
      ].join('\n'),
    );
    const again = await runOk(root, ['retire', 'hockney', '--json']);
    expect(again.data<MemberChangeData>()).toMatchObject({ done: true, commit: [], changes: { created: [], replaced: [], moved: [] } });
    expect((await runOk(root, ['retire', 'hockney'])).stdout).toBe('✓ Hockney is already retired (.ai-team/agents/_alumni/hockney/); nothing to do\n');
  });
});

describe('rehire: read once, then decide without the disk', () => {
  it('brings the agent back from the folder the plan moves back, seeing the own skills that come back with it', async () => {
    const root = await initSquad(['--yes']);
    writeFiles(root, { [`${agentDir('fenster')}/skills/db-notes/SKILL.md`]: serverSkill('db-notes', 'postgres') });
    await syncAgents(root);
    await runOk(root, ['retire', 'fenster']);
    expect(read(root, keptAgent('fenster'))).toContain('postgres/*');
    const whole = await planRehire(root, 'fenster', now);
    const state = readMemberChangeState(root, 'rehire', 'fenster');
    const pure = await withoutFileSystemAsync(() => decideRehire(state, { now }));
    expectEqual(pure, whole);
    expect(pure.changes).toContainEqual({ kind: 'move', from: alumniDir('fenster'), to: agentDir('fenster') });
    // Restored as it is: it is what the member, with the skill that comes back with its folder, gets now.
    expect(pure.agentProfiles).toEqual([{ action: 'restore', path: memberProfilePath('fenster'), from: `${agentDir('fenster')}/fenster.agent.md` }]);
    const data = await agreesWithCommand(root, ['rehire', 'fenster'], pure);
    expect(data.done).toBe(false);
    expect(read(root, memberProfilePath('fenster'))).toContain('postgres/*');
    expect((await runOk(root, ['rehire', 'fenster', '--json'])).data<MemberChangeData>().done).toBe(true);
  });

  it('restores and then refreshes an agent that went stale while the member was away, in one plan', async () => {
    const root = await initSquad(['--yes']);
    await runOk(root, ['retire', 'hockney']);
    // The team learned a skill that needs a server since: every active agent's tools name it, not the retired one's.
    writeFiles(root, { '.github/skills/tracker/SKILL.md': serverSkill('tracker', 'linear') });
    await syncAgents(root);
    expect(read(root, memberProfilePath('keaton'))).toContain('linear/*');
    expect(read(root, keptAgent('hockney'))).not.toContain('linear/*');
    const state = readMemberChangeState(root, 'rehire', 'hockney');
    const pure = await withoutFileSystemAsync(() => decideRehire(state, { now }));
    const kept = `${agentDir('hockney')}/hockney.agent.md`;
    expect(pure.agentProfiles).toEqual([
      { action: 'restore', path: memberProfilePath('hockney'), from: kept },
      { action: 'refresh', path: memberProfilePath('hockney') },
    ]);
    // The agent moves from where it is now, before its folder does; then it is brought up to date.
    expect(pure.changes.slice(-3)).toMatchObject([
      { kind: 'move', from: keptAgent('hockney'), to: memberProfilePath('hockney') },
      { kind: 'move', from: alumniDir('hockney'), to: agentDir('hockney') },
      { kind: 'replace', path: memberProfilePath('hockney') },
    ]);
    await agreesWithCommand(root, ['rehire', 'hockney'], pure);
    expect(read(root, memberProfilePath('hockney'))).toContain('linear/*');
  });
});

describe('role: read once, then decide without the disk', () => {
  it('decideRoleChange plans the charter backup, the files and the agent with node:fs off, as the command does', async () => {
    const root = await initSquad(['--yes']);
    writeFiles(root, { [charterPath('hockney')]: `${read(root, charterPath('hockney'))}\n- Owns the load tests.\n` });
    const whole = await planRoleChange(root, 'hockney', 'Lead', now);
    const state = readMemberChangeState(root, 'role', 'hockney');
    const pure = await withoutFileSystemAsync(() => decideRoleChange(state, { role: 'Lead', now }));
    expectEqual(pure, whole);
    expect(pure.backup).toBe(`${squadPaths.backups}/2026-01-02T03-04-05-000Z/${charterPath('hockney')}`);
    // The tailored charter is backed up right before it is replaced.
    const backup = pure.changes.findIndex((c) => c.kind === 'backup');
    expect(pure.changes[backup]).toMatchObject({ kind: 'backup', of: charterPath('hockney'), path: pure.backup });
    expect(pure.changes[backup + 1]).toMatchObject({ kind: 'replace', path: charterPath('hockney') });
    expect(pure.changes.at(-1)).toMatchObject({ kind: 'replace', path: memberProfilePath('hockney') });
    const data = await agreesWithCommand(root, ['role', 'hockney', 'Lead'], pure);
    expect(data.changes.backedUp).toEqual([
      { path: charterPath('hockney'), backup: expect.stringMatching(/^\.ai-team\/backups\/[^/]+\/\.ai-team\/agents\/hockney\/charter\.md$/) },
    ]);
  });

  it('reuses a backup an interrupted run made, found without the disk', async () => {
    const root = await initSquad(['--yes']);
    const tailored = `${read(root, charterPath('hockney'))}\n- Owns the load tests.\n`;
    writeFiles(root, { [charterPath('hockney')]: tailored, [`${squadPaths.backups}/2025-12-31T00-00-00-000Z/${charterPath('hockney')}`]: tailored });
    const state = readMemberChangeState(root, 'role', 'hockney');
    const pure = await withoutFileSystemAsync(() => decideRoleChange(state, { role: 'Lead', now }));
    expect(pure.backup).toBe(`${squadPaths.backups}/2025-12-31T00-00-00-000Z/${charterPath('hockney')}`);
    expect(pure.changes.some((c) => c.kind === 'backup')).toBe(false);
    applyPlan(root, pure, 'changing the role');
    expect(read(root, charterPath('hockney'))).toContain('# Hockney — Lead');
    expect((await runCli(['role', 'hockney', 'Lead', '--json'], { cwd: root })).data<MemberChangeData>().done).toBe(true);
  });
});
