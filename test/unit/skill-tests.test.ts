/**
 * The pure parts of skill tests: a command line split without a shell, a case file read into a
 * case, a run checked against what the case expects, and the environment a script gets (which
 * variables a test-config.json may set, and nothing else inherited).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitCommandWords } from '../../src/core/base/command-words.js';
import type { BoundedRun } from '../../src/core/fs/run-bounded.js';
import { confinedPath, envNameProblem, scriptEnvironment } from '../../src/core/fs/sandbox.js';
import { caseFailures, jsonContains, parseTestCase } from '../../src/core/skills/skill-tests.js';

const CONFIG = { timeoutSeconds: 30, env: {} };

function run(overrides: Partial<BoundedRun>): BoundedRun {
  return {
    exitCode: 0,
    signal: null,
    timedOut: false,
    cancelled: false,
    durationMs: 5,
    stdout: '',
    stderr: '',
    stdoutBytes: 0,
    stderrBytes: 0,
    stdoutTruncated: false,
    stderrTruncated: false,
    ...overrides,
  };
}

describe('splitCommandWords', () => {
  it('splits on whitespace and keeps quoted text whole', () => {
    expect(splitCommandWords("scripts/a.py  --name \"Ada Lovelace\" 'it''s' x\\ y")).toEqual({ words: ['scripts/a.py', '--name', 'Ada Lovelace', 'its', 'x y'] });
    expect(splitCommandWords('a "say \\"hi\\"" \'$HOME | *\' ""')).toEqual({ words: ['a', 'say "hi"', '$HOME | *', ''] });
  });

  it('refuses what only a shell would do, saying where', () => {
    for (const line of ['a | b', 'a > out', 'a; b', 'a && b', 'echo $HOME', 'a `b`', 'ls *.py', 'a "$HOME"', 'a ~/x']) {
      const split = splitCommandWords(line);
      expect('problem' in split, line).toBe(true);
    }
    expect(splitCommandWords('a | b')).toEqual({ problem: expect.stringContaining('"|" at character 3 means something only to a shell') });
    expect(splitCommandWords('a "b')).toEqual({ problem: 'the quote " at character 3 is never closed' });
    expect(splitCommandWords('   ')).toEqual({ problem: 'it is empty' });
  });
});

describe('parseTestCase', () => {
  it("reads a case with the format's fields and defaults", () => {
    const parsed = parseTestCase(
      'name: basic\ndescription: d\ninput:\n  command: scripts/x.py --a "b c"\n  stdin: hello\n  files: [tests/fixtures/f.txt]\nexpected:\n  exit-code: 2\n  stdout-contains: [one]\n  not-contains: two\n',
      'tests/cases/01.yaml',
      CONFIG,
    );
    expect(parsed).toEqual({
      file: 'tests/cases/01.yaml',
      name: 'basic',
      description: 'd',
      command: ['scripts/x.py', '--a', 'b c'],
      stdin: 'hello',
      files: ['tests/fixtures/f.txt'],
      timeoutSeconds: 30,
      expected: { exitCode: 2, stdoutContains: ['one'], stderrContains: [], notContains: ['two'] },
    });
    const minimal = parseTestCase('input:\n  command: [scripts/x.py, "a b"]\ntimeout: 2.5\n', 'tests/cases/02-min.yml', CONFIG);
    expect(minimal).toMatchObject({ name: '02-min', command: ['scripts/x.py', 'a b'], timeoutSeconds: 2.5, expected: { exitCode: 0 } });
  });

  it('refuses what is not a case, naming the file and the field', () => {
    const bad: [string, string][] = [
      ['name: x\n', '"input" with a "command" is required'],
      ['input:\n  command: 3\n', '"input.command" must be a command line or a list of words'],
      ['input:\n  command: a\n  cwd: /\n', 'unknown key "cwd" in "input"'],
      ['name: Bad_Name\ninput:\n  command: a\n', 'must be lowercase'],
      ['input:\n  command: a\nexpected:\n  exit-code: 300\n', 'from 0 to 255'],
      ['input:\n  command: a\ntimeout: 0\n', 'positive number of seconds'],
      ['input:\n  command: a\ntimeout: 9999\n', 'the limit is 600'],
      ['a: &a [1]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n', 'invalid YAML'],
      ['input: {\n', 'invalid YAML'],
      ['name: a\nname: b\ninput:\n  command: a\n', 'invalid YAML'],
    ];
    for (const [text, message] of bad) {
      expect(() => parseTestCase(text, 'tests/cases/x.yaml', CONFIG), text).toThrow(message);
    }
    expect(() => parseTestCase('name: x\n', 'tests/cases/x.yaml', CONFIG)).toThrow(/^tests\/cases\/x\.yaml: /);
  });
});

describe('checking a run', () => {
  it('jsonContains: keys recursively, list items by position, equal values', () => {
    expect(jsonContains({ a: 1, b: { c: [1, { d: 'x' }] } }, { a: 1, z: 2, b: { c: [1, { d: 'x', e: 0 }, 3] } })).toBe(true);
    expect(jsonContains({ a: 1 }, { a: '1' })).toBe(false);
    expect(jsonContains({ a: null }, {})).toBe(false);
    expect(jsonContains([1, 2], [1])).toBe(false);
    expect(jsonContains('x', 'x')).toBe(true);
  });

  it('caseFailures names each miss, and nothing when the run is as expected', () => {
    const expected = { exitCode: 0, stdoutContains: ['done'], stderrContains: ['warn'], notContains: ['secret'], stdoutJson: undefined };
    expect(caseFailures(expected, run({ stdout: 'done', stderr: 'warn' }), 30)).toEqual([]);
    expect(caseFailures(expected, run({ exitCode: 1, stdout: 'secret', stderr: '', stdoutTruncated: true }), 30)).toEqual([
      'exit code 1, expected 0',
      'stdout lacks "done" (its output was cut at the output limit)',
      'stderr lacks "warn"',
      'stdout holds "secret", which it must not',
    ]);
    expect(caseFailures({ ...expected, stdoutContains: [], stderrContains: [] }, run({ exitCode: null, signal: 'SIGKILL', timedOut: true }), 2)).toEqual([
      'killed after the time limit of 2 s',
    ]);
    const json = { exitCode: 0, stdoutContains: [], stderrContains: [], notContains: [], stdoutJson: { n: 2 } };
    expect(caseFailures(json, run({ stdout: '{"n": 2, "m": 1}' }), 30)).toEqual([]);
    expect(caseFailures(json, run({ stdout: 'nope' }), 30)).toEqual(['stdout is not JSON']);
    expect(caseFailures(json, run({ stdout: '{"n": 3}' }), 30)).toEqual(['stdout\'s JSON does not hold "{\\"n\\":2}"']);
  });
});

describe('the environment of a script', () => {
  it('envNameProblem lets a test-config set plain variables only, never one that changes what runs or loads', () => {
    for (const name of ['COUNT_TEST', 'api_base', 'MODE', 'FIXTURE_NAME', '_PRIVATE', 'PATHWAY', 'HOMEPAGE']) expect(envNameProblem(name), name).toBeUndefined();
    const loaders = [
      'BASH_ENV',
      'ENV',
      'NODE_OPTIONS',
      'node_options',
      'NODE_PATH',
      'PYTHONPATH',
      'PYTHONSTARTUP',
      'PYTHONHOME',
      'PERL5OPT',
      'PERL5LIB',
      'RUBYOPT',
      'RUBYLIB',
      'LD_PRELOAD',
      'LD_LIBRARY_PATH',
      'DYLD_INSERT_LIBRARIES',
      'GIT_SSH_COMMAND',
      'GIT_DIR',
      'SHELL',
      'IFS',
      'PROMPT_COMMAND',
      'JAVA_TOOL_OPTIONS',
      'LC_ALL',
      'HTTPS_PROXY',
      'npm_config_userconfig',
    ];
    for (const name of loaders) expect(envNameProblem(name), name).toContain('changes what runs or what a program loads');
    for (const name of ['PATH', 'Path', 'HOME', 'TMPDIR', 'TERM', 'LANG', 'TZ']) expect(envNameProblem(name), name).toBe('create-squad sets it for every script run');
    expect(envNameProblem('SKILL_DIR', ['SKILL_DIR'])).toBe('create-squad sets it for every script run');
    for (const name of ['', '1ABC', 'A-B', 'A B', 'A=B', 'BASH_FUNC_x%%']) expect(envNameProblem(name), name).toContain('not a plain variable name');
  });

  it("scriptEnvironment inherits nothing but the language and time zone: no token, no loader variable, HOME and TMPDIR the run's own", () => {
    const parent = {
      PATH: '/somewhere/evil/bin',
      HOME: '/home/someone',
      GITHUB_TOKEN: 'ghp_fake',
      AWS_SECRET_ACCESS_KEY: 'fake',
      NODE_OPTIONS: '--require evil',
      BASH_ENV: 'evil.sh',
      LD_PRELOAD: 'evil.so',
      LANG: 'C.UTF-8',
      TZ: 'UTC',
      TERM: 'xterm-256color',
    };
    const env = scriptEnvironment(parent, { home: '/scratch/home', tmp: '/scratch/tmp' }, { COUNT_TEST: 'true' });
    const expected: Record<string, string> = {
      PATH: confinedPath(parent),
      HOME: '/scratch/home',
      TMPDIR: '/scratch/tmp',
      TMP: '/scratch/tmp',
      TEMP: '/scratch/tmp',
      TERM: 'dumb',
      LANG: 'C.UTF-8',
      TZ: 'UTC',
      COUNT_TEST: 'true',
    };
    if (process.platform === 'win32') Object.assign(expected, { USERPROFILE: '/scratch/home', APPDATA: '/scratch/home', LOCALAPPDATA: '/scratch/home' });
    expect(env).toEqual(expected);
    expect(confinedPath(parent).split(path.delimiter)[0]).toBe(path.dirname(process.execPath));
    expect(confinedPath(parent)).not.toContain('/somewhere/evil/bin');
    expect(() => scriptEnvironment(parent, { home: 'h', tmp: 't' }, { NODE_OPTIONS: 'x' })).toThrow('cannot set NODE_OPTIONS');
  });
});
