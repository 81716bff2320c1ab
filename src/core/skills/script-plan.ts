/**
 * How a skill's script may run, decided from what was read (skill-scripts.ts readScriptFacts: where
 * the skill, its scripts/ folder and the script really are, and what the script is): confinement,
 * then the allowlist, then how to start it. Pure: no file-system access. The rules are those of
 * skill-scripts.ts's header; every refusal says why and what to change.
 */
import path from 'node:path';
import { SquadError } from '../base/errors.js';
import { SKILL_FILE, squadPaths } from '../base/paths.js';
import { isWithin, relativePathProblem } from '../fs/fs-safe.js';

/** The allowlist: which skills' scripts an agent may run through create-squad. */
export const SKILLS_ALLOWLIST_PATH = `${squadPaths.root}/skills-allowlist.json`;
/** The folder of a skill that holds the scripts that may run. */
export const SCRIPTS_DIR = 'scripts';
/** The allowlist value that allows every script in a skill's scripts/ folder. */
export const ALL_SCRIPTS = 'all';
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

/** What deciding how a script runs asks of the disk (skill-scripts.ts readScriptFacts), read once. */
export interface ScriptFacts {
  /** The repository folder, links resolved. */
  realRoot: string;
  /** The skill folder, links resolved; undefined when it is not there (or the script path was refused unread). */
  realSkill?: string;
  /** Its scripts/ folder, links resolved; undefined when it is not there. */
  realScripts?: string;
  /** The script, links resolved; undefined when it is not there. */
  realScript?: string;
  /** What the script resolves to is a regular file. */
  isFile: boolean;
  /** It has an execute bit. */
  executable: boolean;
}

/** How a script runs, by extension: its interpreter and the arguments before the script's path. */
export interface ScriptRunner {
  command: string;
  args: string[];
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

/** A command line's words planned as a script run: the script's plan and the arguments after it. */
export interface ScriptCommandPlan extends ScriptPlan {
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

const SCRIPT_PATH_HINT = 'give a file of the skill\'s scripts/ folder as reading the skill lists it ("scripts/<file>")';

function refusedScript(skill: string, script: string, reason: string, hint: string): SquadError {
  return new SquadError('unsafe-path', `refusing to run ${JSON.stringify(script)} of skill "${skill}": ${reason}`, { hint });
}

/**
 * Where the script really is, checked to be a regular file inside the skill's scripts/ folder of a
 * skill inside the repository. unsafe-path for anything that would leave them, not-found when the
 * file is not there.
 */
function confinedScript(facts: ScriptFacts, skill: ScriptSkill, script: string): string {
  const inside = SCRIPT_PATH_HINT;
  const problem = relativePathProblem(script);
  if (problem) throw refusedScript(skill.dirName, script, problem, inside);
  const { realSkill, realScripts, realScript: real } = facts;
  if (realSkill === undefined || !isWithin(facts.realRoot, realSkill)) {
    throw refusedScript(
      skill.dirName,
      script,
      'the skill folder lies outside the repository (a link out of it), and such a skill never runs',
      'copy the skill into the repository and review it, then allow it',
    );
  }
  if (realScripts === undefined) {
    throw new SquadError('not-found', `skill "${skill.dirName}" has no ${SCRIPTS_DIR}/ folder`, {
      hint: 'read the skill: it says how it is used; only files in scripts/ can be run',
    });
  }
  if (!isWithin(realSkill, realScripts)) {
    throw refusedScript(skill.dirName, script, `its ${SCRIPTS_DIR}/ folder is a link that leads out of the skill folder`, 'make scripts/ a real folder inside the skill');
  }
  if (real === undefined) {
    throw new SquadError('not-found', `skill "${skill.dirName}" has no script ${script}`, { hint: 'read the skill to list its scripts, and give one of those paths' });
  }
  if (!isWithin(realScripts, real) || real === realScripts) {
    throw refusedScript(skill.dirName, script, `it leads outside the skill's ${SCRIPTS_DIR}/ folder`, inside);
  }
  if (!facts.isFile) {
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
function scriptRunner(skill: string, script: string, executable: boolean): ScriptRunner | undefined {
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
  if (process.platform === 'win32' || !executable) {
    throw refusedScript(
      skill,
      script,
      `no interpreter is known for "${extension || 'no extension'}" and the file is not executable`,
      `use one of ${Object.keys(SCRIPT_RUNNERS).join(', ')}, or make the file executable with a #! line`,
    );
  }
  return undefined;
}

/** Refuse arguments no program can receive (a NUL byte) or that are unreasonably many or long. */
export function checkArguments(args: readonly string[]): void {
  const hint = `pass at most ${MAX_SCRIPT_ARGUMENTS} arguments of at most ${MAX_SCRIPT_ARGUMENT_LENGTH} characters; put long input in a file and pass its path`;
  if (args.length > MAX_SCRIPT_ARGUMENTS) throw new SquadError('invalid-input', `${args.length} arguments are too many`, { hint });
  for (const [index, arg] of args.entries()) {
    if (arg.includes('\0')) throw new SquadError('invalid-input', `argument ${index + 1} contains a NUL byte`, { hint: 'a program cannot receive a NUL byte in an argument' });
    if (arg.length > MAX_SCRIPT_ARGUMENT_LENGTH) throw new SquadError('invalid-input', `argument ${index + 1} is longer than ${MAX_SCRIPT_ARGUMENT_LENGTH} characters`, { hint });
  }
}

/**
 * Everything checked before the script `given` of `skill` runs, from `facts` (read for
 * normalizeScriptPath(given)): confinement, then the allowlist, then how to start it.
 */
export function decideSkillScript(facts: ScriptFacts, skill: ScriptSkill, given: string, allowlist: SkillsAllowlist): ScriptPlan {
  const problem = relativePathProblem(given.trim());
  if (problem) throw refusedScript(skill.dirName, given, problem, SCRIPT_PATH_HINT);
  const script = normalizeScriptPath(given);
  const abs = confinedScript(facts, skill, script);
  const skillFolder = skillFolderOf(skill.location);
  requireAllowed(allowlist, skill, skillFolder, script);
  const interpreter = scriptRunner(skill.dirName, script, facts.executable);
  const realSkillDir = facts.realSkill!;
  const realScript = path.relative(realSkillDir, abs).split(path.sep).join('/');
  return { skill: skill.dirName, skillFolder, script, realSkillDir, realScript, ...(interpreter === undefined ? {} : { interpreter }) };
}

/** A command's words split: the interpreter word named before the script, the script word, the arguments. */
function commandWords(words: readonly string[]): { named: string | undefined; script: string | undefined; args: string[] } {
  const [first, ...rest] = words;
  const named = first !== undefined && ANY_INTERPRETER_WORD.has(first) ? first : undefined;
  const script = named === undefined ? first : rest.shift();
  return { named, script, args: rest };
}

/** The script a command's words name (what its facts are read for), undefined when they name none. */
export function scriptOfCommand(words: readonly string[]): string | undefined {
  const { script } = commandWords(words);
  return script?.startsWith(`${SCRIPTS_DIR}/`) ? script : undefined;
}

/**
 * The words of a command (a skill test case's) as a run of one script of the skill: the first word
 * is the script ("scripts/check.py"), or an interpreter that fits its extension followed by it
 * ("python3 scripts/check.py"); the rest are its arguments. Everything else about it is what
 * decideSkillScript checks from `facts` (read for scriptOfCommand(words)). Anything else is refused.
 */
export function decideScriptCommand(facts: ScriptFacts, skill: ScriptSkill, words: readonly string[], allowlist: SkillsAllowlist): ScriptCommandPlan {
  const { named, script, args } = commandWords(words);
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
  checkArguments(args);
  return { ...decideSkillScript(facts, skill, script, allowlist), args };
}
