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
 * Every refusal says why and what to change. This module reads (the allowlist, where the script
 * really is: readScriptFacts) and runs; script-plan.ts decides from what it read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readStateText } from '../fs/confined.js';
import { SquadError } from '../base/errors.js';
import { relativePathProblem } from '../fs/fs-safe.js';
import type { BoundedRun } from '../fs/run-bounded.js';
import { runConfined, type Confinement } from '../fs/sandbox.js';
import { isMapping } from '../base/util.js';
import {
  ALL_SCRIPTS,
  SCRIPTS_DIR,
  SKILLS_ALLOWLIST_PATH,
  checkArguments,
  decideScriptCommand,
  decideSkillScript,
  normalizeScriptPath,
  scriptOfCommand,
  type ScriptCommandPlan,
  type ScriptFacts,
  type ScriptPlan,
  type ScriptSkill,
  type SkillsAllowlist,
} from './script-plan.js';

export {
  ALL_SCRIPTS,
  MAX_SCRIPT_ARGUMENTS,
  MAX_SCRIPT_ARGUMENT_LENGTH,
  SCRIPTS_DIR,
  SKILLS_ALLOWLIST_PATH,
  normalizeScriptPath,
  skillFolderOf,
  type ScriptCommandPlan,
  type ScriptFacts,
  type ScriptPlan,
  type ScriptSkill,
  type SkillsAllowlist,
} from './script-plan.js';

const ALLOWLIST_MAX_BYTES = 256 * 1024;

export interface ScriptLimits {
  timeoutMs: number;
  /** Per stream (stdout, stderr): bytes kept; the rest is counted and dropped. */
  maxOutputBytes: number;
}

export const DEFAULT_SCRIPT_LIMITS: ScriptLimits = { timeoutMs: 60_000, maxOutputBytes: 1024 * 1024 };
/** The longest time limit a caller may ask for. */
export const MAX_SCRIPT_TIMEOUT_MS = 10 * 60_000;
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

/**
 * What deciding how the script `script` (a path relative to the skill folder, as
 * normalizeScriptPath gives it) of `skill` runs asks of the disk: where the repository, the skill,
 * its scripts/ folder and the script really are (links resolved), and what the script is. A path
 * that is no repository path is not looked up (the decision refuses it first).
 */
export function readScriptFacts(root: string, skill: ScriptSkill, script: string): ScriptFacts {
  const realRoot = realPath(root) ?? root;
  if (relativePathProblem(script) !== undefined) return { realRoot, isFile: false, executable: false };
  const realSkill = realPath(skill.dir);
  const realScripts = realPath(path.join(skill.dir, SCRIPTS_DIR));
  const realScript = realPath(path.join(skill.dir, ...script.split('/')));
  let stat: fs.Stats | undefined;
  try {
    stat = realScript === undefined ? undefined : fs.statSync(realScript);
  } catch {
    stat = undefined; // gone since: not a regular file
  }
  return {
    realRoot,
    ...(realSkill === undefined ? {} : { realSkill }),
    ...(realScripts === undefined ? {} : { realScripts }),
    ...(realScript === undefined ? {} : { realScript }),
    isFile: stat?.isFile() === true,
    executable: stat !== undefined && (stat.mode & 0o111) !== 0,
  };
}

/** Everything checked before a script runs (script-plan.ts decideSkillScript), on the disk as it is now. */
export function planSkillScript(root: string, skill: ScriptSkill, given: string, allowlist: SkillsAllowlist): ScriptPlan {
  return decideSkillScript(readScriptFacts(root, skill, normalizeScriptPath(given)), skill, given, allowlist);
}

/** The program and arguments that run a planned script found in `skillDir` (the skill folder, or a copy of it), with `args`. */
export function scriptCommandLine(plan: ScriptPlan, skillDir: string, args: readonly string[]): { command: string; args: string[] } {
  const file = path.join(skillDir, ...plan.realScript.split('/'));
  return plan.interpreter === undefined ? { command: file, args: [...args] } : { command: plan.interpreter.command, args: [...plan.interpreter.args, file, ...args] };
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

/** A command's words as a run of one script of the skill (script-plan.ts decideScriptCommand), on the disk as it is now. */
export function planScriptCommand(root: string, skill: ScriptSkill, words: readonly string[], allowlist: SkillsAllowlist): ScriptCommandPlan {
  return decideScriptCommand(readScriptFacts(root, skill, normalizeScriptPath(scriptOfCommand(words) ?? '')), skill, words, allowlist);
}
