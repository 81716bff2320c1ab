/**
 * Read once, then decide: doctor's check groups, the scaffold, hire and upgrade planners, and the
 * spawn prompt's decision and render run on the state their read step read, with the file system
 * switched off (each function of node:fs throws), and say exactly what the whole command says.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FINDING_CODES, isKnownFindingCode } from '../../src/core/doctor/catalog.js';
import { SQUAD_CHECKS, diagnose, runDoctor } from '../../src/core/doctor/doctor.js';
import { readDoctorState } from '../../src/core/doctor/read.js';
import { readSquadState } from '../../src/core/squad/state.js';
import { decideScaffold, planScaffold } from '../../src/core/scaffold/scaffold.js';
import { decideHire } from '../../src/core/team/hire.js';
import { planHire, readHireState } from '../../src/core/team/hire-state.js';
import { readScaffoldState, scaffoldStateFromFiles } from '../../src/core/scaffold/scaffold-state.js';
import { shippedOwnedFiles } from '../../src/core/squad/owned.js';
import { packageVersion } from '../../src/core/fs/version.js';
import { STATE_FILE_MAX_BYTES } from '../../src/core/fs/fs-safe.js';
import { decideUpgrade, planUpgrade, type UpgradePlan } from '../../src/core/scaffold/upgrade.js';
import { readUpgradeState } from '../../src/core/scaffold/upgrade-state.js';
import { buildSpawnPrompt, decideSpawn, renderSpawnPrompt, type SpawnPromptOptions } from '../../src/core/prompt/spawn-prompt.js';
import { readSpawnSelection, readSpawnState } from '../../src/core/prompt/spawn-read.js';
import { COORDINATOR_PATH } from '../../src/core/base/paths.js';
import { cleanupTempDirs, initSquad, runCli, skillMd, tempDir, tempRepo, validSkill, writeFiles } from '../helpers/cli.js';
import { editV001, fixtureRepo } from '../helpers/upgrade.js';
import { promptSquad } from '../helpers/prompt-squad.js';
import { writeOriginalSquad } from '../helpers/original-squad.js';
import { decideSquadDirMigration, planSquadDirMigration, readSquadDirState } from '../../src/core/squad/original/squad-dir.js';
import { decideOriginalSkillConversions, planOriginalSkillConversions, readOriginalSkillFiles } from '../../src/core/squad/original/skill-migration.js';

import { expectEqual } from '../helpers/fast-equal.js';
import { withoutFileSystem, withoutFileSystemAsync } from '../helpers/no-fs.js';

afterAll(cleanupTempDirs);

/** A squad with something for most check groups to say. */
async function troubledSquad(): Promise<string> {
  const root = await initSquad(['--yes', '--project', 'Pure doctor']);
  const [member] = fs.readdirSync(path.join(root, '.ai-team/agents')).filter((name) => !name.startsWith('_') && name !== 'scribe');
  fs.rmSync(path.join(root, `.ai-team/agents/${member}/history.md`));
  fs.rmSync(path.join(root, '.ai-team/routing.md'));
  writeFiles(root, {
    '.ai-team/agents/Bad Name/charter.md': '# a folder no command sees\n',
    '.github/skills/broken/SKILL.md': skillMd('name: Broken_Name\ndescription: x'),
    '.github/skills/needs-db/SKILL.md': validSkill('needs-db', 'Use when querying the database.', 'metadata:\n  mcp-servers:\n    - name: postgres\n'),
    '.ai-team/decisions/.tmp-123-abc': 'half written',
    '.ai-team/casting/registry.json': '{"members": [{"name": 3}]}',
  });
  fs.appendFileSync(path.join(root, '.github/agents/squad.agent.md'), '\nedited by hand\n');
  return root;
}

describe('doctor: read once, then pure checks', () => {
  it('every check group runs without the file system and agrees with runDoctor', async () => {
    const root = await troubledSquad();
    const options = { home: path.join(root, 'no-home'), env: {} };
    const whole = await runDoctor(root, options);
    const state = await readDoctorState(root, options);
    const pure = withoutFileSystem(() => diagnose(state));
    expectEqual(pure, whole);
    // The squad above gives most groups something to say: the test is not vacuous.
    const codes = new Set(pure.findings.map((f) => f.code));
    for (const code of ['history-missing', 'layout-missing', 'agent-folder-invalid-name', 'casting-member-invalid', 'skill-name-invalid-chars']) {
      if (!codes.has(code)) expect([...codes]).toContain(code);
    }
    expect(pure.findings.length).toBeGreaterThan(5);
    for (const check of SQUAD_CHECKS) withoutFileSystem(() => check(state));
    // The switch is real: the core's modules share this node:fs object.
    expect(() => withoutFileSystem(() => readSquadState(root))).toThrow(/touched the file system/);
  });

  it('without a squad, the verdict is the no-squad error, also without the file system', async () => {
    const root = tempRepo();
    const state = await readDoctorState(root);
    expect(() => withoutFileSystem(() => diagnose(state))).toThrow(expect.objectContaining({ code: 'no-squad' }));
  });

  it('reports only codes its catalog lists', async () => {
    const root = await troubledSquad();
    const report = await runDoctor(root, { home: path.join(root, 'no-home'), env: {} });
    for (const finding of report.findings) expect(isKnownFindingCode(finding.code), finding.code).toBe(true);
    expect(Object.keys(FINDING_CODES).length).toBeGreaterThan(40);
  });
});

describe('init: read once, then plan without the disk', () => {
  it('decideScaffold plans from what readScaffoldState read, with node:fs off, exactly as planScaffold does', async () => {
    const root = await troubledSquad();
    const now = new Date('2026-01-02T03:04:05Z');
    const version = packageVersion();
    const owned = await shippedOwnedFiles(version);
    const whole = await planScaffold(root, { now, version });
    const state = readScaffoldState(root, owned);
    // Templates compile once per process: the first plan warmed them, as the command's own run would.
    const pure = await withoutFileSystemAsync(() => decideScaffold(state, { now, version }, owned));
    expectEqual(pure, whole);
    expect(pure.files.map((f) => f.path)).toContain('.ai-team/routing.md'); // removed above: planned again
  });

  it('plans a squad given only as files, as import does, without writing anywhere', async () => {
    const version = packageVersion();
    const owned = await shippedOwnedFiles(version);
    await planScaffold(tempRepo(), { version }); // warm the templates
    const state = scaffoldStateFromFiles('/nowhere', [
      {
        path: '.ai-team/team.md',
        data: '# Team\n\n## Members\n\n| Name | Role | Charter | Status |\n|---|---|---|---|\n| Ada | Lead | `.ai-team/agents/ada/charter.md` | ✅ Active |\n',
      },
      { path: '.ai-team/agents/ada/charter.md', data: '# Ada\n' },
    ]);
    const plan = await withoutFileSystemAsync(() => decideScaffold(state, { team: false, version }, owned));
    const paths = plan.files.map((f) => f.path);
    expect(paths).toContain('.ai-team/agents/ada/history.md');
    expect(paths).not.toContain('.ai-team/agents/ada/charter.md');
    expect(plan.skipped).toContain('.ai-team/team.md');
  });
});

describe('hire: read once, then plan without the disk', () => {
  it('decideHire plans from what readHireState read, with node:fs off, exactly as planHire does', async () => {
    const root = await initSquad(['--yes']);
    const now = new Date('2026-01-02T03:04:05Z');
    const whole = await planHire(root, { role: 'Tester', now });
    const state = readHireState(root);
    const pure = await withoutFileSystemAsync(() => decideHire(state, { role: 'Tester', now }));
    expectEqual(pure, whole);
    expect(pure.changes.some((c) => c.kind === 'create' && c.path.endsWith('/charter.md'))).toBe(true);
  });
});

describe('upgrade: read once, then plan without the disk', () => {
  const now = new Date('2026-01-02T03:04:05Z');

  /** A copy of the squad `init --yes` makes (run once per file). */
  function freshSquad(): Promise<string> {
    return initSquad(['--yes']);
  }

  /** A fresh squad whose coordinator was edited and one template copy deleted: a backup, a replacement, a creation. */
  async function touchedFreshSquad(): Promise<string> {
    const root = await freshSquad();
    fs.appendFileSync(path.join(root, COORDINATOR_PATH), '\nedited by hand\n');
    fs.rmSync(path.join(root, '.ai-team-templates/charter.md'));
    return root;
  }

  /** A squad as 0.0.1 left it, edited by its team: migrations, moved built-ins, backups. */
  function oldSquad(): string {
    const root = fixtureRepo('v0.0.1');
    editV001(root);
    return root;
  }

  const squads: [string, () => Promise<string> | string, (plan: UpgradePlan) => void][] = [
    ['a fresh squad', freshSquad, (plan) => expect(plan.upToDate).toBe(true)],
    [
      'a fresh squad, touched',
      touchedFreshSquad,
      (plan) => {
        expect(plan.backedUp.map((b) => b.path)).toEqual([COORDINATOR_PATH]);
        expect(plan.created).toContain('.ai-team-templates/charter.md');
      },
    ],
    [
      'a 0.0.1 squad',
      oldSquad,
      (plan) => {
        expect(plan.migrations.map((m) => m.id)).toContain('builtin-skills-native');
        expect(plan.backedUp.length).toBeGreaterThan(2);
        expect(plan.skipped.length).toBeGreaterThan(0);
      },
    ],
    [
      "the original Squad's .ai-team squad",
      () => fixtureRepo('original-squad'),
      (plan) => {
        expect(plan.adopting).toBe(true);
        expect(plan.agentProfiles.length).toBeGreaterThan(0);
      },
    ],
  ];

  it.each(squads)('decideUpgrade plans %s from what readUpgradeState read, with node:fs off, exactly as planUpgrade and the command do', async (_name, make, check) => {
    const root = await make();
    const whole = await planUpgrade(root, { now });
    const state = await readUpgradeState(root, { now });
    const pure = await withoutFileSystemAsync(() => decideUpgrade(state, { now }));
    expectEqual(pure, whole);
    check(pure);
    // The command reports the same plan (its backups are named by its own clock: compared by path).
    const data = (await runCli(['upgrade', '--dry-run', '--json'], { cwd: root })).data() as Record<string, unknown>;
    expect(data).toMatchObject({
      from: pure.from,
      to: pure.to,
      upToDate: pure.upToDate,
      created: pure.created,
      replaced: pure.replaced,
      skipped: pure.skipped,
      notUpgraded: pure.notUpgraded,
      migrations: pure.migrations,
      notes: pure.notes,
      learnedSkillsUntouched: pure.learnedSkills,
    });
    expect((data.backedUp as { path: string }[]).map((b) => b.path)).toEqual(pure.backedUp.map((b) => b.path));
  });

  it('what a read threw is met where the planner meets it: a newer squad is refused first, even with a .gitattributes too large to read', async () => {
    const root = await freshSquad();
    const manifestPath = path.join(root, '.ai-team/.squad-manifest.json');
    const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as { version: string };
    fs.writeFileSync(manifestPath, JSON.stringify({ ...manifest, version: '99.0.0' }));
    fs.writeFileSync(path.join(root, '.gitattributes'), Buffer.alloc(STATE_FILE_MAX_BYTES + 1, 'a'));
    const state = await readUpgradeState(root, { now });
    await expect(withoutFileSystemAsync(() => decideUpgrade(state, { now }))).rejects.toMatchObject({ code: 'conflict' });
    // An older squad gets as far as the migration that reads it, and meets the error there.
    fs.writeFileSync(manifestPath, JSON.stringify({ ...manifest, version: '0.0.1' }));
    await expect(planUpgrade(root, { now })).rejects.toMatchObject({ code: 'invalid-input', message: expect.stringContaining('.gitattributes') });
  });

  it('a question the read step did not ask is an error, never a read', async () => {
    const root = oldSquad();
    const state = await readUpgradeState(root, { now });
    // Another clock names other backup paths, which were never read.
    await expect(withoutFileSystemAsync(() => decideUpgrade(state, { now: new Date('2030-01-01T00:00:00Z') }))).rejects.toThrow(/the read step did not read/);
  });
});

describe("upgrade of the original Squad's layouts: read once, then plan without the disk", () => {
  const now = new Date('2026-01-02T03:04:05Z');

  it('the move out of .squad/ and the skill conversions plan from what was read, with node:fs off, exactly as their planners and the command do', async () => {
    const root = tempRepo();
    writeOriginalSquad(root, { dir: '.squad' });
    writeFiles(root, { '.squad/agents/Dallas/charter.md': '# Dallas\n', '.github/workflows/squad.yml': 'on: push\njobs: { x: { steps: [{ run: cat .squad/team.md }] } }\n' });
    const state = readSquadDirState(root);
    const move = withoutFileSystem(() => decideSquadDirMigration(state, now));
    expectEqual(move, planSquadDirMigration(root, now));
    expect(move.move).toEqual({ from: '.squad', to: '.ai-team' });
    expect(move.renames).toEqual([{ from: '.ai-team/agents/Dallas', to: '.ai-team/agents/dallas' }]);
    expect(move.notes.some((note) => note.includes('.github/workflows/squad.yml'))).toBe(true);

    const files = readOriginalSkillFiles(root, '.squad');
    const conversions = withoutFileSystem(() => decideOriginalSkillConversions(files, { dir: '.squad', now }));
    expectEqual(conversions, planOriginalSkillConversions(root, { dir: '.squad', now }));
    expect(conversions.map((c) => c.path)).toEqual(['.ai-team/skills/dock-sync/SKILL.md', '.ai-team/skills/flaky-ride-tests/SKILL.md', '.ai-team/skills/map-tiles/SKILL.md']);

    // The command's dry run says the same (its backups are named by its own clock: left out).
    const data = (await runCli(['upgrade', '--dry-run', '--json'], { cwd: root })).data() as {
      squadDir: { moved: unknown; renamed: unknown; notes: unknown };
      originalSkills: { path: string; changes: string[] }[];
    };
    expect(data.squadDir).toMatchObject({ moved: move.move, renamed: move.renames, notes: move.notes });
    expect(data.originalSkills.map(({ path, changes }) => ({ path, changes }))).toEqual(conversions.map(({ path, changes }) => ({ path, changes })));
  });

  it('two squads are refused by the decision, after a read that stopped there', () => {
    const root = tempRepo();
    writeOriginalSquad(root, { dir: '.squad' });
    writeOriginalSquad(root, { dir: '.ai-team' });
    const state = readSquadDirState(root);
    expect(state.agentFolders).toEqual([]);
    expect(() => withoutFileSystem(() => decideSquadDirMigration(state, now))).toThrow(/two squads/);
  });
});

describe('prompt: read, decide, read what was decided, render', () => {
  /** The spawn prompt built in its steps, the decision and the render with node:fs off. */
  async function stepByStep(options: SpawnPromptOptions) {
    const state = readSpawnState(options.root, options.agent);
    const decision = withoutFileSystem(() => decideSpawn(state, options));
    const selection = await readSpawnSelection(options.root, decision, options);
    const prompt = await withoutFileSystemAsync(() => renderSpawnPrompt(state, decision, selection));
    return { decision, selection, prompt };
  }

  /** A value as --json prints it (fields that are undefined left out). */
  const asJson = (value: object): object => JSON.parse(JSON.stringify(value)) as object;

  /** What `prompt --json` says for the same spawn. */
  /** The command's data, with the envelope's warnings beside it (where the spawn prompt keeps them). */
  async function commandData(root: string, args: string[]): Promise<Record<string, unknown>> {
    const result = await runCli(['prompt', ...args, '--json'], { cwd: root });
    expect(result.code).toBe(0);
    return { ...result.data(), warnings: result.warnings() };
  }

  it('standard: listed from frontmatter within the budget, no body read, as buildSpawnPrompt and the command say', async () => {
    const root = promptSquad();
    const options: SpawnPromptOptions = { root, agent: 'fenster', task: 'Add an index to the orders table', skillsBudget: 120, home: tempDir() };
    const whole = await buildSpawnPrompt(options);
    const { decision, selection, prompt } = await stepByStep(options);
    expectEqual(prompt, whole);
    expect(decision.mode).toBe('standard');
    expect(decision.inline).toEqual([]);
    expect(selection.inlined).toEqual([]);
    expect(prompt.skillsLeftOut.length).toBeGreaterThan(0); // the budget decided something
    expect(prompt.warnings.some((w) => w.code === 'skills-left-out' && w.message.includes('skills budget'))).toBe(true);
    const data = await commandData(root, ['fenster', '--task', options.task, '--skills-budget', '120']);
    expect(data).toMatchObject(asJson({ mode: prompt.mode, prompt: prompt.prompt, skills: prompt.skills, skillsLeftOut: prompt.skillsLeftOut, warnings: prompt.warnings }));
  });

  it('lightweight: reads the bodies of the skills it decided to inline, and only those', async () => {
    const root = promptSquad();
    const options: SpawnPromptOptions = { root, agent: 'fenster', task: 'Add an index to orders.', mode: 'lightweight', skills: ['database-schema', 'nope'], home: tempDir() };
    const whole = await buildSpawnPrompt(options);
    const { decision, selection, prompt } = await stepByStep(options);
    expectEqual(prompt, whole);
    expect(prompt.mode).toBe('lightweight');
    expect(decision.inline.map((s) => s.name)).toEqual(['database-schema']);
    expect(selection.inlined.map((i) => [i.skill.name, i.body !== undefined])).toEqual([['database-schema', true]]);
    expect(decision.needsMcpConfig).toBe(true);
    expect(prompt.mcp.length).toBeGreaterThan(0);
    expect(prompt.prompt).toContain('Always write reversible migrations.');
    const data = await commandData(root, ['fenster', '--task', options.task, '--mode', 'lightweight', '--skill', 'database-schema', '--skill', 'nope']);
    expect(data).toMatchObject(
      asJson({ mode: prompt.mode, prompt: prompt.prompt, skills: prompt.skills, candidates: prompt.candidates, mcp: prompt.mcp, warnings: prompt.warnings }),
    );
  });

  it('a refused lightweight spawn decides a standard one, with no body to read', async () => {
    const root = promptSquad();
    const options: SpawnPromptOptions = { root, agent: 'fenster', task: 'Decide the architecture of the whole system with Keaton', mode: 'lightweight', home: tempDir() };
    const whole = await buildSpawnPrompt(options);
    const { decision, prompt } = await stepByStep(options);
    expectEqual(prompt, whole);
    expect(decision.mode).toBe('standard');
    expect(decision.inline).toEqual([]);
    expect(prompt.warnings.some((w) => w.code === 'lightweight-refused' && w.message.startsWith('lightweight mode refused'))).toBe(true);
  });
});
