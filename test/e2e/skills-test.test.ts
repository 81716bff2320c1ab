/**
 * `skills test`: our fixture skills (test/fixtures/skill-tests/) installed into a squad, their
 * cases run in-process through the CLI: passing cases, every way a case fails, the allowlist and
 * confinement rules they share with run_skill_script, and the text and JSON reports.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SKILLS_ALLOWLIST_PATH } from '../../src/core/skills/skill-scripts.js';
import { REPO_ROOT, cleanupTempDirs, runCli, tempDir, writeFiles } from '../helpers/cli.js';
import { promptSquad } from '../helpers/prompt-squad.js';

afterAll(cleanupTempDirs);

const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/skill-tests');
const WORDS = '.github/skills/word-count';
const FLAKY = '.github/skills/flaky-counter';

/** The prompt squad with our fixture skills copied in as team skills, allowed to run unless `allow` is false. */
function testSquad(allow = true): string {
  const root = promptSquad();
  for (const skill of ['word-count', 'flaky-counter']) {
    fs.cpSync(path.join(FIXTURES, skill), path.join(root, '.github/skills', skill), { recursive: true });
  }
  if (allow) {
    writeFiles(root, { [SKILLS_ALLOWLIST_PATH]: JSON.stringify({ skills: { [WORDS]: { scripts: 'all' }, [FLAKY]: { scripts: 'all' } } }) });
  }
  return root;
}

interface Case {
  name: string;
  file: string;
  status: string;
  failures: string[];
  hint?: string;
  timedOut?: boolean;
  exitCode?: number | null;
}
interface Report {
  ok: boolean;
  skills: { name: string; folder: string; scope: string; cases: Case[] }[];
  summary: { skills: number; cases: number; passed: number; failed: number; refused: number; invalid: number };
}

async function testJson(root: string, args: string[]): Promise<{ code: number; report: Report }> {
  const result = await runCli(['skills', 'test', ...args, '--json'], { cwd: root });
  return { code: result.code, report: { ok: result.envelope().ok, ...result.data<Omit<Report, 'ok'>>() } };
}

function byName(report: Report, skill: string): Record<string, Case> {
  return Object.fromEntries(report.skills.find((s) => s.name === skill)!.cases.map((c) => [c.name, c]));
}

describe('skills test', () => {
  it('runs a skill whose cases all pass: stdin, an argument array, stdout-json, a fixture through SKILL_DIR, an expected failure exit code', async () => {
    const root = testSquad();
    const { code, report } = await testJson(root, ['word-count']);
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.skills).toHaveLength(1);
    expect(report.skills[0]).toMatchObject({ name: 'word-count', folder: WORDS, scope: 'team' });
    expect(report.skills[0]!.cases.map((c) => [c.name, c.status])).toEqual([
      ['counts-stdin', 'passed'],
      ['prints-json', 'passed'],
      ['counts-a-file', 'passed'],
      ['refuses-missing-path', 'passed'],
    ]);
    expect(report.summary).toMatchObject({ skills: 1, cases: 4, passed: 4, failed: 0 });

    const text = await runCli(['skills', 'test', 'word-count'], { cwd: root });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('word-count');
    expect(text.stdout).toMatch(/✓ counts-stdin \(\d+ ms\)/);
    expect(text.stdout).toContain('4 cases in 1 skill: 4 passed');
  });

  it('reports every way a case fails, each case on its own, and exits 1', async () => {
    const root = testSquad();
    const { code, report } = await testJson(root, ['flaky-counter']);
    expect(code).toBe(1);
    expect(report.ok).toBe(false);
    const cases = byName(report, 'flaky-counter');
    expect(cases.shouts!.status).toBe('passed');
    expect(cases['wrong-exit-code']).toMatchObject({ status: 'failed', exitCode: 3, failures: ['exit code 3, expected 0'] });
    expect(cases['wrong-output']!.status).toBe('failed');
    expect(cases['wrong-output']!.failures).toEqual(['stdout lacks "quiet please"', 'stderr holds "warning", which it must not']);
    expect(cases.hangs).toMatchObject({ status: 'failed', timedOut: true, exitCode: null, failures: ['killed after the time limit of 1 s'] });
    expect(cases['outside-scripts']).toMatchObject({ status: 'refused' });
    expect(cases['outside-scripts']!.failures[0]).toContain("runs one file of the skill's scripts/ folder");
    expect(cases['needs-a-shell']).toMatchObject({ status: 'invalid' });
    expect(cases['needs-a-shell']!.failures[0]).toContain('"|" at character');
    const broken = report.skills[0]!.cases.find((c) => c.file === 'tests/cases/07-not-yaml.yaml')!;
    expect(broken).toMatchObject({ name: '07-not-yaml', status: 'invalid' });
    expect(broken.failures[0]).toContain('invalid YAML');
    expect(report.summary).toEqual({ skills: 1, cases: 7, passed: 1, failed: 3, refused: 1, invalid: 2 });

    const text = await runCli(['skills', 'test', 'flaky-counter'], { cwd: root });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/✗ wrong-exit-code \(\d+ ms\)\n\s+exit code 3, expected 0/);
    expect(text.stdout).toContain('✗ outside-scripts refused');
    expect(text.stdout).toContain('7 cases in 1 skill: 1 passed, 3 failed, 1 refused, 2 invalid');
  });

  it('without a name runs every skill that has cases; --case picks one', async () => {
    const root = testSquad();
    const { code, report } = await testJson(root, []);
    expect(code).toBe(1);
    expect(report.skills.map((s) => s.name)).toEqual(['flaky-counter', 'word-count']);
    const one = await testJson(root, ['--case', 'prints-json']);
    expect(one.code).toBe(0);
    expect(one.report.summary).toMatchObject({ cases: 1, passed: 1 });
    const byFile = await testJson(root, ['flaky-counter', '--case', '02-exit-code']);
    expect(byFile.report.skills[0]!.cases.map((c) => c.name)).toEqual(['wrong-exit-code']);
  });

  it('runs nothing the allowlist does not allow: each case is refused with the entry to add', async () => {
    const root = testSquad(false);
    const { code, report } = await testJson(root, ['word-count']);
    expect(code).toBe(1);
    expect(report.skills[0]!.cases.every((c) => c.status === 'refused')).toBe(true);
    const first = report.skills[0]!.cases[0]!;
    expect(first.failures[0]).toContain(`${WORDS} is not in ${SKILLS_ALLOWLIST_PATH}`);
    expect(first.hint).toContain(`{"skills":{"${WORDS}":{"scripts":["scripts/count.mjs"]}}}`);
  });

  it('never reads a case file or runs a script through a link out of the skill', async () => {
    const root = testSquad();
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, 'case.yaml'), 'input:\n  command: scripts/count.mjs\n');
    fs.writeFileSync(path.join(outside, 'evil.mjs'), "console.log('escaped')\n");
    fs.symlinkSync(path.join(outside, 'case.yaml'), path.join(root, WORDS, 'tests/cases/09-linked.yaml'));
    fs.symlinkSync(path.join(outside, 'evil.mjs'), path.join(root, WORDS, 'scripts/evil.mjs'));
    writeFiles(root, { [`${WORDS}/tests/cases/10-evil.yaml`]: 'input:\n  command: scripts/evil.mjs\nexpected:\n  stdout-contains: [escaped]\n' });
    const { code, report } = await testJson(root, ['word-count']);
    expect(code).toBe(1);
    const cases = report.skills[0]!.cases;
    expect(cases.find((c) => c.name === '10-evil')).toMatchObject({ status: 'refused' });
    expect(cases.find((c) => c.name === '10-evil')!.failures[0]).toContain('outside the skill');
    const text = await runCli(['skills', 'test', 'word-count'], { cwd: root });
    expect(text.stdout).toContain('tests/cases/09-linked.yaml refused: a symlink that leads outside the skill folder');
  });

  it('says clearly what is wrong: an unknown skill, a skill without tests, an unknown case, no squad', async () => {
    const root = testSquad();
    const unknown = await runCli(['skills', 'test', 'word-counts'], { cwd: root });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no skill "word-counts"');
    expect(unknown.stderr).toContain('did you mean "word-count"');
    const none = await runCli(['skills', 'test', 'database-schema'], { cwd: root });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('skill "database-schema" has no tests');
    const noCase = await runCli(['skills', 'test', 'word-count', '--case', 'nope'], { cwd: root });
    expect(noCase.code).toBe(1);
    expect(noCase.stderr).toContain('no case "nope" in skill "word-count"');
    const empty = await runCli(['skills', 'test'], { cwd: promptSquad() });
    expect(empty.code).toBe(0);
    expect(empty.stderr).toContain('No skill has tests');
    const noSquad = await runCli(['skills', 'test'], { cwd: tempDir() });
    expect(noSquad.code).toBe(1);
    expect(noSquad.stderr).toContain('no squad found');
  });
});
