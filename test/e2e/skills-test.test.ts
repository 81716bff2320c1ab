/**
 * `skills test`: our fixture skills (test/fixtures/skill-tests/) installed into a squad, their
 * cases run in-process through the CLI: passing cases, every way a case fails, the allowlist and
 * confinement rules they share with run_skill_script, and the text and JSON reports; then the
 * hostile probe (sandbox-probe): what a test script can see and do once it runs.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_TEMP_DIR } from '../../src/core/fs/debris.js';
import { namespaceSupport } from '../../src/core/fs/sandbox.js';
import { DEFAULT_SCRIPT_LIMITS, SKILLS_ALLOWLIST_PATH, runSkillScript } from '../../src/core/skills/skill-scripts.js';
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
  confinement: { network: string; processTree: string; env: string; home: string; cwd: string };
}

async function testJson(root: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; report: Report }> {
  const result = await runCli(['skills', 'test', ...args, '--json'], { cwd: root, env });
  return { code: result.code, report: { ok: result.envelope().ok, ...result.data<Omit<Report, 'ok'>>() } };
}

function byName(report: Report, skill: string): Record<string, Case> {
  return Object.fromEntries(report.skills.find((s) => s.name === skill)!.cases.map((c) => [c.name, c]));
}

// Each test works in squads of its own, and the runs only read them: the tests run side by side.
describe.concurrent('skills test', () => {
  it('runs a skill whose cases all pass: stdin, an argument array, stdout-json, a fixture through SKILL_DIR, an expected failure exit code', async () => {
    // The JSON and the text report, each from a run of its own, side by side.
    const [{ code, report }, text] = await Promise.all([testJson(testSquad(), ['word-count']), runCli(['skills', 'test', 'word-count'], { cwd: testSquad() })]);
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

    expect(text.code).toBe(0);
    expect(text.stdout).toContain('word-count');
    expect(text.stdout).toMatch(/✓ counts-stdin \(\d+ ms\)/);
    expect(text.stdout).toContain('4 cases in 1 skill: 4 passed');
  });

  it('reports every way a case fails, each case on its own, and exits 1', async () => {
    // The JSON and the text report side by side: each waits out the hanging case's time limit.
    const [{ code, report }, text] = await Promise.all([testJson(testSquad(), ['flaky-counter']), runCli(['skills', 'test', 'flaky-counter'], { cwd: testSquad() })]);
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

    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/✗ wrong-exit-code \(\d+ ms\)\n\s+exit code 3, expected 0/);
    expect(text.stdout).toContain('✗ outside-scripts refused');
    expect(text.stdout).toContain('7 cases in 1 skill: 1 passed, 3 failed, 1 refused, 2 invalid');
  });

  it('without a name runs every skill that has cases; --case picks one', async () => {
    // Three runs that read the squad only, side by side.
    const [{ code, report }, one, byFile] = await Promise.all([
      testJson(testSquad(), []),
      testJson(testSquad(), ['--case', 'prints-json']),
      testJson(testSquad(), ['flaky-counter', '--case', '02-exit-code']),
    ]);
    expect(code).toBe(1);
    expect(report.skills.map((s) => s.name)).toEqual(['flaky-counter', 'word-count']);
    expect(one.code).toBe(0);
    expect(one.report.summary).toMatchObject({ cases: 1, passed: 1 });
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
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, 'case.yaml'), 'input:\n  command: scripts/count.mjs\n');
    fs.writeFileSync(path.join(outside, 'evil.mjs'), "console.log('escaped')\n");
    const linkedSquad = () => {
      const root = testSquad();
      fs.symlinkSync(path.join(outside, 'case.yaml'), path.join(root, WORDS, 'tests/cases/09-linked.yaml'));
      fs.symlinkSync(path.join(outside, 'evil.mjs'), path.join(root, WORDS, 'scripts/evil.mjs'));
      writeFiles(root, { [`${WORDS}/tests/cases/10-evil.yaml`]: 'input:\n  command: scripts/evil.mjs\nexpected:\n  stdout-contains: [escaped]\n' });
      return root;
    };
    // The JSON and the text report side by side, each in a squad of its own.
    const [{ code, report }, text] = await Promise.all([testJson(linkedSquad(), ['word-count']), runCli(['skills', 'test', 'word-count'], { cwd: linkedSquad() })]);
    expect(code).toBe(1);
    const cases = report.skills[0]!.cases;
    expect(cases.find((c) => c.name === '10-evil')).toMatchObject({ status: 'refused' });
    expect(cases.find((c) => c.name === '10-evil')!.failures[0]).toContain('outside the skill');
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

const PROBE = '.github/skills/sandbox-probe';
/** Whether this machine runs scripts in namespaces of their own (unprivileged user namespaces). */
const NAMESPACES = namespaceSupport() !== null;

/** A squad with the probe skill, allowed to run, and its test-config.json holding `env`. */
function probeSquad(env: Record<string, string> = {}): string {
  const root = promptSquad();
  fs.cpSync(path.join(FIXTURES, 'sandbox-probe'), path.join(root, PROBE), { recursive: true });
  writeFiles(root, {
    [SKILLS_ALLOWLIST_PATH]: JSON.stringify({ skills: { [PROBE]: { scripts: 'all' } } }),
    [`${PROBE}/tests/test-config.json`]: JSON.stringify({ version: 1, env }),
  });
  return root;
}

/** A file that, if it ever runs (as node code, or as a shell file), creates `marker`. */
function payloads(marker: string): Record<string, string> {
  return {
    [`${PROBE}/tests/payload.cjs`]: `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'payload ran');\n`,
    [`${PROBE}/tests/payload.sh`]: `echo payload > ${JSON.stringify(marker)}\n`,
  };
}

function probeCase(report: Report, name: string): Case {
  return report.skills.find((s) => s.name === 'sandbox-probe')!.cases.find((c) => c.name === name)!;
}

// Each test works in a squad and folders of its own: the tests run side by side, and beside those above
// (the time limits they wait out overlap).
describe.concurrent('skills test confinement', () => {
  it('refuses a test-config env that would make another program run (BASH_ENV, NODE_OPTIONS, PATH, LD_PRELOAD…): the config is invalid and no payload runs', async () => {
    const marker = path.join(tempDir(), 'payload-ran');
    const smuggled: Record<string, (root: string) => string> = {
      BASH_ENV: (root) => path.join(root, PROBE, 'tests/payload.sh'),
      NODE_OPTIONS: (root) => `--require ${path.join(root, PROBE, 'tests/payload.cjs')}`,
      PATH: (root) => path.join(root, PROBE, 'tests/bin'),
      LD_PRELOAD: (root) => path.join(root, PROBE, 'tests/payload.so'),
      node_options: (root) => `--require ${path.join(root, PROBE, 'tests/payload.cjs')}`,
      PYTHONSTARTUP: (root) => path.join(root, PROBE, 'tests/payload.py'),
      GIT_SSH_COMMAND: (root) => path.join(root, PROBE, 'tests/payload.sh'),
      SKILL_DIR: (root) => path.join(root, PROBE, 'tests'),
    };
    for (const [name, value] of Object.entries(smuggled)) {
      const root = probeSquad();
      // A fake bash first on a smuggled PATH would be the payload too.
      writeFiles(root, { ...payloads(marker), [`${PROBE}/tests/bin/bash`]: `#!/bin/sh\necho payload > ${JSON.stringify(marker)}\n` });
      fs.chmodSync(path.join(root, PROBE, 'tests/bin/bash'), 0o755);
      writeFiles(root, { [`${PROBE}/tests/test-config.json`]: JSON.stringify({ version: 1, env: { [name]: value(root) } }) });
      const { code, report } = await testJson(root, ['sandbox-probe']);
      expect(code, name).toBe(1);
      const cases = report.skills[0]!.cases;
      expect(cases, name).toHaveLength(1);
      expect(cases[0], name).toMatchObject({ file: 'tests/test-config.json', name: 'test-config', status: 'invalid' });
      expect(cases[0]!.failures[0], name).toContain(`"env" may not set ${JSON.stringify(name)}`);
      expect(cases[0]!.hint, name).toContain('set only plain variables');
      expect(report.summary, name).toMatchObject({ cases: 1, passed: 0, invalid: 1 });
      expect(fs.existsSync(marker), `${name}: the payload ran`).toBe(false);
    }
    const root = probeSquad();
    writeFiles(root, { [`${PROBE}/tests/test-config.json`]: JSON.stringify({ version: 1, env: { MODE: 'a\u0000b' } }) });
    const nul = await testJson(root, ['sandbox-probe']);
    expect(nul.report.skills[0]!.cases[0]).toMatchObject({ name: 'test-config', status: 'invalid' });
    expect(nul.report.skills[0]!.cases[0]!.failures[0]).toContain('without NUL bytes');
  });

  it('a script gets a minimal environment: no inherited secret or loader variable, an empty temporary HOME and TMPDIR, the working folder its skill copy', async () => {
    const home = tempDir();
    const marker = path.join(tempDir(), 'payload-ran');
    const root = probeSquad({ REAL_HOME: home });
    writeFiles(root, payloads(marker));
    const hostile = {
      GITHUB_TOKEN: 'ghp_fake_token_for_the_confinement_test',
      NPM_TOKEN: 'fake-npm-token',
      HOME: home,
      NODE_OPTIONS: `--require ${path.join(root, PROBE, 'tests/payload.cjs')}`,
      BASH_ENV: path.join(root, PROBE, 'tests/payload.sh'),
    };
    const names = ['sees-a-minimal-environment', 'bash-runs-only-the-script'];
    // Both cases side by side: each run reads the squad only and works in a scratch copy of its own.
    const runs = await Promise.all(names.map((name) => testJson(root, ['sandbox-probe', '--case', name], hostile)));
    for (const [i, name] of names.entries()) {
      const { code, report } = runs[i]!;
      const result = probeCase(report, name);
      expect(result.failures, name).toEqual([]);
      expect(result.status).toBe('passed');
      expect(code).toBe(0);
      expect(report.confinement).toMatchObject({ env: 'minimal', home: 'temporary', cwd: 'scratch' });
    }
    expect(fs.existsSync(marker), 'the payload ran').toBe(false);
    expect(fs.readdirSync(home)).toEqual([]);
  });

  it("a script's writes land in its scratch copy, never in the repository or the skill, and the scratch is removed afterwards", async () => {
    const root = probeSquad();
    const before = fs.readdirSync(root).sort();
    const skillBefore = fs.readdirSync(path.join(root, PROBE)).sort();
    const { code, report } = await testJson(root, ['sandbox-probe', '--case', 'writes-around']);
    expect(probeCase(report, 'writes-around')).toMatchObject({ status: 'passed', failures: [] });
    expect(code).toBe(0);
    expect(fs.readdirSync(root).sort()).toEqual(before);
    expect(fs.readdirSync(path.join(root, PROBE)).sort()).toEqual(skillBefore);
    expect(fs.existsSync(path.join(path.dirname(root), 'left-by-script.txt'))).toBe(false);
    // The scratch lived in the repository's temp folder, and is gone with it.
    expect(fs.existsSync(path.join(root, REPO_TEMP_DIR))).toBe(false);
  });

  it.skipIf(!NAMESPACES)('at the time limit the whole process tree dies, a child that left the process group (setsid) included', async () => {
    const markers = tempDir();
    const root = probeSquad({ MARKER_DIR: markers });
    const { report } = await testJson(root, ['sandbox-probe', '--case', 'leaves-a-child']);
    expect(probeCase(report, 'leaves-a-child')).toMatchObject({ status: 'failed', timedOut: true });
    expect(report.confinement.processTree).toBe('namespace');
    // The child ran (it wrote "started"); once killed it beats no more.
    expect(fs.existsSync(path.join(markers, 'started'))).toBe(true);
    const beats = () => (fs.existsSync(path.join(markers, 'beats')) ? fs.statSync(path.join(markers, 'beats')).size : 0);
    await sleep(300);
    const after = beats();
    await sleep(1000);
    expect(beats()).toBe(after);
    // The scratch of the killed case is gone too.
    expect(fs.existsSync(path.join(root, REPO_TEMP_DIR))).toBe(false);
  });

  it.skipIf(!NAMESPACES)('a script reaches no network: it cannot connect to a server listening on 127.0.0.1 in this process', async () => {
    let connections = 0;
    const server = net.createServer((socket) => {
      connections += 1;
      socket.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as net.AddressInfo).port;
      const root = probeSquad({ PORT: String(port) });
      const { code, report } = await testJson(root, ['sandbox-probe', '--case', 'cannot-connect']);
      expect(probeCase(report, 'cannot-connect')).toMatchObject({ status: 'passed', failures: [] });
      expect(code).toBe(0);
      expect(report.confinement.network).toBe('off');
      expect(connections).toBe(0);
    } finally {
      server.close();
    }
  });

  it.skipIf(NAMESPACES)('where namespaces are not available, says that the network and children outside the process group are not confined', async () => {
    const root = probeSquad();
    const { report } = await testJson(root, ['sandbox-probe', '--case', 'writes-around']);
    expect(report.confinement).toMatchObject({ network: 'on', processTree: process.platform === 'win32' ? 'process' : 'group' });
    const text = await runCli(['skills', 'test', 'sandbox-probe', '--case', 'writes-around'], { cwd: root });
    expect(text.stdout).toContain('network NOT confined');
  });

  it('reports the confinement applied: in --json, and one line of text', async () => {
    const root = probeSquad();
    // The JSON and the text report side by side.
    const [{ report }, text] = await Promise.all([
      testJson(root, ['sandbox-probe', '--case', 'writes-around']),
      runCli(['skills', 'test', 'sandbox-probe', '--case', 'writes-around'], { cwd: root }),
    ]);
    expect(report.confinement).toEqual(
      NAMESPACES
        ? { network: 'off', processTree: 'namespace', env: 'minimal', home: 'temporary', cwd: 'scratch' }
        : { network: 'on', processTree: process.platform === 'win32' ? 'process' : 'group', env: 'minimal', home: 'temporary', cwd: 'scratch' },
    );
    expect(text.stdout).toContain(
      NAMESPACES
        ? 'Scripts ran confined: a scratch copy of the skill, a minimal environment, a temporary HOME, no network, the whole process tree killed at the time limit (files your user can reach are not hidden).'
        : 'Scripts ran confined: a scratch copy of the skill, a minimal environment, a temporary HOME; network NOT confined and only',
    );
  });
});

describe.concurrent('run_skill_script shares the confinement', () => {
  it('an agent-run script gets the same minimal environment and temporary HOME, in the repository folder, with the network as it is', async () => {
    const root = probeSquad();
    const skill = { dirName: 'sandbox-probe', dir: path.join(root, PROBE), location: `${PROBE}/SKILL.md` };
    const env = { ...process.env, GITHUB_TOKEN: 'ghp_fake_token_for_the_confinement_test', NODE_OPTIONS: '--no-warnings' };
    const run = await runSkillScript(root, skill, 'scripts/observe.mjs', [], { env, limits: DEFAULT_SCRIPT_LIMITS });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ token: null, nodeOptions: null, unexpected: '', home: { isReal: false, files: 0 }, tmpFiles: 0 });
    expect(run.confinement).toEqual({
      network: 'on',
      processTree: NAMESPACES ? 'namespace' : process.platform === 'win32' ? 'process' : 'group',
      env: 'minimal',
      home: 'temporary',
      cwd: 'repository',
    });
    expect(fs.existsSync(path.join(root, REPO_TEMP_DIR))).toBe(false);
  });
});

if (!NAMESPACES) console.warn('skills-test: unprivileged user namespaces are not available here: the process-tree and network tests are skipped');
