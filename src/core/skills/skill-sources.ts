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
 * A folder source is recorded relative to the repository root; nothing time-dependent is recorded,
 * so adding the same skill again from the same place writes nothing.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { readStateText } from '../fs/confined.js';
import { SquadError, usageError } from '../base/errors.js';
import { holdWorkPath, isDirectory, isFile, sweepDebris, workId } from '../fs/fs-safe.js';
import { readSkillFrontmatter } from './skill.js';
import { NATIVE_SKILL_DIRS, SKILL_FILE, AI_TEAM_DIR } from '../base/paths.js';
import { isMapping, quoted } from '../base/util.js';

export const SKILL_SOURCES_PATH = `${AI_TEAM_DIR}/skill-sources.json`;
const SCHEMA = 1;

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
  /** folder: relative to the repository root. */
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

function cleanSubpath(text: string): string {
  return text
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/');
}

/** Refuse a path inside a repository that climbs out of it. */
function checkSubpath(subpath: string, given: string): string {
  const clean = cleanSubpath(subpath.replace(/\\/g, '/'));
  if (clean.split('/').includes('..')) throw usageError(`the path inside the repository in ${quoted(given)} climbs out of it`, 'give a folder inside the repository');
  return clean;
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
  if (!looksLikeGit && fs.existsSync(local)) {
    if (options.ref !== undefined || options.subpath !== undefined) {
      if (options.subpath === undefined) throw usageError('--ref is for a git source, not a folder', `drop --ref, or give the repository's URL`);
      return { type: 'folder', dir: path.resolve(local, options.subpath) };
    }
    return { type: 'folder', dir: local };
  }
  const withOptions = (spec: GitSource): GitSource => {
    const subpath = checkSubpath([spec.subpath, options.subpath ?? ''].filter(Boolean).join('/'), given);
    const ref = options.ref ?? spec.ref;
    return { type: 'git', url: spec.url, subpath, ...(ref ? { ref } : {}) };
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

const CLONE_PREFIX = 'create-squad-git-';
/** A clone folder named by cloneSource with a work id: the pid is its first group. */
export const CLONE_PATTERN = /^create-squad-git-(\d+)-[0-9a-f]{8}$/;

export interface Fetched {
  /** The folder the source names (the clone's subfolder for a git source). */
  dir: string;
  /** git: the commit checked out. */
  commit?: string;
  /** Remove what was fetched (the clone); nothing for a folder. */
  dispose(): void;
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
 * default branch or `ref`) into a new folder of the system's temporary folder (clones left by
 * killed runs are removed first). not-found when git fails or the path inside is not a folder.
 */
export async function fetchSource(source: SkillSourceSpec, env: NodeJS.ProcessEnv): Promise<Fetched> {
  if (source.type === 'folder') return { dir: source.dir, dispose: () => undefined };
  const tmp = os.tmpdir();
  sweepDebris(tmp, CLONE_PATTERN, 'dir');
  const work = path.join(tmp, `${CLONE_PREFIX}${workId()}`);
  const release = holdWorkPath(work);
  const dispose = () => {
    fs.rmSync(work, { recursive: true, force: true });
    release();
  };
  try {
    fs.mkdirSync(work);
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
  if (!isFile(file)) return dir;
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

/**
 * The skills in `dir`: the folder itself when it holds a SKILL.md; else each subfolder that holds
 * one; else each subfolder of skills/, .github/skills/, .agents/skills/ or .claude/skills/ that
 * does. [] when there is none.
 */
export function findSkills(dir: string): FoundSkill[] {
  if (isFile(path.join(dir, SKILL_FILE))) return [{ name: path.basename(dir), dir }];
  const direct = skillFolders(dir);
  if (direct.length > 0) return direct;
  const found: FoundSkill[] = [];
  for (const sub of COLLECTION_DIRS) {
    for (const skill of skillFolders(path.join(dir, ...sub.split('/')))) if (!found.some((f) => f.name === skill.name)) found.push(skill);
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
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && isFile(path.join(dir, entry.name, SKILL_FILE)))
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
  records: Record<string, SourceRecord>;
}

function toRecord(value: unknown): SourceRecord | undefined {
  if (!isMapping(value) || typeof value.source !== 'string' || (value.type !== 'folder' && value.type !== 'git')) return undefined;
  const text = (key: string) => (typeof value[key] === 'string' ? { [key]: value[key] as string } : {});
  return { source: value.source, type: value.type, ...text('path'), ...text('url'), ...text('ref'), ...text('subpath'), ...text('commit') };
}

/** The recorded sources; an unreadable file reads as none (the next add writes it again). */
export function readSources(root: string): SourcesFile {
  const text = readStateText(root, SKILL_SOURCES_PATH);
  let raw: Record<string, unknown> = { schema: SCHEMA, skills: {} };
  try {
    const parsed = text === undefined ? undefined : (JSON.parse(text) as unknown);
    if (isMapping(parsed)) raw = parsed;
  } catch {
    // not JSON: replaced by the next write, after a backup (see recordSources)
  }
  const skills = isMapping(raw.skills) ? raw.skills : {};
  const records: Record<string, SourceRecord> = {};
  for (const [key, value] of Object.entries(skills)) {
    const record = toRecord(value);
    if (record) records[key] = record;
  }
  return { text, raw, records };
}

/** The file's text with `changes` (destination → record) made; undefined when nothing changes. */
export function recordSources(file: SourcesFile, changes: Readonly<Record<string, SourceRecord>>): string | undefined {
  const skills = isMapping(file.raw.skills) ? { ...file.raw.skills } : {};
  for (const [destination, record] of Object.entries(changes)) skills[destination] = record;
  const sorted = Object.fromEntries(
    Object.keys(skills)
      .sort()
      .map((key) => [key, skills[key]]),
  );
  const text = `${JSON.stringify({ ...file.raw, schema: file.raw.schema ?? SCHEMA, skills: sorted }, null, 2)}\n`;
  return text === file.text ? undefined : text;
}

/** The record for a skill added from `source`, found at `skillDir` (inside what was fetched). */
export function sourceRecord(root: string, source: SkillSourceSpec, fetched: Fetched, skillDir: string): SourceRecord {
  if (source.type === 'folder') {
    const relative = path.relative(root, skillDir).split(path.sep).join('/') || '.';
    return { source: relative, type: 'folder', path: relative };
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

/** The source a record names, to fetch again (a folder relative to `root`). */
export function recordedSpec(root: string, record: SourceRecord): SkillSourceSpec {
  if (record.type === 'folder') return { type: 'folder', dir: path.resolve(root, record.path ?? record.source) };
  return { type: 'git', url: record.url ?? '', subpath: record.subpath ?? '', ...(record.ref ? { ref: record.ref } : {}) };
}
