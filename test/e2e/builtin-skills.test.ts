/**
 * Where the built-in skills live: the member-facing ones in `.github/skills/` (Copilot finds them
 * there in every host), the coordinator's procedures in `.ai-team/skills/`; and the upgrade that
 * moves an older squad's member-facing built-ins, crash-safe, never over a skill of the user's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MEMBER_FACING_BUILTIN_SKILLS, SKILL_FILE, nativeTeamSkillDir, squadPaths, aiTeamSkillDir } from '../../src/core/base/paths.js';
import { sha256 } from '../../src/core/fs/fs-safe.js';
import { parseManifest, serializeManifest } from '../../src/core/squad/manifest.js';
import { shippedBuiltinSkills, shippedOwnedFiles } from '../../src/core/squad/owned.js';
import type { UpgradeData } from '../../src/commands/upgrade.js';
import { cleanupTempDirs, hashTree, initSquad, listFiles, runCli, runOk, tempDir, tempRepo, validSkill, writeFiles } from '../helpers/cli.js';
import { debrisLeft } from '../helpers/debris.js';
import { matrixWrites } from '../helpers/kill-matrix.js';
import { HAS_ORIGINAL_DATA, noteMissingData, originalExport } from '../helpers/original-data.js';

afterAll(cleanupTempDirs);

const MEMBER_FACING = [...MEMBER_FACING_BUILTIN_SKILLS].sort();
const COORDINATOR_ONLY = shippedBuiltinSkills().filter((name) => !MEMBER_FACING_BUILTIN_SKILLS.has(name));
const exists = (root: string, rel: string) => fs.existsSync(path.join(root, rel));
const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel));

interface ListJson {
  skills: { name: string; scope: string; location: string }[];
}
type UpgradeJson = UpgradeData;
interface DoctorJson {
  findings: { code: string; path?: string; message: string; fix: string }[];
}

/** A copy of the squad `init --yes` makes (run once per file). */
function squad(): Promise<string> {
  return initSquad(['--yes']);
}

/** The manifest's recorded files. */
function recorded(root: string): Record<string, string> {
  const manifest = parseManifest(read(root, squadPaths.manifest).toString('utf8'));
  if (manifest.state !== 'ok') throw new Error('no manifest');
  return manifest.manifest.files;
}

/**
 * A squad as create-squad made it before the member-facing built-ins moved: all of them in
 * `.ai-team/skills/`, recorded there in the manifest.
 */
async function olderSquad(): Promise<string> {
  const root = await squad();
  for (const name of MEMBER_FACING) fs.renameSync(path.join(root, nativeTeamSkillDir(name)), path.join(root, aiTeamSkillDir(name)));
  const manifest = parseManifest(read(root, squadPaths.manifest).toString('utf8'));
  if (manifest.state !== 'ok') throw new Error('no manifest');
  const files: Record<string, string> = {};
  for (const [rel, hash] of Object.entries(manifest.manifest.files)) {
    const name = rel.split('/')[2]!;
    files[MEMBER_FACING_BUILTIN_SKILLS.has(name) ? rel.replace(nativeTeamSkillDir(name), aiTeamSkillDir(name)) : rel] = hash;
  }
  fs.writeFileSync(path.join(root, squadPaths.manifest), serializeManifest({ ...manifest.manifest, files }));
  return root;
}

/**
 * An older squad the user changed: an edit in squad-mcp-servers, a file added inside
 * squad-git-workflow, and a skill of their own named squad-work-planning in `.claude/skills/`.
 */
async function editedOlderSquad(): Promise<string> {
  const root = await olderSquad();
  fs.appendFileSync(path.join(root, aiTeamSkillDir('squad-mcp-servers'), SKILL_FILE), '\n- Our servers are listed in docs/mcp.md.\n');
  writeFiles(root, {
    [`${aiTeamSkillDir('squad-git-workflow')}/references/our-branches.md`]: '# Our branches\n\n- release/* is protected.\n',
    [`.claude/skills/squad-work-planning/${SKILL_FILE}`]: validSkill('squad-work-planning', 'Our own planning rules. Use when planning.'),
  });
  return root;
}

describe('a new squad', () => {
  it('has the member-facing built-ins in .github/skills/ and the coordinator procedures in .ai-team/skills/, each file recorded with its hash', async () => {
    const root = await squad();
    for (const name of MEMBER_FACING) {
      expect(exists(root, `${nativeTeamSkillDir(name)}/${SKILL_FILE}`), name).toBe(true);
      expect(exists(root, aiTeamSkillDir(name)), name).toBe(false);
    }
    for (const name of COORDINATOR_ONLY) {
      expect(exists(root, `${aiTeamSkillDir(name)}/${SKILL_FILE}`), name).toBe(true);
      expect(exists(root, nativeTeamSkillDir(name)), name).toBe(false);
    }
    const files = recorded(root);
    const builtinFiles = (await shippedOwnedFiles()).filter((file) => file.kind === 'builtin-skill');
    expect(builtinFiles.length).toBeGreaterThan(shippedBuiltinSkills().length);
    for (const file of builtinFiles) {
      expect(files[file.path], file.path).toBe(sha256(read(root, file.path)));
      expect(read(root, file.path).equals(file.content), file.path).toBe(true);
    }
  });

  it('lists each built-in once, as a built-in, wherever it lives; prompt offers a member-facing one once', async () => {
    const root = await squad();
    const list = (await runOk(root, ['skills', 'list', '--json'])).data<ListJson>().skills;
    const builtins = list.filter((skill) => skill.scope === 'builtin');
    expect(builtins.map((skill) => skill.name).sort()).toEqual(shippedBuiltinSkills());
    for (const skill of builtins) {
      const dir = MEMBER_FACING_BUILTIN_SKILLS.has(skill.name) ? nativeTeamSkillDir(skill.name) : aiTeamSkillDir(skill.name);
      expect(skill.location, skill.name).toBe(`${dir}/${SKILL_FILE}`);
    }
    expect(list.filter((skill) => skill.scope !== 'builtin' && skill.name.startsWith('squad-'))).toEqual([]);
    const text = await runOk(root, ['skills', 'list']);
    expect(text.stderr).not.toContain('overrides');

    const prompt = await runOk(root, ['prompt', 'fenster', '--task', 'review the open pull request']);
    const locations = [...prompt.stdout.matchAll(/<location>([^<]+)<\/location>/g)].map((m) => m[1]!);
    expect(locations.filter((l) => l.includes('/squad-code-review/'))).toEqual([`${nativeTeamSkillDir('squad-code-review')}/${SKILL_FILE}`]);
    expect(new Set(locations).size).toBe(locations.length);
    // Coordinator procedures are not offered to a member (disable-model-invocation).
    expect(locations.filter((l) => l.startsWith(`${squadPaths.aiTeamSkills}/`))).toEqual([]);

    const route = await runOk(root, ['route', 'review the open pull request and its tests', '--json']);
    expect(route.stdout).not.toContain(`${squadPaths.aiTeamSkills}/squad-code-review`);
  });

  it('upgrade refreshes an untouched member-facing built-in and backs up an edit before replacing it', async () => {
    const root = await squad();
    const skill = `${nativeTeamSkillDir('squad-code-review')}/${SKILL_FILE}`;
    const shipped = read(root, skill);
    // An edit of an older version of the skill: replaced (the shipped one is newer), backed up first.
    const edited = Buffer.from(`${shipped.toString('utf8').replace(/version: "[^"]+"/, 'version: "0.1"')}\n- Our rule.\n`);
    fs.writeFileSync(path.join(root, skill), edited);
    fs.rmSync(path.join(root, nativeTeamSkillDir('squad-work-planning'), SKILL_FILE));
    const data = (await runOk(root, ['upgrade', '--json'])).data<UpgradeJson>();
    expect(data.backedUp).toEqual([{ path: skill, backup: expect.stringMatching(new RegExp(`^\\.ai-team/backups/[^/]+/${skill.replace(/\./g, '\\.')}$`)) }]);
    expect(read(root, data.backedUp[0]!.backup).equals(edited)).toBe(true);
    expect(read(root, skill).equals(shipped)).toBe(true);
    expect(data.created).toEqual([`${nativeTeamSkillDir('squad-work-planning')}/${SKILL_FILE}`]);
    expect(data.migrations).toEqual([]);
    expect((await runOk(root, ['upgrade', '--json'])).data<UpgradeJson>().upToDate).toBe(true);
  });
});

describe('upgrade of a squad whose member-facing built-ins are in .ai-team/skills/', () => {
  it('moves each one whole with its bytes, keeps an edited copy and an added file, leaves a same-name skill of the user alone, and is idempotent', async () => {
    const root = await editedOlderSquad();
    const before = Object.fromEntries(MEMBER_FACING.map((name) => [name, hashTree(path.join(root, aiTeamSkillDir(name)))]));
    const edit = read(root, `${aiTeamSkillDir('squad-mcp-servers')}/${SKILL_FILE}`);
    const claude = hashTree(path.join(root, '.claude'));

    // doctor: each one is a finding; upgrade is the fix, except where the user's skill has the name.
    const doctorBefore = (await runCli(['doctor', '--json'], { cwd: root })).data<DoctorJson>().findings.filter((f) => f.code === 'builtin-old-place');
    expect(doctorBefore.map((f) => f.path)).toEqual(MEMBER_FACING.map(aiTeamSkillDir));
    for (const finding of doctorBefore) {
      if (finding.path === aiTeamSkillDir('squad-work-planning'))
        expect(finding.fix).toMatch(/^rename or move \.claude\/skills\/squad-work-planning\/ .*then run "create-squad upgrade"$/);
      else expect(finding.fix).toMatch(/^run "create-squad upgrade"/);
    }
    // export leaves the built-ins out while they are in .ai-team/skills/, as it does after the move.
    const exportBefore = path.join(tempDir(), 'before.squad');
    await runOk(root, ['export', '--out', exportBefore]);
    const teamBefore = Object.keys((JSON.parse(fs.readFileSync(exportBefore, 'utf8')) as { team_skills: object }).team_skills);
    expect(teamBefore).toEqual(['squad-work-planning']); // the user's own, from .claude/skills/

    // A dry run shows the moves and writes nothing.
    const snapshot = hashTree(root);
    const dry = (await runOk(root, ['upgrade', '--dry-run', '--json'])).data<UpgradeJson>();
    const moved = MEMBER_FACING.filter((name) => name !== 'squad-work-planning');
    expect(dry.migrations).toEqual([{ version: '0.1.0', id: 'builtin-skills-native', description: expect.any(String), paths: moved.map(nativeTeamSkillDir) }]);
    expect(hashTree(root)).toBe(snapshot);
    const dryText = await runOk(root, ['upgrade', '--dry-run']);
    expect(dryText.stdout).toContain(`0.1.0 builtin-skills-native: ${moved.map(nativeTeamSkillDir).join(', ')}\n`);

    const data = (await runOk(root, ['upgrade', '--json'])).data<UpgradeJson>();
    expect(data.migrations.map((m) => m.id)).toEqual(['builtin-skills-native']);
    for (const name of moved) {
      expect(exists(root, aiTeamSkillDir(name)), name).toBe(false);
      // Every byte and mode as it was: the untouched files are what this version ships, the edit is kept.
      expect(hashTree(path.join(root, nativeTeamSkillDir(name))), name).toBe(before[name]);
    }
    expect(read(root, `${nativeTeamSkillDir('squad-mcp-servers')}/${SKILL_FILE}`).equals(edit)).toBe(true);
    expect(data.skipped).toEqual([{ path: `${nativeTeamSkillDir('squad-mcp-servers')}/${SKILL_FILE}`, reason: expect.stringMatching(/^edited by you/) }]);
    expect(data.backedUp).toEqual([]);
    // The user's squad-work-planning in .claude/skills/ is untouched; the built-in stays, with a note.
    expect(hashTree(path.join(root, '.claude'))).toBe(claude);
    expect(hashTree(path.join(root, aiTeamSkillDir('squad-work-planning')))).toBe(before['squad-work-planning']);
    expect(exists(root, nativeTeamSkillDir('squad-work-planning'))).toBe(false);
    expect(data.notes).toContainEqual(
      expect.stringMatching(
        /^the built-in skill squad-work-planning stays in \.ai-team\/skills\/squad-work-planning\/: \.claude\/skills\/squad-work-planning\/ holds a skill of yours/,
      ),
    );
    // The manifest records the moved files where they are now, and nothing under their old place.
    const files = recorded(root);
    expect(Object.keys(files).filter((rel) => moved.some((name) => rel.startsWith(`${aiTeamSkillDir(name)}/`)))).toEqual([]);
    expect(files[`${nativeTeamSkillDir('squad-code-review')}/${SKILL_FILE}`]).toBe(sha256(read(root, `${nativeTeamSkillDir('squad-code-review')}/${SKILL_FILE}`)));

    // Each built-in is listed once; the user's same-name skill overrides the built-in, as documented.
    const list = await runOk(root, ['skills', 'list', '--json']);
    const skills = list.data<ListJson>().skills;
    expect(
      skills
        .filter((s) => s.scope === 'builtin')
        .map((s) => s.name)
        .sort(),
    ).toEqual(shippedBuiltinSkills().filter((name) => name !== 'squad-work-planning'));
    expect(skills.filter((s) => s.name === 'squad-work-planning').map((s) => `${s.scope} ${s.location}`)).toEqual([`team .claude/skills/squad-work-planning/${SKILL_FILE}`]);
    expect((await runOk(root, ['skills', 'list'])).stderr).toContain(`the team's skill "squad-work-planning" overrides the builtin skill of the same name`);

    const doctorAfter = (await runCli(['doctor', '--json'], { cwd: root })).data<DoctorJson>().findings.filter((f) => f.code === 'builtin-old-place');
    expect(doctorAfter.map((f) => f.path)).toEqual([aiTeamSkillDir('squad-work-planning')]);
    const exportAfter = path.join(tempDir(), 'after.squad');
    await runOk(root, ['export', '--out', exportAfter]);
    expect(Object.keys((JSON.parse(fs.readFileSync(exportAfter, 'utf8')) as { team_skills: object }).team_skills)).toEqual(['squad-work-planning']);

    // Idempotent: nothing more to do, nothing written.
    const settled = hashTree(root);
    expect((await runOk(root, ['upgrade', '--json'])).data<UpgradeJson>()).toMatchObject({ upToDate: true, migrations: [] });
    expect(hashTree(root)).toBe(settled);

    // Once the user's skill is out of the way, the next upgrade moves the last one.
    fs.renameSync(path.join(root, '.claude/skills/squad-work-planning'), path.join(root, '.claude/skills/our-planning'));
    const last = (await runOk(root, ['upgrade', '--json'])).data<UpgradeJson>();
    expect(last.migrations.flatMap((m) => m.paths)).toEqual([nativeTeamSkillDir('squad-work-planning')]);
    expect(hashTree(path.join(root, nativeTeamSkillDir('squad-work-planning')))).toBe(before['squad-work-planning']);
    expect((await runCli(['doctor', '--json'], { cwd: root })).data<DoctorJson>().findings.filter((f) => f.code === 'builtin-old-place')).toEqual([]);
  });

  it('killed after any write, a rerun ends in the state of an uninterrupted upgrade, with every byte kept', async () => {
    const reference = await editedOlderSquad();
    const template = tempDir();
    fs.cpSync(reference, template, { recursive: true });
    const before = Object.fromEntries(MEMBER_FACING.map((name) => [name, hashTree(path.join(reference, aiTeamSkillDir(name)))]));
    const plan = (await runOk(reference, ['upgrade', '--dry-run', '--json'])).data<UpgradeJson>();
    const total = plan.created.length + plan.replaced.length + plan.backedUp.length + plan.migrations.flatMap((m) => m.paths).length + 1;
    await runOk(reference, ['upgrade']);
    const expected = listFiles(reference).map((rel) => `${rel} ${sha256(read(reference, rel))}`);
    expect(total).toBeGreaterThanOrEqual(5);

    // A sample of the writes in `npm test`, every one with CREATE_SQUAD_MATRIX=full.
    for (const k of matrixWrites(total, (last) => [1, 2, Math.ceil(last / 2), last - 1, last])) {
      const root = tempRepo();
      fs.cpSync(template, root, { recursive: true });
      const killed = await runCli(['upgrade'], { cwd: root, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(k) } });
      expect(killed.code, `k=${k}: the process should have been killed`).toBe(-1);
      // Killed there, every member-facing built-in is whole in one place or the other.
      for (const name of MEMBER_FACING) {
        const at = [aiTeamSkillDir(name), nativeTeamSkillDir(name)].filter((dir) => exists(root, dir));
        expect(at, `k=${k} ${name}`).toHaveLength(1);
        expect(hashTree(path.join(root, at[0]!)), `k=${k} ${name}`).toBe(before[name]);
      }
      const again = await runCli(['upgrade'], { cwd: root });
      expect(again.code, `k=${k}: ${again.stderr}`).toBe(0);
      expect(
        listFiles(root).map((rel) => `${rel} ${sha256(read(root, rel))}`),
        `k=${k}`,
      ).toEqual(expected);
      expect(debrisLeft(root), `k=${k}`).toEqual([]);
    }
  }, 120_000);
});

describe('import', () => {
  it('of a file exported by a squad not yet upgraded puts the built-ins where this version keeps them', async () => {
    const source = await editedOlderSquad();
    const file = path.join(tempDir(), 'older.squad');
    await runOk(source, ['export', '--out', file]);
    const target = tempRepo();
    await runOk(target, ['import', file]);
    for (const name of MEMBER_FACING) {
      expect(exists(target, `${nativeTeamSkillDir(name)}/${SKILL_FILE}`), name).toBe(true);
      expect(exists(target, aiTeamSkillDir(name)), name).toBe(false);
    }
    for (const name of COORDINATOR_ONLY) expect(exists(target, `${aiTeamSkillDir(name)}/${SKILL_FILE}`), name).toBe(true);
    // The user's own squad-work-planning travelled as a team skill and is renamed beside the built-in.
    expect(exists(target, `${nativeTeamSkillDir('squad-work-planning-imported')}/${SKILL_FILE}`)).toBe(true);
    const doctor = (await runCli(['doctor', '--json'], { cwd: target })).data<DoctorJson>();
    expect(doctor.findings.filter((f) => f.code === 'builtin-old-place' || f.code === 'owned-missing')).toEqual([]);
    expect((await runOk(target, ['upgrade', '--json'])).data<UpgradeJson>().upToDate).toBe(true);
  });

  noteMissingData('importing the original Squad export');
  it.skipIf(!HAS_ORIGINAL_DATA)('of a real original-Squad export likewise', async () => {
    const target = tempRepo();
    await runOk(target, ['import', originalExport('real-v042.json.gz')]);
    for (const name of MEMBER_FACING) expect(exists(target, aiTeamSkillDir(name)), name).toBe(false);
    for (const name of MEMBER_FACING) expect(exists(target, `${nativeTeamSkillDir(name)}/${SKILL_FILE}`), name).toBe(true);
    const doctor = (await runCli(['doctor', '--json'], { cwd: target })).data<DoctorJson>();
    expect(doctor.findings.filter((f) => f.code === 'builtin-old-place' || f.code === 'owned-missing')).toEqual([]);
  });
});
