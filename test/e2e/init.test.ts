import fs from 'node:fs';
import path from 'node:path';
import { LOCK_FILE } from '../../src/core/fs/lock.js';
import { afterAll, describe, expect, it } from 'vitest';
import { COPILOT_PROMPT_LIMIT, coordinatorBodyLength, readCoordinatorStamp } from '../../src/core/squad/coordinator.js';
import { parseFrontmatterYaml, splitFrontmatter } from '../../src/core/skills/frontmatter.js';
import { parseManifest } from '../../src/core/squad/manifest.js';
import { shippedOwnedFiles } from '../../src/core/squad/owned.js';
import { COORDINATOR_PATH, SKILL_FILE, charterPath, historyPath, squadPaths } from '../../src/core/base/paths.js';
import { parseRoster } from '../../src/core/roster/roster.js';
import { parseSkill } from '../../src/core/skills/skill.js';
import { validateSkill } from '../../src/core/skills/validate.js';
import { packageVersion } from '../../src/core/fs/version.js';
import type { InitData } from '../../src/commands/init.js';
import { type CliResult, cleanupTempDirs, filesWithoutTimes, hashTree, listFiles, runCli, tempDir, tempRepo, writeFiles } from '../helpers/cli.js';
import { debrisLeft } from '../helpers/debris.js';
import { teamStateLayout } from '../helpers/layout.js';

afterAll(cleanupTempDirs);

type InitJson = InitData;

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

/** A run of `init` in a fresh repository: the repository and the run's outcome. */
interface InitRun {
  root: string;
  result: CliResult;
}

const runs = new Map<string, Promise<InitRun>>();

/**
 * `init ...args` in a fresh repository, run once per file: the tests that only read what it made
 * share it, and those that go on from it take a copy (`initCopy`). Never to be changed in place.
 */
function initOnce(args: string[]): Promise<InitRun> {
  const key = JSON.stringify(args);
  let run = runs.get(key);
  if (run === undefined) {
    const root = tempRepo();
    run = runCli(['init', ...args], { cwd: root }).then((result) => ({ root, result }));
    runs.set(key, run);
  }
  return run;
}

/** A fresh repository holding a copy of what a successful `init --yes` made (git folder included). */
async function initCopy(): Promise<string> {
  const { root, result } = await initOnce(['--yes']);
  expect(result.code, result.stderr).toBe(0);
  const copy = tempDir('squad-repo-');
  fs.cpSync(root, copy, { recursive: true, verbatimSymlinks: true });
  return copy;
}

describe('init --yes', () => {
  it('creates the full state layout', async () => {
    const { root, result } = await initOnce(['--yes']);
    expect(result.code, result.stderr).toBe(0);
    const files = listFiles(root);
    const owned = (await shippedOwnedFiles()).map((f) => f.path);
    const expected = [...teamStateLayout(['keaton', 'fenster', 'hockney']), ...owned].sort();
    expect(files).toEqual(expected);
    expect(owned).toContain(COORDINATOR_PATH);
    expect(owned.filter((f) => f.startsWith('.ai-team-templates/'))).toHaveLength(10);
    expect(owned.some((f) => f.startsWith(`${squadPaths.aiTeamSkills}/squad-`))).toBe(true);

    expect(parseRoster(read(root, squadPaths.team)).map((m) => `${m.displayName}|${m.role}|${m.charter}`)).toEqual([
      `Keaton|Lead|${charterPath('keaton')}`,
      `Fenster|Core Dev|${charterPath('fenster')}`,
      `Hockney|Tester|${charterPath('hockney')}`,
      `Scribe|Session Logger|${charterPath('scribe')}`,
    ]);
    expect(read(root, squadPaths.team)).toContain('The Usual Suspects');
    for (const pattern of ['.ai-team/decisions.md', '.ai-team/agents/*/history.md', '.ai-team/log/**', '.ai-team/orchestration-log/**']) {
      expect(read(root, squadPaths.gitattributes)).toContain(`${pattern} merge=union\n`);
    }
    for (const file of owned) expect(fs.readFileSync(path.join(root, file)).length, file).toBeGreaterThan(0);
    expect(read(root, '.ai-team-templates/team.md')).toBe(read(path.resolve('templates'), 'squad/team.md.hbs'));

    expect(result.stdout).toContain('Created');
    expect(result.stdout).toMatch(/Next steps:[\s\S]*Copilot[\s\S]*"Squad" agent[\s\S]*Keaton/);
  });

  it('installs only valid skills, and a coordinator with valid frontmatter within the size limit', async () => {
    const { root, result } = await initOnce(['--yes']);
    expect(result.code).toBe(0);
    const skillFiles = listFiles(root).filter((f) => f.endsWith(`/${SKILL_FILE}`));
    expect(skillFiles.length).toBeGreaterThan(0);
    for (const file of skillFiles) {
      const parsed = parseSkill(read(root, file), file);
      const validation = validateSkill({ ...parsed, dirName: path.basename(path.dirname(file)) });
      expect(validation.errors, file).toEqual([]);
      expect(parsed.frontmatter.metadata, file).toMatchObject({ author: 'squad' });
    }

    const coordinator = read(root, COORDINATOR_PATH);
    const split = splitFrontmatter(coordinator, COORDINATOR_PATH);
    const frontmatter = parseFrontmatterYaml(split.yaml, COORDINATOR_PATH);
    expect(typeof frontmatter.name).toBe('string');
    expect(typeof frontmatter.description).toBe('string');
    expect((frontmatter.description as string).length).toBeGreaterThan(0);
    expect(Array.isArray(frontmatter.tools) || typeof frontmatter.tools === 'string').toBe(true);
    expect(readCoordinatorStamp(coordinator)).toBe(packageVersion());
    // Copilot rejects a custom agent whose prompt body is longer: fail the build before that happens.
    expect(coordinatorBodyLength(coordinator)).toBeLessThanOrEqual(COPILOT_PROMPT_LIMIT);
  });

  it('records version and sha256 of every squad-owned file in the manifest', async () => {
    const { root, result } = await initOnce(['--yes']);
    expect(result.code).toBe(0);
    const manifest = parseManifest(read(root, squadPaths.manifest));
    expect(manifest.state).toBe('ok');
    if (manifest.state !== 'ok') return;
    expect(manifest.manifest.version).toBe(packageVersion());
    const owned = await shippedOwnedFiles();
    expect(Object.keys(manifest.manifest.files).sort()).toEqual(owned.map((f) => f.path).sort());
    const { createHash } = await import('node:crypto');
    for (const [file, hash] of Object.entries(manifest.manifest.files)) {
      expect(
        createHash('sha256')
          .update(fs.readFileSync(path.join(root, file)))
          .digest('hex'),
        file,
      ).toBe(hash);
    }
  });

  it('puts the flags into the roster, charters and histories', async () => {
    const root = tempRepo();
    const result = await runCli(
      ['init', '--yes', '--roles', 'lead, frontend,Release Manager', '--universe', 'the matrix', '--project', 'A dashboard', '--stack', 'React + Node', '--owner', 'Brady'],
      { cwd: root },
    );
    expect(result.code, result.stderr).toBe(0);
    const team = read(root, squadPaths.team);
    expect(parseRoster(team).map((m) => `${m.displayName}:${m.role}`)).toEqual(['Neo:Lead', 'Trinity:Frontend Dev', 'Morpheus:Release Manager', 'Scribe:Session Logger']);
    expect(team).toContain('- **Project:** A dashboard');
    expect(team).toContain('- **Casting universe:** The Matrix');
    expect(read(root, historyPath('trinity'))).toContain('- **Owner:** Brady');
    expect(read(root, charterPath('morpheus'))).toContain('# Morpheus — Release Manager');
    expect(read(root, squadPaths.routing)).toMatch(/\| Release Manager work \| Morpheus \| Release Manager \|/);
  });

  it('prints one JSON document with --json', async () => {
    const root = tempRepo();
    const result = await runCli(['init', '--json', '--no-team'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.envelope()).toMatchObject({ schemaVersion: 1, ok: true, warnings: [] });
    const data = result.data<InitJson>();
    expect(data).toMatchObject({ dir: root, universe: 'The Usual Suspects', dryRun: false });
    expect(data.members).toEqual([{ name: 'Scribe', role: 'Session Logger', folder: 'scribe' }]);
    expect(data.created).toEqual(listFiles(root));
    expect(data.skipped).toEqual([]);
  });

  it('is the default command: no "init" needed', async () => {
    const root = tempRepo();
    const result = await runCli(['--yes', '--json'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.data<InitJson>().members.map((m) => m.name)).toEqual(['Keaton', 'Fenster', 'Hockney', 'Scribe']);
    // A plain word is a new folder outside any repository (npx create-squad my-app).
    const projects = tempDir('squad-projects-');
    const named = await runCli(['my-app', '--yes', '--json'], { cwd: projects });
    expect(named.code, named.stderr).toBe(0);
    expect(fs.existsSync(path.join(projects, 'my-app', squadPaths.team))).toBe(true);
  });

  it("init <dir> outside any repository says nothing of a repository root (the README's first command)", async () => {
    const projects = tempDir('squad-projects-');
    const text = await runCli(['init', '--yes', 'my-squad'], { cwd: projects });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout + text.stderr).not.toContain('repository root');
    expect(text.stdout + text.stderr).not.toContain('run init --here');
    const absolute = await runCli(['init', '--yes', '--json', path.join(projects, 'other')], { cwd: projects });
    expect(absolute.data<{ dir: string; notes: string[] }>()).toMatchObject({ dir: path.join(projects, 'other'), notes: [] });
  });

  it("run below a squad outside any repository, names the squad's folder, not a repository root", async () => {
    const loose = tempDir('squad-loose-');
    expect((await runCli(['init', '--yes'], { cwd: loose })).code).toBe(0);
    const below = path.join(loose, 'docs');
    fs.mkdirSync(below);
    const again = await runCli(['init', '--yes', '--json'], { cwd: below });
    expect(again.data<{ dir: string; notes: string[] }>()).toMatchObject({
      dir: loose,
      notes: [`set up the squad at the folder of the enclosing squad ${loose}, where Copilot looks for .github/agents/; to make a separate squad in ${below}, run init --here`],
    });
  });
});

describe('init run twice', () => {
  it('changes nothing the second time and says so', async () => {
    const root = await initCopy();
    const before = hashTree(root);
    const second = await runCli(['init', '--yes'], { cwd: root });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('Nothing to do: the squad is already complete');
    expect(hashTree(root)).toBe(before);
    const json = (await runCli(['init', '--json'], { cwd: root })).data<InitJson>();
    expect(json.created).toEqual([]);
    expect(json.skipped).toEqual(listFiles(root));
    expect(hashTree(root)).toBe(before);
  });

  it('never touches user edits, and recreates only what is missing, with the same names', async () => {
    const root = await initCopy();
    const edited = {
      [squadPaths.team]: `${read(root, squadPaths.team)}\nOur own note.\n`,
      [charterPath('keaton')]: '# Keaton\n\nMy own charter.\n',
      [COORDINATOR_PATH]: '---\nname: Squad\ndescription: mine\n---\nmine\n',
      [squadPaths.gitattributes]: '*.png binary\n',
    };
    writeFiles(root, edited);
    fs.rmSync(path.join(root, historyPath('fenster')));
    fs.rmSync(path.join(root, squadPaths.ceremonies));
    const result = await runCli(['init', '--yes', '--json', '--roles', 'Designer', '--universe', 'Firefly'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    const data = result.data<InitJson>();
    expect(data.created.sort()).toEqual([historyPath('fenster'), squadPaths.ceremonies, squadPaths.gitattributes].sort());
    expect(data.members.map((m) => m.name)).toEqual(['Keaton', 'Fenster', 'Hockney', 'Scribe']);
    expect(data.notes.join('\n')).toMatch(/--roles was not applied/);
    expect(data.notes.join('\n')).toMatch(/--universe "Firefly" was not applied/);
    for (const [file, text] of Object.entries(edited)) {
      if (file === squadPaths.gitattributes) expect(read(root, file).startsWith(text)).toBe(true);
      else expect(read(root, file)).toBe(text);
    }
    expect(read(root, historyPath('fenster'))).toContain('# Fenster — History');
  });

  it('keeps the names when team.md is lost but the registry remains', async () => {
    const root = tempRepo();
    expect((await runCli(['init', '--yes', '--universe', 'Alien'], { cwd: root })).code).toBe(0);
    const team = read(root, squadPaths.team);
    fs.rmSync(path.join(root, squadPaths.team));
    expect((await runCli(['init', '--yes', '--roles', 'Tester'], { cwd: root })).code).toBe(0);
    expect(read(root, squadPaths.team)).toBe(team);
  });
});

describe('init --dry-run', () => {
  it('writes nothing, not even the target folder', async () => {
    const root = tempRepo();
    const before = hashTree(root);
    const result = await runCli(['init', '--yes', '--dry-run'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Would create');
    expect(result.stdout).toContain('Dry run: nothing was written.');
    expect(hashTree(root)).toBe(before);
    const json = await runCli(['init', 'sub/dir', '--dry-run', '--json'], { cwd: root });
    expect(json.code).toBe(0);
    expect(json.data<InitJson>()).toMatchObject({ dryRun: true, dir: path.join(root, 'sub', 'dir') });
    expect(json.data<InitJson>().created.length).toBeGreaterThan(20);
    expect(fs.existsSync(path.join(root, 'sub'))).toBe(false);
  });
});

describe('init reports from its plan', () => {
  it('lists in a dry run exactly the changes the real run makes, and its commit hint names exactly those paths', async () => {
    const dry = await runCli(['init', '--yes', '--dry-run', '--json'], { cwd: tempRepo() });
    const { root, result: real } = await initOnce(['--yes', '--json']);
    const planned = dry.data<InitJson>();
    const made = real.data<InitJson>();
    expect(planned.changes).toEqual(made.changes);
    expect(planned.commit).toEqual(made.commit);
    expect(made.changes.created).toEqual(listFiles(root));
    expect(made.created).toEqual(made.changes.created);

    const text = await runCli(['init', '--yes'], { cwd: tempRepo() });
    expect(text.stdout).toContain(`  1. Commit the squad: git add -A -- ${made.commit.join(' ')} && git commit -m "chore(squad): set up the squad"\n`);
  });

  it('a run that changes nothing says so, lists no change and gives no commit hint', async () => {
    const root = await initCopy();
    const text = await runCli(['init', '--yes'], { cwd: root });
    expect(text.stdout).toMatch(/^✓ Nothing to do: the squad is already complete/);
    expect(text.stdout).not.toContain('git add');
    const json = (await runCli(['init', '--json'], { cwd: root })).data<InitJson>();
    expect(json.changes).toEqual({ created: [], replaced: [], moved: [], backedUp: [], removed: [] });
    expect(json.commit).toEqual([]);
  });
});

describe('init --no-team', () => {
  it('creates the infrastructure and Scribe, and no cast member', async () => {
    const root = tempRepo();
    const result = await runCli(['init', '--no-team'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(fs.readdirSync(path.join(root, squadPaths.agents))).toEqual(['scribe']);
    expect(parseRoster(read(root, squadPaths.team)).map((m) => m.name)).toEqual(['scribe']);
    expect(JSON.parse(read(root, squadPaths.castingRegistry)).members).toEqual([]);
    expect(fs.existsSync(path.join(root, COORDINATOR_PATH))).toBe(true);
    expect(result.stdout).toContain('hire <role>');
    expect((await runCli(['init', '--no-team', '--roles', 'Lead'], { cwd: root })).code).toBe(2);
  });
});

describe('casting overflow', () => {
  it('falls back to the next universe when the team outgrows the chosen one, and records it', async () => {
    const root = tempRepo();
    const roles = Array.from({ length: 18 }, (_, i) => `Role ${i + 1}`).join(',');
    const result = await runCli(['init', '--yes', '--json', '--roles', roles], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    const members = result.data<InitJson>().members;
    expect(members).toHaveLength(19);
    expect(new Set(members.map((m) => m.folder)).size).toBe(19);
    const registry = JSON.parse(read(root, squadPaths.castingRegistry)).members as { universe: string }[];
    expect(registry.filter((m) => m.universe === 'The Usual Suspects')).toHaveLength(15);
    expect(registry.slice(15).every((m) => m.universe === "Ocean's Eleven")).toBe(true);
    const events = JSON.parse(read(root, squadPaths.castingHistory)).events as { event: string; note?: string }[];
    expect(events.filter((e) => e.event === 'overflow')).toHaveLength(3);
    expect(events[15]!.note).toContain('capacity 15');
    const policy = JSON.parse(read(root, squadPaths.castingPolicy));
    expect(policy.capacities['The Usual Suspects']).toBe(15);
  });
});

describe('init with bad input', () => {
  it('refuses a target whose parent is a file', async () => {
    const root = tempDir();
    writeFiles(root, { 'plain-file': 'x' });
    const before = hashTree(root);
    const result = await runCli(['init', 'plain-file/squad', '--yes'], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(/^✗ cannot create .*plain-file\/squad: .*plain-file is a file, not a folder — /);
    expect(hashTree(root)).toBe(before);
  });

  it('refuses a target that is a file', async () => {
    const root = tempDir();
    writeFiles(root, { 'plain-file': 'x' });
    const result = await runCli(['init', 'plain-file', '--yes', '--json'], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.envelope()).toMatchObject({ ok: false, error: { code: 'invalid-input', message: expect.stringContaining('is a file, not a folder') } });
    expect(read(root, 'plain-file')).toBe('x');
  });

  it.skipIf(!fs.existsSync('/proc/self'))('refuses a target where nothing can be written (/proc)', async () => {
    const root = tempDir();
    const result = await runCli(['init', '/proc/create-squad-test', '--yes'], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(/^✗ cannot write to \/proc\b.* — /);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(fs.existsSync('/proc/create-squad-test')).toBe(false);
  });

  it('rejects a name no universe can have and an empty role list as usage errors, writing nothing', async () => {
    const root = tempRepo();
    const before = hashTree(root);
    const universe = await runCli(['init', '--yes', '--universe', '***'], { cwd: root });
    expect(universe.code).toBe(2);
    expect(universe.stderr).toMatch(/^✗ "\*\*\*" cannot name a casting universe — give a universe create-squad ships \("The Usual Suspects", /);
    for (const roles of ['', ' , ,']) {
      const empty = await runCli(['init', '--yes', '--roles', roles], { cwd: root });
      expect(empty.code).toBe(2);
      expect(empty.stderr).toMatch(/^✗ no roles given — .*--no-team/);
    }
    const scribe = await runCli(['init', '--yes', '--roles', 'Lead,Scribe'], { cwd: root });
    expect(scribe.code).toBe(2);
    expect(hashTree(root)).toBe(before);
  });

  it('treats a mistyped command as a typo, not as a folder to create', async () => {
    const root = tempRepo();
    const typo = await runCli(['uprade'], { cwd: root });
    expect(typo.code).toBe(2);
    expect(typo.stderr.trim()).toMatch(/^✗ unknown command 'uprade' \(did you mean upgrade\?\) — /);
    expect(fs.readdirSync(root)).toEqual(['.git']);
    expect((await runCli(['help'], { cwd: root })).stdout).toContain('Usage: create-squad');
    expect(fs.readdirSync(root)).toEqual(['.git']);
    // A folder written as a path is a target, and "init" given explicitly always is.
    fs.mkdirSync(path.join(root, 'uprade'));
    expect((await runCli(['./uprade', '--yes'], { cwd: root })).code).toBe(0);
    expect((await runCli(['init', 'hier', '--yes'], { cwd: root })).code).toBe(0);
    expect(fs.existsSync(path.join(root, 'hier', squadPaths.team))).toBe(true);
  });
});

describe('init interrupted', () => {
  it('ends in the complete state when run again after being killed after any write', async () => {
    const { root: reference, result: full } = await initOnce(['--yes', '--json']);
    const total = full.data<InitJson>().created.length;
    const expected = filesWithoutTimes(reference);
    for (const k of [1, 2, 3, 4, 8, Math.floor(total / 2), total - 2, total - 1]) {
      const root = tempRepo();
      const killed = await runCli(['init', '--yes'], { cwd: root, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(k) } });
      expect(killed.code, `k=${k}`).not.toBe(0);
      // What it wrote, and the lock of the killed run (the rerun takes it over).
      expect(
        listFiles(root).filter((rel) => rel !== LOCK_FILE),
        `k=${k}`,
      ).toHaveLength(k);
      expect(fs.existsSync(path.join(root, LOCK_FILE)), `k=${k}`).toBe(true);
      const again = await runCli(['init', '--yes'], { cwd: root });
      expect(again.code, again.stderr).toBe(0);
      expect(filesWithoutTimes(root), `k=${k}`).toEqual(expected);
      expect(debrisLeft(root), `k=${k}`).toEqual([]);
    }
  });
});

describe('init killed after its last write', () => {
  it('leaves its lock, which the rerun (with nothing left to write) clears', async () => {
    const total = (await initOnce(['--yes', '--json'])).result.data<InitJson>().created.length;
    const root = tempRepo();
    expect((await runCli(['init', '--yes'], { cwd: root, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(total) } })).code).toBe(-1);
    expect(fs.existsSync(path.join(root, LOCK_FILE))).toBe(true);
    const again = await runCli(['init', '--yes', '--json'], { cwd: root });
    expect(again.data<InitJson>().created).toEqual([]);
    expect(fs.existsSync(path.join(root, LOCK_FILE))).toBe(false);
  });
});

describe('init on what is already there', () => {
  it('plans a file once when the roster lists a member twice', async () => {
    const root = await initCopy();
    const team = read(root, squadPaths.team);
    const row = team.split('\n').find((line) => line.startsWith('| Keaton |'))!;
    writeFiles(root, { [squadPaths.team]: team.replace(`${row}\n`, `${row}\n${row}\n`) });
    fs.rmSync(path.join(root, '.ai-team/agents/keaton'), { recursive: true });
    const result = await runCli(['init', '--yes', '--json'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.data<InitJson>().created).toEqual([charterPath('keaton'), historyPath('keaton')]);
    expect(read(root, charterPath('keaton'))).toContain('# Keaton — Lead');
  });

  it('leaves a symlinked .gitattributes alone, wherever it points, and so do doctor and upgrade', async () => {
    const outside = tempDir();
    writeFiles(outside, { attributes: '*.png binary\n' });
    for (const target of [path.join(outside, 'attributes'), path.join(outside, 'missing')]) {
      const root = tempRepo();
      fs.symlinkSync(target, path.join(root, squadPaths.gitattributes));
      const result = await runCli(['init', '--yes', '--json'], { cwd: root });
      expect(result.code, result.stderr).toBe(0);
      expect(result.data<InitJson>().notes).toContain(`${squadPaths.gitattributes} is a symlink; it was left as it is (add the merge=union lines yourself)`);
      expect(fs.readlinkSync(path.join(root, squadPaths.gitattributes))).toBe(target);
      expect(read(outside, 'attributes')).toBe('*.png binary\n');
      const doctor = await runCli(['doctor', '--json'], { cwd: root });
      expect(doctor.envelope(), doctor.stderr).toMatchObject({ ok: true, data: { summary: { errors: 0 } } });
      const upgrade = await runCli(['upgrade', '--dry-run'], { cwd: root });
      expect(upgrade.code, upgrade.stderr).toBe(0);
    }
  });

  it('counts a dangling symlink at a planned path as there, and leaves it', async () => {
    const root = tempRepo();
    fs.mkdirSync(path.join(root, squadPaths.root));
    fs.symlinkSync('nowhere.md', path.join(root, squadPaths.ceremonies));
    const result = await runCli(['init', '--yes', '--json'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.data<InitJson>().skipped).toContain(squadPaths.ceremonies);
    expect(fs.readlinkSync(path.join(root, squadPaths.ceremonies))).toBe('nowhere.md');
  });

  it('suggests a first request to the lead, and none when nobody was cast', async () => {
    const root = tempRepo();
    const team = await runCli(['init', '--yes', '--roles', 'Tester,Tech Lead'], { cwd: root });
    expect(team.stdout).toContain('3. Say what you are building, e.g. "Fenster, set up the project structure for …"');
    const empty = await runCli(['init', '--yes', '--no-team'], { cwd: tempRepo() });
    expect(empty.stdout).toContain(`  3. Say what you are building\n  Add members first with: npx create-squad@${packageVersion()} hire <role>\n`);
    expect(empty.stdout).not.toContain('Scribe, set up');
  });

  it('takes an operand written as a path for a folder, even one named like a command', async () => {
    const root = tempRepo();
    fs.mkdirSync(path.join(root, 'apps'));
    for (const operand of ['./doctor', 'apps/hire']) {
      const result = await runCli([operand, '--yes'], { cwd: root });
      expect(result.code, `${operand}: ${result.stderr}`).toBe(0);
      expect(fs.existsSync(path.join(root, operand, squadPaths.team)), operand).toBe(true);
    }
    const up = await runCli(['../hire', '--yes'], { cwd: path.join(root, 'apps') });
    expect(up.code, up.stderr).toBe(0);
    expect(fs.existsSync(path.join(root, 'hire', squadPaths.team))).toBe(true);
    expect((await runCli(['hire', '--yes'], { cwd: root })).code).toBe(2);
  });
});
