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
 * Records live in .ai-team/skill-sources.json, keyed by the skill's folder in the repository:
 *   { "schema": 1, "skills": { ".github/skills/pdf": { "source": "…", "type": "git", … } } }
 * A folder inside the repository is recorded relative to the repository root (so the record holds
 * in a clone, or after an export to another machine); a folder outside it as the absolute path it
 * was added from, which `skills update` refuses with the fix once it is gone. Nothing time-dependent
 * is recorded, so adding the same skill again from the same place writes nothing.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { readStateText } from '../fs/confined.js';
import { SquadError, isSquadError, usageError } from '../base/errors.js';
import { warning, type Warning } from '../base/warnings.js';
import { isDirectory, isWithin } from '../fs/fs-safe.js';
import { makeRepoScratch } from '../fs/debris.js';
import { readSkillFrontmatter } from './skill.js';
import { NATIVE_SKILL_DIRS, SKILL_FILE, AI_TEAM_DIR } from '../base/paths.js';
import type { Change } from '../base/plan.js';
import { controlCharacterProblem, isMapping, quoted } from '../base/util.js';

export const SKILL_SOURCES_PATH = `${AI_TEAM_DIR}/skill-sources.json`;
/** The version of the file's shape. */
export const SKILL_SOURCES_SCHEMA = 1;
const SCHEMA = SKILL_SOURCES_SCHEMA;

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
function gitEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
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

export interface SourcesFile {
  /** The file's text; undefined when there is none. */
  text: string | undefined;
  raw: Record<string, unknown>;
  /** Why the text is not a JSON object, when it is not: reading a record then refuses, naming the file. */
  problem?: string;
}

/**
 * The recorded sources. A file that is not a JSON object reads as none for adding (the next add
 * writes it again) and is refused when a record is read from it (findRecord).
 */
export function readSources(root: string): SourcesFile {
  const text = readStateText(root, SKILL_SOURCES_PATH);
  if (text === undefined) return { text, raw: { schema: SCHEMA, skills: {} } };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    // The parser's message quotes the text, which may hold terminal escapes: not repeated.
    return { text, raw: { schema: SCHEMA, skills: {} }, problem: 'is not valid JSON' };
  }
  return isMapping(parsed) ? { text, raw: parsed } : { text, raw: { schema: SCHEMA, skills: {} }, problem: 'is not a JSON object' };
}

function recordedSkills(file: SourcesFile): Record<string, unknown> {
  return isMapping(file.raw.skills) ? file.raw.skills : {};
}

/** Whether the file keeps a record (valid or not) for the skill at `destination`. */
export function hasRecord(file: SourcesFile, destination: string): boolean {
  return Object.hasOwn(recordedSkills(file), destination);
}

const COMMIT = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** Why a recorded one-line text (the source as typed, a folder's path) cannot be used, or undefined. */
function textProblem(value: string): string | undefined {
  return value.trim() === '' ? 'is empty' : controlCharacterProblem(value);
}

/**
 * The record of the skill at `destination`, undefined when there is none. Read from a file anyone
 * can edit, so every field is held to the rule it obeys when typed (subpathProblem for the path
 * inside a repository, gitUrlProblem, refProblem): a record that breaks one is refused
 * (invalid-format) naming the file, the skill and the field, before anything is fetched or written.
 */
export function findRecord(file: SourcesFile, destination: string): SourceRecord | undefined {
  const refuse = (what: string, fix: string) =>
    new SquadError('invalid-format', `${SKILL_SOURCES_PATH}: ${what}`, { hint: `${fix}; nothing was written`, file: SKILL_SOURCES_PATH });
  if (file.problem !== undefined) {
    throw refuse(`the file ${file.problem}`, 'correct it, or remove it and add the skills again with "create-squad skills add <source> --force" to record their sources');
  }
  if (!hasRecord(file, destination)) return undefined;
  const value = recordedSkills(file)[destination];
  const where = `the record of ${destination}`;
  const readd = `add the skill again with "create-squad skills add <source> --force" to record it anew`;
  if (!isMapping(value)) throw refuse(`${where} is not an object`, `remove that record and ${readd}`);
  const field = (name: string, rule: (text: string) => string | undefined, required = false): string | undefined => {
    const given = value[name];
    if (given === undefined && !required) return undefined;
    const problem = typeof given !== 'string' ? (given === undefined ? 'is missing' : 'is not text') : rule(given);
    if (problem === undefined) return given as string;
    const shown = typeof given === 'string' ? ` ${quoted(given.length > 80 ? `${given.slice(0, 80)}…` : given)}` : '';
    throw refuse(`${where}: "${name}"${shown} ${problem}`, `correct its "${name}", or remove that record and ${readd}`);
  };
  const type = field('type', (text) => (text === 'folder' || text === 'git' ? undefined : 'is neither "folder" nor "git"'), true) as 'folder' | 'git';
  const source = field('source', textProblem, true)!;
  if (type === 'folder') {
    const folder = field('path', textProblem);
    return { source, type, ...(folder === undefined ? {} : { path: folder }) };
  }
  const url = field('url', gitUrlProblem, true)!;
  const ref = field('ref', refProblem);
  const subpath = field('subpath', subpathProblem);
  const commit = field('commit', (text) => (COMMIT.test(text) ? undefined : 'is not a commit id (40 or 64 lowercase hex digits)'));
  return {
    source,
    type,
    url,
    ...(ref === undefined ? {} : { ref }),
    ...(subpath === undefined ? {} : { subpath: cleanSubpath(subpath) }),
    ...(commit === undefined ? {} : { commit }),
  };
}

/** The file's text with `changes` (destination → record, or null to forget the record) made; undefined when nothing changes. */
export function recordSources(file: SourcesFile, changes: Readonly<Record<string, SourceRecord | null>>): string | undefined {
  const skills = { ...recordedSkills(file) };
  for (const [destination, record] of Object.entries(changes)) {
    if (record === null) delete skills[destination];
    else skills[destination] = record;
  }
  const sorted = Object.fromEntries(
    Object.keys(skills)
      .sort()
      .map((key) => [key, skills[key]]),
  );
  const text = `${JSON.stringify({ ...file.raw, schema: file.raw.schema ?? SCHEMA, skills: sorted }, null, 2)}\n`;
  return text === file.text ? undefined : text;
}

/**
 * The change that records `records` (destination → record) in the file: created when there is none,
 * else replaced while it still holds what was read; none when nothing changes (or there is nothing
 * to record). Pure.
 */
export function recordChanges(file: SourcesFile, records: Readonly<Record<string, SourceRecord>>): Change[] {
  if (Object.keys(records).length === 0) return [];
  const text = recordSources(file, records);
  if (text === undefined) return [];
  return [file.text === undefined ? { kind: 'create', path: SKILL_SOURCES_PATH, content: text } : { kind: 'replace', path: SKILL_SOURCES_PATH, content: text, base: file.text }];
}

/**
 * The change that forgets the record of the skill at `destination` (a removed skill, so that
 * `skills update` never fetches it back); none when the file keeps no record of it. Pure.
 */
export function forgetRecordChanges(file: SourcesFile, destination: string): Change[] {
  if (file.text === undefined || file.problem !== undefined || !hasRecord(file, destination)) return [];
  const text = recordSources(file, { [destination]: null });
  return text === undefined ? [] : [{ kind: 'replace', path: SKILL_SOURCES_PATH, content: text, base: file.text }];
}

/**
 * A failure to write the records once the skills landed (the record is a plan's last change), as
 * the user needs it: bookkeeping-failed, since the change stands, saying what landed (`done`) and
 * why the record did not, with the hint that running `rerun` again records it (an identical skill
 * is left as it is and only its record is written). Undefined for any other failure, and for a
 * conflict (the file changed since it was read: the applier says what was written).
 */
export function recordWriteFailure(error: unknown, done: string, rerun: string, several = false): SquadError | undefined {
  if (!isSquadError(error) || error.code === 'conflict' || !error.message.includes(SKILL_SOURCES_PATH)) return undefined;
  const reason = error.message.replace(`cannot write ${SKILL_SOURCES_PATH}: `, '');
  const fix = /disk is full|ENOSPC/.test(reason) ? 'free some space' : /EROFS|EACCES|EPERM|permission/.test(reason) ? `make ${SKILL_SOURCES_PATH} writable` : 'put that right';
  return new SquadError('bookkeeping-failed', `${done}; could not record ${several ? 'their sources' : 'its source'} in ${SKILL_SOURCES_PATH}: ${reason}`, {
    hint: `${fix} and run "${rerun}" again to record ${several ? 'them' : 'it'}`,
    file: SKILL_SOURCES_PATH,
    cause: error,
  });
}

/** The record for a skill added from `source`, found at `skillDir` (inside what was fetched). */
export function sourceRecord(root: string, source: SkillSourceSpec, fetched: Fetched, skillDir: string): SourceRecord {
  if (source.type === 'folder') {
    const recorded = isWithin(root, skillDir) ? path.relative(root, skillDir).split(path.sep).join('/') || '.' : skillDir;
    return { source: recorded, type: 'folder', path: recorded };
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
          ? `it was outside the repository, so ${SKILL_SOURCES_PATH} keeps its absolute path, which a move or another machine does not have: put the folder back there, ${readd}`
          : `it is recorded relative to the repository root (${recorded}): restore it there, ${readd}`,
        file: SKILL_SOURCES_PATH,
      });
    }
    return { type: 'folder', dir };
  }
  return { type: 'git', url: record.url ?? '', subpath: record.subpath ?? '', ...(record.ref ? { ref: record.ref } : {}) };
}
