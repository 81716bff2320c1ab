/**
 * Values that a later command would refuse are refused by the first one, at the door: one line
 * saying what is wrong and how to fix it, exit 1 (2 for usage), nothing written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { squadPaths } from '../../src/core/base/paths.js';
import { cleanupTempDirs, hashTree, initSquad, runCli, tempDir, tempRepo, validSkill, writeFiles, type CliResult } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

async function squad(): Promise<string> {
  const root = tempRepo();
  const init = await runCli(['init', '--yes'], { cwd: root });
  if (init.code !== 0) throw new Error(init.stderr);
  return root;
}

/** Run a command that must be refused with exit `code` and this one line, leaving `root` as it was. */
async function expectRefused(root: string, args: string[], code: 1 | 2, line: string | RegExp, cwd = root): Promise<CliResult> {
  const before = hashTree(root);
  const result = await runCli(args, { cwd });
  expect(result.code, result.stderr).toBe(code);
  const lines = result.stderr.trim().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  if (typeof line === 'string') expect(lines[0]).toBe(line);
  else expect(lines[0]).toMatch(line);
  expect(hashTree(root)).toBe(before);
  return result;
}

describe('names that export would refuse', () => {
  it('hire --name refuses a name whose folder is a Windows device name, so export keeps working', async () => {
    const root = await squad();
    for (const name of ['Con', 'aux', 'COM1', 'Nul']) {
      await expectRefused(
        root,
        ['hire', 'Designer', '--name', name],
        2,
        `✗ the name "${name}" cannot be used: its folder name "${name.toLowerCase()}" is a device name Windows reserves — use a plain name, e.g. --name Kobayashi`,
      );
    }
    expect((await runCli(['hire', 'Designer', '--name', 'Connie'], { cwd: root })).code).toBe(0);
    expect((await runCli(['export', '--dry-run'], { cwd: root })).code).toBe(0);
  });

  it('teach --name refuses a device name, as export refuses such a skill', async () => {
    const root = await squad();
    await expectRefused(root, ['teach', 'keaton', 'use ADRs', '--name', 'aux'], 2, /^✗ skill name "aux" is a device name Windows reserves — /);
  });

  it('skills add refuses a skill named like a Windows device, as export would', async () => {
    const root = await squad();
    const dir = tempDir();
    writeFiles(dir, { 'aux/SKILL.md': validSkill('aux') });
    for (const args of [[], ['--agent', 'keaton']]) {
      await expectRefused(
        root,
        ['skills', 'add', path.join(dir, 'aux'), ...args],
        1,
        '✗ skill name "aux" is a device name Windows reserves — rename the skill (its folder and its name field), or add it to one agent with --agent',
      );
    }
  });

  it('init refuses a hand-made roster member whose folder would be a device name', async () => {
    const root = tempRepo();
    writeFiles(root, {
      [squadPaths.team]: '# Team\n\n## Members\n\n| Name | Role | Charter | Status |\n|------|------|---------|--------|\n| Con | Lead | | ✅ Active |\n',
    });
    await expectRefused(
      root,
      ['init', '--yes'],
      1,
      `✗ ${squadPaths.team} lists Con, whose folder cannot be made: the folder name "con" is a device name Windows reserves — rename that member in ${squadPaths.team}, then run init again; nothing was written`,
    );
  });
});

describe('init and import in a folder inside a squad', () => {
  it('init refuses a --cwd or a folder inside .ai-team/, which would nest a second squad', async () => {
    const root = await squad();
    const squadDir = path.join(root, '.ai-team');
    const hint = `run the command in the repository itself (${root}), or choose a folder outside .ai-team/; nothing was written`;
    // Pointed inside the squad folder, init finds the squad it is in (as git finds its repository).
    const inside = await runCli(['init', '--yes', '--json', '--cwd', '.ai-team'], { cwd: root });
    expect(inside.data()).toMatchObject({ dir: root, created: [] });
    await expectRefused(
      root,
      ['init', 'agents/new', '--yes'],
      1,
      `✗ ${path.join(squadDir, 'agents/new')} is inside the squad folder ${squadDir}: a squad there would be nested in that squad — ${hint}`,
      squadDir,
    );
    // Through a symlink too.
    const link = path.join(tempDir(), 'link');
    fs.symlinkSync(path.join(squadDir, 'skills'), link);
    await expectRefused(root, ['init', '--yes', '--cwd', link], 1, /^✗ .* is inside the squad folder .*\.ai-team: a squad there would be nested/);
    // A folder beside it is fine.
    expect((await runCli(['init', 'packages/web', '--yes'], { cwd: root })).code).toBe(0);
  });

  it('import refuses it too', async () => {
    const source = await squad();
    const file = path.join(tempDir(), 'team.squad');
    expect((await runCli(['export', '--out', file], { cwd: source })).code).toBe(0);
    const root = await squad();
    // Pointed inside the squad folder, import acts on that squad, which it replaces only with --force.
    await expectRefused(root, ['import', file, '--cwd', '.ai-team/agents'], 1, /^✗ .* already has a squad/);
    const link = path.join(tempDir(), 'link');
    fs.symlinkSync(path.join(root, '.ai-team/agents'), link);
    await expectRefused(root, ['import', file, '--cwd', link], 1, /^✗ .*\/link is inside the squad folder .*\/\.ai-team: a squad there would be nested/);
  });
});

describe('--cwd', () => {
  it('an empty --cwd is a usage error, not the current folder', async () => {
    const root = await squad();
    for (const args of [['init', '--yes'], ['hire', 'Designer'], ['doctor'], ['skills', 'list']]) {
      await expectRefused(root, [...args, '--cwd', ''], 2, '✗ --cwd is empty — give the folder of the repository, e.g. --cwd . for the current one');
    }
  });
});

describe('import of values it would write but no command can use', () => {
  async function importRefused(document: unknown, line: RegExp, raw?: string): Promise<void> {
    const file = path.join(tempDir(), 'bad.squad');
    fs.writeFileSync(file, raw ?? JSON.stringify(document));
    await expectRefused(tempRepo(), ['import', file], 1, line);
  }
  const base = (extra: Record<string, unknown>) => ({ squad_format_version: '1.1', agents: { keaton: { charter: '# Keaton\n', skills: {} } }, ...extra });
  const member = (fields: Record<string, unknown>) => base({ casting: { registry: { members: [{ name: 'Keaton', folder: 'keaton', role: 'Lead', universe: null }, fields] } } });

  it('a registry member with a name that is not a string, or a folder such as ../x', async () => {
    await importRefused(
      member({ name: 42, folder: 'x', role: 'Dev' }),
      /^✗ invalid \.squad file: casting\.registry\.members\[1\]: not a registry member create-squad can use: "name" is not a non-empty string — nothing was written/,
    );
    await importRefused(
      member({ name: 'X', folder: '../x', role: 'Dev' }),
      /^✗ invalid \.squad file: casting\.registry\.members\[1\]: not a registry member create-squad can use: "folder" "\.\.\/x" may only contain lowercase letters/,
    );
    await importRefused(member({ name: 'Con', folder: 'con', role: 'Dev' }), /casting\.registry\.members\[1\]: .*"folder" "con" is a device name Windows reserves/);
    await importRefused(member({ name: 'X', folder: 'x', role: 7 }), /casting\.registry\.members\[1\]: .*"role" is not a string/);
    await importRefused(base({ casting: { registry: { members: ['keaton'] } } }), /casting\.registry\.members\[0\]: not a registry member create-squad can use: it is a string/);
    // An original Squad export's registry is held to the same rule for its members list.
    await importRefused(
      { version: '1.0', agents: { keaton: { charter: '# Keaton\n' } }, casting: { registry: { members: [{ name: ['K'], folder: 'keaton' }] } } },
      /casting\.registry\.members\[0\]: .*"name" is not a non-empty string/,
    );
  });

  it('a file key with a lone surrogate, which the file system would silently rename', async () => {
    const document = base({ team_skills: { api: { skill_md: validSkill('api'), references: { 'placeholder.md': 'x' } } } });
    const raw = JSON.stringify(document).replace('placeholder.md', 'a\\ud800.md');
    await importRefused(undefined, /^✗ invalid \.squad file: team_skills\.api\.references\["a\\ud800\.md"\]: the path contains a lone surrogate/, raw);
  });
});

describe('skills add refuses the files export would refuse', () => {
  /** A valid skill folder `name` holding `extra` files besides its SKILL.md. */
  function skillWith(name: string, extra: Record<string, string>): string {
    const dir = tempDir();
    writeFiles(dir, { [`${name}/SKILL.md`]: validSkill(name), ...Object.fromEntries(Object.entries(extra).map(([rel, text]) => [`${name}/${rel}`, text])) });
    return path.join(dir, name);
  }

  it.each([
    ['a control character', { 'notes\u001b[31m.md': 'x' }, 'notes\\u001b[31m.md: the path contains a control character'],
    ['a case-only twin', { 'Guide.md': 'x', 'guide.md': 'y' }, 'guide.md: the same file as "Guide.md" once case and Unicode normalisation are ignored'],
    ['a colon', { 'a:b.md': 'x' }, 'a:b.md: the path is not portable: ":" is a character Windows does not allow in file names'],
    ['a trailing dot', { 'references/draft.': 'x' }, 'references/draft.: the path is not portable: "draft." ends with a dot or a space, which Windows drops'],
    [
      'a path over 512 characters',
      { [`${'d'.repeat(200)}/${'e'.repeat(200)}/${'f'.repeat(200)}.md`]: 'x' },
      `${'d'.repeat(200)}/${'e'.repeat(200)}/${'f'.repeat(200)}.md: the path is 605 characters; the limit is 512`,
    ],
  ])('%s: one line naming the path, nothing written', async (_what, extra, line) => {
    const root = await initSquad();
    const source = skillWith('api-notes', extra);
    await expectRefused(
      root,
      ['skills', 'add', source],
      1,
      `✗ ${source}/${line} — rename or remove those files so every system can hold them (export and import refuse them too); nothing was written`,
    );
  });

  it('names the first offending file and counts the others', async () => {
    const root = await initSquad();
    const source = skillWith('api-notes', { 'ok.md': 'x', 'x|y.md': 'x', 'CON.txt': 'x', 'z\u0007.md': 'x' });
    await expectRefused(
      root,
      ['skills', 'add', source, '--agent', 'keaton'],
      1,
      /^✗ .*\/CON\.txt: the path is not portable: "CON\.txt" is a device name Windows reserves \(and 2 other files\) — /,
    );
  });

  it('a skill it accepts, export carries', async () => {
    const root = await initSquad();
    const source = skillWith('api-notes', { 'references/guide.md': 'x', 'scripts/run.sh': 'echo', 'assets/a b.txt': 'x' });
    expect((await runCli(['skills', 'add', source], { cwd: root })).code).toBe(0);
    expect((await runCli(['export', '--dry-run'], { cwd: root })).code).toBe(0);
  });
});

describe('import refuses a file the commands after it could not read', () => {
  it('a 7 MB charter, named, instead of a squad whose prompt and route fail', async () => {
    const file = path.join(tempDir(), 'big.squad');
    const charter = `# Keaton\n\n${'A very long charter line. '.repeat(300_000)}`;
    fs.writeFileSync(file, JSON.stringify({ squad_format_version: '1.1', agents: { keaton: { charter, skills: {} } } }));
    await expectRefused(
      tempRepo(),
      ['import', file],
      1,
      '✗ cannot import: .ai-team/agents/keaton/charter.md would be 7.4 MB; create-squad reads a squad file up to 4 MB, so prompt, route and export would refuse it — shorten that file in the squad it came from (move old notes out of it), then export again; nothing was written',
    );
  });

  it('the team rules file too, while a file just under the limit imports', async () => {
    const file = path.join(tempDir(), 'rules.squad');
    const document = (rules: string) => JSON.stringify({ squad_format_version: '1.1', team: { rules_md: rules }, agents: { keaton: { charter: '# Keaton\n', skills: {} } } });
    fs.writeFileSync(file, document('r'.repeat(4 * 1024 * 1024 + 1)));
    await expectRefused(tempRepo(), ['import', file], 1, /^✗ cannot import: \.ai-team\/rules\.md would be 4 MB; create-squad reads a squad file up to 4 MB/);
    fs.writeFileSync(file, document('r'.repeat(4 * 1024 * 1024)));
    const root = tempRepo();
    expect((await runCli(['import', file], { cwd: root })).code).toBe(0);
    expect((await runCli(['prompt', 'keaton', '--task', 'plan the release'], { cwd: root })).code).toBe(0);
  });
});
