import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stampCoordinator } from '../../src/core/squad/coordinator.js';
import { SquadError } from '../../src/core/base/errors.js';
import { pathProblem, sha256 } from '../../src/core/fs/fs-safe.js';
import { parseManifest, serializeManifest, type Manifest } from '../../src/core/squad/manifest.js';
import { MIGRATIONS, migrationsUpTo, type Migration } from '../../src/core/scaffold/migrations.js';
import type { OwnedFile } from '../../src/core/squad/owned.js';
import { COORDINATOR_PATH, TEMPLATES_COPY_DIR, backupPathFor, folderTimestamp, squadPaths, aiTeamSkillDir } from '../../src/core/base/paths.js';
import { UNKNOWN_VERSION, isLearnedSkillPath, planUpgrade, type UpgradeOptions, type UpgradePlan } from '../../src/core/scaffold/upgrade.js';
import { applyPlan } from '../../src/core/fs/apply-plan.js';
import { readUpgradeState } from '../../src/core/scaffold/upgrade-state.js';
import { blockedReason } from '../../src/core/fs/obstacles.js';
import { countLearnedSkills, isShippedContent, matchesRecordedHash } from '../../src/core/squad/owned.js';
import { planOwnedFiles } from '../../src/core/scaffold/scaffold.js';
import { compareVersions } from '../../src/core/fs/version.js';
import { cleanupTempDirs, hashTree, tempDir, writeFiles } from '../helpers/cli.js';
import { UPGRADE_FIXTURES } from '../helpers/upgrade.js';

afterAll(cleanupTempDirs);

describe('compareVersions', () => {
  it.each([
    ['0.1.0', '0.0.1', 1],
    ['0.0.1', '0.1.0', -1],
    ['1.10', '1.9', 1],
    ['1.0', '1.0.0', 0],
    ['2', '1.99.99', 1],
    ['1.0.0-beta.1', '1.0.0', -1],
    ['1.0.0-beta.2', '1.0.0-beta.1', 1],
    // SemVer pre-release precedence: numeric identifiers as numbers, numeric before alphanumeric,
    // a shorter set of identifiers first when the shared ones are equal.
    ['0.2.0-beta.10', '0.2.0-beta.9', 1],
    ['0.2.0-beta.9', '0.2.0-beta.10', -1],
    ['1.0.0-alpha', '1.0.0-alpha.1', -1],
    ['1.0.0-alpha.1', '1.0.0-alpha.beta', -1],
    ['1.0.0-alpha.beta', '1.0.0-beta', -1],
    ['1.0.0-beta.2', '1.0.0-beta.11', -1],
    ['1.0.0-beta.11', '1.0.0-rc.1', -1],
    ['1.0.0-rc.1', '1.0.0', -1],
    ['1.0.0-1', '1.0.0-alpha', -1],
    ['1.0.0-beta.01', '1.0.0-beta.1', 0],
    ['1.0.0+build.5', '1.0.0', 0],
    ['v1.2.0', '1.2', 0],
    ['1.0', undefined, 1],
    ['1.0', 'unknown', 1],
    ['unknown', '0.0.1', -1],
    ['garbage', 'nonsense', 0],
    [undefined, undefined, 0],
  ] as const)('%s vs %s → %i', (a, b, expected) => {
    expect(Math.sign(compareVersions(a, b))).toBe(expected);
  });
});

describe('migrations', () => {
  const step = (version: string, id: string): Migration => ({ version, id, description: id, plan: async () => ({ writes: [], notes: [] }) });

  it('runs the steps up to the target version, in version order, registry order on a tie', () => {
    const registry = [step('0.3.0', 'c'), step('0.1.0', 'a'), step('0.2.0', 'b1'), step('0.2.0', 'b2'), step('1.0.0', 'later')];
    expect(migrationsUpTo('0.3.0', registry).map((m) => m.id)).toEqual(['a', 'b1', 'b2', 'c']);
    expect(migrationsUpTo('0.1.5', registry).map((m) => m.id)).toEqual(['a']);
  });

  it('every shipped step is additive and idempotent: applied once, it asks for nothing more', async () => {
    const root = tempDir();
    writeFiles(root, {
      '.ai-team/team.md': '# Team\n',
      '.ai-team/log/2025-01-01.md': 'a session\n',
      '.gitattributes': '*.png binary\r\n',
    });
    fs.mkdirSync(path.join(root, squadPaths.orchestrationLog));
    for (const migration of MIGRATIONS) {
      const first = await migration.plan(await readUpgradeState(root));
      for (const write of first.writes) {
        const abs = path.join(root, write.path);
        if (write.update) expect(write.content.startsWith(fs.readFileSync(abs, 'utf8')), `${migration.id} only appends`).toBe(true);
        else expect(fs.existsSync(abs), `${migration.id} only creates`).toBe(false);
        fs.mkdirSync(path.dirname(abs), { recursive: true });
        fs.writeFileSync(abs, write.content);
      }
      expect((await migration.plan(await readUpgradeState(root))).writes, migration.id).toEqual([]);
    }
    // The log folder had a file: left as it was. The empty and missing folders got their .gitkeep.
    expect(fs.readdirSync(path.join(root, squadPaths.log))).toEqual(['2025-01-01.md']);
    expect(fs.existsSync(path.join(root, squadPaths.orchestrationLog, '.gitkeep'))).toBe(true);
    expect(fs.existsSync(path.join(root, squadPaths.decisionsInbox, '.gitkeep'))).toBe(true);
    const attributes = fs.readFileSync(path.join(root, squadPaths.gitattributes), 'utf8');
    expect(attributes.startsWith('*.png binary\r\n')).toBe(true);
    expect(attributes).toContain('.ai-team/decisions.md merge=union\r\n');
  });
});

describe('isLearnedSkillPath', () => {
  it.each([
    ['.ai-team/agents/fenster/skills/react/SKILL.md', true],
    ['.ai-team/agents/fenster/skills/react/scripts/x.sh', true],
    ['.ai-team/skills/team-conventions/SKILL.md', true],
    ['.ai-team/skills/git-workflow/SKILL.md', true],
    ['.ai-team/skills/squad-casting/SKILL.md', false],
    ['.ai-team/agents/fenster/history.md', false],
    ['.ai-team/agents/fenster/skills', false],
    [COORDINATOR_PATH, false],
  ])('%s → %s', (relPath, learned) => {
    expect(isLearnedSkillPath(relPath, new Set(['squad-casting']))).toBe(learned);
  });
});

// ---------------------------------------------------------------- planUpgrade on hand-made squads

const skillText = (name: string, version: string | undefined, body = 'Do the thing.\n') =>
  `---\nname: ${name}\ndescription: "Use for ${name}."\n${version === undefined ? '' : `metadata:\n  version: "${version}"\n`}---\n\n# ${name}\n\n${body}`;

const COORD = (version: string, body = 'Route work.\n') => stampCoordinator(`---\nname: Squad\ndescription: "Coordinator."\n---\n\n# Squad\n\n${body}`, version);

const SKILL = `${aiTeamSkillDir('squad-alpha')}/SKILL.md`;
const REFERENCE = `${aiTeamSkillDir('squad-alpha')}/references/guide.md`;
const TEMPLATE = `${TEMPLATES_COPY_DIR}/charter.md`;

/** The files a pretend create-squad `version` ships. */
function shipped(version: string, overrides: Partial<Record<'coordinator' | 'template' | 'skill' | 'reference', string>> = {}): OwnedFile[] {
  return [
    { path: COORDINATOR_PATH, content: Buffer.from(overrides.coordinator ?? COORD(version)), mode: 0o644, kind: 'coordinator' },
    { path: TEMPLATE, content: Buffer.from(overrides.template ?? `# Charter ${version}\n`), mode: 0o644, kind: 'template' },
    { path: SKILL, content: Buffer.from(overrides.skill ?? skillText('squad-alpha', '1.0')), mode: 0o644, kind: 'builtin-skill', skill: 'squad-alpha' },
    { path: REFERENCE, content: Buffer.from(overrides.reference ?? `guide ${version}\n`), mode: 0o644, kind: 'builtin-skill', skill: 'squad-alpha' },
  ];
}

/** A squad with `files` installed as create-squad `version` wrote them, and its manifest. */
function installed(files: OwnedFile[], version: string, extra: Record<string, string | Buffer> = {}): string {
  const root = tempDir();
  writeFiles(root, { [squadPaths.team]: '# Team\n', ...Object.fromEntries(files.map((f) => [f.path, f.content])) });
  const manifest: Manifest = { schema: 1, version, files: Object.fromEntries(files.map((f) => [f.path, sha256(f.content)])) };
  writeFiles(root, { [squadPaths.manifest]: serializeManifest(manifest), ...extra });
  // Migrations are covered above; these squads have their folders already.
  for (const folder of [squadPaths.decisionsInbox, squadPaths.log, squadPaths.orchestrationLog]) writeFiles(root, { [`${folder}/.gitkeep`]: '' });
  return root;
}

const NOW = new Date('2026-01-02T03:04:05.678Z');
const TS = folderTimestamp(NOW);
const noMigrations: UpgradeOptions = { migrations: [] };

async function plan(root: string, owned: OwnedFile[], version: string) {
  return planUpgrade(root, { ...noMigrations, owned, version, now: NOW });
}

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

/** Carry out a plan as the command does. */
const apply = (root: string, p: UpgradePlan) => applyPlan(root, p, 'upgrading');

/** Every path a plan writes (a move by where it goes). */
const writtenPaths = (p: UpgradePlan) => p.changes.map((c) => (c.kind === 'move' ? c.to : c.path));

describe('planUpgrade', () => {
  it('replaces what nobody edited without a backup, restamps, and is then up to date', async () => {
    const root = installed(shipped('0.1.0'), '0.1.0');
    const next = shipped('0.2.0', { skill: skillText('squad-alpha', '1.1') });
    const p = await plan(root, next, '0.2.0');
    expect(p.from).toBe('0.1.0');
    expect(p.to).toBe('0.2.0');
    expect(p.replaced).toEqual([SKILL, REFERENCE, TEMPLATE, COORDINATOR_PATH].sort());
    expect(p.backedUp).toEqual([]);
    expect(p.created).toEqual([]);
    expect(p.changes.at(-1)).toMatchObject({ kind: 'replace', path: squadPaths.manifest });
    apply(root, p);
    for (const file of next) expect(read(root, file.path)).toBe(file.content.toString());
    const manifest = parseManifest(read(root, squadPaths.manifest));
    expect(manifest).toEqual({ state: 'ok', manifest: { schema: 1, version: '0.2.0', files: Object.fromEntries(next.map((f) => [f.path, sha256(f.content)])) } });

    const again = await plan(root, next, '0.2.0');
    expect(again.upToDate).toBe(true);
    expect(again.changes).toEqual([]);
  });

  it('backs up an edited coordinator and template (copy first, then replace), keeping the file mode', async () => {
    const root = installed(shipped('0.1.0'), '0.1.0');
    fs.appendFileSync(path.join(root, COORDINATOR_PATH), 'my rule\n');
    fs.appendFileSync(path.join(root, TEMPLATE), 'my field\n');
    fs.chmodSync(path.join(root, TEMPLATE), 0o600);
    const editedCoordinator = read(root, COORDINATOR_PATH);
    const p = await plan(root, shipped('0.2.0'), '0.2.0');
    expect(p.backedUp).toEqual([
      { path: TEMPLATE, backup: backupPathFor(TS, TEMPLATE) },
      { path: COORDINATOR_PATH, backup: backupPathFor(TS, COORDINATOR_PATH) },
    ]);
    const order = p.changes.map((c) => (c.kind === 'move' ? `move:${c.to}` : `${c.kind}:${c.path}`));
    expect(order.indexOf(`backup:${backupPathFor(TS, COORDINATOR_PATH)}`)).toBe(order.indexOf(`replace:${COORDINATOR_PATH}`) - 1);
    // A backup is written exclusively (the one applier's backup), with the mode of the file it copies.
    expect(p.changes.find((c) => c.kind === 'backup' && c.of === TEMPLATE)).toMatchObject({ kind: 'backup', mode: 0o600 });
    apply(root, p);
    expect(read(root, backupPathFor(TS, COORDINATOR_PATH))).toBe(editedCoordinator);
    expect(fs.statSync(path.join(root, backupPathFor(TS, TEMPLATE))).mode & 0o777).toBe(0o600);
    expect(read(root, COORDINATOR_PATH)).toBe(COORD('0.2.0'));
  });

  it('built-in SKILL.md: a newer shipped version replaces it, backing up an edited one', async () => {
    const root = installed(shipped('0.1.0'), '0.1.0');
    fs.appendFileSync(path.join(root, SKILL), 'my tweak\n');
    const p = await plan(root, shipped('0.2.0', { skill: skillText('squad-alpha', '1.1') }), '0.2.0');
    expect(p.replaced).toContain(SKILL);
    expect(p.backedUp.map((b) => b.path)).toEqual([SKILL]);
  });

  it('built-in SKILL.md: same version refreshes an untouched one, keeps an edited one with its manifest entry', async () => {
    const untouched = installed(shipped('0.1.0'), '0.1.0');
    const refreshed = await plan(untouched, shipped('0.2.0', { skill: skillText('squad-alpha', '1.0', 'Better words.\n') }), '0.2.0');
    expect(refreshed.replaced).toContain(SKILL);
    expect(refreshed.backedUp).toEqual([]);

    const before = shipped('0.1.0');
    const edited = installed(before, '0.1.0');
    fs.appendFileSync(path.join(edited, SKILL), 'my tweak\n');
    const p = await plan(edited, shipped('0.2.0', { skill: skillText('squad-alpha', '1.0', 'Better words.\n') }), '0.2.0');
    expect(p.replaced).not.toContain(SKILL);
    expect(p.skipped).toEqual([{ path: SKILL, reason: 'edited by you, and the shipped version is not newer (installed 1.0, shipped 1.0)' }]);
    // The entry still says what create-squad installed, so the next upgrade sees the edit too.
    expect(p.manifest.files[SKILL]).toBe(sha256(before[2]!.content));
    apply(edited, p);
    expect((await plan(edited, shipped('0.2.0', { skill: skillText('squad-alpha', '1.0', 'Better words.\n') }), '0.2.0')).skipped.map((s) => s.path)).toEqual([SKILL]);
  });

  it('built-in SKILL.md: an installed one newer than the shipped one is kept; one without a version counts as older', async () => {
    const newer = installed(shipped('0.1.0', { skill: skillText('squad-alpha', '2.0') }), '0.1.0');
    const kept = await plan(newer, shipped('0.1.0'), '0.1.0');
    expect(kept.skipped).toEqual([{ path: SKILL, reason: 'the installed version is newer (installed 2.0, shipped 1.0)' }]);

    for (const text of [skillText('squad-alpha', undefined), 'not a skill at all\n']) {
      const root = installed(shipped('0.1.0'), '0.1.0');
      fs.writeFileSync(path.join(root, SKILL), text);
      const p = await plan(root, shipped('0.1.0'), '0.1.0');
      expect(p.replaced).toEqual([SKILL]);
      expect(p.backedUp.map((b) => b.path)).toEqual([SKILL]);
    }
  });

  it('other built-in skill files: replaced when untouched, kept when edited, created when missing; added files ignored', async () => {
    const root = installed(shipped('0.1.0'), '0.1.0', { [`${aiTeamSkillDir('squad-alpha')}/references/ours.md`]: 'ours\n' });
    const untouched = await plan(root, shipped('0.2.0'), '0.2.0');
    expect(untouched.replaced).toContain(REFERENCE);

    fs.appendFileSync(path.join(root, REFERENCE), 'edited\n');
    const edited = await plan(root, shipped('0.2.0'), '0.2.0');
    expect(edited.replaced).not.toContain(REFERENCE);
    expect(edited.skipped.map((s) => s.path)).toEqual([REFERENCE]);
    expect(edited.backedUp).toEqual([]);

    fs.rmSync(path.join(root, REFERENCE));
    const missing = await plan(root, shipped('0.2.0'), '0.2.0');
    expect(missing.created).toEqual([REFERENCE]);
    for (const p of [untouched, edited, missing]) expect(writtenPaths(p)).not.toContain(`${aiTeamSkillDir('squad-alpha')}/references/ours.md`);
  });

  it('adopts a squad without a manifest: every differing owned file counts as edited', async () => {
    const root = installed(shipped('0.1.0'), '0.1.0');
    fs.rmSync(path.join(root, squadPaths.manifest));
    const next = shipped('0.2.0', { skill: skillText('squad-alpha', '1.1') });
    const p = await plan(root, next, '0.2.0');
    expect(p.adopting).toBe(true);
    expect(p.backedUp.map((b) => b.path)).toEqual([SKILL, TEMPLATE, COORDINATOR_PATH].sort());
    expect(p.skipped.map((s) => s.path)).toEqual([REFERENCE]);
    expect(Object.keys(p.manifest.files).sort()).toEqual([SKILL, TEMPLATE, COORDINATOR_PATH].sort());
  });

  it('backs up an unreadable manifest before writing a new one', async () => {
    const root = installed(shipped('0.1.0'), '0.1.0');
    fs.writeFileSync(path.join(root, squadPaths.manifest), '{ hand-edited');
    const p = await plan(root, shipped('0.1.0'), '0.1.0');
    expect(p.notes[0]).toMatch(/is not valid \(not valid JSON/);
    expect(p.backedUp).toEqual([{ path: squadPaths.manifest, backup: backupPathFor(TS, squadPaths.manifest) }]);
    apply(root, p);
    expect(read(root, backupPathFor(TS, squadPaths.manifest))).toBe('{ hand-edited');
    expect(parseManifest(read(root, squadPaths.manifest)).state).toBe('ok');
  });

  it('accepts CRLF line endings as the same content (a checkout with autocrlf is not an edit)', async () => {
    const files = shipped('0.1.0');
    const root = installed(files, '0.1.0');
    for (const file of files) fs.writeFileSync(path.join(root, file.path), file.content.toString().replace(/\n/g, '\r\n'));
    expect((await plan(root, files, '0.1.0')).upToDate).toBe(true);
    const p = await plan(root, shipped('0.2.0'), '0.2.0');
    expect(p.backedUp).toEqual([]);
    expect(p.replaced).toEqual([REFERENCE, TEMPLATE, COORDINATOR_PATH].sort());
  });

  it("keeps the files and manifest entries of built-ins no longer shipped (they stay create-squad's, not learned)", async () => {
    const gone = `${aiTeamSkillDir('squad-gone')}/SKILL.md`;
    const old = [...shipped('0.1.0'), { path: gone, content: Buffer.from(skillText('squad-gone', '1.0')), mode: 0o644, kind: 'builtin-skill' as const, skill: 'squad-gone' }];
    const root = installed(old, '0.1.0');
    const p = await plan(root, shipped('0.1.0'), '0.1.0');
    expect(p.manifest.files).toHaveProperty(gone);
    expect(p.changes).toEqual([]);
    expect(p.learnedSkills).toBe(0);
    fs.rmSync(path.join(root, gone));
    expect((await plan(root, shipped('0.1.0'), '0.1.0')).manifest.files).not.toHaveProperty(gone);
  });

  it('reads the installed version from the stamp, the manifest when it is older or there is no stamp, else "unknown"', async () => {
    const root = installed(shipped('0.1.0'), '0.1.0');
    expect((await plan(root, shipped('0.2.0'), '0.2.0')).from).toBe('0.1.0');
    fs.writeFileSync(path.join(root, COORDINATOR_PATH), COORD('0.2.0')); // an upgrade killed before its manifest
    expect((await plan(root, shipped('0.2.0'), '0.2.0')).from).toBe('0.1.0');
    fs.writeFileSync(path.join(root, COORDINATOR_PATH), '---\nname: Squad\n---\n<!-- version: 0.3.0 -->\n');
    expect((await plan(root, shipped('0.2.0'), '0.2.0')).from).toBe('0.1.0');
    fs.rmSync(path.join(root, COORDINATOR_PATH)); // deleted: the manifest still knows
    expect((await plan(root, shipped('0.2.0'), '0.2.0')).from).toBe('0.1.0');
    fs.rmSync(path.join(root, squadPaths.manifest));
    expect((await plan(root, shipped('0.2.0'), '0.2.0')).from).toBe(UNKNOWN_VERSION);
    fs.writeFileSync(path.join(root, COORDINATOR_PATH), COORD('0.1.5')); // no manifest: the stamp alone
    expect((await plan(root, shipped('0.2.0'), '0.2.0')).from).toBe('0.1.5');
  });

  it('upgrades from one pre-release to the next (beta.9 → beta.10 is not a downgrade)', async () => {
    const root = installed(shipped('0.2.0-beta.9'), '0.2.0-beta.9');
    const p = await plan(root, shipped('0.2.0-beta.10'), '0.2.0-beta.10');
    expect(p.from).toBe('0.2.0-beta.9');
    expect(p.replaced).toContain(COORDINATOR_PATH);
  });

  it('refuses to downgrade a squad set up by a newer create-squad', async () => {
    const root = installed(shipped('0.3.0'), '0.3.0');
    await expect(plan(root, shipped('0.2.0'), '0.2.0')).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/0\.3\.0, which is newer than this one \(0\.2\.0\)/),
    });
  });

  it('never writes a folder or a symlink standing where an owned file goes: not upgraded when it needed a write, and says why', async () => {
    const root = installed(shipped('0.1.0'), '0.1.0');
    fs.rmSync(path.join(root, TEMPLATE));
    fs.mkdirSync(path.join(root, TEMPLATE));
    fs.rmSync(path.join(root, REFERENCE));
    fs.symlinkSync(path.join(root, squadPaths.team), path.join(root, REFERENCE));
    fs.rmSync(path.join(root, COORDINATOR_PATH));
    fs.symlinkSync(path.join(root, 'nowhere.md'), path.join(root, COORDINATOR_PATH));
    const p = await plan(root, shipped('0.2.0'), '0.2.0');
    expect(p.notUpgraded).toEqual([
      { path: TEMPLATE, reason: `${TEMPLATE} is not a regular file` },
      { path: COORDINATOR_PATH, reason: `${COORDINATOR_PATH} is a symlink` },
    ]);
    // An edited built-in skill file is kept anyway: left as it is, with both reasons.
    expect(p.skipped).toEqual([{ path: REFERENCE, reason: `${REFERENCE} is a symlink; edited by you (a built-in skill file you changed is kept, not replaced)` }]);
    expect(p.upToDate).toBe(false);
    const written = writtenPaths(p);
    for (const rel of [TEMPLATE, REFERENCE, COORDINATOR_PATH]) expect(written).not.toContain(rel);
  });

  it('is not up to date while a file that needs a write stands behind a symlink; a link to the shipped content is fine', async () => {
    const root = installed(shipped('0.1.0'), '0.1.0');
    const elsewhere = tempDir();
    const linkTo = (rel: string, content: Buffer | string) => {
      const target = path.join(elsewhere, path.basename(rel));
      fs.writeFileSync(target, content);
      fs.rmSync(path.join(root, rel));
      fs.symlinkSync(target, path.join(root, rel));
    };
    linkTo(COORDINATOR_PATH, COORD('0.1.0'));
    const current = await plan(root, shipped('0.1.0'), '0.1.0');
    expect(current).toMatchObject({ upToDate: true, changes: [], skipped: [], notUpgraded: [] });
    const newer = await plan(root, shipped('0.2.0'), '0.2.0');
    expect(newer.notUpgraded).toEqual([{ path: COORDINATOR_PATH, reason: `${COORDINATOR_PATH} is a symlink` }]);
    expect(newer.upToDate).toBe(false);
    expect(writtenPaths(newer)).not.toContain(COORDINATOR_PATH);
  });

  it('fails before writing anything when the backups folder is blocked', async () => {
    const root = installed(shipped('0.1.0'), '0.1.0');
    fs.appendFileSync(path.join(root, COORDINATOR_PATH), 'edit\n');
    writeFiles(root, { [squadPaths.backups]: 'a file, not a folder' });
    const before = hashTree(root);
    const error = await plan(root, shipped('0.2.0'), '0.2.0').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SquadError);
    expect(error).toMatchObject({ code: 'not-writable', message: expect.stringMatching(/cannot back up .*\.ai-team\/backups is a file/) });
    expect(hashTree(root)).toBe(before);
  });

  it('never plans a write inside learned skills, and counts them', async () => {
    const root = installed(shipped('0.1.0'), '0.1.0', {
      '.ai-team/skills/team-rules/SKILL.md': skillText('team-rules', '1.0'),
      '.ai-team/skills/git-workflow/SKILL.md': skillText('git-workflow', '0.1'),
      '.ai-team/skills/no-skill-file/notes.md': 'not a skill\n',
      '.ai-team/agents/fenster/skills/react/SKILL.md': skillText('react', '1.0'),
      '.ai-team/agents/fenster/skills/_draft/SKILL.md': skillText('draft', '1.0'),
      '.ai-team/agents/keaton/skills/arch/SKILL.md': skillText('arch', '1.0'),
    });
    expect(countLearnedSkills(root)).toBe(4);
    const p = await planUpgrade(root, { owned: shipped('0.2.0'), version: '0.2.0', now: NOW });
    expect(p.learnedSkills).toBe(4);
    const builtins = new Set(shipped('0.2.0').flatMap((file) => (file.skill === undefined ? [] : [file.skill])));
    for (const written of writtenPaths(p)) expect(isLearnedSkillPath(written, builtins), written).toBe(false);
  });
});

describe('blockedReason', () => {
  it('names a file standing where a folder must be', () => {
    const root = tempDir();
    writeFiles(root, { '.ai-team/skills': 'file' });
    expect(blockedReason(root, '.ai-team/skills/squad-x/SKILL.md')).toBe('.ai-team/skills is a file, not a folder');
    expect(blockedReason(root, '.ai-team/other/x.md')).toBeUndefined();
  });

  it('names a folder where the file must be, and walks through a folder link that stays inside', () => {
    const root = tempDir();
    writeFiles(root, { '.ai-team/team.md': '# Team\n', '.ai-team/decisions.md/x': 'x', 'docs/a.md': 'a' });
    fs.symlinkSync(path.join(root, 'docs'), path.join(root, '.ai-team/docs'));
    fs.symlinkSync(path.join(root, '.ai-team/team.md'), path.join(root, '.ai-team/team-link'));
    expect(blockedReason(root, '.ai-team/decisions.md')).toBe('.ai-team/decisions.md is not a regular file');
    expect(blockedReason(root, '.ai-team/docs/a.md')).toBeUndefined();
    expect(blockedReason(root, '.ai-team/docs/new/b.md')).toBeUndefined();
    expect(blockedReason(root, '.ai-team/team-link/x.md')).toBe('.ai-team/team-link is a file, not a folder');
    expect(blockedReason(root, '.ai-team/team.md/x.md')).toBe('.ai-team/team.md is a file, not a folder');
  });

  it("gives fs-safe's reason for a path that is unsafe to write", () => {
    const root = tempDir();
    const outside = tempDir();
    writeFiles(root, { '.ai-team/team.md': '# Team\n' });
    fs.symlinkSync(outside, path.join(root, '.ai-team-templates'));
    fs.symlinkSync(path.join(root, 'nowhere'), path.join(root, '.ai-team/dangling'));
    fs.symlinkSync(path.join(root, '.ai-team/team.md'), path.join(root, '.ai-team/link.md'));
    expect(blockedReason(root, '.ai-team-templates/charter.md')).toBe(pathProblem(root, '.ai-team-templates/charter.md'));
    expect(blockedReason(root, '.ai-team-templates/charter.md')).toBe('.ai-team-templates is a symlink that leads outside the repository');
    expect(blockedReason(root, '.ai-team/dangling/x.md')).toBe('.ai-team/dangling is a dangling symlink');
    expect(blockedReason(root, '.ai-team/link.md')).toBe('.ai-team/link.md is a symlink');
    expect(blockedReason(root, '../x.md')).toBe('the path contains ".."');
  });
});

describe('isShippedContent and matchesRecordedHash', () => {
  const shippedText = Buffer.from('# Charter\n\nline two\n');

  it('takes the same bytes, or the same text with CRLF line endings, as shipped; nothing else', () => {
    expect(isShippedContent(Buffer.from(shippedText), shippedText)).toBe(true);
    expect(isShippedContent(Buffer.from('# Charter\r\n\r\nline two\r\n'), shippedText)).toBe(true);
    expect(isShippedContent(Buffer.from('# Charter\n\nline 2\n'), shippedText)).toBe(false);
    // Binary content (a NUL byte) is compared byte for byte.
    expect(isShippedContent(Buffer.from('a\r\n\0'), Buffer.from('a\n\0'))).toBe(false);
    expect(matchesRecordedHash(Buffer.from('# Charter\r\n\r\nline two\r\n'), sha256(shippedText))).toBe(true);
    expect(matchesRecordedHash(Buffer.from('edited\n'), sha256(shippedText))).toBe(false);
  });

  it('is the rule init uses too: a CRLF checkout of a shipped file is recorded in the manifest', async () => {
    const root = tempDir();
    const owned = shipped('0.1.0');
    writeFiles(root, {
      [TEMPLATE]: owned[1]!.content.toString().replace(/\n/g, '\r\n'),
      [REFERENCE]: 'edited by the user\n',
    });
    const { manifestFiles, skipped } = planOwnedFiles(root, owned);
    expect(skipped).toEqual([TEMPLATE, REFERENCE]);
    expect(manifestFiles[TEMPLATE]).toBe(sha256(owned[1]!.content));
    expect(manifestFiles).not.toHaveProperty(REFERENCE);
  });
});

describe('the 0.0.1 fixture', () => {
  it('has a manifest whose hashes are those of its files (an untouched 0.0.1 install)', () => {
    const root = path.join(UPGRADE_FIXTURES, 'v0.0.1');
    const read = parseManifest(fs.readFileSync(path.join(root, squadPaths.manifest), 'utf8'));
    expect(read.state).toBe('ok');
    if (read.state !== 'ok') return;
    expect(read.manifest.version).toBe('0.0.1');
    for (const [rel, hash] of Object.entries(read.manifest.files)) expect(sha256(fs.readFileSync(path.join(root, rel))), rel).toBe(hash);
  });
});
