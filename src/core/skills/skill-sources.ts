/**
 * Where skills come from: a folder on disk, or a git repository (how people share skills), and the
 * record of each installed skill's source that lets `skills update` fetch it again.
 *
 * A source as typed is, in this order:
 *   - a folder that exists (relative to where the command runs): that folder;
 *   - a git URL (https://, http://, ssh://, git://, file://, or git@host:owner/repo), optionally
 *     ending in #ref; a GitHub page URL (…/tree/<ref>/<path>, …/blob/<ref>/<path>/SKILL.md) names
 *     the ref and the path inside the repository too;
 *   - github:owner/repo[/path][#ref], or owner/repo[/path][#ref]: a GitHub repository.
 * A repository is cloned with the user's own git (shallow, no prompts) into a folder of the system's
 * temporary folder, removed afterwards; nothing is written to the squad before the skills in it are
 * found and validated.
 *
 * Records live in the project lock, skills-lock.json at the repository root (skill-lock.ts: the
 * skills ecosystem's format), one entry per installed skill: its source, ref, path inside the
 * repository and the hash of its files. A folder inside the repository is recorded relative to the
 * repository root (so the record holds in a clone, or after an export to another machine); a folder
 * outside it as the absolute path it was added from, which `skills update` refuses with the fix once
 * it is gone. Nothing time-dependent is recorded, so adding the same skill again from the same place
 * writes nothing. The records of older squads (.ai-team/skill-sources.json) move into the lock at
 * `upgrade`.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { readStateText } from '../fs/confined.js';
import { SquadError, isSquadError, usageError } from '../base/errors.js';
import { warning, type Warning } from '../base/warnings.js';
import { existsInside, isDirectory, isWithin, resolveInside } from '../fs/fs-safe.js';
import { makeRepoScratch } from '../fs/debris.js';
import { readSkillFrontmatter } from './skill.js';
import { NATIVE_SKILL_DIRS, SKILL_FILE, AI_TEAM_DIR, nativeTeamSkillDir } from '../base/paths.js';
import type { Change } from '../base/plan.js';
import { controlCharacterProblem, isMapping, quoted } from '../base/util.js';
import { CREATE_SQUAD_FIELD, SKILL_LOCK_PATH, hashSkillFiles, lockKey, lockWith, parseLock, type SkillHash, type SkillLock } from './skill-lock.js';
import { listTree } from '../fs/tree.js';

/** Where create-squad recorded sources before the project lock: `upgrade` moves its records into the lock. */
export const SKILL_SOURCES_PATH = `${AI_TEAM_DIR}/skill-sources.json`;
/** The version of that file's shape. */
export const SKILL_SOURCES_SCHEMA = 1;

export interface FolderSource {
  type: 'folder';
  /** Absolute folder. */
  dir: string;
}

export interface GitSource {
  type: 'git';
  url: string;
  /** Branch or tag; undefined: the repository's default branch. */
  ref?: string;
  /** Folder inside the repository (forward slashes, no leading or trailing slash); '' for its root. */
  subpath: string;
  /** Read from owner/repo: said when the clone fails (the user may have meant a folder). */
  shorthand?: boolean;
}

export type SkillSourceSpec = FolderSource | GitSource;

/** What is recorded for an installed skill. */
export interface SourceRecord {
  /** The source as it can be typed again (`skills add <source>`). */
  source: string;
  type: 'folder' | 'git';
  /** folder: relative to the repository root when inside it (forward slashes), else absolute. */
  path?: string;
  url?: string;
  ref?: string;
  /** git: the folder of the skill inside the repository. */
  subpath?: string;
  /** git: the commit it was installed from. */
  commit?: string;
  /** What the skill's files hashed to when it was installed (the lock's computedHash, and each file's). */
  hash?: SkillHash;
}

const URL_SCHEME = /^(?:https?|ssh|git|file):\/\//i;
const SCP_LIKE = /^[\w.-]+@[\w.-]+:(?!\/\/)\S+$/;
const GITHUB_SHORT = /^(?:github:)?([A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)\/([\w.-]+?)(?:\.git)?((?:\/[^#\s]+)?)(?:#(\S+))?$/;
const GITHUB_PAGE = /^https:\/\/github\.com\/([^/]+)\/([^/#]+?)(?:\.git)?\/(?:tree|blob)\/([^/#]+)((?:\/[^#]*)?)$/i;

// ---------------------------------------------------------------- the rules of a source's fields
// One rule per field, for what is typed (parseSkillSource) and what is recorded (findRecord) alike.

/**
 * Why `subpath` (--path, the path of a GitHub page or shorthand, a recorded subpath) cannot name a
 * folder inside the source, or undefined: it must be relative and never climb out with "..".
 */
export function subpathProblem(subpath: string): string | undefined {
  const control = controlCharacterProblem(subpath);
  if (control) return control;
  if (/^[\\/]/.test(subpath) || /^[A-Za-z]:/.test(subpath)) return 'is absolute: a folder inside the source is given relative to its top';
  if (subpath.split(/[\\/]/).includes('..')) return 'climbs out of the source with ".."';
  return undefined;
}

/** Why `ref` is not a branch or tag name git accepts (git check-ref-format's rules), or undefined. */
export function refProblem(ref: string): string | undefined {
  const control = controlCharacterProblem(ref);
  if (control) return control;
  if (ref === '') return 'is empty';
  if (/\s/.test(ref)) return 'contains a space';
  if (ref.startsWith('-')) return 'starts with "-"';
  const bad = /[~^:?*[\\]|\.\.|@\{|\/\/|\/\.|^\.|^\/|\/$|\.$|\.lock$|^@$/.exec(ref);
  return bad ? `is not a branch or tag name git accepts (${quoted(bad[0] || ref)})` : undefined;
}

/** Why `url` is not a git URL create-squad clones (see the top of this file), or undefined. */
export function gitUrlProblem(url: string): string | undefined {
  const control = controlCharacterProblem(url);
  if (control) return control;
  if (/\s/.test(url)) return 'contains a space';
  if (url.startsWith('-')) return 'starts with "-"';
  if (!URL_SCHEME.test(url) && !SCP_LIKE.test(url)) return 'is not a git URL (https://, ssh://, git://, file:// or user@host:path)';
  return undefined;
}

/** `subpath` in the form records keep: forward slashes, no "." or empty parts. */
function cleanSubpath(text: string): string {
  return text
    .replace(/\\/g, '/')
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/');
}

/** A path inside the source as typed (`shown` says where), checked and cleaned; usage when it breaks the rule. */
function checkSubpath(subpath: string, shown: string): string {
  const problem = subpathProblem(subpath);
  if (problem) throw usageError(`${shown} ${problem}`, 'give a folder inside the source, relative to its top, e.g. --path skills/pdf');
  return cleanSubpath(subpath);
}

/** A ref as typed (`shown` says where), checked; usage when git would not take it. */
function checkRef(ref: string, shown: string): string {
  const problem = refProblem(ref);
  if (problem) throw usageError(`${shown} ${problem}`, 'give the name of a branch or a tag, e.g. main or v1.2');
  return ref;
}

/**
 * What `given` names (see the top of this file). `ref` and `subpath` (--ref, --path) override or
 * extend what the text says. Throws usage for a source that is neither, not-found for a folder
 * path that does not exist.
 */
export function parseSkillSource(given: string, invocationDir: string, options: { ref?: string; subpath?: string } = {}): SkillSourceSpec {
  const text = given.trim();
  if (text === '' || text.startsWith('-')) throw usageError(`${quoted(given)} is not a skill source`, 'give a folder, a git URL, or owner/repo');
  const local = path.resolve(invocationDir, text);
  const looksLikeGit = URL_SCHEME.test(text) || SCP_LIKE.test(text) || text.startsWith('github:');
  const typedSubpath = options.subpath === undefined ? '' : checkSubpath(options.subpath, `--path ${quoted(options.subpath)}`);
  if (!looksLikeGit && fs.existsSync(local)) {
    if (options.ref !== undefined || options.subpath !== undefined) {
      if (options.subpath === undefined) throw usageError('--ref is for a git source, not a folder', `drop --ref, or give the repository's URL`);
      return { type: 'folder', dir: path.resolve(local, ...typedSubpath.split('/')) };
    }
    return { type: 'folder', dir: local };
  }
  // What the source's text says inside the repository (a page's or shorthand's path, its leading "/" dropped), then --path.
  const withOptions = (spec: GitSource): GitSource => {
    const inText = checkSubpath(spec.subpath.replace(/^\//, ''), `the path inside the repository in ${quoted(given)}`);
    const urlProblem = gitUrlProblem(spec.url);
    if (urlProblem) throw usageError(`${quoted(spec.url)} ${urlProblem}`, 'give a git URL, or owner/repo for a GitHub repository');
    const ref = options.ref === undefined ? spec.ref : checkRef(options.ref, `--ref ${quoted(options.ref)}`);
    if (options.ref === undefined && ref !== undefined) checkRef(ref, `the ref in ${quoted(given)}`);
    return { type: 'git', url: spec.url, subpath: [inText, typedSubpath].filter(Boolean).join('/'), ...(ref ? { ref } : {}) };
  };
  const page = GITHUB_PAGE.exec(text);
  if (page) {
    const subpath = cleanSubpath(page[4]!).replace(/(?:^|\/)SKILL\.md$/i, '');
    return withOptions({ type: 'git', url: `https://github.com/${page[1]}/${page[2]}.git`, ref: decodeURIComponent(page[3]!), subpath: decodeURIComponent(subpath) });
  }
  if (URL_SCHEME.test(text) || SCP_LIKE.test(text)) {
    const [url, ref] = text.split('#', 2) as [string, string | undefined];
    return withOptions({ type: 'git', url, subpath: '', ...(ref ? { ref } : {}) });
  }
  const short = GITHUB_SHORT.exec(text);
  if (short && (text.startsWith('github:') || !text.startsWith('.'))) {
    const spec = withOptions({ type: 'git', url: `https://github.com/${short[1]}/${short[2]}.git`, subpath: short[3]!, ...(short[4] ? { ref: short[4] } : {}) });
    return text.startsWith('github:') ? spec : { ...spec, shorthand: true };
  }
  throw new SquadError('not-found', `${given} does not exist`, {
    hint: 'pass the folder of a skill (or of several skills), a git URL, or owner/repo[/path] for a GitHub repository',
  });
}

/** How a git source is written to be typed again: URL, then #ref, with --path for a folder inside. */
export function describeGitSource(source: GitSource): string {
  return `${source.url}${source.ref ? `#${source.ref}` : ''}${source.subpath ? ` --path ${source.subpath}` : ''}`;
}

// ---------------------------------------------------------------- cloning

/** The purpose a clone's scratch folder is named after: `.create-squad-tmp/clone-<pid>-<hex>/`. */
export const CLONE_PURPOSE = 'clone';

/** What could not be removed after a run: the temporary clone's folder, and why. */
export interface LeftBehind {
  path: string;
  reason: string;
}

export interface Fetched {
  /** The folder the source names (the clone's subfolder for a git source). */
  dir: string;
  /** git: the commit checked out. */
  commit?: string;
  /**
   * Remove what was fetched (the clone); nothing for a folder. Never throws: a clone that cannot
   * be removed is returned, for a warning (the command's outcome stands), and a later run sweeps it.
   */
  dispose(): LeftBehind | undefined;
}

/** The warning for a clone `dispose` could not remove (none when it did): where it is, how to remove it. */
export function leftBehindWarnings(left: LeftBehind | undefined): Warning[] {
  if (left === undefined) return [];
  return [
    warning(
      'clone-left-behind',
      `could not remove the temporary clone ${left.path} (${left.reason}): remove it with "rm -rf ${left.path}"; the next writing command removes it too`,
      left.path,
    ),
  ];
}

const run = promisify(execFile);

/** The environment git runs in: never asks for a password or a passphrase, messages in English. */
export function gitEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'echo', SSH_ASKPASS: 'echo', LC_ALL: 'C' };
}

function gitFailure(source: GitSource, error: unknown): SquadError {
  const { url } = source;
  const failure = error as NodeJS.ErrnoException & { stderr?: string };
  if (failure.code === 'ENOENT') {
    return new SquadError('not-found', 'git is not installed (or not on the PATH): it is needed to add skills from a repository', {
      hint: 'install git, or clone the repository yourself and pass its folder; nothing was written',
    });
  }
  const lines = String(failure.stderr ?? failure.message ?? '')
    .split('\n')
    .map((line) => line.replace(/^(?:fatal|error):\s*/, '').trim())
    .filter(Boolean);
  return new SquadError('not-found', `could not clone ${url}: ${lines.at(-1) ?? 'git failed'}`, {
    hint: source.shorthand
      ? `no folder of that name exists here, so it was read as a GitHub repository; check the name, or the folder's path; nothing was written`
      : 'check the URL, the ref and your access to the repository (git asks for no password here); nothing was written',
  });
}

/**
 * The folder `source` names, ready to read: a folder as it is; a repository cloned (shallow, its
 * default branch or `ref`) into a scratch folder of the repository's own temp folder
 * (`.create-squad-tmp/clone-<pid>-<hex>/`, never the system's), removed by `dispose` (and on any
 * failure here; what a killed run left goes with the next writing command's sweep). not-found when git fails or the path inside is not a folder; unsafe-path when that path
 * leads out of the clone through a symlink.
 */
export async function fetchSource(source: SkillSourceSpec, env: NodeJS.ProcessEnv, root: string): Promise<Fetched> {
  if (source.type === 'folder') return { dir: source.dir, dispose: () => undefined };
  const scratch = makeRepoScratch(root, CLONE_PURPOSE);
  const work = scratch.path;
  const dispose = (): LeftBehind | undefined => {
    try {
      scratch.release();
      return undefined;
    } catch (error) {
      const failure = error as NodeJS.ErrnoException;
      return { path: work, reason: failure.code ?? failure.message };
    }
  };
  try {
    const clone = path.join(work, 'repo');
    const args = [
      '-c',
      'protocol.ext.allow=never',
      'clone',
      '--quiet',
      '--depth',
      '1',
      '--single-branch',
      '--no-tags',
      ...(source.ref ? ['--branch', source.ref] : []),
      '--',
      source.url,
      clone,
    ];
    await run('git', args, { env: gitEnv(env), maxBuffer: 16 * 1024 * 1024 }).catch((error: unknown) => {
      throw gitFailure(source, error);
    });
    const { stdout } = await run('git', ['-C', clone, 'rev-parse', 'HEAD'], { env: gitEnv(env) });
    const dir = path.join(clone, ...(source.subpath ? source.subpath.split('/') : []));
    if (!isDirectory(dir)) {
      throw new SquadError('not-found', `${source.url} has no folder ${source.subpath}`, { hint: 'check the path inside the repository; nothing was written' });
    }
    // A link in the repository (the folder itself, or one on its way) may point anywhere on this disk.
    if (!isWithin(fs.realpathSync(clone), fs.realpathSync(dir))) {
      throw new SquadError('unsafe-path', `${source.url}: the folder ${source.subpath} leads out of the repository through a symlink`, {
        hint: 'give a folder of the repository itself, not one reached through a link; nothing was written',
      });
    }
    return { dir: await namedAfterSkill(dir, work), commit: stdout.trim(), dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}

/**
 * A skill at the root of a clone sits in a folder named after the repository; a skill's folder is
 * named after the skill, so it is moved (inside the clone's work folder) to a folder of that name.
 */
async function namedAfterSkill(dir: string, work: string): Promise<string> {
  const file = path.join(dir, SKILL_FILE);
  if (!isRegularFile(file)) return dir; // a link is refused when the skill is read
  let name: unknown;
  try {
    name = readSkillFrontmatter(file).frontmatter.name;
  } catch {
    return dir; // validation says what is wrong with it
  }
  if (typeof name !== 'string' || !/^[a-z0-9-]{1,64}$/.test(name) || name === path.basename(dir)) return dir;
  const named = path.join(work, 'named', name);
  fs.mkdirSync(path.dirname(named), { recursive: true });
  fs.renameSync(dir, named);
  return named;
}

// ---------------------------------------------------------------- skills in a folder

export interface FoundSkill {
  name: string;
  dir: string;
}

/** Folders of a repository where several skills are kept, searched after its top level. */
const COLLECTION_DIRS = ['skills', ...NATIVE_SKILL_DIRS];

function lstatOrUndefined(absPath: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(absPath);
  } catch {
    return undefined;
  }
}

function isRegularFile(absPath: string): boolean {
  return lstatOrUndefined(absPath)?.isFile() === true;
}

/** Whether `dir` holds a SKILL.md: a file, or a link (found, so that reading the skill refuses it and says why). */
function holdsSkillFile(dir: string): boolean {
  const stat = lstatOrUndefined(path.join(dir, SKILL_FILE));
  return stat !== undefined && (stat.isFile() || stat.isSymbolicLink());
}

/**
 * The skills in `dir`: the folder itself when it holds a SKILL.md; else each subfolder that holds
 * one; else each subfolder of skills/, .github/skills/, .agents/skills/ or .claude/skills/ that
 * does (never through a link: those folders are searched only when they are real folders). [] when
 * there is none.
 */
export function findSkills(dir: string): FoundSkill[] {
  if (holdsSkillFile(dir)) return [{ name: path.basename(dir), dir }];
  const direct = skillFolders(dir);
  if (direct.length > 0) return direct;
  const found: FoundSkill[] = [];
  for (const sub of COLLECTION_DIRS) {
    const parts = sub.split('/');
    const reachedByLink = parts.some((_, i) => lstatOrUndefined(path.join(dir, ...parts.slice(0, i + 1)))?.isSymbolicLink() === true);
    if (reachedByLink) continue;
    for (const skill of skillFolders(path.join(dir, ...parts))) if (!found.some((f) => f.name === skill.name)) found.push(skill);
  }
  return found;
}

function skillFolders(dir: string): FoundSkill[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && holdsSkillFile(path.join(dir, entry.name)))
    .map((entry) => ({ name: entry.name, dir: path.join(dir, entry.name) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The skills to add from `found` (the skills of `given`): the one skill there is, those named by
 * `names`, or all with `all`. usage when there are several and no choice, or a name is not there.
 */
export function pickSkills(found: readonly FoundSkill[], given: string, names: readonly string[], all: boolean): FoundSkill[] {
  if (found.length === 0) {
    throw new SquadError('not-found', `${given} holds no skill (no ${SKILL_FILE} in it, in its subfolders, or in skills/ or .github/skills/)`, {
      hint: 'pass the folder of a skill (the one holding SKILL.md), or of several skills',
    });
  }
  if (names.length > 0) {
    const missing = names.filter((name) => !found.some((f) => f.name === name));
    if (missing.length > 0) {
      throw usageError(`${given} has no skill named ${missing.map(quoted).join(', ')}`, `it holds: ${found.map((f) => f.name).join(', ')}`);
    }
    return found.filter((f) => names.includes(f.name));
  }
  if (all || found.length === 1) return [...found];
  throw usageError(`${given} holds ${found.length} skills: ${found.map((f) => f.name).join(', ')}`, 'pick with --skill <name…>, or add them all with --all');
}

// ---------------------------------------------------------------- records

/**
 * The records of where skills came from: the project lock (skill-lock.ts), read once. A file that
 * is not a lock reads as none for adding (the next add writes it again) and is refused when a
 * record is read from it (findRecord); one with git conflict markers is healed, or refused naming
 * the skill both sides changed.
 */
export type SourcesFile = SkillLock;

export function readSources(root: string): SourcesFile {
  return parseLock(readStateText(root, SKILL_LOCK_PATH));
}

/** Whether the lock keeps an entry (valid or not) for the skill at `destination`. */
export function hasRecord(file: SourcesFile, destination: string): boolean {
  return Object.hasOwn(file.entries, lockKey(destination));
}

const COMMIT = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const HASH = /^[0-9a-f]{64}$/;
const GITHUB_HTTPS = /^https:\/\/github\.com\/([A-Za-z0-9][\w.-]*)\/([\w.-]+?)(?:\.git)?$/;
const OWNER_REPO = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;

/** Why a recorded one-line text (the source as typed, a folder's path) cannot be used, or undefined. */
function textProblem(value: string): string | undefined {
  return value.trim() === '' ? 'is empty' : controlCharacterProblem(value);
}

/** A folder as the lock keeps it: `./path` inside the repository, `.` for its root, else absolute (forward slashes). */
function lockFolder(recorded: string): string {
  if (path.isAbsolute(recorded)) return recorded.split(path.sep).join('/');
  return recorded === '.' || recorded.startsWith('../') ? recorded : `./${recorded}`;
}

/** The lock's entry for `record`: the ecosystem's fields, and create-squad's (the commit, each file's hash) under createSquad. */
export function lockEntry(record: SourceRecord): Record<string, unknown> {
  const own = { ...(record.commit ? { commit: record.commit } : {}), ...(record.hash ? { files: record.hash.files } : {}) };
  const common = { computedHash: record.hash?.computedHash ?? '', ...(Object.keys(own).length > 0 ? { [CREATE_SQUAD_FIELD]: own } : {}) };
  if (record.type === 'folder') return { source: lockFolder(record.path ?? record.source), sourceType: 'local', ...common };
  const url = record.url ?? '';
  const github = GITHUB_HTTPS.exec(url);
  const skillPath = record.subpath ? `${record.subpath}/${SKILL_FILE}` : SKILL_FILE;
  return {
    ...(github ? { source: `${github[1]}/${github[2]}`, sourceType: 'github' } : { source: url, sourceUrl: url, sourceType: 'git' }),
    ...(record.ref ? { ref: record.ref } : {}),
    skillPath,
    ...common,
  };
}

/**
 * The record of the skill at `destination`, undefined when the lock has none. Read from a file anyone
 * (and any tool) can edit, so every field is held to the rule it obeys when typed (subpathProblem for
 * the path inside a repository, gitUrlProblem, refProblem): an entry that breaks one, or names a
 * source create-squad cannot fetch (a well-known URL, a package), is refused (invalid-format) naming
 * the file, the skill and the field, before anything is fetched or written.
 */
export function findRecord(file: SourcesFile, destination: string): SourceRecord | undefined {
  const refuse = (what: string, fix: string) => new SquadError('invalid-format', `${SKILL_LOCK_PATH}: ${what}`, { hint: `${fix}; nothing was written`, file: SKILL_LOCK_PATH });
  if (file.problem !== undefined) {
    throw refuse(`the file ${file.problem}`, 'correct it, or remove it and add the skills again with "create-squad skills add <source> --force" to record their sources');
  }
  const key = lockKey(destination);
  if (!Object.hasOwn(file.entries, key)) return undefined;
  const value = file.entries[key]!;
  const where = `the entry of ${quoted(key)}`;
  const readd = `add the skill again with "create-squad skills add <source> --force" to record it anew`;
  const field = (from: Record<string, unknown>, name: string, rule: (text: string) => string | undefined, required = false): string | undefined => {
    const given = from[name];
    if (given === undefined && !required) return undefined;
    const problem = typeof given !== 'string' ? (given === undefined ? 'is missing' : 'is not text') : rule(given);
    if (problem === undefined) return given as string;
    const shown = typeof given === 'string' ? ` ${quoted(given.length > 80 ? `${given.slice(0, 80)}…` : given)}` : '';
    throw refuse(`${where}: "${name}"${shown} ${problem}`, `correct its "${name}", or remove that entry and ${readd}`);
  };
  const own = isMapping(value[CREATE_SQUAD_FIELD]) ? value[CREATE_SQUAD_FIELD] : {};
  const sourceType = field(value, 'sourceType', textProblem, true)!;
  const source = field(value, 'source', textProblem, true)!;
  // An empty hash is none (a record carried from an older create-squad's export): the next update records one.
  const computedHash = field(value, 'computedHash', (text) => (text === '' || HASH.test(text) ? undefined : 'is not a SHA-256 hash (64 lowercase hex digits)')) || undefined;
  const files = isMapping(own.files)
    ? Object.fromEntries(Object.entries(own.files).filter((pair): pair is [string, string] => typeof pair[1] === 'string' && HASH.test(pair[1])))
    : undefined;
  const hash = computedHash === undefined ? {} : { hash: { computedHash, ...(files === undefined ? { files: {} } : { files }) } };
  if (sourceType === 'local') {
    const folder = source.replace(/^\.\/(?=.)/, '');
    return { source: folder, type: 'folder', path: folder, ...hash };
  }
  if (sourceType !== 'github' && sourceType !== 'git' && sourceType !== 'gitlab') {
    throw refuse(
      `${where} has the source type ${quoted(sourceType)}: create-squad fetches folders and git repositories only`,
      'update that skill with the tool that added it (npx skills update)',
    );
  }
  const githubSource = (text: string) => (OWNER_REPO.test(text) || gitUrlProblem(text) === undefined ? undefined : 'is neither owner/repo nor a git URL');
  const url =
    sourceType === 'github' ? githubUrl(field(value, 'source', githubSource, true)!) : (field(value, 'sourceUrl', gitUrlProblem) ?? field(value, 'source', gitUrlProblem, true)!);
  const ref = field(value, 'ref', refProblem);
  const skillPath = field(value, 'skillPath', (text) => subpathProblem(text.replace(/(?:^|\/)SKILL\.md$/, '')));
  const subpath = skillPath === undefined ? '' : cleanSubpath(skillPath.replace(/(?:^|\/)SKILL\.md$/, ''));
  const commit = field(own, 'commit', (text) => (COMMIT.test(text) ? undefined : 'is not a commit id (40 or 64 lowercase hex digits)'));
  const spec: GitSource = { type: 'git', url, subpath, ...(ref === undefined ? {} : { ref }) };
  return {
    source: describeGitSource(spec),
    type: 'git',
    url,
    ...(ref === undefined ? {} : { ref }),
    subpath,
    ...(commit === undefined ? {} : { commit }),
    ...hash,
  };
}

function githubUrl(source: string): string {
  return OWNER_REPO.test(source) ? `https://github.com/${source.replace(/\.git$/, '')}.git` : source;
}

/**
 * The change that records `records` (destination → record) in the lock: created when there is none,
 * else replaced while it still holds what was read; none when nothing changes (or there is nothing
 * to record). Pure.
 */
export function recordChanges(file: SourcesFile, records: Readonly<Record<string, SourceRecord>>): Change[] {
  if (Object.keys(records).length === 0) return [];
  const text = lockWith(file, Object.fromEntries(Object.entries(records).map(([destination, record]) => [lockKey(destination), lockEntry(record)])));
  if (text === undefined) return [];
  return [file.text === undefined ? { kind: 'create', path: SKILL_LOCK_PATH, content: text } : { kind: 'replace', path: SKILL_LOCK_PATH, content: text, base: file.text }];
}

/**
 * The change that drops the lock's entry of the skill at `destination` (a removed skill, so that
 * `skills update` never fetches it back and other tools do not restore it); none when the lock has
 * no entry for it. Pure.
 */
export function forgetRecordChanges(file: SourcesFile, destination: string): Change[] {
  if (file.text === undefined || file.problem !== undefined || !hasRecord(file, destination)) return [];
  const text = lockWith(file, { [lockKey(destination)]: null });
  return text === undefined ? [] : [{ kind: 'replace', path: SKILL_LOCK_PATH, content: text, base: file.text }];
}

/**
 * A failure to write the records once the skills landed (the record is a plan's last change), as
 * the user needs it: bookkeeping-failed, since the change stands, saying what landed (`done`) and
 * why the record did not, with the hint that running `rerun` again records it (an identical skill
 * is left as it is and only its record is written). Undefined for any other failure, and for a
 * conflict (the file changed since it was read: the applier says what was written).
 */
export function recordWriteFailure(error: unknown, done: string, rerun: string, several = false): SquadError | undefined {
  if (!isSquadError(error) || error.code === 'conflict' || !error.message.includes(SKILL_LOCK_PATH)) return undefined;
  const reason = error.message.replace(`cannot write ${SKILL_LOCK_PATH}: `, '');
  const fix = /disk is full|ENOSPC/.test(reason) ? 'free some space' : /EROFS|EACCES|EPERM|permission/.test(reason) ? `make ${SKILL_LOCK_PATH} writable` : 'put that right';
  return new SquadError('bookkeeping-failed', `${done}; could not record ${several ? 'their sources' : 'its source'} in ${SKILL_LOCK_PATH}: ${reason}`, {
    hint: `${fix} and run "${rerun}" again to record ${several ? 'them' : 'it'}`,
    file: SKILL_LOCK_PATH,
    cause: error,
  });
}

/** The record for a skill added from `source`, found at `skillDir` (inside what was fetched), whose files hash to `hash`. */
export function sourceRecord(root: string, source: SkillSourceSpec, fetched: Fetched, skillDir: string, hash?: SkillHash): SourceRecord {
  const hashed = hash === undefined ? {} : { hash };
  if (source.type === 'folder') {
    const recorded = isWithin(root, skillDir) ? path.relative(root, skillDir).split(path.sep).join('/') || '.' : skillDir;
    return { source: recorded, type: 'folder', path: recorded, ...hashed };
  }
  const inside = skillDir === fetched.dir ? '' : path.relative(fetched.dir, skillDir).split(path.sep).join('/');
  const subpath = [source.subpath, inside].filter(Boolean).join('/');
  const spec: GitSource = { type: 'git', url: source.url, subpath, ...(source.ref ? { ref: source.ref } : {}) };
  return {
    source: describeGitSource(spec),
    type: 'git',
    url: source.url,
    ...(source.ref ? { ref: source.ref } : {}),
    subpath,
    ...(fetched.commit ? { commit: fetched.commit } : {}),
    ...hashed,
  };
}

/**
 * The source a record (from findRecord: checked) names, to fetch again: a relative folder resolved
 * against the repository root `root`, an absolute one as it is. not-found, naming the folder and
 * the fix, when the folder of the skill at `destination` is no longer there.
 */
export function recordedSpec(root: string, record: SourceRecord, destination: string): SkillSourceSpec {
  if (record.type === 'folder') {
    const recorded = record.path ?? record.source;
    const dir = path.resolve(root, recorded);
    if (!isDirectory(dir)) {
      const readd = `or add the skill again from where it is now with "create-squad skills add <folder> --force"; nothing was written`;
      throw new SquadError('not-found', `the recorded source of ${destination}, the folder ${dir}, does not exist`, {
        hint: path.isAbsolute(recorded)
          ? `it was outside the repository, so ${SKILL_LOCK_PATH} keeps its absolute path, which a move or another machine does not have: put the folder back there, ${readd}`
          : `it is recorded relative to the repository root (${recorded}): restore it there, ${readd}`,
        file: SKILL_LOCK_PATH,
      });
    }
    return { type: 'folder', dir };
  }
  return { type: 'git', url: record.url ?? '', subpath: record.subpath ?? '', ...(record.ref ? { ref: record.ref } : {}) };
}

// ---------------------------------------------------------------- the records before the lock

/** The records of `.ai-team/skill-sources.json` (squads before the project lock), as lock entries for `upgrade` to move into the lock. */
export interface LegacySources {
  /** The lock entries, by key, each hashed as its skill is installed now. */
  entries: Record<string, Record<string, unknown>>;
  /** Records left out, each with why. */
  skipped: string[];
  /** The lock as it stands (its entries win over a record of the same key: they are the newer). */
  lock: SkillLock;
}

/**
 * Read `.ai-team/skill-sources.json`, when there is one: each record held to the rules of its fields
 * (a record that breaks one is left out, with why), its skill found where it is installed (a team
 * skill in `.ai-team/skills/` or `.github/skills/`) and hashed. Undefined when there is no file.
 */
export async function readLegacySources(root: string): Promise<LegacySources | undefined> {
  const text = readStateText(root, SKILL_SOURCES_PATH);
  if (text === undefined) return undefined;
  const lock = readSources(root);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    parsed = undefined;
  }
  const skills = isMapping(parsed) && isMapping(parsed.skills) ? parsed.skills : undefined;
  if (skills === undefined) return { entries: {}, skipped: [`${SKILL_SOURCES_PATH} is not a JSON object with "skills": no record moved`], lock };
  const entries: Record<string, Record<string, unknown>> = {};
  const skipped: string[] = [];
  for (const [destination, value] of Object.entries(skills)) {
    const problem = legacyRecordProblem(value);
    if (problem !== undefined) {
      skipped.push(`the record of ${destination} ${problem}`);
      continue;
    }
    const record = value as unknown as SourceRecord;
    const name = path.posix.basename(destination);
    const folder = [destination, nativeTeamSkillDir(name)].find((candidate) => existsInside(root, candidate) && isDirectory(resolveInside(root, candidate)));
    if (folder === undefined) {
      skipped.push(`the record of ${destination}: that skill is no longer installed`);
      continue;
    }
    const dir = resolveInside(root, folder);
    const hash = hashSkillFiles(dir, (await listTree(dir)).files);
    const commit = typeof record.commit === 'string' && COMMIT.test(record.commit) ? { commit: record.commit } : {};
    const kept: SourceRecord = {
      source: record.source,
      type: record.type,
      ...(record.path === undefined ? {} : { path: record.path }),
      ...(record.url === undefined ? {} : { url: record.url }),
      ...(record.ref === undefined ? {} : { ref: record.ref }),
      ...(record.subpath === undefined ? {} : { subpath: cleanSubpath(record.subpath) }),
      ...commit,
      hash,
    };
    entries[lockKey(folder)] = lockEntry(kept);
  }
  return { entries, skipped, lock };
}

/** Why a record of `.ai-team/skill-sources.json` cannot become a lock entry, or undefined. */
function legacyRecordProblem(value: unknown): string | undefined {
  if (!isMapping(value)) return 'is not an object';
  const text = (name: string, rule: (given: string) => string | undefined, required = false): string | undefined => {
    const given = value[name];
    if (given === undefined) return required ? `has no "${name}"` : undefined;
    if (typeof given !== 'string') return `has a "${name}" that is not text`;
    const problem = rule(given);
    return problem === undefined ? undefined : `has a "${name}" that ${problem}`;
  };
  if (value.type !== 'folder' && value.type !== 'git') return 'has a "type" that is neither "folder" nor "git"';
  const checks =
    value.type === 'folder'
      ? [text('source', textProblem, true), text('path', textProblem)]
      : [text('source', textProblem, true), text('url', gitUrlProblem, true), text('ref', refProblem), text('subpath', subpathProblem)];
  return checks.find((problem) => problem !== undefined);
}
