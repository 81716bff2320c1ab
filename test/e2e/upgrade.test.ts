import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCoordinatorStamp } from '../../src/core/squad/coordinator.js';
import { sha256 } from '../../src/core/fs/fs-safe.js';
import { parseManifest } from '../../src/core/squad/manifest.js';
import { shippedOwnedFiles, type OwnedFile } from '../../src/core/squad/owned.js';
import { COORDINATOR_PATH, GITIGNORE_PATH, TEAM_SKILLS_DIR, squadPaths, aiTeamSkillDir } from '../../src/core/base/paths.js';
import { packageVersion } from '../../src/core/fs/version.js';
import type { UpgradeData } from '../../src/commands/upgrade.js';
import { cleanupTempDirs, hashTree, listFiles, runCli, tempDir, tempRepo, writeFiles } from '../helpers/cli.js';
import { debrisLeft } from '../helpers/debris.js';
import { matrixWrites, sampledWrites } from '../helpers/kill-matrix.js';
import { V001_EDITS, V001_TEAM_PATHS, V001_USER_FILE, afterUpgrade, editV001, fixtureRepo } from '../helpers/upgrade.js';

afterAll(cleanupTempDirs);

type UpgradeJson = UpgradeData;

const VERSION = packageVersion();
const owned: OwnedFile[] = await shippedOwnedFiles();
const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel));
const exists = (root: string, rel: string) => fs.existsSync(path.join(root, rel));
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * sha256 of each of the given folders and files (path, mode, content of every file below). A team
 * skill of `.ai-team/skills/` that upgrade moved to `.github/skills/` is hashed where it went.
 */
function hashPaths(root: string, paths: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    paths.map((rel) => {
      const moved = rel.startsWith(`${squadPaths.aiTeamSkills}/`) ? rel.replace(squadPaths.aiTeamSkills, TEAM_SKILLS_DIR) : rel;
      const abs = path.join(root, exists(root, rel) ? rel : moved);
      return [rel, fs.statSync(abs).isDirectory() ? hashTree(abs) : `${fs.statSync(abs).mode & 0o777}:${sha256(fs.readFileSync(abs))}`];
    }),
  );
}

/** Every backed-up copy of `rel` in any run's backup folder. */
function backupsOf(root: string, rel: string): Buffer[] {
  const dir = path.join(root, squadPaths.backups);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((stamp) => path.join(dir, stamp, ...rel.split('/')))
    .filter((file) => fs.existsSync(file))
    .map((file) => fs.readFileSync(file));
}

/** Every file outside .ai-team/backups/ with its mode and content: the state an upgrade must end in. */
function stateWithoutBackups(root: string): Record<string, string> {
  return Object.fromEntries(
    listFiles(root)
      .filter((rel) => !rel.startsWith(`${squadPaths.backups}/`))
      .map((rel) => [rel, `${fs.statSync(path.join(root, rel)).mode & 0o777}:${sha256(read(root, rel))}`]),
  );
}

async function upgradeJson(root: string, extra: string[] = []): Promise<UpgradeJson> {
  const result = await runCli(['upgrade', '--json', ...extra], { cwd: root });
  expect(result.code, result.stderr).toBe(0);
  expect(result.envelope().ok).toBe(true);
  return result.data<UpgradeJson>();
}

describe('upgrade of a squad made by create-squad 0.0.1', () => {
  it('refreshes what create-squad owns, backs up edits, and leaves everything learned byte for byte', async () => {
    const root = fixtureRepo('v0.0.1');
    const edits = editV001(root);
    const script = '.ai-team/agents/fenster/skills/react-patterns/scripts/check.sh';
    fs.chmodSync(path.join(root, script), 0o755);
    const team = hashPaths(root, V001_TEAM_PATHS);
    const oldManifest = parseManifest(read(root, squadPaths.manifest).toString());

    const result = await runCli(['upgrade'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^✓ Upgraded the squad from 0\\.0\\.1 to ${VERSION.replace(/\./g, '\\.')} in `));
    expect(result.stdout).toContain('learned skills untouched: 2\n');
    const backups = ['.ai-team-templates/charter.md', '.github/agents/squad.agent.md', '.github/skills/squad-git-workflow/SKILL.md'];
    expect(result.stdout).toMatch(new RegExp(backups.map((rel) => ` {2}backed up ${escaped(rel)} → \\.ai-team/backups/[^/]+/${escaped(rel)}\\n`).join('')));
    expect(result.stdout).toContain('0.1.0 builtin-skills-native: .github/skills/squad-code-review, .github/skills/squad-git-workflow\n');

    // Learned skills (references, +x script, binary asset), histories, decisions, charters, casting, logs.
    expect(hashPaths(root, V001_TEAM_PATHS)).toEqual(team);
    expect(fs.statSync(path.join(root, script)).mode & 0o111).not.toBe(0);

    // The edits: in a backup (replaced files) or in place (an edited built-in reference, a file the user added).
    const [backupFolder] = fs.readdirSync(path.join(root, squadPaths.backups));
    for (const rel of [V001_EDITS.coordinator, V001_EDITS.template, V001_EDITS.skill]) {
      expect(read(root, `${squadPaths.backups}/${backupFolder}/${afterUpgrade(rel)}`).equals(edits.get(rel)!), rel).toBe(true);
    }
    // The member-facing built-ins moved to .github/skills/, the edited reference and the added file with them.
    expect(read(root, afterUpgrade(V001_EDITS.reference)).equals(edits.get(V001_EDITS.reference)!)).toBe(true);
    expect(read(root, afterUpgrade(V001_USER_FILE)).equals(edits.get(V001_USER_FILE)!)).toBe(true);
    expect(fs.readdirSync(path.join(root, squadPaths.aiTeamSkills)).sort()).toEqual(
      owned
        .filter((f) => f.path.startsWith(`${squadPaths.aiTeamSkills}/`))
        .map((f) => f.skill!)
        .filter((n, i, a) => a.indexOf(n) === i)
        .concat('squad-retired')
        .sort(),
    );
    expect(listFiles(path.join(root, squadPaths.backups))).toHaveLength(3);

    // Every owned file is what this version ships, except the edited reference that was kept.
    for (const file of owned) {
      if (file.path === afterUpgrade(V001_EDITS.reference)) continue;
      expect(read(root, file.path).equals(file.content), file.path).toBe(true);
    }
    expect(readCoordinatorStamp(read(root, COORDINATOR_PATH).toString())).toBe(VERSION);
    expect(exists(root, `${squadPaths.orchestrationLog}/.gitkeep`)).toBe(true);
    expect(read(root, squadPaths.gitattributes).toString()).toContain('.ai-team/agents/*/history.md merge=union');

    // The manifest: this version; the kept reference still recorded as 0.0.1 installed it (so it stays "edited").
    const manifest = parseManifest(read(root, squadPaths.manifest).toString());
    expect(manifest.state).toBe('ok');
    if (manifest.state !== 'ok' || oldManifest.state !== 'ok') return;
    expect(manifest.manifest.version).toBe(VERSION);
    expect(manifest.manifest.files[afterUpgrade(V001_EDITS.reference)]).toBe(oldManifest.manifest.files[V001_EDITS.reference]);
    expect(Object.keys(manifest.manifest.files).filter((rel) => rel.startsWith(`${aiTeamSkillDir('squad-code-review')}/`))).toEqual([]);
    expect(manifest.manifest.files[COORDINATOR_PATH]).toBe(sha256(read(root, COORDINATOR_PATH)));
    expect(manifest.manifest.files).toHaveProperty(`${aiTeamSkillDir('squad-retired')}/SKILL.md`);

    // A second run changes nothing.
    const before = hashTree(root);
    const again = await runCli(['upgrade'], { cwd: root });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^✓ Already up to date with create-squad .*: nothing was changed\n/);
    expect(again.stdout).toContain(`${afterUpgrade(V001_EDITS.reference)} — edited by you`);
    expect(again.stdout).toContain('learned skills untouched: 2\n');
    expect(hashTree(root)).toBe(before);
  });

  it('reports the same plan as JSON, and --dry-run writes nothing', async () => {
    const root = fixtureRepo('v0.0.1');
    editV001(root);
    const before = hashTree(root);
    const dry = await upgradeJson(root, ['--dry-run']);
    expect(hashTree(root)).toBe(before);
    expect(dry.dryRun).toBe(true);
    expect(dry.upToDate).toBe(false);

    const real = await upgradeJson(root);
    // Backups are named by the time of the run: the dry run's and the real run's differ only there.
    const timeless = (data: UpgradeJson) => ({
      ...data,
      backedUp: data.backedUp.map((b) => b.path),
      changes: { ...data.changes, backedUp: data.changes.backedUp.map((b) => ({ path: b.path, backup: b.backup.replace(/^(\.ai-team\/backups\/)[^/]+\//, '$1<time>/') })) },
    });
    expect({ ...timeless(dry), dryRun: false }).toEqual(timeless(real));
    expect(real).toMatchObject({ from: '0.0.1', to: VERSION, upToDate: false, adopted: false, learnedSkillsUntouched: 2, dryRun: false });
    expect(real.replaced).toEqual(expect.arrayContaining([COORDINATOR_PATH, V001_EDITS.template, afterUpgrade(V001_EDITS.skill), `${aiTeamSkillDir('squad-casting')}/SKILL.md`]));
    expect(real.created).toContain(`${aiTeamSkillDir('squad-upgrade')}/SKILL.md`);
    expect(real.backedUp.map((b) => b.path)).toEqual([V001_EDITS.template, COORDINATOR_PATH, afterUpgrade(V001_EDITS.skill)]);
    for (const b of real.backedUp) expect(b.backup).toMatch(new RegExp(`^\\.ai-team/backups/[0-9T-]+Z/${b.path.replace(/\./g, '\\.')}$`));
    expect(real.skipped).toEqual([{ path: afterUpgrade(V001_EDITS.reference), reason: expect.stringMatching(/^edited by you/) }]);
    expect(real.migrations.map((m) => `${m.version} ${m.id}`)).toEqual([
      '0.1.0 state-folders',
      '0.1.0 gitattributes-union',
      '0.1.0 gitignore-hygiene',
      '0.1.0 team-skills-native',
      '0.1.0 builtin-skills-native',
    ]);

    const second = await upgradeJson(root);
    expect(second).toMatchObject({ upToDate: true, from: VERSION, to: VERSION, created: [], replaced: [], backedUp: [], migrations: [] });
    const dryAgain = hashTree(root);
    expect((await upgradeJson(root, ['--dry-run'])).upToDate).toBe(true);
    expect(hashTree(root)).toBe(dryAgain);
  });
});

describe('upgrade of a 0.0.1 squad whose coordinator was deleted', () => {
  it('takes the installed version from the manifest, not "unknown"', async () => {
    const root = fixtureRepo('v0.0.1');
    fs.rmSync(path.join(root, COORDINATOR_PATH));
    const result = await runCli(['upgrade', '--dry-run'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^✓ Would upgrade the squad from 0\.0\.1 to /);
    expect(await upgradeJson(root)).toMatchObject({ from: '0.0.1', created: expect.arrayContaining([COORDINATOR_PATH]) });
  });
});

describe('upgrade of a squad in the original Squad layout (no manifest, no stamp)', () => {
  it('adopts it: every differing owned file is backed up, learned skills and foreign templates are left alone', async () => {
    const root = fixtureRepo('original-squad');
    const learned = [
      '.ai-team/agents',
      '.ai-team/skills/git-workflow',
      '.ai-team/casting',
      '.ai-team/team.md',
      '.ai-team/routing.md',
      '.ai-team/decisions.md',
      '.ai-team/orchestration-log',
      '.ai-team-templates/roster.md',
      '.ai-team-templates/run-output.md',
    ];
    const kept = hashPaths(root, learned);
    const originals = new Map(owned.filter((f) => exists(root, f.path)).map((f) => [f.path, read(root, f.path)] as const));
    expect(originals.size).toBeGreaterThan(0);

    const data = await upgradeJson(root);
    expect(data).toMatchObject({ from: 'unknown', to: VERSION, adopted: true, learnedSkillsUntouched: 2 });
    expect(data.backedUp.map((b) => b.path)).toEqual([...originals.keys()].sort());
    for (const b of data.backedUp) expect(read(root, b.backup).equals(originals.get(b.path)!), b.path).toBe(true);
    for (const file of owned) expect(read(root, file.path).equals(file.content), file.path).toBe(true);
    expect(hashPaths(root, learned)).toEqual(kept);
    expect(data.migrations.flatMap((m) => m.paths)).toEqual([
      `${squadPaths.decisionsInbox}/.gitkeep`,
      `${squadPaths.log}/.gitkeep`,
      squadPaths.gitattributes,
      GITIGNORE_PATH,
      `${TEAM_SKILLS_DIR}/git-workflow`,
    ]);
    expect(exists(root, '.ai-team/skills/git-workflow')).toBe(false);
    expect(parseManifest(read(root, squadPaths.manifest).toString())).toMatchObject({ state: 'ok', manifest: { version: VERSION } });

    const text = await runCli(['upgrade'], { cwd: root });
    expect(text.stdout).toMatch(/^✓ Already up to date/);
  });

  it('prints the adoption in the text report', async () => {
    const root = fixtureRepo('original-squad');
    const result = await runCli(['upgrade', '--dry-run'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^✓ Would upgrade the squad from unknown to /);
    expect(result.stdout).toContain('No install record was found');
    expect(result.stdout).toMatch(/ {2}would back up +\.github\/agents\/squad\.agent\.md → \.ai-team\/backups\/[^/]+\/\.github\/agents\/squad\.agent\.md\n/);
    expect(result.stdout).toMatch(/Dry run: nothing was written\.\n$/);
  });
});

describe('upgrade at the installed version', () => {
  it('is a no-op right after init', async () => {
    const root = tempRepo();
    expect((await runCli(['init', '--yes'], { cwd: root })).code).toBe(0);
    const before = hashTree(root);
    const result = await runCli(['upgrade'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`✓ Already up to date with create-squad ${VERSION}: nothing was changed\nlearned skills untouched: 0\n`);
    expect(hashTree(root)).toBe(before);
  });

  it('recreates missing owned files and runs the migrations still missing', async () => {
    const root = tempRepo();
    expect((await runCli(['init', '--yes'], { cwd: root })).code).toBe(0);
    const complete = stateWithoutBackups(root);
    fs.rmSync(path.join(root, aiTeamSkillDir('squad-upgrade')), { recursive: true });
    fs.rmSync(path.join(root, '.ai-team-templates/charter.md'));
    fs.rmSync(path.join(root, squadPaths.log), { recursive: true });
    fs.writeFileSync(path.join(root, squadPaths.gitattributes), '');
    const data = await upgradeJson(root);
    expect(data).toMatchObject({ from: VERSION, to: VERSION, upToDate: false, replaced: [], backedUp: [] });
    expect(data.created).toEqual(['.ai-team-templates/charter.md', `${aiTeamSkillDir('squad-upgrade')}/SKILL.md`]);
    expect(data.migrations.map((m) => m.id)).toEqual(['state-folders', 'gitattributes-union']);
    expect(stateWithoutBackups(root)).toEqual(complete);
    expect(exists(root, squadPaths.backups)).toBe(false);
  });
});

describe('upgrade at the installed version, with only a migration missing', () => {
  it('says the files are up to date and runs the migration', async () => {
    const root = tempRepo();
    expect((await runCli(['init', '--yes'], { cwd: root })).code).toBe(0);
    fs.rmSync(path.join(root, squadPaths.gitattributes));
    const result = await runCli(['upgrade'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /^✓ Already up to date with create-squad .*; ran the missing migrations in .*\n {2}created +\.gitattributes\nRan migrations:\n {2}0\.1\.0 gitattributes-union: \.gitattributes\n/,
    );
    expect(read(root, squadPaths.gitattributes).toString()).toContain('merge=union');
    expect((await runCli(['upgrade', '--json'], { cwd: root })).data()).toMatchObject({ upToDate: true, migrations: [] });
  });
});

describe('upgrade with a squad-owned file behind a symlink', () => {
  it('never writes through the link, and says the squad is not up to date (exit 1) instead of "Already up to date"', async () => {
    const root = tempRepo();
    expect((await runCli(['init', '--yes'], { cwd: root })).code).toBe(0);
    const outside = path.join(tempDir('outside-'), 'squad.agent.md');
    const oldCoordinator = read(root, COORDINATOR_PATH).toString().replace(`create-squad: ${VERSION}`, 'create-squad: 0.0.1');
    fs.writeFileSync(outside, oldCoordinator);
    fs.rmSync(path.join(root, COORDINATOR_PATH));
    fs.symlinkSync(outside, path.join(root, COORDINATOR_PATH));
    const before = hashTree(root);

    const result = await runCli(['upgrade'], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain('Already up to date');
    expect(result.stderr).toContain(`⚠ ${COORDINATOR_PATH} was not upgraded: it is a symlink`);
    expect(result.stderr).toContain('fix: replace the link with a real copy of what it points to, then run "create-squad upgrade"');
    expect(result.stderr).toMatch(new RegExp(`✗ Not up to date with create-squad ${VERSION.replace(/\./g, '\\.')}: 1 file cannot be upgraded`));
    expect(fs.readFileSync(outside, 'utf8')).toBe(oldCoordinator);
    expect(hashTree(root)).toBe(before);

    const json = await runCli(['upgrade', '--json'], { cwd: root });
    expect(json.code).toBe(1);
    expect(json.data<UpgradeJson>()).toMatchObject({
      from: '0.0.1',
      upToDate: false,
      skipped: [],
      notUpgraded: [{ path: COORDINATOR_PATH, reason: `${COORDINATOR_PATH} is a symlink` }],
    });

    // Replaced by a real file, as the fix says: the upgrade goes through.
    fs.rmSync(path.join(root, COORDINATOR_PATH));
    fs.writeFileSync(path.join(root, COORDINATOR_PATH), oldCoordinator);
    const fixed = await upgradeJson(root);
    expect(fixed).toMatchObject({ from: '0.0.1', replaced: [COORDINATOR_PATH], notUpgraded: [] });
    expect(await upgradeJson(root)).toMatchObject({ upToDate: true });
  });

  it('does the rest of the upgrade, and a link to what is shipped is no obstacle', async () => {
    const root = tempRepo();
    expect((await runCli(['init', '--yes'], { cwd: root })).code).toBe(0);
    const template = '.ai-team-templates/charter.md';
    const copy = path.join(tempDir('outside-'), 'charter.md');
    fs.copyFileSync(path.join(root, template), copy);
    fs.rmSync(path.join(root, template));
    fs.symlinkSync(copy, path.join(root, template));
    expect(await upgradeJson(root)).toMatchObject({ upToDate: true, notUpgraded: [] });

    fs.appendFileSync(copy, 'edited through the link\n');
    fs.rmSync(path.join(root, aiTeamSkillDir('squad-upgrade')), { recursive: true });
    const result = await runCli(['upgrade', '--json'], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.data<UpgradeJson>()).toMatchObject({
      upToDate: false,
      created: [`${aiTeamSkillDir('squad-upgrade')}/SKILL.md`],
      notUpgraded: [{ path: template, reason: `${template} is a symlink` }],
    });
    expect(exists(root, `${aiTeamSkillDir('squad-upgrade')}/SKILL.md`)).toBe(true);
    expect(fs.readFileSync(copy, 'utf8')).toMatch(/edited through the link\n$/);
  });
});

describe('upgrade refuses bad situations with nothing written', () => {
  it('no squad', async () => {
    const root = tempRepo();
    const result = await runCli(['upgrade'], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^✗ no squad found in .* — run "npx create-squad@\d[^" ]* init" first/);
    expect(fs.readdirSync(root)).toEqual(['.git']);
  });

  it('a squad set up by a newer create-squad', async () => {
    const root = fixtureRepo('v0.0.1');
    const coordinator = path.join(root, COORDINATOR_PATH);
    fs.writeFileSync(coordinator, fs.readFileSync(coordinator, 'utf8').replace('create-squad: 0.0.1', 'create-squad: 99.0.0'));
    const before = hashTree(root);
    const result = await runCli(['upgrade', '--json'], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.envelope()).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringMatching(/99\.0\.0, which is newer/) } });
    expect(hashTree(root)).toBe(before);
  });

  it('a file standing where the backups folder goes', async () => {
    const root = fixtureRepo('v0.0.1');
    editV001(root);
    writeFiles(root, { [squadPaths.backups]: 'not a folder' });
    const before = hashTree(root);
    const result = await runCli(['upgrade'], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^✗ cannot back up .* \.ai-team\/backups is a file, not a folder — move \.ai-team\/backups aside/);
    expect(hashTree(root)).toBe(before);
  });

  it('an unexpected argument (usage error, exit 2)', async () => {
    const root = fixtureRepo('v0.0.1');
    const before = hashTree(root);
    const result = await runCli(['upgrade', 'now'], { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^✗ too many arguments/);
    expect(hashTree(root)).toBe(before);
  });
});

describe('upgrade interrupted', () => {
  /**
   * Kill the upgrade right after its k-th write, for every k, then run it again: it must end in
   * the state of an uninterrupted upgrade (backups aside), with every user edit in place or in a
   * backup, and the learned state byte-identical.
   */
  async function crashAndRerun(prepare: () => { root: string; edits: Map<string, Buffer> }, teamPaths: readonly string[], ks?: (total: number) => number[]) {
    const reference = prepare();
    const team = hashPaths(reference.root, teamPaths);
    const plan = await upgradeJson(reference.root, ['--dry-run']);
    const total = plan.created.length + plan.replaced.length + plan.backedUp.length + plan.migrations.flatMap((m) => m.paths).length + 1;
    await upgradeJson(reference.root);
    const expected = stateWithoutBackups(reference.root);
    const kept = new Set(plan.skipped.map((s) => s.path));

    // Every write in CI (CREATE_SQUAD_MATRIX=full); in npm test the first, the last and eight between, unless `ks` says.
    for (const k of matrixWrites(total, ks ?? ((t) => sampledWrites(t, 8)))) {
      const { root, edits } = prepare();
      const killed = await runCli(['upgrade'], { cwd: root, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(k) } });
      expect(killed.code, `k=${k}: the process should have been killed`).toBe(-1);
      const again = await runCli(['upgrade'], { cwd: root });
      expect(again.code, `k=${k}: ${again.stderr}`).toBe(0);

      expect(stateWithoutBackups(root), `k=${k}`).toEqual(expected);
      expect(debrisLeft(root), `k=${k}`).toEqual([]);
      expect(hashPaths(root, teamPaths), `k=${k}`).toEqual(team);
      for (const [rel, content] of edits) {
        const found = read(root, afterUpgrade(rel)).equals(content) || backupsOf(root, afterUpgrade(rel)).some((copy) => copy.equals(content));
        expect(found, `k=${k}: the edit of ${rel} is lost`).toBe(true);
      }
      for (const file of owned) {
        if (kept.has(file.path)) continue;
        expect(read(root, file.path).equals(file.content), `k=${k}: ${file.path}`).toBe(true);
      }
      // Nothing but real edits is ever backed up.
      for (const rel of listFiles(path.join(root, squadPaths.backups))) {
        const original = rel.split('/').slice(1).join('/');
        expect(
          [...edits.keys()].some((rel) => afterUpgrade(rel) === original) ||
            !owned.some((f) => f.path === original && read(root, `${squadPaths.backups}/${rel}`).equals(f.content)),
          `k=${k}: ${rel}`,
        ).toBe(true);
      }
    }
    return total;
  }

  it('after any write of an upgrade from 0.0.1, a rerun ends in the correct state with nothing lost', async () => {
    const total = await crashAndRerun(() => {
      const root = fixtureRepo('v0.0.1');
      return { root, edits: editV001(root) };
    }, V001_TEAM_PATHS);
    expect(total).toBeGreaterThan(20);
  }, 180_000);

  it('after any write of an adoption of the original Squad layout, likewise', async () => {
    await crashAndRerun(
      () => {
        const root = fixtureRepo('original-squad');
        const edits = new Map(owned.filter((f) => exists(root, f.path)).map((f) => [f.path, read(root, f.path)] as const));
        return { root, edits };
      },
      ['.ai-team/agents', '.ai-team/skills/git-workflow', '.ai-team/team.md', '.ai-team/decisions.md', '.ai-team-templates/roster.md'],
      (total) => [...new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, Math.floor(total / 2), total - 2, total - 1])],
    );
  }, 180_000);
});

describe("upgrade of an up-to-date squad with skills in the original Squad's style", () => {
  /** A squad this version upgraded already, then a team skill and a member's skill written in the original Squad's style. */
  async function upToDateWithOriginalSkills(): Promise<string> {
    const root = fixtureRepo('v0.0.1');
    await upgradeJson(root);
    writeFiles(root, {
      '.github/skills/deploy-notes/SKILL.md': '# Deploy Notes\n\n**Confidence:** high\n\nShip on Tuesdays, never on a Friday.\n',
      '.ai-team/agents/fenster/skills/form-state/SKILL.md': '# Form State\n\nKeep form state in one reducer per form.\n',
    });
    return root;
  }
  const converted = ['.ai-team/agents/fenster/skills/form-state/SKILL.md', '.github/skills/deploy-notes/SKILL.md'];

  it('says what it changed (never "nothing was changed"), and counts the skills it made standard apart from those it left alone', async () => {
    const root = await upToDateWithOriginalSkills();
    const result = await runCli(['upgrade'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain('nothing was changed');
    // The skills changed, and with them the agent of the member who has one: the squad's generated files were upgraded.
    expect(result.stdout).toMatch(/^✓ Upgraded the squad at .* in .*\n/);
    expect(result.stdout).toContain("Made 2 skills in the original Squad's style standard (the old SKILL.md is in the backups):\n");
    for (const rel of converted) {
      expect(result.stdout).toMatch(new RegExp(` {2}backed up ${escaped(rel)} → \\.ai-team/backups/[^/]+/${escaped(rel)}\\n`));
      expect(result.stdout).toContain(`  updated   ${rel}\n`);
      expect(read(root, rel).toString()).toMatch(/^---\nname: "/);
    }
    // The member's agent lists the skill under its new name and description, written in the same run.
    expect(result.stdout).toContain('  updated   .github/agents/fenster.agent.md\n');
    expect(read(root, '.github/agents/fenster.agent.md').toString()).toContain('Keep form state in one reducer per form.');
    expect(result.stdout).toContain('learned skills untouched: 2 (2 more made standard, above)\n');
    // The hint names exactly what changed: the backups and the member's skill in .ai-team, the team skill and the agent in .github.
    expect(result.stdout).toContain('Commit it on its own: git add -A -- .ai-team .github/agents .github/skills && git commit -m ');

    const again = await runCli(['upgrade'], { cwd: root });
    expect(again.stdout).toMatch(/^✓ Already up to date with create-squad .*: nothing was changed\n/);
    expect(again.stdout).toContain('learned skills untouched: 4\n');
  });

  it('its dry run lists exactly the changes of the real run, the agents planned with the skills as converted', async () => {
    const root = await upToDateWithOriginalSkills();
    const before = hashTree(root);
    const dry = await upgradeJson(root, ['--dry-run']);
    expect(hashTree(root)).toBe(before);
    const real = await upgradeJson(root);
    const stamp = (value: string) => value.replace(/^(\.ai-team\/backups\/)[^/]+\//, '$1<time>/');
    const timeless = (data: UpgradeJson) => ({ ...data.changes, backedUp: data.changes.backedUp.map((b) => ({ ...b, backup: stamp(b.backup) })) });
    expect(timeless(dry)).toEqual(timeless(real));
    expect(dry.commit).toEqual(real.commit);
    expect(real.changes.replaced).toEqual([...converted, '.github/agents/fenster.agent.md'].sort());
    expect(real.originalSkills?.map((s) => s.path)).toEqual(['.github/skills/deploy-notes/SKILL.md', '.ai-team/agents/fenster/skills/form-state/SKILL.md']);
    expect(real).toMatchObject({ upToDate: false, created: [], replaced: ['.github/agents/fenster.agent.md'], learnedSkillsUntouched: 2 });
    expect((await upgradeJson(root)).upToDate).toBe(true);
  });
});
