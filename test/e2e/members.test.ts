/** members, retire, rehire and role: the team after day one. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireSquadLock } from '../../src/core/fs/lock.js';
import { agentDir, alumniDir, charterPath, historyPath, squadPaths } from '../../src/core/base/paths.js';
import { parseRoster } from '../../src/core/roster/roster.js';
import type { MemberChangeData } from '../../src/commands/member-change.js';
import type { MembersData } from '../../src/commands/members.js';
import type { RoleData } from '../../src/commands/role.js';
import { cleanupTempDirs, hashTree, initSquad, listFiles, runCli, runOk, tempDir, tempRepo, validSkill, writeFiles } from '../helpers/cli.js';
import { debrisLeft } from '../helpers/debris.js';
import { matrixWrites } from '../helpers/kill-matrix.js';

afterAll(cleanupTempDirs);

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');
const BACKUPS = `${squadPaths.backups}/`;

const run = runOk;

let hired: Promise<string> | undefined;

/**
 * A squad of Keaton (Lead), Fenster (Core Dev), Hockney (Tester) and McManus (DevOps): a copy of
 * one made once per file (init, then hire).
 */
async function squad(): Promise<string> {
  hired ??= (async () => {
    const root = await initSquad(['--yes', '--project', 'A shop', '--stack', 'Node.js']);
    await run(root, ['hire', 'devops']);
    return root;
  })();
  return copyRepo(await hired);
}

/** Every file's text except the backups, whose folder names carry the time. */
function state(root: string): Record<string, string> {
  return Object.fromEntries(
    listFiles(root)
      .filter((rel) => !rel.startsWith(BACKUPS))
      .map((rel) => [rel, read(root, rel)]),
  );
}

function backups(root: string): string[] {
  return listFiles(root)
    .filter((rel) => rel.startsWith(BACKUPS))
    .map((rel) => rel.replace(/^\.ai-team\/backups\/[^/]+\//, ''));
}

function copyRepo(root: string): string {
  const copy = tempDir('squad-copy-');
  fs.cpSync(root, copy, { recursive: true });
  return copy;
}

/**
 * Kill `args` after each of its writes in a copy of `base` (a sample of them in `npm test`, every
 * one with CREATE_SQUAD_MATRIX=full), run it again, and expect the state a run that was never
 * killed leaves (backups compared by what they hold), with no debris.
 */
async function killMatrix(base: string, args: string[]) {
  const reference = copyRepo(base);
  const full = await run(reference, [...args, '--json']);
  const { changes } = full.data<MemberChangeData>();
  // Every write of the one plan, the member's agent and backups included.
  const total = changes.created.length + changes.replaced.length + changes.moved.length + changes.backedUp.length + changes.removed.length;
  expect(total).toBeGreaterThan(1);
  for (const k of matrixWrites(total - 1, (last) => [1, Math.ceil(last / 2), last])) {
    const root = copyRepo(base);
    const killed = await runCli(args, { cwd: root, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(k) } });
    expect(killed.code, `k=${k}`).toBe(-1);
    const again = await runCli([...args, '--json'], { cwd: root });
    expect(again.code, `k=${k}: ${again.stderr}`).toBe(0);
    expect(state(root), `k=${k}`).toEqual(state(reference));
    expect(backups(root).sort(), `k=${k}`).toEqual(backups(reference).sort());
    expect(debrisLeft(root), `k=${k}`).toEqual([]);
    // Run once more: nothing to do.
    const before = hashTree(root);
    expect((await run(root, [...args, '--json'])).data<MemberChangeData>().done, `k=${k}`).toBe(true);
    expect(hashTree(root)).toBe(before);
  }
  return total;
}

describe('members', () => {
  it('lists name, role, status, own skills and folder; --json gives the same', async () => {
    const root = await squad();
    writeFiles(root, { [`${agentDir('fenster')}/skills/sql-style/SKILL.md`]: validSkill('sql-style') });
    const text = await run(root, ['members']);
    expect(text.stdout.split('\n').slice(0, 6)).toEqual([
      'NAME     ROLE            STATUS    SKILLS  MODEL          FOLDER',
      'Keaton   Lead            ✅ Active  0       session model  keaton',
      'Fenster  Core Dev        ✅ Active  1       session model  fenster',
      'Hockney  Tester          ✅ Active  0       session model  hockney',
      'McManus  DevOps          ✅ Active  0       session model  mcmanus',
      'Scribe   Session Logger  📋 Silent  0       session model  scribe',
    ]);
    const listed = await run(root, ['members', '--json']);
    expect(listed.envelope().ok).toBe(true);
    const data = listed.data<MembersData>();
    expect(data.members[1]).toEqual({
      name: 'Fenster',
      folder: 'fenster',
      role: 'Core Dev',
      state: 'active',
      status: '✅ Active',
      skills: 1,
      folderless: false,
      model: { models: [], effort: null, source: 'session' },
    });
    expect(data.members).toHaveLength(5);
  });

  it('shows retired members apart, and a folder with no roster row as unlisted', async () => {
    const root = await squad();
    await run(root, ['retire', 'hockney']);
    fs.mkdirSync(path.join(root, agentDir('stray')));
    const result = await run(root, ['members', '--json']);
    const data = result.data<MembersData>();
    expect(data.members.map((m) => `${m.name}:${m.state}`)).toEqual(['Keaton:active', 'Fenster:active', 'McManus:active', 'Scribe:active', 'stray:unlisted', 'Hockney:retired']);
    expect(data.members.at(-1)).toMatchObject({ role: 'Tester', status: expect.stringMatching(/^retired \d{4}-\d{2}-\d{2}$/) });
    const text = await run(root, ['members']);
    expect(text.stdout).toContain('Alumni (1; bring one back with: create-squad rehire <name>):');
    expect(text.stderr).toContain('⚠ .ai-team/agents/stray/ has no roster row');
  });

  it("gives an original Squad's alumnus (no Alumni line, no role recorded) the role its charter names, as rehire does", async () => {
    const root = await squad();
    writeFiles(root, { [`${alumniDir('parker')}/charter.md`]: '# Parker — Release Engineer\n\n> Ships on Fridays.\n' });
    const data = (await run(root, ['members', '--json'])).data<MembersData>();
    expect(data.members.find((m) => m.folder === 'parker')).toMatchObject({ name: 'parker', role: 'Release Engineer', state: 'retired' });
    expect((await run(root, ['rehire', 'parker', '--dry-run'])).stdout).toContain('as Release Engineer');
  });

  it('refuses without a squad, in one line', async () => {
    const result = await runCli(['members'], { cwd: tempRepo() });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^✗ no squad found/);
  });
});

describe('retire', () => {
  it('moves the folder whole to the alumni, takes the rows out (kept in a record), and keeps the name reserved', async () => {
    const root = await squad();
    writeFiles(root, { [`${agentDir('mcmanus')}/skills/deploys/SKILL.md`]: validSkill('deploys') });
    fs.appendFileSync(path.join(root, historyPath('mcmanus')), '\n- Deploys go through the staging slot first.\n');
    const folder = hashTree(path.join(root, agentDir('mcmanus')));
    const team = read(root, squadPaths.team);
    const routing = read(root, squadPaths.routing);
    const registry = read(root, squadPaths.castingRegistry);

    const result = await run(root, ['retire', 'McManus', '--json']);
    expect(result.envelope().ok).toBe(true);
    const data = result.data<MemberChangeData>();
    expect(data).toMatchObject({ member: { name: 'McManus', folder: 'mcmanus', role: 'DevOps' }, done: false, dryRun: false });
    // The member's Copilot agent retires with them, in the same plan, after team.md.
    expect(data.moved).toEqual([
      { from: agentDir('mcmanus'), to: alumniDir('mcmanus') },
      { from: '.github/agents/mcmanus.agent.md', to: `${alumniDir('mcmanus')}/mcmanus.agent.md` },
    ]);
    expect(data.agentProfiles).toEqual([{ action: 'retire', path: '.github/agents/mcmanus.agent.md', to: `${alumniDir('mcmanus')}/mcmanus.agent.md` }]);
    expect(data.created).toEqual([`${alumniDir('mcmanus')}/retirement.md`]);
    expect(data.modified).toEqual([squadPaths.routing, squadPaths.team]);
    expect(data.notes).toEqual([expect.stringMatching(/^no member handles now: CI\/CD, builds, deployment, infrastructure, environments — /)]);

    expect(fs.existsSync(path.join(root, agentDir('mcmanus')))).toBe(false);
    const moved = path.join(root, alumniDir('mcmanus'));
    fs.renameSync(path.join(moved, 'retirement.md'), path.join(root, 'record.md'));
    // The member's Copilot agent retires with them (create-squad rehire brings it back).
    fs.renameSync(path.join(moved, 'mcmanus.agent.md'), path.join(root, 'agent.md'));
    expect(hashTree(moved)).toBe(folder);
    fs.renameSync(path.join(root, 'record.md'), path.join(moved, 'retirement.md'));
    fs.renameSync(path.join(root, 'agent.md'), path.join(moved, 'mcmanus.agent.md'));

    const newTeam = read(root, squadPaths.team);
    const rosterRow = '| McManus | DevOps | `.ai-team/agents/mcmanus/charter.md` | ✅ Active |';
    expect(parseRoster(newTeam).map((m) => m.displayName)).toEqual(['Keaton', 'Fenster', 'Hockney', 'Scribe']);
    expect(newTeam).toMatch(/\n## Alumni\n\n- McManus — DevOps — retired \d{4}-\d{2}-\d{2}, files in \.ai-team\/agents\/_alumni\/mcmanus\/\n$/);
    expect(newTeam.replace(/\n## Alumni\n[\s\S]*$/, '')).toBe(team.replace(`${rosterRow}\n`, ''));
    const routingRow = routing.split('\n').find((line) => line.includes('| McManus |'))!;
    expect(read(root, squadPaths.routing)).toBe(routing.replace(`${routingRow}\n`, ''));
    const record = read(root, `${alumniDir('mcmanus')}/retirement.md`);
    expect(record).toContain(`${rosterRow}\n`);
    expect(record).toContain(`${routingRow}\n`);
    expect(read(root, squadPaths.castingRegistry)).toBe(registry);

    // Nobody routes to McManus any more, and the name is never cast again.
    expect((await runCli(['prompt', 'mcmanus', '--task', 'x'], { cwd: root })).code).toBe(1);
    const route = (await run(root, ['route', 'set up the CI pipeline and deployment', '--json'])).data<{ agent: string }>();
    expect(route.agent).not.toBe('mcmanus');
    const hired = (await run(root, ['hire', 'DevOps', '--json'])).data<{ member: { name: string } }>();
    expect(hired.member.name).not.toBe('McManus');
    expect((await runCli(['hire', 'DevOps', '--name', 'McManus'], { cwd: root })).code).toBe(1);
    // doctor is content with the result.
    const doctor = (await runCli(['doctor', '--json'], { cwd: root })).data<{ findings: { severity: string; code: string }[] }>();
    expect(doctor.findings.filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('writes nothing with --dry-run, and says what it would do', async () => {
    const root = await squad();
    const before = hashTree(root);
    const result = await run(root, ['retire', 'mcmanus', '--dry-run']);
    expect(result.stdout).toMatch(/^✓ Would retire McManus \(DevOps\)\n {2}would move {6}\.ai-team\/agents\/mcmanus → \.ai-team\/agents\/_alumni\/mcmanus\n/);
    expect(result.stdout).toContain('  would move      .github/agents/mcmanus.agent.md → .ai-team/agents/_alumni/mcmanus/mcmanus.agent.md\n');
    expect(result.stdout).toContain('Dry run: nothing was written.');
    expect((await run(root, ['retire', 'mcmanus', '--dry-run', '--json'])).data<MemberChangeData>()).toMatchObject({ dryRun: true, done: false });
    expect(hashTree(root)).toBe(before);
  });

  it('is done when run again, and refuses what it cannot retire, writing nothing', async () => {
    const root = await squad();
    await run(root, ['retire', 'mcmanus']);
    const before = hashTree(root);
    const again = await run(root, ['retire', 'McManus']);
    expect(again.stdout).toBe('✓ McManus is already retired (.ai-team/agents/_alumni/mcmanus/); nothing to do\n');
    const cases: [string[], number, RegExp][] = [
      [['retire', 'nobody'], 1, /^✗ no member named "nobody" in this squad — members: keaton, fenster, hockney/],
      [['retire', 'scribe'], 1, /^✗ Scribe is part of every squad and cannot be retired/],
      [['retire'], 2, /missing required argument 'member'/],
    ];
    for (const [args, code, message] of cases) {
      const result = await runCli(args, { cwd: root });
      expect(result.code, args.join(' ')).toBe(code);
      expect(result.stderr.trim(), args.join(' ')).toMatch(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    // Both folders there: refused until merged by hand.
    fs.mkdirSync(path.join(root, agentDir('keaton'), '..', '_alumni', 'keaton'), { recursive: true });
    const both = await runCli(['retire', 'keaton'], { cwd: root });
    expect(both.stderr.trim()).toMatch(/^✗ both \.ai-team\/agents\/keaton\/ and \.ai-team\/agents\/_alumni\/keaton\/ exist — /);
    fs.rmdirSync(path.join(root, alumniDir('keaton')));
    expect(hashTree(root)).toBe(before);
    expect((await runCli(['retire', 'x'], { cwd: tempRepo() })).stderr).toMatch(/^✗ no squad found/);
  });

  it('waits for or refuses a squad lock another command holds', async () => {
    const root = await squad();
    const lock = await acquireSquadLock(root, { command: 'hire' });
    try {
      const before = hashTree(root);
      const refused = await runCli(['retire', 'mcmanus'], { cwd: root });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/another create-squad is writing here/);
      expect(hashTree(root)).toBe(before);
    } finally {
      lock.release();
    }
  });

  it('ends in the retired state when run again after being killed after any write', async () => {
    const base = await squad();
    expect(await killMatrix(base, ['retire', 'mcmanus'])).toBe(5);
    // A squad without a casting registry: it is made first, with everyone, so the name stays taken.
    fs.rmSync(path.join(base, squadPaths.castingRegistry));
    expect(await killMatrix(base, ['retire', 'hockney'])).toBe(6);
  });
});

describe('rehire', () => {
  it('brings a member back exactly as they were, the record going to the backups', async () => {
    const root = await squad();
    const before = state(root);
    await run(root, ['retire', 'mcmanus']);
    const result = await run(root, ['rehire', 'McManus', '--json']);
    const data = result.data<MemberChangeData>();
    expect(data).toMatchObject({ member: { name: 'McManus', folder: 'mcmanus', role: 'DevOps' }, done: false, notes: [] });
    // team.md first, then the record to the backups, the agent back from the folder, and the folder.
    expect(data.moved.map((m) => ({ ...m, to: m.to.replace(/^\.ai-team\/backups\/[^/]+\//, '<backups>/') }))).toEqual([
      { from: `${alumniDir('mcmanus')}/retirement.md`, to: `<backups>/${agentDir('mcmanus')}/retirement.md` },
      { from: `${alumniDir('mcmanus')}/mcmanus.agent.md`, to: '.github/agents/mcmanus.agent.md' },
      { from: alumniDir('mcmanus'), to: agentDir('mcmanus') },
    ]);
    expect(state(root)).toEqual(before);
    expect(backups(root)).toEqual([`${agentDir('mcmanus')}/retirement.md`]);
    expect((await run(root, ['rehire', 'mcmanus'])).stdout).toBe('✓ McManus is on the roster already; nothing to do\n');
  });

  it('rebuilds the rows from the role when the record is gone, and says so', async () => {
    const root = await squad();
    await run(root, ['retire', 'hockney']);
    fs.rmSync(path.join(root, alumniDir('hockney'), 'retirement.md'));
    const data = (await run(root, ['rehire', 'hockney', '--json'])).data<MemberChangeData>();
    expect(data.notes).toEqual([
      expect.stringMatching(/^no retirement record in \.ai-team\/agents\/_alumni\/hockney\/: the roster and routing rows are made from the role Tester/),
    ]);
    expect(parseRoster(read(root, squadPaths.team)).map((m) => `${m.displayName}:${m.role}`)).toContain('Hockney:Tester');
    expect(read(root, squadPaths.routing)).toMatch(/\| Tests, quality checks, edge cases, reproducing bugs \| Hockney \| Tester \|/);
  });

  it('writes nothing with --dry-run, and refuses an unknown name in one line', async () => {
    const root = await squad();
    await run(root, ['retire', 'mcmanus']);
    const before = hashTree(root);
    expect((await run(root, ['rehire', 'mcmanus', '--dry-run'])).stdout).toMatch(/^✓ Would bring back McManus as DevOps\n/);
    const unknown = await runCli(['rehire', 'keaton2'], { cwd: root });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('✗ no retired member named "keaton2" in this squad — retired: McManus');
    expect(hashTree(root)).toBe(before);
  });

  it('ends in the rehired state when run again after being killed after any write', async () => {
    const base = await squad();
    await run(base, ['retire', 'mcmanus']);
    expect(await killMatrix(base, ['rehire', 'mcmanus'])).toBe(5);
  });
});

describe('role', () => {
  it('changes roster, routing, registry and an untouched charter, and appends a history line', async () => {
    const root = await squad();
    const result = await run(root, ['role', 'fenster', 'Frontend', 'Dev', '--json']);
    const data = result.data<RoleData>();
    expect(data).toMatchObject({ member: { name: 'Fenster', role: 'Frontend Dev' }, from: 'Core Dev', done: false, notes: [] });
    // Sorted, as every change list; the member's agent follows the role's tools.
    expect(data.modified).toEqual([
      charterPath('fenster'),
      historyPath('fenster'),
      squadPaths.castingRegistry,
      squadPaths.routing,
      squadPaths.team,
      '.github/agents/fenster.agent.md',
    ]);
    expect(data.agentProfiles).toEqual([{ action: 'refresh', path: '.github/agents/fenster.agent.md' }]);
    expect(parseRoster(read(root, squadPaths.team)).find((m) => m.name === 'fenster')!.role).toBe('Frontend Dev');
    expect(read(root, squadPaths.routing)).toContain('| User interface: components, styling, accessibility, client-side state | Fenster | Frontend Dev |');
    expect(read(root, charterPath('fenster'))).toContain('# Fenster — Frontend Dev\n');
    expect(read(root, charterPath('fenster'))).toContain('- Build the user interface: components, layout and styling');
    expect(read(root, historyPath('fenster'))).toMatch(/\n- Role changed from Core Dev to Frontend Dev on \d{4}-\d{2}-\d{2}\.\n$/);
    expect(JSON.parse(read(root, squadPaths.castingRegistry)).members.find((m: { folder: string }) => m.folder === 'fenster').role).toBe('Frontend Dev');
    expect(backups(root)).toEqual([]);
    const route = (await run(root, ['route', 'fix the styling of the login form components', '--json'])).data<{ agent: string }>();
    expect(route.agent).toBe('fenster');
  });

  it('keeps a tailored charter and a hand-written work type, backing up the charter first', async () => {
    const root = await squad();
    const charter = `${read(root, charterPath('hockney'))}\n- Owns the load tests in bench/.\n`;
    writeFiles(root, { [charterPath('hockney')]: charter });
    writeFiles(root, { [squadPaths.routing]: read(root, squadPaths.routing).replace('Tests, quality checks, edge cases, reproducing bugs', 'Load tests') });
    const data = (await run(root, ['role', 'hockney', 'qa lead', '--json'])).data<RoleData>();
    expect(data.backup).toMatch(/^\.ai-team\/backups\/[^/]+\/\.ai-team\/agents\/hockney\/charter\.md$/);
    expect(read(root, data.backup!)).toBe(charter);
    expect(data.notes).toEqual([expect.stringMatching(/^\.ai-team\/agents\/hockney\/charter\.md was tailored by hand: only its title and Role line changed/)]);
    const changed = read(root, charterPath('hockney'));
    expect(changed).toBe(charter.replace('# Hockney — Tester', '# Hockney — qa lead').replace('- **Role:** Tester', '- **Role:** qa lead'));
    expect(read(root, squadPaths.routing)).toContain('| Load tests | Hockney | qa lead |');
  });

  it('says when a typed role is recorded as a preset, and is done when the role is the same', async () => {
    const root = await squad();
    const data = (await run(root, ['role', 'mcmanus', 'ML', 'Engineer', '--json'])).data<RoleData>();
    expect(data.notes).toEqual(['"ML Engineer" is recorded as Data Engineer, a role create-squad knows (its routing row and charter wording come with it)']);
    const before = hashTree(root);
    const same = await run(root, ['role', 'mcmanus', 'data engineer']);
    expect(same.stdout).toBe('✓ McManus is Data Engineer already; nothing to do\n');
    expect(hashTree(root)).toBe(before);
  });

  it('writes nothing with --dry-run or bad input', async () => {
    const root = await squad();
    const before = hashTree(root);
    expect((await run(root, ['role', 'keaton', 'Architect', '--dry-run'])).stdout).toMatch(/^✓ Would make Keaton Lead \(was Lead\)|^✓ Keaton is Lead already/);
    expect((await run(root, ['role', 'keaton', 'Release', 'Manager', '--dry-run'])).stdout).toMatch(/^✓ Would make Keaton Release Manager \(was Lead\)\n/);
    const cases: [string[], number, RegExp][] = [
      [['role', 'nobody', 'Tester'], 1, /^✗ no member named "nobody" in this squad/],
      [['role', 'scribe', 'Tester'], 1, /^✗ Scribe's role is fixed/],
      [['role', 'keaton', 'Scribe'], 2, /^✗ Scribe is not a role to cast/],
      [['role', 'keaton'], 2, /missing required argument 'role'/],
    ];
    for (const [args, code, message] of cases) {
      const result = await runCli(args, { cwd: root });
      expect(result.code, args.join(' ')).toBe(code);
      expect(result.stderr.trim(), args.join(' ')).toMatch(message);
    }
    expect(hashTree(root)).toBe(before);
  });

  it('ends with the new role when run again after being killed after any write', async () => {
    const base = await squad();
    expect(await killMatrix(base, ['role', 'fenster', 'Backend Dev'])).toBe(6);
    writeFiles(base, { [charterPath('fenster')]: `${read(base, charterPath('fenster'))}\nTailored.\n` });
    expect(await killMatrix(base, ['role', 'fenster', 'Backend Dev'])).toBe(7);
  });
});
