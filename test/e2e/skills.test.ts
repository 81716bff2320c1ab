import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSkill } from '../../src/core/skills/skill.js';
import { validateSkill } from '../../src/core/skills/validate.js';
import { cleanupTempDirs, hashTree, runCli, skillMd, tempDir, tempRepo, validSkill, writeFiles } from '../helpers/cli.js';
import { deadPid, debrisLeft } from '../helpers/debris.js';

afterAll(cleanupTempDirs);

const TEAM_MD = `# Team Roster

## Members

| Name | Role | Charter | Status |
|------|------|---------|--------|
| Keaton | Lead | \`.ai-team/agents/keaton/charter.md\` | ✅ Active |
| Fenster | Core Dev | \`.ai-team/agents/fenster/charter.md\` | ✅ Active |
`;

/** A small squad written by hand (what init would leave, minus what these tests do not need). */
function squadRepo(extra: Record<string, string> = {}): string {
  const root = tempRepo();
  writeFiles(root, {
    '.ai-team/team.md': TEAM_MD,
    '.ai-team/agents/keaton/charter.md': '# Keaton\n',
    '.ai-team/agents/fenster/charter.md': '# Fenster\n',
    '.ai-team/skills/squad-git-workflow/SKILL.md': validSkill('squad-git-workflow', 'Git workflow.', 'metadata:\n  author: squad\n  version: "1.0"'),
    ...extra,
  });
  return root;
}

function assertValidSkillFile(file: string): void {
  const parsed = parseSkill(fs.readFileSync(file, 'utf8'), file);
  const result = validateSkill({ ...parsed, dirName: path.basename(path.dirname(file)) });
  expect(result.errors).toEqual([]);
  expect(result.warnings).toEqual([]);
}

interface ValidateJson {
  strict: boolean;
  skills: { path: string; name: string; valid: boolean; errors: { code: string; message: string; line?: number }[]; warnings: { code: string }[] }[];
  skipped: { path: string; message: string }[];
  summary: { checked: number; valid: number; invalid: number; errors: number; warnings: number };
}

describe('skills validate', () => {
  it('accepts a good skill folder, a SKILL.md path and a folder of skills', async () => {
    const cwd = tempDir();
    writeFiles(cwd, {
      'lib/pdf/SKILL.md': validSkill('pdf'),
      'lib/csv/SKILL.md': validSkill('csv'),
      'lib/csv/references/guide.md': '# guide',
      'lib/notes/readme.txt': 'not a skill',
    });
    for (const args of [['lib/pdf'], ['lib/pdf/SKILL.md'], ['lib']]) {
      const result = await runCli(['skills', 'validate', ...args, '--json'], { cwd });
      expect(result.code, result.stderr).toBe(0);
      expect(result.envelope().ok).toBe(true);
      const data = result.data<ValidateJson>();
      expect(data.skills.every((s) => s.valid)).toBe(true);
    }
    const folder = (await runCli(['skills', 'validate', 'lib', '--json'], { cwd })).data<ValidateJson>();
    expect(folder.skills.map((s) => s.path)).toEqual(['lib/csv/SKILL.md', 'lib/pdf/SKILL.md']);
    expect(folder.skipped).toEqual([{ path: 'lib/notes', message: 'lib/notes has no SKILL.md' }]);
    expect(folder.summary).toEqual({ checked: 2, valid: 2, invalid: 0, errors: 0, warnings: 0 });
  });

  it('reports bad skills with codes and lines, exit 1', async () => {
    const cwd = tempDir();
    writeFiles(cwd, {
      'bad/Upper/SKILL.md': validSkill('Upper'),
      'bad/broken-yaml/SKILL.md': '---\nname: broken-yaml\ndescription: Use when: broken\n---\n',
      'bad/long-desc/SKILL.md': validSkill('long-desc', 'd'.repeat(1025)),
      'bad/fine/SKILL.md': validSkill('fine'),
    });
    const result = await runCli(['skills', 'validate', 'bad', '--json'], { cwd });
    expect(result.code).toBe(1);
    // A report that found failures: ok false, with its data (not an error).
    expect(result.envelope()).toMatchObject({ ok: false, data: { strict: false } });
    const data = result.data<ValidateJson>();
    const byName = Object.fromEntries(data.skills.map((s) => [s.path.split('/')[1], s]));
    expect(byName.Upper!.errors.map((e) => e.code)).toEqual(['name-uppercase']);
    expect(byName['broken-yaml']!.errors[0]).toMatchObject({ code: 'frontmatter-yaml', line: 3 });
    expect(byName['long-desc']!.errors.map((e) => e.code)).toEqual(['description-too-long']);
    expect(byName.fine!.valid).toBe(true);
    expect(data.summary).toMatchObject({ checked: 4, valid: 1, invalid: 3 });
  });

  it('passes warnings without --strict and fails them with it', async () => {
    const cwd = tempDir();
    writeFiles(cwd, { 'warn/SKILL.md': validSkill('warn', 'd', 'tags: [a]') });
    const loose = await runCli(['skills', 'validate', 'warn'], { cwd });
    expect(loose.code).toBe(0);
    expect(loose.stdout).toContain('warning');
    const strict = await runCli(['skills', 'validate', 'warn', '--strict', '--json'], { cwd });
    expect(strict.code).toBe(1);
    expect(strict.data<ValidateJson>()).toMatchObject({ strict: true, summary: { invalid: 1, warnings: 1 } });
    const strictText = await runCli(['skills', 'validate', 'warn', '--strict'], { cwd });
    expect(strictText.stdout).toContain('    error  field "tags" is not part of the Agent Skills standard');
    expect(strictText.stdout).toContain('1 skill checked: 0 valid, 1 invalid (1 error under --strict: 0 from the rules, 1 from warnings)');
  });

  it('validates the whole squad when no path is given', async () => {
    const cwd = squadRepo({ '.ai-team/agents/fenster/skills/bad/SKILL.md': skillMd('name: bad') });
    const result = await runCli(['skills', 'validate', '--json'], { cwd });
    expect(result.code).toBe(1);
    const data = result.data<ValidateJson>();
    expect(data.skills.map((s) => [s.path, s.valid])).toEqual([
      ['.ai-team/skills/squad-git-workflow/SKILL.md', true],
      ['.ai-team/agents/fenster/skills/bad/SKILL.md', false],
    ]);
  });

  it('refuses a path that does not exist, or holds no skill', async () => {
    const cwd = tempDir();
    fs.mkdirSync(path.join(cwd, 'empty'));
    const missing = await runCli(['skills', 'validate', 'nope'], { cwd });
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toMatch(/^✗ nope does not exist — /);
    const empty = await runCli(['skills', 'validate', 'empty'], { cwd });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/no SKILL\.md in empty/);
  });

  it('points out a lowercase skill.md', async () => {
    const cwd = tempDir();
    writeFiles(cwd, { 'lower/skill.md': validSkill('lower') });
    const result = await runCli(['skills', 'validate', 'lower'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^✗ lower has skill\.md; the standard file name is SKILL\.md \(rename it\)/);
  });
});

describe('skills list', () => {
  it('lists scopes, versions, MCP servers and validity', async () => {
    const cwd = squadRepo({
      '.ai-team/skills/db/SKILL.md': skillMd(
        'name: db\ndescription: Databases.\nmetadata:\n  version: "2.1"\n  mcp-servers:\n    - name: postgres\n    - name: ado\n      optional: true',
      ),
      '.ai-team/agents/fenster/skills/react/SKILL.md': validSkill('react'),
      '.ai-team/agents/keaton/skills/broken/SKILL.md': '# nothing',
    });
    const text = await runCli(['skills', 'list'], { cwd });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/squad-git-workflow\s+builtin\s+1\.0\s+-\s+✓ valid/);
    expect(text.stdout).toMatch(/db\s+team\s+2\.1\s+postgres, ado\?\s+✓ valid/);
    expect(text.stdout).toMatch(/react\s+agent:fenster/);
    expect(text.stdout).toMatch(/broken\s+agent:keaton\s+-\s+-\s+✗ 1 error/);

    const json = await runCli(['skills', 'list', '--agent', 'Fenster', '--json'], { cwd });
    expect(json.code).toBe(0);
    const data = json.data<{ agent: string; skills: { name: string; scope: string; mcpServers: unknown[] }[] }>();
    expect(data.agent).toBe('fenster');
    expect(data.skills.map((s) => `${s.scope}:${s.name}`)).toEqual(['builtin:squad-git-workflow', 'team:db', 'agent:react']);
  });

  it('lists the agents when --agent is unknown', async () => {
    const result = await runCli(['skills', 'list', '--agent', 'mcmanus'], { cwd: squadRepo() });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('✗ no agent named "mcmanus" in this squad — agents: keaton, fenster');
  });
});

describe('skills add', () => {
  function source(): string {
    const dir = tempDir();
    writeFiles(dir, {
      'api-design/SKILL.md': validSkill('api-design', 'REST API conventions.', 'metadata:\n  version: "1.0"'),
      'api-design/references/pagination.md': '# Pagination\n',
      'api-design/scripts/check.sh': '#!/bin/sh\necho ok\n',
      'api-design/assets/logo.bin': Buffer.from([0, 1, 2, 255, 254]),
    });
    fs.chmodSync(path.join(dir, 'api-design/scripts/check.sh'), 0o755);
    return path.join(dir, 'api-design');
  }

  it('installs a skill folder into the team scope, every file and the executable bit', async () => {
    const cwd = squadRepo();
    const src = source();
    const result = await runCli(['skills', 'add', src, '--json'], { cwd });
    expect(result.code, result.stderr).toBe(0);
    expect(result.data()).toMatchObject({ name: 'api-design', scope: 'team', destination: '.github/skills/api-design' });
    const dest = path.join(cwd, '.github/skills/api-design');
    expect(hashTree(dest)).toBe(hashTree(src));
    expect(fs.statSync(path.join(dest, 'scripts/check.sh')).mode & 0o111).not.toBe(0);
    assertValidSkillFile(path.join(dest, 'SKILL.md'));
    expect(fs.readdirSync(path.join(cwd, '.ai-team/skills')).sort()).toEqual(['squad-git-workflow']);
    expect(fs.readdirSync(path.join(cwd, '.github/skills')).sort()).toEqual(['api-design']);
  });

  it('installs into one agent with --agent', async () => {
    const cwd = squadRepo();
    const result = await runCli(['skills', 'add', source(), '--agent', 'fenster'], { cwd });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('.ai-team/agents/fenster/skills/api-design/');
    assertValidSkillFile(path.join(cwd, '.ai-team/agents/fenster/skills/api-design/SKILL.md'));
  });

  it('refuses to replace an existing skill without --force, then backs it up with --force', async () => {
    const cwd = squadRepo({ '.ai-team/skills/api-design/SKILL.md': validSkill('api-design', 'My own edits.') });
    const before = hashTree(path.join(cwd, '.ai-team'));
    const refused = await runCli(['skills', 'add', source()], { cwd });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^✗ a skill already exists at \.ai-team\/skills\/api-design — pass --force/);
    expect(hashTree(path.join(cwd, '.ai-team'))).toBe(before);

    const forced = await runCli(['skills', 'add', source(), '--force', '--json'], { cwd });
    expect(forced.code, forced.stderr).toBe(0);
    const backup = forced.data<{ backup: string }>().backup;
    expect(backup).toMatch(/^\.ai-team\/backups\/[\dT-]+Z\/\.ai-team\/skills\/api-design$/);
    expect(fs.readFileSync(path.join(cwd, backup, 'SKILL.md'), 'utf8')).toContain('My own edits.');
    // The new version goes where team skills live now; the old one, left from before, is in the backup.
    expect(fs.readFileSync(path.join(cwd, '.github/skills/api-design/SKILL.md'), 'utf8')).toContain('REST API conventions.');
    expect(fs.existsSync(path.join(cwd, '.ai-team/skills/api-design'))).toBe(false);
  });

  it('refuses a file over the size limit, naming it and how to raise the limit, and writes nothing', async () => {
    const cwd = squadRepo();
    const src = source();
    const before = hashTree(cwd);
    // Sparse: as large as it says, without using the disk.
    fs.truncateSync(path.join(src, 'assets/logo.bin'), 3 * 1024 ** 3);
    for (const flags of [[], ['--dry-run'], ['--force']]) {
      const result = await runCli(['skills', 'add', `${src}/`, ...flags], { cwd });
      expect(result.code, flags.join(' ')).toBe(1);
      expect(result.stderr).toBe(
        `✗ ${src}/assets/logo.bin is 3072 MB (3221225472 bytes); skills add copies files up to 8 MB (8388608 bytes) — leave that file out of the skill, or raise the limit with CREATE_SQUAD_MAX_FILE_BYTES=<bytes> (export cannot carry a file over 8 MB); nothing was written\n`,
      );
    }
    fs.truncateSync(path.join(src, 'assets/logo.bin'), 8 * 1024 * 1024 + 1);
    expect((await runCli(['skills', 'add', src], { cwd })).stderr).toContain('logo.bin is 8 MB (8388609 bytes); skills add copies files up to 8 MB (8388608 bytes)');
    expect(hashTree(cwd)).toBe(before);

    // The environment sets the limit, both ways.
    fs.truncateSync(path.join(src, 'assets/logo.bin'), 2000);
    const lower = await runCli(['skills', 'add', src], { cwd, env: { CREATE_SQUAD_MAX_FILE_BYTES: '1000' } });
    expect(lower.stderr).toContain('logo.bin is 2 KB (2000 bytes); skills add copies files up to 1000 bytes');
    const bad = await runCli(['skills', 'add', src], { cwd, env: { CREATE_SQUAD_MAX_FILE_BYTES: '1e9' } });
    expect(bad.stderr).toMatch(/^✗ CREATE_SQUAD_MAX_FILE_BYTES is "1e9", not a number of bytes/);
    expect(hashTree(cwd)).toBe(before);
    const raised = await runCli(['skills', 'add', src], { cwd, env: { CREATE_SQUAD_MAX_FILE_BYTES: '2000' } });
    expect(raised.code, raised.stderr).toBe(0);
    expect(hashTree(path.join(cwd, '.github/skills/api-design'))).toBe(hashTree(src));
  });

  it('refuses an invalid skill and writes nothing', async () => {
    const cwd = squadRepo();
    const dir = tempDir();
    writeFiles(dir, { 'Bad/SKILL.md': validSkill('Bad') });
    const before = hashTree(cwd);
    const result = await runCli(['skills', 'add', path.join(dir, 'Bad')], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/is not a valid skill: name "Bad" must be lowercase/);
    expect(hashTree(cwd)).toBe(before);
  });

  it('refuses the reserved squad- prefix in the team scope', async () => {
    const cwd = squadRepo();
    const dir = tempDir();
    writeFiles(dir, { 'squad-mine/SKILL.md': validSkill('squad-mine') });
    const result = await runCli(['skills', 'add', path.join(dir, 'squad-mine')], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('reserved for built-in skills');
  });

  it('does not copy symlinks or .git data, says so, and --dry-run writes nothing', async () => {
    const cwd = squadRepo();
    const src = source();
    fs.symlinkSync('/etc/passwd', path.join(src, 'references', 'passwd'));
    writeFiles(src, { '.git/HEAD': 'ref: refs/heads/main\n' });
    const before = hashTree(cwd);
    const dry = await runCli(['skills', 'add', src, '--dry-run', '--json'], { cwd });
    expect(dry.code).toBe(0);
    expect(dry.data()).toMatchObject({ dryRun: true, skipped: ['references/passwd'], git: ['.git'] });
    expect((await runCli(['skills', 'add', src, '--dry-run'], { cwd })).stderr).toContain(".git is git's own data; not copied");
    expect(hashTree(cwd)).toBe(before);
    const real = await runCli(['skills', 'add', src], { cwd });
    expect(real.code).toBe(0);
    expect(real.stderr).toContain('references/passwd is a symlink');
    expect(fs.existsSync(path.join(cwd, '.github/skills/api-design/references/passwd'))).toBe(false);
  });
});

describe('teach', () => {
  it('creates a valid user-taught skill for an agent', async () => {
    const cwd = squadRepo();
    const result = await runCli(['teach', 'fenster', 'Always use Tailwind CSS for styling', '--skill', '--json'], { cwd });
    expect(result.code, result.stderr).toBe(0);
    const data = result.data<{ name: string; path: string }>();
    expect(data).toMatchObject({ name: 'tailwind-css-styling', scope: 'agent', agent: 'fenster' });
    const file = path.join(cwd, data.path);
    assertValidSkillFile(file);
    const { frontmatter } = parseSkill(fs.readFileSync(file, 'utf8'));
    expect(frontmatter.metadata).toMatchObject({ author: 'user-taught', version: '1.0' });
  });

  it('teaches the team with --team and a chosen --name', async () => {
    const cwd = squadRepo();
    const result = await runCli(['teach', '--team', 'Squash-merge every pull request', '--name', 'merge-policy'], { cwd });
    expect(result.code, result.stderr).toBe(0);
    assertValidSkillFile(path.join(cwd, '.github/skills/merge-policy/SKILL.md'));
    const list = await runCli(['skills', 'list', '--agent', 'keaton', '--json'], { cwd });
    expect(list.data<{ skills: { name: string }[] }>().skills.map((s) => s.name)).toContain('merge-policy');
  });

  it('lists the agents when the agent is unknown, and writes nothing', async () => {
    const cwd = squadRepo();
    const before = hashTree(cwd);
    const result = await runCli(['teach', 'mcmanus', 'write docs'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('✗ no agent named "mcmanus" in this squad — agents: keaton, fenster');
    expect(hashTree(cwd)).toBe(before);
  });

  it('refuses to overwrite an existing skill', async () => {
    const cwd = squadRepo();
    expect((await runCli(['teach', 'keaton', 'use ADRs', '--name', 'adrs'], { cwd })).code).toBe(0);
    const file = path.join(cwd, '.ai-team/agents/keaton/skills/adrs/SKILL.md');
    fs.appendFileSync(file, '\nMy edit.\n');
    const again = await runCli(['teach', 'keaton', 'something else', '--name', 'adrs'], { cwd });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
    expect(fs.readFileSync(file, 'utf8')).toContain('My edit.');
  });

  it('refuses a file where the skill folder goes, and writes nothing', async () => {
    const cwd = squadRepo({ '.ai-team/agents/keaton/skills/adrs': 'a file' });
    const before = hashTree(cwd);
    const result = await runCli(['teach', 'keaton', 'use ADRs', '--name', 'adrs'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('✗ .ai-team/agents/keaton/skills/adrs is in the way: it is not a skill folder — pick another name with --name, or move that file aside');
    expect(hashTree(cwd)).toBe(before);
  });

  it('reports usage errors with exit 2', async () => {
    const cwd = squadRepo();
    expect((await runCli(['teach', 'fenster'], { cwd })).code).toBe(2);
    expect((await runCli(['teach', '--team'], { cwd })).code).toBe(2);
    expect((await runCli(['teach', '--team', 'fenster', 'x'], { cwd })).code).toBe(2);
    expect((await runCli(['teach', 'fenster', 'x', '--name', 'Bad Name'], { cwd })).code).toBe(2);
    expect((await runCli(['teach', '--team', 'x', '--name', 'squad-x'], { cwd })).code).toBe(1);
  });
});

describe('teach interrupted', () => {
  const args = ['teach', 'keaton', 'Write an ADR for every architecture decision', '--name', 'adrs'];
  const skillDir = '.ai-team/agents/keaton/skills/adrs';

  /** The squad as an uninterrupted teach leaves it, and how many writes that teach makes. */
  async function reference(): Promise<{ expected: string; total: number }> {
    const cwd = squadRepo();
    let total = 0;
    while ((await runCli(args, { cwd: squadRepo(), env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(total + 1) } })).code === -1) total += 1;
    expect((await runCli(args, { cwd })).code).toBe(0);
    return { expected: fs.readFileSync(path.join(cwd, skillDir, 'SKILL.md'), 'utf8'), total };
  }

  it('after a kill after any of its writes, a rerun leaves the one skill it teaches', async () => {
    const { expected, total } = await reference();
    expect(total).toBeGreaterThan(0);
    for (let k = 1; k <= total; k += 1) {
      const cwd = squadRepo();
      expect((await runCli(args, { cwd, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(k) } })).code, `k=${k}`).toBe(-1);
      const again = await runCli(args, { cwd });
      // Killed after its last write, the job is done: the rerun says the skill is there.
      if (k === total) expect(again.stderr, `k=${k}`).toMatch(/already exists/);
      else expect(again.code, `k=${k}: ${again.stderr}`).toBe(0);
      expect(fs.readFileSync(path.join(cwd, skillDir, 'SKILL.md'), 'utf8'), `k=${k}`).toBe(expected);
      expect(fs.readdirSync(path.join(cwd, skillDir)), `k=${k}`).toEqual(['SKILL.md']);
    }
  });

  it('killed after making the skill folder, before SKILL.md lands: the rerun finishes the job', async () => {
    const { expected } = await reference();
    const empty = squadRepo();
    fs.mkdirSync(path.join(empty, skillDir), { recursive: true });
    const withTemp = squadRepo({ [`${skillDir}/.SKILL.md.${deadPid()}.0123abcd.tmp`]: '---\nname: ad' });
    for (const cwd of [empty, withTemp]) {
      const again = await runCli(args, { cwd });
      expect(again.code, again.stderr).toBe(0);
      expect(fs.readFileSync(path.join(cwd, skillDir, 'SKILL.md'), 'utf8')).toBe(expected);
      expect(debrisLeft(cwd)).toEqual([]);
    }
  });
});

describe('skills validate and list agree', () => {
  it('lists folders without a SKILL.md as skipped when no path is given', async () => {
    const cwd = squadRepo({ '.ai-team/skills/notes/README.md': 'x', '.ai-team/agents/fenster/skills/lower/skill.md': validSkill('lower') });
    const result = await runCli(['skills', 'validate', '--json'], { cwd });
    expect(result.code).toBe(0);
    expect(result.data<ValidateJson>().skipped).toEqual([
      { path: '.ai-team/skills/notes', message: '.ai-team/skills/notes has no SKILL.md' },
      { path: '.ai-team/agents/fenster/skills/lower', message: '.ai-team/agents/fenster/skills/lower has skill.md; the standard file name is SKILL.md (rename it)' },
    ]);
    const text = await runCli(['skills', 'validate'], { cwd });
    expect(text.stderr).toContain('⚠ .ai-team/skills/notes has no SKILL.md, skipped\n');
  });

  it('refuse the same frontmatter over 64 KB, even when it is closed within the first 68 KB read', async () => {
    const big = `name: big\ndescription: Big.\nmetadata:\n  notes: "${'x'.repeat(66 * 1024)}"`;
    const cwd = squadRepo({ '.ai-team/skills/big/SKILL.md': skillMd(big) });
    const list = (await runCli(['skills', 'list', '--json'], { cwd })).data<{ skills: { name: string; valid: boolean; errors: { code: string }[] }[] }>();
    expect(list.skills.find((s) => s.name === 'big')).toMatchObject({ valid: false, errors: [{ code: 'frontmatter-too-large' }] });
    const validate = (await runCli(['skills', 'validate', '.ai-team/skills/big', '--json'], { cwd })).data<ValidateJson>();
    expect(validate.skills[0]).toMatchObject({ valid: false, errors: [{ code: 'frontmatter-too-large' }] });
  });

  it('mark a version YAML read as a number, and say why', async () => {
    const cwd = squadRepo({ '.ai-team/skills/num/SKILL.md': validSkill('num', 'Numbers.', 'metadata:\n  version: 1.10') });
    const list = await runCli(['skills', 'list'], { cwd });
    expect(list.stdout).toMatch(/num\s+team\s+1\.1\?\s+-\s+⚠ 1 warning/);
    expect((await runCli(['skills', 'list', '--json'], { cwd })).data<{ skills: { name: string }[] }>().skills.find((s) => s.name === 'num')).toMatchObject({
      version: '1.1',
      versionUnquoted: true,
    });
    const validate = await runCli(['skills', 'validate', '.ai-team/skills/num'], { cwd });
    expect(validate.stdout).toContain('warning  metadata.version is written unquoted; YAML reads it as the number 1.1 — quote the version');
  });
});

describe('teach and the reserved prefix', () => {
  it('refuses a team skill named squad-*, as skills add does, and writes nothing', async () => {
    const cwd = squadRepo();
    const before = hashTree(cwd);
    const result = await runCli(['teach', '--team', 'Release every Friday', '--name', 'squad-release'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('✗ "squad-release" uses the squad- prefix, which is reserved for built-in skills — choose another name with --name');
    expect(hashTree(cwd)).toBe(before);
    expect((await runCli(['teach', 'fenster', 'Release every Friday', '--name', 'squad-release'], { cwd })).code).toBe(0);
  });
});
