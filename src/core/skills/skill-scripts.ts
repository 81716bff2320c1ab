/**
 * Running a skill's scripts on an agent's request: off unless the user allowed it, and never
 * outside the skill.
 *
 * - Only a file inside the skill's own scripts/ folder runs (no "..", no absolute path, no symlink
 *   whose target leaves scripts/), and never a skill whose folder lies outside the repository.
 * - Only scripts the allowlist names run: SKILLS_ALLOWLIST_PATH, a file the user commits, maps a
 *   skill folder (repo-relative) to the scripts it may run, or to "all" of them.
 * - A script runs without a shell: its interpreter is chosen by its extension (SCRIPT_RUNNERS),
 *   the arguments are an array, the working folder is the repository; it runs confined
 *   (fs/sandbox.ts: a minimal environment, a temporary HOME, its whole process tree killed at the
 *   time limit where namespaces allow; time and output limits).
 * Every refusal says why and what to change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readStateText } from '../fs/confined.js';
import { SquadError } from '../base/errors.js';
import { isWithin, relativePathProblem } from '../fs/fs-safe.js';
import { SKILL_FILE, squadPaths } from '../base/paths.js';
import type { BoundedRun } from '../fs/run-bounded.js';
import { runConfined, type Confinement } from '../fs/sandbox.js';
import { isMapping } from '../base/util.js';

/** The allowlist: which skills' scripts an agent may run through create-squad. */
export const SKILLS_ALLOWLIST_PATH = `${squadPaths.root}/skills-allowlist.json`;
/** The folder of a skill that holds the scripts that may run. */
export const SCRIPTS_DIR = 'scripts';
/** The allowlist value that allows every script in a skill's scripts/ folder. */
export const ALL_SCRIPTS = 'all';
const ALLOWLIST_MAX_BYTES = 256 * 1024;

export interface ScriptLimits {
  timeoutMs: number;
  /** Per stream (stdout, stderr): bytes kept; the rest is counted and dropped. */
  maxOutputBytes: number;
}

export const DEFAULT_SCRIPT_LIMITS: ScriptLimits = { timeoutMs: 60_000, maxOutputBytes: 1024 * 1024 };
/** The longest time limit a caller may ask for. */
export const MAX_SCRIPT_TIMEOUT_MS = 10 * 60_000;
/** At most this many arguments, each at most MAX_SCRIPT_ARGUMENT_LENGTH characters. */
export const MAX_SCRIPT_ARGUMENTS = 100;
export const MAX_SCRIPT_ARGUMENT_LENGTH = 32 * 1024;

/** Skill folder → the scripts it may run (relative to the skill folder), or every one. */
export type SkillsAllowlist = ReadonlyMap<string, typeof ALL_SCRIPTS | ReadonlySet<string>>;

/** A skill as discovery reports it: enough to find its folder. */
export interface ScriptSkill {
  /** Folder name. */
  dirName: string;
  /** Absolute path of the skill folder. */
  dir: string;
  /** Repo-relative path of its SKILL.md. */
  location: string;
}

export interface ScriptPlan {
  skill: string;
  /** Repo-relative skill folder, as the allowlist names it. */
  skillFolder: string;
  /** Relative to the skill folder: "scripts/extract.py". */
  script: string;
  /** The skill folder, links resolved. */
  realSkillDir: string;
  /** The file that runs, relative to realSkillDir with links resolved: "scripts/extract.py", or where a link inside the skill leads. */
  realScript: string;
  /** The interpreter and its arguments before the script's path; undefined when the file runs itself. */
  interpreter?: ScriptRunner;
}

/** How a script runs, by extension: its interpreter and the arguments before the script's path. */
interface ScriptRunner {
  command: string;
  args: string[];
}

const NODE: ScriptRunner = { command: process.execPath, args: [] };
const SCRIPT_RUNNERS: Readonly<Record<string, ScriptRunner>> = {
  '.js': NODE,
  '.mjs': NODE,
  '.cjs': NODE,
  '.py': { command: process.platform === 'win32' ? 'python' : 'python3', args: [] },
  '.sh': { command: 'bash', args: [] },
  '.ps1': { command: 'pwsh', args: ['-NoProfile', '-NonInteractive', '-File'] },
};
/**
 * The words that may name a script's interpreter before it in a test case's command
 * ("python3 scripts/check.py"): only checked, the interpreter that runs it is still SCRIPT_RUNNERS'.
 */
const INTERPRETER_WORDS: Readonly<Record<string, readonly string[]>> = {
  '.js': ['node'],
  '.mjs': ['node'],
  '.cjs': ['node'],
  '.py': ['python', 'python3'],
  '.sh': ['bash', 'sh'],
  '.ps1': ['pwsh', 'powershell'],
};
const ANY_INTERPRETER_WORD = new Set(Object.values(INTERPRETER_WORDS).flat());
/** Batch files run through cmd.exe, which parses their arguments as a shell would: never run. */
const NEVER_RUN = new Set(['.bat', '.cmd']);

/** The repo-relative folder of a skill from its SKILL.md location. */
export function skillFolderOf(location: string): string {
  return location.endsWith(`/${SKILL_FILE}`) ? location.slice(0, -SKILL_FILE.length - 1) : path.posix.dirname(location);
}

/** A script path as given ("extract.py" or "scripts/extract.py") relative to the skill folder. */
export function normalizeScriptPath(given: string): string {
  const trimmed = given.trim();
  return trimmed.startsWith(`${SCRIPTS_DIR}/`) ? trimmed : `${SCRIPTS_DIR}/${trimmed}`;
}

function allowlistError(message: string): SquadError {
  return new SquadError('invalid-format', `${SKILLS_ALLOWLIST_PATH}: ${message}`, {
    file: SKILLS_ALLOWLIST_PATH,
    hint: `write it as {"skills": {"<skill folder>": {"scripts": ["scripts/<file>", …] or "${ALL_SCRIPTS}"}}}; until it reads, no script runs`,
  });
}

/** The allowlist in `text`; invalid-format for anything else, so a broken file allows nothing. */
export function parseSkillsAllowlist(text: string): SkillsAllowlist {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw allowlistError(`not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!isMapping(document)) throw allowlistError('the top level must be an object');
  const unknownKeys = Object.keys(document).filter((key) => key !== 'skills');
  if (unknownKeys.length > 0) throw allowlistError(`unknown key ${JSON.stringify(unknownKeys[0])} (only "skills")`);
  const skills = document.skills ?? {};
  if (!isMapping(skills)) throw allowlistError('"skills" must be an object mapping skill folders to what they may run');
  const allowlist = new Map<string, typeof ALL_SCRIPTS | ReadonlySet<string>>();
  for (const [folder, entry] of Object.entries(skills)) {
    const problem = relativePathProblem(folder);
    if (problem) throw allowlistError(`the skill folder ${JSON.stringify(folder)} is not a repository path: ${problem}`);
    if (!isMapping(entry) || Object.keys(entry).some((key) => key !== 'scripts')) {
      throw allowlistError(`the entry for ${folder} must be {"scripts": [...]} or {"scripts": "${ALL_SCRIPTS}"}`);
    }
    const scripts = entry.scripts;
    if (scripts === ALL_SCRIPTS) {
      allowlist.set(folder, ALL_SCRIPTS);
    } else if (Array.isArray(scripts) && scripts.every((s): s is string => typeof s === 'string' && s.trim() !== '')) {
      allowlist.set(folder, new Set(scripts.map(normalizeScriptPath)));
    } else {
      throw allowlistError(`"scripts" of ${folder} must be a list of script paths or "${ALL_SCRIPTS}"`);
    }
  }
  return allowlist;
}

/** The committed allowlist of the squad at `root`; empty when there is none. */
export function readSkillsAllowlist(root: string): SkillsAllowlist {
  const text = readStateText(root, SKILLS_ALLOWLIST_PATH, ALLOWLIST_MAX_BYTES);
  return text === undefined ? new Map() : parseSkillsAllowlist(text);
}

function realPath(absPath: string): string | undefined {
  try {
    return fs.realpathSync.native(absPath);
  } catch {
    return undefined;
  }
}

const SCRIPT_PATH_HINT = 'give a file of the skill\'s scripts/ folder as reading the skill lists it ("scripts/<file>")';

function refusedScript(skill: string, script: string, reason: string, hint: string): SquadError {
  return new SquadError('unsafe-path', `refusing to run ${JSON.stringify(script)} of skill "${skill}": ${reason}`, { hint });
}

/**
 * Where the script really is, checked to be a regular file inside the skill's scripts/ folder of a
 * skill inside the repository. unsafe-path for anything that would leave them, not-found when the
 * file is not there.
 */
function confinedScript(root: string, skill: ScriptSkill, script: string): string {
  const inside = SCRIPT_PATH_HINT;
  const problem = relativePathProblem(script);
  if (problem) throw refusedScript(skill.dirName, script, problem, inside);
  const realRoot = realPath(root) ?? root;
  const realSkill = realPath(skill.dir);
  if (realSkill === undefined || !isWithin(realRoot, realSkill)) {
    throw refusedScript(
      skill.dirName,
      script,
      'the skill folder lies outside the repository (a link out of it), and such a skill never runs',
      'copy the skill into the repository and review it, then allow it',
    );
  }
  const realScripts = realPath(path.join(skill.dir, SCRIPTS_DIR));
  if (realScripts === undefined) {
    throw new SquadError('not-found', `skill "${skill.dirName}" has no ${SCRIPTS_DIR}/ folder`, {
      hint: 'read the skill: it says how it is used; only files in scripts/ can be run',
    });
  }
  if (!isWithin(realSkill, realScripts)) {
    throw refusedScript(skill.dirName, script, `its ${SCRIPTS_DIR}/ folder is a link that leads out of the skill folder`, 'make scripts/ a real folder inside the skill');
  }
  const abs = path.join(skill.dir, ...script.split('/'));
  const real = realPath(abs);
  if (real === undefined) {
    throw new SquadError('not-found', `skill "${skill.dirName}" has no script ${script}`, { hint: 'read the skill to list its scripts, and give one of those paths' });
  }
  if (!isWithin(realScripts, real) || real === realScripts) {
    throw refusedScript(skill.dirName, script, `it leads outside the skill's ${SCRIPTS_DIR}/ folder`, inside);
  }
  if (!fs.statSync(real).isFile()) {
    throw refusedScript(skill.dirName, script, 'it is not a regular file', inside);
  }
  return real;
}

/** Refuse unless the allowlist lets this skill run this script. */
function requireAllowed(allowlist: SkillsAllowlist, skill: ScriptSkill, skillFolder: string, script: string): void {
  const allowed = allowlist.get(skillFolder);
  if (allowed === ALL_SCRIPTS || allowed?.has(script)) return;
  const entry = JSON.stringify({ skills: { [skillFolder]: { scripts: [script] } } });
  const reason =
    allowed === undefined
      ? `running scripts is off for this skill (${skillFolder} is not in ${SKILLS_ALLOWLIST_PATH})`
      : `${SKILLS_ALLOWLIST_PATH} allows other scripts of ${skillFolder}, not this one`;
  throw new SquadError('not-allowed', `not running ${script} of skill "${skill.dirName}": ${reason}`, {
    hint: `after reviewing the script, allow it by committing ${SKILLS_ALLOWLIST_PATH} with ${entry} (or "scripts": "${ALL_SCRIPTS}" for every script of the skill)`,
  });
}

/** How a script is started: its interpreter by extension, else (undefined) the file itself, which must be executable. */
function scriptRunner(skill: string, script: string, abs: string): ScriptRunner | undefined {
  const extension = path.extname(script).toLowerCase();
  if (NEVER_RUN.has(extension)) {
    throw refusedScript(
      skill,
      script,
      `${extension} files run through cmd.exe, which would parse the arguments as a shell does`,
      'write the script for node, python, bash or PowerShell instead',
    );
  }
  const runner = SCRIPT_RUNNERS[extension];
  if (runner) return runner;
  if (process.platform === 'win32' || (fs.statSync(abs).mode & 0o111) === 0) {
    throw refusedScript(
      skill,
      script,
      `no interpreter is known for "${extension || 'no extension'}" and the file is not executable`,
      `use one of ${Object.keys(SCRIPT_RUNNERS).join(', ')}, or make the file executable with a #! line`,
    );
  }
  return undefined;
}

/** Everything checked before a script runs: confinement, then the allowlist, then how to start it. */
export function planSkillScript(root: string, skill: ScriptSkill, given: string, allowlist: SkillsAllowlist): ScriptPlan {
  const problem = relativePathProblem(given.trim());
  if (problem) throw refusedScript(skill.dirName, given, problem, SCRIPT_PATH_HINT);
  const script = normalizeScriptPath(given);
  const abs = confinedScript(root, skill, script);
  const skillFolder = skillFolderOf(skill.location);
  requireAllowed(allowlist, skill, skillFolder, script);
  const interpreter = scriptRunner(skill.dirName, script, abs);
  const realSkillDir = realPath(skill.dir)!;
  const realScript = path.relative(realSkillDir, abs).split(path.sep).join('/');
  return { skill: skill.dirName, skillFolder, script, realSkillDir, realScript, ...(interpreter === undefined ? {} : { interpreter }) };
}

/** The program and arguments that run a planned script found in `skillDir` (the skill folder, or a copy of it), with `args`. */
export function scriptCommandLine(plan: ScriptPlan, skillDir: string, args: readonly string[]): { command: string; args: string[] } {
  const file = path.join(skillDir, ...plan.realScript.split('/'));
  return plan.interpreter === undefined ? { command: file, args: [...args] } : { command: plan.interpreter.command, args: [...plan.interpreter.args, file, ...args] };
}

/** Refuse arguments no program can receive (a NUL byte) or that are unreasonably many or long. */
function checkArguments(args: readonly string[]): void {
  const hint = `pass at most ${MAX_SCRIPT_ARGUMENTS} arguments of at most ${MAX_SCRIPT_ARGUMENT_LENGTH} characters; put long input in a file and pass its path`;
  if (args.length > MAX_SCRIPT_ARGUMENTS) throw new SquadError('invalid-input', `${args.length} arguments are too many`, { hint });
  for (const [index, arg] of args.entries()) {
    if (arg.includes('\0')) throw new SquadError('invalid-input', `argument ${index + 1} contains a NUL byte`, { hint: 'a program cannot receive a NUL byte in an argument' });
    if (arg.length > MAX_SCRIPT_ARGUMENT_LENGTH) throw new SquadError('invalid-input', `argument ${index + 1} is longer than ${MAX_SCRIPT_ARGUMENT_LENGTH} characters`, { hint });
  }
}

export interface ScriptRun extends BoundedRun {
  skill: string;
  skillFolder: string;
  script: string;
  args: string[];
  confinement: Confinement;
}

export interface RunScriptOptions {
  env: NodeJS.ProcessEnv;
  limits: ScriptLimits;
  signal?: AbortSignal;
}

/**
 * Check (planSkillScript) and run one script of a skill in the repository at `root`, with `args`:
 * in the repository folder (the tool's contract: a script works on the repository's files), the
 * network as it is, otherwise confined as skill tests are (a minimal environment, a temporary
 * HOME, the whole process tree killed at the time limit where namespaces allow).
 */
export async function runSkillScript(root: string, skill: ScriptSkill, given: string, args: readonly string[], options: RunScriptOptions): Promise<ScriptRun> {
  checkArguments(args);
  const plan = planSkillScript(root, skill, given, readSkillsAllowlist(root));
  const run = await runConfined(
    {
      root,
      parentEnv: options.env,
      network: 'on',
      timeoutMs: options.limits.timeoutMs,
      maxOutputBytes: options.limits.maxOutputBytes,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    },
    () => scriptCommandLine(plan, plan.realSkillDir, args),
  );
  return { skill: plan.skill, skillFolder: plan.skillFolder, script: plan.script, args: [...args], ...run };
}

/** A command line's words planned as a script run: the script's plan and the arguments after it. */
export interface ScriptCommandPlan extends ScriptPlan {
  args: string[];
}

/**
 * The words of a command (a skill test case's) as a run of one script of the skill: the first word
 * is the script ("scripts/check.py"), or an interpreter that fits its extension followed by it
 * ("python3 scripts/check.py"); the rest are its arguments. Everything else about it is what
 * planSkillScript checks: confinement, the allowlist, how it starts. Anything else is refused.
 */
export function planScriptCommand(root: string, skill: ScriptSkill, words: readonly string[], allowlist: SkillsAllowlist): ScriptCommandPlan {
  const [first, ...rest] = words;
  const named = first !== undefined && ANY_INTERPRETER_WORD.has(first) ? first : undefined;
  const script = named === undefined ? first : rest.shift();
  const shown = words.join(' ');
  const hint = `write the command as "${SCRIPTS_DIR}/<file> <arguments…>" (or "<interpreter> ${SCRIPTS_DIR}/<file> …"), naming a file of the skill's ${SCRIPTS_DIR}/ folder`;
  if (script === undefined || !script.startsWith(`${SCRIPTS_DIR}/`)) {
    throw new SquadError('not-allowed', `not running "${shown}" for skill "${skill.dirName}": a test command runs one file of the skill's ${SCRIPTS_DIR}/ folder, nothing else`, {
      hint,
    });
  }
  if (named !== undefined && !(INTERPRETER_WORDS[path.extname(script).toLowerCase()] ?? []).includes(named)) {
    throw new SquadError('invalid-input', `"${shown}": ${named} does not run ${path.extname(script) || 'files without an extension'} files`, {
      hint: `leave out the interpreter: create-squad picks it by the extension (${Object.entries(INTERPRETER_WORDS)
        .map(([ext, names]) => `${ext} ${names[0]}`)
        .join(', ')})`,
    });
  }
  checkArguments(rest);
  return { ...planSkillScript(root, skill, script, allowlist), args: rest };
}
