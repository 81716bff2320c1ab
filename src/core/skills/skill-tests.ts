/**
 * A skill's deterministic tests: the cases in its `tests/cases/*.yaml`, with the defaults of
 * `tests/test-config.json`, run as scripts run for agents (skill-scripts.ts) and checked against
 * what each case expects. No model is involved; the same case gives the same answer every time.
 *
 * A case (YAML):
 *   name: extracts-title              [a-z0-9-], at most 64 characters (default: the file name)
 *   description: …                    optional
 *   timeout: 10                       seconds, optional (default: the config's, else 30)
 *   input:
 *     command: scripts/extract.py --title    one file of the skill's scripts/, then its arguments:
 *                                            a string split without a shell, or a list of words
 *     stdin: "text"                   optional; null or absent: empty stdin
 *     files: [tests/fixtures/a.pdf]   optional: files of the skill the case needs (checked first)
 *   expected:
 *     exit-code: 0                    default 0
 *     stdout-contains: [...]          substrings stdout must hold
 *     stderr-contains: [...]          substrings stderr must hold
 *     not-contains: [...]             substrings neither stdout nor stderr may hold
 *     stdout-json: {...}              stdout parsed as JSON must hold these keys and values
 *
 * The script is planned as run_skill_script plans one: it must lie in the skill's scripts/ folder
 * and be allowed by the allowlist; no shell. It runs confined (fs/sandbox.ts) in a scratch copy of
 * the skill folder (its working folder, and SKILL_DIR), with a minimal environment plus the
 * config's plain variables (envNameProblem refuses any that would make something else run), a
 * temporary HOME, no network and its whole process tree killed at the time limit where
 * namespaces allow; time and output limits. The case files are read only inside the skill folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { splitCommandWords } from '../base/command-words.js';
import { SquadError } from '../base/errors.js';
import { nameProblems } from '../base/names.js';
import { isMapping, jsonTypeName } from '../base/util.js';
import { isWithin, readTextIfExists, relativePathProblem } from '../fs/fs-safe.js';
import type { BoundedRun } from '../fs/run-bounded.js';
import { confinementHere, envNameProblem, runConfined, type Confinement, type ConfinedRun } from '../fs/sandbox.js';
import { MAX_SCRIPT_TIMEOUT_MS, planScriptCommand, scriptCommandLine, type ScriptLimits, type ScriptSkill, type SkillsAllowlist } from './skill-scripts.js';

export const SKILL_TEST_CASES_DIR = 'tests/cases';
export const SKILL_TEST_CONFIG = 'tests/test-config.json';
/** Seconds a case may run when neither it nor the config says. */
export const DEFAULT_TEST_TIMEOUT_SECONDS = 30;
/** The environment variable that gives a test's script the absolute path of its skill folder (the scratch copy it runs in). */
export const SKILL_DIR_ENV = 'SKILL_DIR';
/** How every case runs: in a scratch copy of the skill, the network off where it can be. */
const TEST_RUN = { network: 'off', cwd: 'scratch' } as const;

/** The confinement skills test applies on this machine (what each case's run reports). */
export function testConfinement(): Confinement {
  return confinementHere(TEST_RUN);
}
/** A case file larger than this is refused. */
const CASE_FILE_MAX_BYTES = 256 * 1024;
/** A skill with more case files than this runs only the first ones, and says so. */
export const MAX_TEST_CASES = 200;
/** Failed cases carry this much of each output, for the reader to see why. */
const FAILED_OUTPUT_EXCERPT_BYTES = 4 * 1024;
const YAML_MAX_ALIAS_COUNT = 100;

export interface SkillTestConfig {
  timeoutSeconds: number;
  env: Record<string, string>;
}

export interface SkillTestExpectations {
  exitCode: number;
  stdoutContains: string[];
  stderrContains: string[];
  notContains: string[];
  stdoutJson?: unknown;
}

export interface SkillTestCase {
  /** Relative to the skill folder: "tests/cases/01-basic.yaml". */
  file: string;
  name: string;
  description?: string;
  /** The command's words, as written. */
  command: string[];
  stdin?: string;
  files: string[];
  timeoutSeconds: number;
  expected: SkillTestExpectations;
}

export type CaseStatus = 'passed' | 'failed' | 'refused' | 'invalid';

export interface SkillCaseResult {
  file: string;
  /** The case's name (the file name when the case could not be read). */
  name: string;
  status: CaseStatus;
  /** Why it did not pass, one line each (empty when it passed). */
  failures: string[];
  /** How to fix a refused or invalid case. */
  hint?: string;
  durationMs?: number;
  exitCode?: number | null;
  signal?: string | null;
  timedOut?: boolean;
  /** A failed case's output, its first FAILED_OUTPUT_EXCERPT_BYTES. */
  stdout?: string;
  stderr?: string;
}

type YamlModule = typeof import('yaml');
let yamlModule: YamlModule | undefined;
function yaml(): YamlModule {
  yamlModule ??= createRequire(import.meta.url)('yaml') as YamlModule;
  return yamlModule;
}

function realPath(absPath: string): string | undefined {
  try {
    return fs.realpathSync.native(absPath);
  } catch {
    return undefined;
  }
}

function invalid(file: string, message: string, hint = 'see "Skill tests" in docs/skills.md for the format'): SquadError {
  return new SquadError('invalid-format', `${file}: ${message}`, { file, hint });
}

export interface CaseFileListing {
  /** Relative to the skill folder, sorted. */
  files: string[];
  /** Case files left out: links out of the skill, or beyond MAX_TEST_CASES. */
  refused: { file: string; reason: string }[];
}

/** The case files of a skill (`tests/cases/*.yaml` and `*.yml`), none of them through a link out of the skill. */
export function listCaseFiles(skillDir: string): CaseFileListing {
  const listing: CaseFileListing = { files: [], refused: [] };
  const realSkill = realPath(skillDir) ?? skillDir;
  const dir = path.join(skillDir, ...SKILL_TEST_CASES_DIR.split('/'));
  const realDir = realPath(dir);
  if (realDir === undefined) return listing;
  if (!isWithin(realSkill, realDir)) {
    listing.refused.push({ file: SKILL_TEST_CASES_DIR, reason: 'a symlink that leads outside the skill folder' });
    return listing;
  }
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => /\.ya?ml$/i.test(name) && !name.startsWith('.') && !name.startsWith('_'));
  } catch {
    return listing;
  }
  for (const name of names.sort()) {
    const rel = `${SKILL_TEST_CASES_DIR}/${name}`;
    const real = realPath(path.join(dir, name));
    if (real === undefined || !isWithin(realSkill, real)) {
      listing.refused.push({ file: rel, reason: real === undefined ? 'a dangling symlink' : 'a symlink that leads outside the skill folder' });
    } else if (!fs.statSync(real).isFile()) {
    } else if (listing.files.length >= MAX_TEST_CASES) {
      listing.refused.push({ file: rel, reason: `a skill runs at most ${MAX_TEST_CASES} case files` });
    } else {
      listing.files.push(rel);
    }
  }
  return listing;
}

/** A file of the skill, read only when it really lies inside the skill folder; undefined when absent. */
function readSkillText(skillDir: string, rel: string): string | undefined {
  const abs = path.join(skillDir, ...rel.split('/'));
  const real = realPath(abs);
  if (real === undefined) return undefined;
  if (!isWithin(realPath(skillDir) ?? skillDir, real)) throw invalid(rel, 'it is a symlink that leads outside the skill folder', 'make it a real file inside the skill');
  let text: string | undefined;
  try {
    text = readTextIfExists(real, CASE_FILE_MAX_BYTES);
  } catch {
    throw invalid(rel, `larger than ${CASE_FILE_MAX_BYTES / 1024} KB`, 'split it into several cases');
  }
  return text;
}

function seconds(file: string, field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw invalid(file, `${field} must be a positive number of seconds, not ${JSON.stringify(value)}`);
  if (value * 1000 > MAX_SCRIPT_TIMEOUT_MS) throw invalid(file, `${field} is ${value} seconds; the limit is ${MAX_SCRIPT_TIMEOUT_MS / 1000}`);
  return value;
}

/** The skill's `tests/test-config.json`, or the defaults when it has none. */
export function readTestConfig(skillDir: string): SkillTestConfig {
  const file = SKILL_TEST_CONFIG;
  const text = readSkillText(skillDir, file);
  if (text === undefined) return { timeoutSeconds: DEFAULT_TEST_TIMEOUT_SECONDS, env: {} };
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw invalid(file, `not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!isMapping(document)) throw invalid(file, 'the top level must be an object');
  if (document.version !== 1) throw invalid(file, `"version" must be 1, not ${JSON.stringify(document.version)}`);
  const env: Record<string, string> = {};
  if (document.env !== undefined) {
    if (!isMapping(document.env)) throw invalid(file, '"env" must map variable names to strings');
    for (const [key, value] of Object.entries(document.env)) {
      if (typeof value !== 'string' || value.includes('\0')) throw invalid(file, `"env" entry ${JSON.stringify(key)} must have a string value without NUL bytes`);
      const problem = envNameProblem(key, [SKILL_DIR_ENV]);
      if (problem !== undefined) {
        throw invalid(
          file,
          `"env" may not set ${JSON.stringify(key)}: ${problem}`,
          'set only plain variables your scripts read; PATH, HOME, TMPDIR and SKILL_DIR are set by create-squad',
        );
      }
      env[key] = value;
    }
  }
  return { timeoutSeconds: document.timeout === undefined ? DEFAULT_TEST_TIMEOUT_SECONDS : seconds(file, '"timeout"', document.timeout), env };
}

function stringList(file: string, field: string, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item): item is string => typeof item === 'string')) return value;
  throw invalid(file, `${field} must be a list of strings, not ${jsonTypeName(value)}`);
}

const CASE_KEYS = new Set(['name', 'description', 'timeout', 'input', 'expected']);
const INPUT_KEYS = new Set(['command', 'stdin', 'files']);
const EXPECTED_KEYS = new Set(['exit-code', 'stdout-contains', 'stderr-contains', 'not-contains', 'stdout-json']);

function unknownKey(file: string, where: string, value: Record<string, unknown>, known: Set<string>): void {
  const extra = Object.keys(value).find((key) => !known.has(key));
  if (extra !== undefined) throw invalid(file, `unknown key ${JSON.stringify(extra)} in ${where} (known: ${[...known].join(', ')})`);
}

/** One case from its YAML text; invalid-format (naming the file) for anything that is not a case. */
export function parseTestCase(text: string, file: string, config: SkillTestConfig): SkillTestCase {
  let document: unknown;
  try {
    const doc = yaml().parseDocument(text, { uniqueKeys: true, strict: true });
    const [first] = doc.errors;
    if (first) {
      const line = first.linePos?.[0]?.line;
      const reason = first.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
      throw invalid(file, `invalid YAML${line === undefined ? '' : ` on line ${line}`}: ${reason}`);
    }
    document = doc.toJS({ maxAliasCount: YAML_MAX_ALIAS_COUNT });
  } catch (error) {
    if (error instanceof SquadError) throw error;
    throw invalid(file, `invalid YAML: ${error instanceof Error ? error.message.split('\n')[0]! : String(error)}`);
  }
  if (!isMapping(document)) throw invalid(file, 'a test case is a YAML mapping with input and expected');
  unknownKey(file, 'the case', document, CASE_KEYS);
  const fallbackName = path.posix.basename(file).replace(/\.ya?ml$/i, '');
  const name = document.name === undefined ? fallbackName : document.name;
  if (typeof name !== 'string') throw invalid(file, '"name" must be a string');
  const problem = nameProblems(name, 'the case name')[0];
  if (problem) throw invalid(file, problem.message);
  const input = document.input;
  if (!isMapping(input)) throw invalid(file, '"input" with a "command" is required');
  unknownKey(file, '"input"', input, INPUT_KEYS);
  let command: string[];
  if (typeof input.command === 'string') {
    const split = splitCommandWords(input.command);
    if ('problem' in split) throw invalid(file, `"input.command" cannot run without a shell: ${split.problem}`, 'give the words as a list, or quote them');
    command = split.words;
  } else if (Array.isArray(input.command) && input.command.length > 0 && input.command.every((word): word is string => typeof word === 'string')) {
    command = input.command;
  } else {
    throw invalid(file, '"input.command" must be a command line or a list of words');
  }
  if (input.stdin !== undefined && input.stdin !== null && typeof input.stdin !== 'string') throw invalid(file, '"input.stdin" must be text');
  const files = stringList(file, '"input.files"', input.files);
  const expected = document.expected ?? {};
  if (!isMapping(expected)) throw invalid(file, '"expected" must be a mapping');
  unknownKey(file, '"expected"', expected, EXPECTED_KEYS);
  const exitCode = expected['exit-code'] ?? 0;
  if (typeof exitCode !== 'number' || !Number.isInteger(exitCode) || exitCode < 0 || exitCode > 255)
    throw invalid(file, '"expected.exit-code" must be a whole number from 0 to 255');
  return {
    file,
    name,
    ...(typeof document.description === 'string' ? { description: document.description } : {}),
    command,
    ...(typeof input.stdin === 'string' ? { stdin: input.stdin } : {}),
    files,
    timeoutSeconds: document.timeout === undefined ? config.timeoutSeconds : seconds(file, '"timeout"', document.timeout),
    expected: {
      exitCode,
      stdoutContains: stringList(file, '"expected.stdout-contains"', expected['stdout-contains']),
      stderrContains: stringList(file, '"expected.stderr-contains"', expected['stderr-contains']),
      notContains: stringList(file, '"expected.not-contains"', expected['not-contains']),
      ...(expected['stdout-json'] === undefined ? {} : { stdoutJson: expected['stdout-json'] }),
    },
  };
}

/** The valid name a case file gives itself, even when the rest of it is not a case. */
function caseNameIn(text: string): string | undefined {
  try {
    const document: unknown = yaml().parse(text, { maxAliasCount: YAML_MAX_ALIAS_COUNT });
    const name = isMapping(document) ? document.name : undefined;
    return typeof name === 'string' && nameProblems(name).length === 0 ? name : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `actual` holds everything `expected` says: object keys recursively, list items by position, other values equal. */
export function jsonContains(expected: unknown, actual: unknown): boolean {
  if (Array.isArray(expected)) return Array.isArray(actual) && expected.length <= actual.length && expected.every((item, index) => jsonContains(item, actual[index]));
  if (isMapping(expected)) return isMapping(actual) && Object.entries(expected).every(([key, value]) => Object.hasOwn(actual, key) && jsonContains(value, actual[key]));
  return Object.is(expected, actual) || expected === actual;
}

function shown(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}…` : text);
}

/** Every way a run missed what the case expects; empty when it passed. */
export function caseFailures(expected: SkillTestExpectations, run: BoundedRun, timeoutSeconds: number): string[] {
  const failures: string[] = [];
  if (run.timedOut) failures.push(`killed after the time limit of ${timeoutSeconds} s`);
  else if (run.exitCode === null) failures.push(`killed by ${run.signal ?? 'a signal'}`);
  else if (run.exitCode !== expected.exitCode) failures.push(`exit code ${run.exitCode}, expected ${expected.exitCode}`);
  const cut = (truncated: boolean) => (truncated ? ' (its output was cut at the output limit)' : '');
  for (const text of expected.stdoutContains) if (!run.stdout.includes(text)) failures.push(`stdout lacks ${shown(text)}${cut(run.stdoutTruncated)}`);
  for (const text of expected.stderrContains) if (!run.stderr.includes(text)) failures.push(`stderr lacks ${shown(text)}${cut(run.stderrTruncated)}`);
  for (const text of expected.notContains) {
    if (run.stdout.includes(text)) failures.push(`stdout holds ${shown(text)}, which it must not`);
    if (run.stderr.includes(text)) failures.push(`stderr holds ${shown(text)}, which it must not`);
  }
  if (expected.stdoutJson !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(run.stdout);
    } catch {
      failures.push(`stdout is not JSON${cut(run.stdoutTruncated)}`);
      return failures;
    }
    if (!jsonContains(expected.stdoutJson, parsed)) failures.push(`stdout's JSON does not hold ${shown(JSON.stringify(expected.stdoutJson))}`);
  }
  return failures;
}

/** A fixture the case names that is missing or leaves the skill folder. */
function missingFixture(skillDir: string, given: string): string | undefined {
  const problem = relativePathProblem(given);
  if (problem) return `the fixture ${shown(given)} is not a path in the skill folder: ${problem}`;
  const real = realPath(path.join(skillDir, ...given.split('/')));
  if (real === undefined) return `the fixture ${given} is missing from the skill folder`;
  if (!isWithin(realPath(skillDir) ?? skillDir, real)) return `the fixture ${given} is a symlink that leads outside the skill folder`;
  return undefined;
}

function excerpt(text: string): string {
  return text.length > FAILED_OUTPUT_EXCERPT_BYTES ? `${text.slice(0, FAILED_OUTPUT_EXCERPT_BYTES)}…` : text;
}

export interface RunCasesOptions {
  env: NodeJS.ProcessEnv;
  limits: Pick<ScriptLimits, 'maxOutputBytes'>;
  signal?: AbortSignal;
  /** Only the case of this name (or file name). */
  only?: string;
}

function refusal(file: string, name: string, error: unknown): SkillCaseResult {
  if (!(error instanceof SquadError)) throw error;
  const status: CaseStatus = error.code === 'invalid-format' || error.code === 'invalid-input' ? 'invalid' : 'refused';
  return { file, name, status, failures: [error.message], ...(error.hint ? { hint: error.hint } : {}) };
}

/**
 * Run a skill's cases one after the other (or only the one `options.only` names), each as a
 * script of the skill, and report each. A case that cannot be read or may not run is reported as
 * such and the others still run; a config file that is not valid is one invalid result, and no case runs.
 */
export async function runSkillTests(
  root: string,
  skill: ScriptSkill,
  allowlist: SkillsAllowlist,
  options: RunCasesOptions,
): Promise<{ cases: SkillCaseResult[]; refused: CaseFileListing['refused'] }> {
  const listing = listCaseFiles(skill.dir);
  let config: SkillTestConfig;
  try {
    config = readTestConfig(skill.dir);
  } catch (error) {
    // No case runs with a config that is not one (it may try to smuggle a program in): one invalid result says why.
    return { cases: [refusal(SKILL_TEST_CONFIG, 'test-config', error)], refused: listing.refused };
  }
  const cases: SkillCaseResult[] = [];
  for (const file of listing.files) {
    const fileName = path.posix.basename(file).replace(/\.ya?ml$/i, '');
    let testCase: SkillTestCase;
    let text: string | undefined;
    try {
      text = readSkillText(skill.dir, file) ?? '';
      testCase = parseTestCase(text, file, config);
    } catch (error) {
      const name = (text === undefined ? undefined : caseNameIn(text)) ?? fileName;
      if (options.only === undefined || options.only === fileName || options.only === name) cases.push(refusal(file, name, error));
      continue;
    }
    if (options.only !== undefined && options.only !== testCase.name && options.only !== fileName) continue;
    const fixture = testCase.files.map((given) => missingFixture(skill.dir, given)).find((problem) => problem !== undefined);
    if (fixture !== undefined) {
      cases.push({ file, name: testCase.name, status: 'failed', failures: [fixture] });
      continue;
    }
    let plan: ReturnType<typeof planScriptCommand>;
    try {
      plan = planScriptCommand(root, skill, testCase.command, allowlist);
    } catch (error) {
      cases.push(refusal(file, testCase.name, error));
      continue;
    }
    const run = await runConfined(
      {
        root,
        parentEnv: options.env,
        copyOf: plan.realSkillDir,
        network: TEST_RUN.network,
        timeoutMs: Math.round(testCase.timeoutSeconds * 1000),
        maxOutputBytes: options.limits.maxOutputBytes,
        ...(testCase.stdin === undefined ? {} : { stdin: testCase.stdin }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      },
      ({ work }) => ({ ...scriptCommandLine(plan, work, plan.args), env: { ...config.env, [SKILL_DIR_ENV]: work } }),
    ).catch((error: unknown) => error);
    if (!('durationMs' in (run as object))) {
      cases.push(refusal(file, testCase.name, run));
      continue;
    }
    const done = run as ConfinedRun;
    const failures = caseFailures(testCase.expected, done, testCase.timeoutSeconds);
    cases.push({
      file,
      name: testCase.name,
      status: failures.length === 0 ? 'passed' : 'failed',
      failures,
      durationMs: done.durationMs,
      exitCode: done.exitCode,
      signal: done.signal,
      timedOut: done.timedOut,
      ...(failures.length === 0 ? {} : { stdout: excerpt(done.stdout), stderr: excerpt(done.stderr) }),
    });
  }
  return { cases, refused: listing.refused };
}
