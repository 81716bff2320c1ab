/**
 * Team skills live where every Copilot host finds project skills (`.github/skills/`), and skills a
 * user keeps in the other native folders are read by every command, never written.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MEMBER_FACING_BUILTIN_SKILLS, TEAM_SKILLS_DIR, nativeTeamSkillDir, squadPaths, aiTeamSkillDir } from '../../src/core/base/paths.js';
import { cleanupTempDirs, hashTree, listFiles, runCli, tempDir, tempRepo, validSkill, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

async function squad(): Promise<string> {
  const root = tempRepo();
  expect((await runCli(['init', '--yes'], { cwd: root })).code).toBe(0);
  return root;
}

interface ListJson {
  skills: { name: string; scope: string; path?: string; location?: string }[];
}

describe('team skills in .github/skills/', () => {
  it('teach --team and skills add write there, and members see them', async () => {
    const root = await squad();
    expect((await runCli(['teach', '--team', 'Squash-merge every pull request', '--name', 'merge-policy'], { cwd: root })).code).toBe(0);
    const source = tempDir();
    writeFiles(source, { 'api-style/SKILL.md': validSkill('api-style', 'REST API style. Use when adding endpoints.'), 'api-style/references/errors.md': '# Errors\n' });
    expect((await runCli(['skills', 'add', path.join(source, 'api-style')], { cwd: root })).code).toBe(0);
    expect(fs.existsSync(path.join(root, nativeTeamSkillDir('merge-policy'), 'SKILL.md'))).toBe(true);
    expect(hashTree(path.join(root, nativeTeamSkillDir('api-style')))).toBe(hashTree(path.join(source, 'api-style')));
    expect(fs.readdirSync(path.join(root, squadPaths.aiTeamSkills)).every((name) => name.startsWith('squad-'))).toBe(true);
    const prompt = await runCli(['prompt', 'fenster', '--task', 'add an endpoint'], { cwd: root });
    expect(prompt.stdout).toContain(`<location>${nativeTeamSkillDir('api-style')}/SKILL.md</location>`);
  });

  it('a skill kept by hand in .claude/skills/ or .agents/skills/ appears in skills list, prompt and export; .github/skills/ wins a name clash', async () => {
    const root = await squad();
    writeFiles(root, {
      '.claude/skills/pdf-forms/SKILL.md': validSkill('pdf-forms', 'Fill PDF forms. Use when a task involves PDF forms.'),
      '.agents/skills/release-notes/SKILL.md': validSkill('release-notes', 'Write release notes. Use when preparing a release.'),
      '.claude/skills/release-notes/SKILL.md': validSkill('release-notes', 'An older copy.'),
      [`${TEAM_SKILLS_DIR}/pdf-forms/SKILL.md`]: validSkill('pdf-forms', 'The team version. Use when a task involves PDF forms.'),
    });
    const before = hashTree(path.join(root, '.claude'));
    const list = await runCli(['skills', 'list', '--agent', 'fenster', '--json'], { cwd: root });
    expect(list.code, list.stderr).toBe(0);
    const names = list
      .data<ListJson>()
      .skills.filter((s) => s.scope === 'team')
      .map((s) => s.name);
    expect(names.filter((n) => n === 'pdf-forms' || n === 'release-notes').sort()).toEqual(['pdf-forms', 'release-notes']);
    const text = await runCli(['skills', 'list', '--agent', 'fenster'], { cwd: root });
    expect(text.stderr).toContain('overrides the team skill of the same name at .claude/skills/pdf-forms/SKILL.md');

    const prompt = await runCli(['prompt', 'fenster', '--task', 'fill the tax form'], { cwd: root });
    expect(prompt.stdout).toContain('The team version.');
    expect(prompt.stdout).not.toContain('An older copy.');
    expect(prompt.stdout).toContain('<location>.agents/skills/release-notes/SKILL.md</location>');

    const file = path.join(tempDir(), 'team.squad');
    expect((await runCli(['export', '--out', file], { cwd: root })).code).toBe(0);
    const document = JSON.parse(fs.readFileSync(file, 'utf8')) as { team_skills: Record<string, { skill_md: string }> };
    expect(Object.keys(document.team_skills)).toEqual(['pdf-forms', 'release-notes']);
    expect(document.team_skills['pdf-forms']!.skill_md).toContain('The team version.');

    // Imported, they land in .github/skills/; the user's own folders were never written.
    const target = tempRepo();
    expect((await runCli(['import', file], { cwd: target })).code).toBe(0);
    expect(listFiles(path.join(target, TEAM_SKILLS_DIR)).filter((rel) => !rel.startsWith('squad-'))).toEqual(['pdf-forms/SKILL.md', 'release-notes/SKILL.md']);
    expect(hashTree(path.join(root, '.claude'))).toBe(before);
  });
});

describe('upgrade of a squad whose team skills are in .ai-team/skills/', () => {
  function legacySquad(root: string): Record<string, string> {
    writeFiles(root, {
      [`${aiTeamSkillDir('api-style')}/SKILL.md`]: validSkill('api-style'),
      [`${aiTeamSkillDir('api-style')}/references/deep/errors.md`]: '# Errors\n',
      [`${aiTeamSkillDir('api-style')}/scripts/check.sh`]: '#!/bin/sh\necho ok\n',
      [`${aiTeamSkillDir('naming')}/SKILL.md`]: validSkill('naming'),
      [`${aiTeamSkillDir('taken')}/SKILL.md`]: validSkill('taken', 'The old copy.'),
      [`${nativeTeamSkillDir('taken')}/SKILL.md`]: validSkill('taken', 'Already here.'),
    });
    fs.chmodSync(path.join(root, aiTeamSkillDir('api-style'), 'scripts/check.sh'), 0o755);
    return Object.fromEntries(['api-style', 'naming'].map((name) => [name, hashTree(path.join(root, aiTeamSkillDir(name)))]));
  }

  it('moves each one whole, byte for byte, leaves a taken name where it is with a note, and is idempotent', async () => {
    const root = await squad();
    const hashes = legacySquad(root);
    const dry = await runCli(['upgrade', '--dry-run', '--json'], { cwd: root });
    expect(dry.data<{ migrations: { id: string; paths: string[] }[] }>().migrations).toContainEqual(
      expect.objectContaining({ id: 'team-skills-native', paths: [nativeTeamSkillDir('api-style'), nativeTeamSkillDir('naming')] }),
    );
    expect(fs.existsSync(path.join(root, nativeTeamSkillDir('naming')))).toBe(false);

    const real = await runCli(['upgrade', '--json'], { cwd: root });
    expect(real.code, real.stderr).toBe(0);
    for (const [name, hash] of Object.entries(hashes)) {
      expect(hashTree(path.join(root, nativeTeamSkillDir(name))), name).toBe(hash);
      expect(fs.existsSync(path.join(root, aiTeamSkillDir(name))), name).toBe(false);
    }
    expect(fs.readFileSync(path.join(root, aiTeamSkillDir('taken'), 'SKILL.md'), 'utf8')).toContain('The old copy.');
    expect(real.data<{ notes: string[] }>().notes).toContainEqual(expect.stringMatching(/^\.ai-team\/skills\/taken\/ stays where it is: \.github\/skills\/taken\/ already exists/));

    const again = await runCli(['upgrade', '--json'], { cwd: root });
    expect(again.data<{ migrations: unknown[]; upToDate: boolean }>()).toMatchObject({ migrations: [], upToDate: true });
  });

  it('killed after any write, a rerun ends with every team skill moved whole', async () => {
    const reference = await squad();
    const hashes = legacySquad(reference);
    const template = tempDir();
    fs.cpSync(reference, template, { recursive: true });
    expect((await runCli(['upgrade'], { cwd: reference })).code).toBe(0);
    for (const k of [1, 2]) {
      const root = tempRepo();
      fs.cpSync(template, root, { recursive: true });
      const killed = await runCli(['upgrade'], { cwd: root, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(k) } });
      expect(killed.code, `k=${k}`).toBe(-1);
      expect((await runCli(['upgrade'], { cwd: root })).code, `k=${k}`).toBe(0);
      for (const [name, hash] of Object.entries(hashes)) expect(hashTree(path.join(root, nativeTeamSkillDir(name))), `k=${k} ${name}`).toBe(hash);
      expect(listFiles(path.join(root, TEAM_SKILLS_DIR))).toEqual(listFiles(path.join(reference, TEAM_SKILLS_DIR)));
    }
  });
});

const COPILOT = process.env.CREATE_SQUAD_COPILOT_CLI;

describe('against the real Copilot CLI', () => {
  /** The project skills the real Copilot CLI discovers in `root`: name → repo-relative folder. */
  function copilotProjectSkills(root: string): Record<string, string> {
    const run = spawnSync(COPILOT!, ['skill', 'list', '--json'], { cwd: root, env: { ...process.env, HOME: tempDir('home-') }, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    const listed = JSON.parse(run.stdout.slice(run.stdout.indexOf('['))) as { name: string; source: string; path: string }[];
    const real = fs.realpathSync(root);
    return Object.fromEntries(listed.filter((s) => s.source === 'project').map((s) => [s.name, path.relative(real, fs.realpathSync(s.path)).split(path.sep).join('/')]));
  }

  it.skipIf(!COPILOT)('on a fresh squad, finds exactly the member-facing built-ins, in .github/skills/, and no coordinator procedure', async () => {
    const root = await squad();
    const listed = (await runCli(['skills', 'list', '--json'], { cwd: root })).data<ListJson>().skills;
    const native = listed
      .filter((s) => s.scope === 'builtin' && s.location!.startsWith(`${TEAM_SKILLS_DIR}/`))
      .map((s) => s.name)
      .sort();
    expect(native).toEqual([...MEMBER_FACING_BUILTIN_SKILLS].sort());
    expect(copilotProjectSkills(root)).toEqual(Object.fromEntries(native.map((name) => [name, nativeTeamSkillDir(name)])));
  });

  it.skipIf(!COPILOT)('copilot skill list --json finds every team skill create-squad lists, and no member skill', async () => {
    const root = await squad();
    expect((await runCli(['teach', '--team', 'Squash-merge every pull request', '--name', 'merge-policy'], { cwd: root })).code).toBe(0);
    expect((await runCli(['teach', 'fenster', 'Always use Tailwind CSS', '--name', 'tailwind'], { cwd: root })).code).toBe(0);
    writeFiles(root, { '.claude/skills/pdf-forms/SKILL.md': validSkill('pdf-forms') });
    const listed = (await runCli(['skills', 'list', '--json'], { cwd: root })).data<ListJson>().skills;
    // Team skills, and the built-ins that live in a native folder.
    const seen = listed
      .filter((s) => s.scope === 'team' || (s.scope === 'builtin' && !s.location!.startsWith(`${squadPaths.aiTeamSkills}/`)))
      .map((s) => s.name)
      .sort();
    const project = Object.keys(copilotProjectSkills(root)).sort();
    expect(project).toEqual(seen);
    expect(project).not.toContain('tailwind');
  });

  it.skipIf(!COPILOT)('follows skills linked out of the repository, which create-squad never reads and reports as refused', async () => {
    const root = await squad();
    const outside = tempDir('outside-');
    writeFiles(outside, {
      'linked.md': validSkill('linked-file', 'A skill whose SKILL.md is a link out. SECRET-LINE-7'),
      'folder/SKILL.md': validSkill('linked-folder', 'A skill folder linked out. SECRET-LINE-7'),
    });
    fs.mkdirSync(path.join(root, '.github/skills/linked-file'), { recursive: true });
    fs.symlinkSync(path.join(outside, 'linked.md'), path.join(root, '.github/skills/linked-file/SKILL.md'));
    fs.symlinkSync(path.join(outside, 'folder'), path.join(root, '.github/skills/linked-folder'));
    const run = spawnSync(COPILOT!, ['skill', 'list', '--json'], { cwd: root, env: { ...process.env, HOME: tempDir('home-') }, encoding: 'utf8', timeout: 60_000 });
    const listed = JSON.parse(run.stdout.slice(run.stdout.indexOf('['))) as { name: string; source: string }[];
    // Copilot itself loads both (docs/hosts.md says so) ...
    expect(listed.filter((s) => s.source === 'project').map((s) => s.name)).toEqual(expect.arrayContaining(['linked-file', 'linked-folder']));
    // ... create-squad reads neither, and says so.
    const ours = (await runCli(['skills', 'list', '--json'], { cwd: root })).data<{ skills: { name: string }[]; refused: { name: string }[] }>();
    expect(ours.skills.map((s) => s.name)).not.toContain('linked-file');
    expect(ours.refused.map((s) => s.name).sort()).toEqual(['linked-file', 'linked-folder']);
    const prompt = await runCli(['prompt', 'scribe', '--task', 'a skill linked out', '--json'], { cwd: root });
    expect(prompt.stdout).not.toContain('SECRET-LINE-7');
  });
});
