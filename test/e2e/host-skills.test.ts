/**
 * The same view as the host: over project-skill layouts a team really ends up with (nested groups,
 * links in and out, a wrong-case name, a name that is not its folder's, a lowercase skill.md, no
 * frontmatter, a long description, one name in several folders), what create-squad says the Copilot
 * CLI does with each skill (`skills list --json`: `hosts`, refusals and warnings) is held to what the
 * real CLI's `skill list --json` does (CREATE_SQUAD_COPILOT_CLI, run by scripts/host-check.mjs), and,
 * everywhere, to what CLI 1.0.102 did when measured (the table below).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, runCli, tempDir, tempRepo, validSkill, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

const COPILOT = process.env.CREATE_SQUAD_COPILOT_CLI;

const skill = (fields: string, body = 'Steps to follow.\n') => `---\n${fields}\n---\n${body}`;

/** The layouts, in our own words: repo-relative path → file text, or a link (`link:` + target). */
function oddLayouts(outside: string): Record<string, string> {
  return {
    '.github/skills/plain-steps/SKILL.md': validSkill('plain-steps', 'Ordinary skill. Use when nothing is odd.'),
    '.github/skills/backend/api-errors/SKILL.md': validSkill('api-errors', 'Grouped one level down. Use when shaping API errors.'),
    '.github/skills/ops/deploy/canary/SKILL.md': validSkill('canary', 'Grouped two levels down. Use when rolling out a canary.'),
    '.github/skills/empty-group/README.md': '# Nothing here but notes\n',
    '.github/skills/wrong-case/SKILL.md': skill('name: Wrong-Case\ndescription: Name written with capitals.'),
    '.github/skills/release-steps/SKILL.md': skill('name: ship-checklist\ndescription: Name differs from the folder.'),
    '.github/skills/lower-file/skill.md': skill('name: lower-file\ndescription: File name in lowercase.'),
    '.github/skills/notes-only/SKILL.md': '# Notes\nNo frontmatter at all.\n',
    '.github/skills/long-desc/SKILL.md': skill(`name: long-desc\ndescription: ${'word '.repeat(230).trim()}`),
    '.github/skills/copy-one/SKILL.md': skill('name: shared-name\ndescription: First of two with one name.'),
    '.github/skills/copy-two/SKILL.md': skill('name: shared-name\ndescription: Second of two with one name.'),
    // The first by path in code points: "g-h/probe" before "g/probe" ("-" sorts before "/").
    '.github/skills/g/probe/SKILL.md': validSkill('probe', 'Probe in group g.'),
    '.github/skills/g-h/probe/SKILL.md': validSkill('probe', 'Probe in group g-h.'),
    // Also first by path: a grouped skill before a top-level one of the same name.
    '.github/skills/aa/dupe/SKILL.md': validSkill('dupe', 'Grouped, first by path.'),
    '.github/skills/zz-dupe/SKILL.md': skill('name: dupe\ndescription: Top level, later by path.'),
    '.github/skills/no-desc/SKILL.md': skill('name: no-desc', 'The body says what it does.\n'),
    '.github/skills/snake_case/SKILL.md': skill('name: snake_case\ndescription: Underscore in the name.'),
    '.github/skills/spaced/SKILL.md': skill('name: "spaced  name"\ndescription: Spaces in the name.'),
    '.github/skills/empty-name/SKILL.md': skill('name: ""\ndescription: Empty name.'),
    '.github/skills/bad-yaml/SKILL.md': skill('name: bad-yaml\ndescription: [never closed'),
    '.github/skills/_parked/SKILL.md': validSkill('parked', 'Parked by a leading underscore.'),
    '.github/skills/.hidden/SKILL.md': validSkill('hidden', 'Inside a dot folder.'),
    'docs/kept/linked-inside/SKILL.md': validSkill('linked-inside', 'Linked from elsewhere in the repository.'),
    '.github/skills/linked-inside': 'link:../../docs/kept/linked-inside',
    [`${outside}/linked-out/SKILL.md`]: validSkill('linked-out', 'Linked from outside the repository.'),
    '.github/skills/linked-out': `link:${outside}/linked-out`,
    // A SKILL.md at the top of a skills folder: the CLI takes the folder for one skill.
    '.agents/skills/SKILL.md': validSkill('whole-folder', 'A SKILL.md at the top of the folder.'),
    '.agents/skills/inside-whole/SKILL.md': validSkill('inside-whole', 'Hidden by the file above it.'),
  };
}

/** What the Copilot CLI 1.0.102 did with the layouts above, measured: repo-relative folder → the name it loaded, or null (not loaded). */
const MEASURED: Record<string, string | null> = {
  '.github/skills/plain-steps': 'plain-steps',
  '.github/skills/backend/api-errors': 'api-errors',
  '.github/skills/ops/deploy/canary': 'canary',
  '.github/skills/wrong-case': 'Wrong-Case',
  '.github/skills/release-steps': 'ship-checklist',
  '.github/skills/lower-file': null,
  '.github/skills/notes-only': null,
  '.github/skills/long-desc': null,
  '.github/skills/copy-one': 'shared-name',
  '.github/skills/copy-two': null,
  '.github/skills/g/probe': null,
  '.github/skills/g-h/probe': 'probe',
  '.github/skills/aa/dupe': 'dupe',
  '.github/skills/zz-dupe': null,
  '.github/skills/no-desc': 'no-desc',
  '.github/skills/snake_case': 'snake_case',
  '.github/skills/spaced': 'spaced-name',
  '.github/skills/empty-name': null,
  '.github/skills/bad-yaml': null,
  '.github/skills/_parked': 'parked',
  '.github/skills/.hidden': null,
  '.github/skills/linked-inside': 'linked-inside',
  '.github/skills/linked-out': 'linked-out',
  '.agents/skills': 'whole-folder',
  '.agents/skills/inside-whole': null,
};

function layOut(root: string, outside: string): void {
  for (const [rel, text] of Object.entries(oddLayouts(outside))) {
    const abs = path.isAbsolute(rel) ? rel : path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    if (text.startsWith('link:')) fs.symlinkSync(text.slice('link:'.length), abs);
    else writeFiles(path.dirname(abs), { [path.basename(abs)]: text });
  }
}

interface Listed {
  skills: { name: string; location: string; valid: boolean; hosts?: { copilotCli: { loads: boolean; as?: string; why?: string }; vscode: { loads: boolean } } }[];
  refused: { name: string; location: string }[];
}

/**
 * What create-squad says the Copilot CLI loads, by folder: a listed skill as its `hosts` say (or
 * under its own name), a refused link under its name, a folder set aside as the CLI names it, a
 * lowercase skill.md or a missing SKILL.md as nothing.
 */
async function predicted(root: string): Promise<Record<string, string | null>> {
  const list = await runCli(['skills', 'list', '--json'], { cwd: root });
  expect(list.code, list.stderr).toBe(0);
  const data = list.data<Listed>();
  const warnings = list.envelope().warnings;
  const says: Record<string, string | null> = {};
  const folderOf = (location: string) => (location.endsWith('/SKILL.md') ? location.slice(0, -'/SKILL.md'.length) : location);
  for (const s of data.skills) {
    if (s.location.startsWith('.ai-team/')) continue;
    const cli = s.hosts?.copilotCli;
    says[folderOf(s.location)] = cli === undefined ? s.name : cli.loads ? cli.as! : null;
  }
  for (const s of data.refused) says[folderOf(s.location)] = s.name;
  for (const w of warnings) {
    const where = (w as { path: string }).path;
    if (w.code === 'skill-set-aside') says[where] = path.posix.basename(where).replace(/^_+/, '');
    if (w.code === 'skill-file-case' || w.code === 'no-skill-file') says[where] = null;
    if (w.code === 'skills-folder-is-skill') says[folderOf(where)] = 'whole-folder';
    // A skill hidden by an earlier one of its folder's name is not listed: the CLI does not load it either.
    if (w.code === 'skill-overridden' && (w.message as string).includes('comes first')) says[folderOf(where)] = null;
  }
  // Dot folders are nobody's: create-squad says nothing of them, the CLI skips them.
  says['.github/skills/.hidden'] = null;
  return says;
}

async function oddSquad(): Promise<string> {
  const root = tempRepo();
  expect((await runCli(['init', '--yes'], { cwd: root })).code).toBe(0);
  layOut(root, tempDir('outside-'));
  return root;
}

/** One squad the read-only checks share. */
let shared: Promise<string> | undefined;
const readOnlySquad = () => (shared ??= oddSquad());

describe('odd project-skill layouts: what create-squad says each host does', () => {
  it('matches what the Copilot CLI 1.0.102 was measured to do, skill by skill', async () => {
    const root = await readOnlySquad();
    const says = await predicted(root);
    const odd = Object.fromEntries(Object.keys(MEASURED).map((folder) => [folder, says[folder]]));
    expect(odd).toEqual(MEASURED);
  });

  it('reads nested skills as the CLI does, says where VS Code differs, and doctor reports what hides skills', async () => {
    const root = await readOnlySquad();
    const list = await runCli(['skills', 'list', '--json'], { cwd: root });
    const data = list.data<Listed>();
    const nested = data.skills.find((s) => s.location === '.github/skills/backend/api-errors/SKILL.md');
    expect(nested).toMatchObject({ name: 'api-errors', valid: true, hosts: { copilotCli: { loads: true, as: 'api-errors' }, vscode: { loads: false } } });
    expect(data.skills.some((s) => s.location.startsWith('.github/skills/empty-group'))).toBe(false);
    expect(list.envelope().warnings).toContainEqual(expect.objectContaining({ code: 'no-skill-file', path: '.github/skills/empty-group' }));
    const text = await runCli(['skills', 'list'], { cwd: root });
    expect(text.stderr).toContain('skill .github/skills/wrong-case: the Copilot CLI loads it as "Wrong-Case"; VS Code may not');
    expect(text.stderr).toContain('.github/skills/_parked is set aside by create-squad (its name starts with "_"), but the Copilot CLI loads it');

    // A member's prompt offers the nested skill; prompt and route run over every odd folder.
    const prompt = await runCli(['prompt', 'fenster', '--task', 'shape the API errors'], { cwd: root });
    expect(prompt.code, prompt.stderr).toBe(0);
    expect(prompt.stdout).toContain('<location>.github/skills/backend/api-errors/SKILL.md</location>');

    const doctor = await runCli(['doctor', '--json'], { cwd: root });
    const findings = doctor.data<{ findings: { severity: string; code: string; path: string }[] }>().findings;
    expect(findings).toContainEqual(expect.objectContaining({ severity: 'error', code: 'skills-folder-is-skill', path: '.agents/skills/SKILL.md' }));
    expect(findings).toContainEqual(expect.objectContaining({ severity: 'warning', code: 'skill-host-differs', path: '.github/skills/release-steps/SKILL.md' }));
    expect(findings).toContainEqual(expect.objectContaining({ severity: 'warning', code: 'skill-set-aside', path: '.github/skills/_parked' }));
  });

  it('no command refuses to run over files it does not write; the nested skill travels under its own name', async () => {
    const root = await oddSquad();
    for (const args of [
      ['upgrade', '--json'],
      ['hire', 'Data Engineer', '--json'],
      ['teach', '--team', 'Name every migration after its ticket', '--name', 'migration-names', '--json'],
      ['teach', 'fenster', 'Prefer small pull requests', '--json'],
      ['role', 'fenster', 'Frontend Lead', '--json'],
      ['route', 'shape the API errors', '--json'],
      ['members', '--json'],
      ['skills', 'validate', '--json'],
    ]) {
      const run = await runCli(args, { cwd: root });
      // skills validate exits 1 on the invalid skills it lists; it must still run over all of them.
      expect(run.envelope().ok || args[1] === 'validate', `${args.join(' ')}: ${run.stderr}`).toBe(true);
    }
    const file = path.join(tempDir(), 'odd.squad');
    const exported = await runCli(['export', '--out', file], { cwd: root });
    expect(exported.code, exported.stderr).toBe(0);
    const document = JSON.parse(fs.readFileSync(file, 'utf8')) as { team_skills: Record<string, { skill_md: string }> };
    expect(document.team_skills['api-errors']?.skill_md).toContain('Grouped one level down.');
    expect(document.team_skills.canary?.skill_md).toContain('Grouped two levels down.');
    expect(document.team_skills.probe?.skill_md).toContain('Probe in group g-h.');
    expect(exported.stdout + exported.stderr).toContain('.github/skills/g/probe');

    // Imported, each lands directly in .github/skills/ (where every host finds it); exported again, nothing differs.
    const target = tempRepo();
    expect((await runCli(['import', file], { cwd: target })).code).toBe(0);
    expect(fs.existsSync(path.join(target, '.github/skills/api-errors/SKILL.md'))).toBe(true);
    const again = path.join(tempDir(), 'again.squad');
    expect((await runCli(['export', '--out', again], { cwd: target })).code).toBe(0);
    const second = JSON.parse(fs.readFileSync(again, 'utf8')) as typeof document;
    expect(second.team_skills).toEqual(document.team_skills);
  });
});

describe('against the real Copilot CLI', () => {
  it.skipIf(!COPILOT)('skill list --json loads exactly what create-squad says it loads, under the names it says', async () => {
    const root = await readOnlySquad();
    const says = await predicted(root);
    const run = spawnSync(COPILOT!, ['skill', 'list', '--json'], { cwd: root, env: { ...process.env, HOME: tempDir('home-') }, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    const listed = JSON.parse(run.stdout.slice(run.stdout.indexOf('['))) as { name: string; source: string; path: string }[];
    const real = fs.realpathSync(root);
    // A folder linked in is named by its link (the CLI reports where it found it).
    const loaded = Object.fromEntries(listed.filter((s) => s.source === 'project').map((s) => [path.relative(real, s.path).split(path.sep).join('/'), s.name]));
    const sayLoaded = Object.fromEntries(Object.entries(says).filter(([, name]) => name !== null));
    expect(loaded).toEqual(sayLoaded);
    // And the folders create-squad says it skips are not loaded.
    for (const [folder, name] of Object.entries(says)) if (name === null) expect(loaded[folder]).toBeUndefined();
  });
});
