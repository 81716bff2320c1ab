/**
 * Whether each skill the project lock (skills-lock.json) records is still what was installed, and
 * whether its source has moved on: `skills check` asks both, `doctor` the first (no network).
 *
 * Here: the installed folder's files hashed as the lock hashes them (skill-lock.ts), against the
 * recorded hash, naming the files that differ when the lock keeps each file's hash (create-squad's
 * entries do). The source: a folder (offline) hashed the same way; a git repository asked for the
 * commit its ref (or default branch) names now with `git ls-remote` (offline for a file:// URL),
 * against the commit installed.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { isSquadError } from '../base/errors.js';
import { NATIVE_SKILL_DIRS, agentSkillDir, aiTeamSkillDir } from '../base/paths.js';
import { existsInside, isDirectory, resolveInside } from '../fs/fs-safe.js';
import { listTree } from '../fs/tree.js';
import { changedFiles, hashSkillFiles, parseLockKey, type SkillHash, type SkillLock } from './skill-lock.js';
import { findRecord, gitEnv, type SourceRecord } from './skill-sources.js';

/** A skill the lock records, with what is installed now. */
export interface LockedSkill {
  /** The lock's key: the skill's name, or `<member>/<name>` for a member's own skill. */
  key: string;
  name: string;
  agent?: string;
  /** Where it is installed (repo-relative); undefined when no folder of it is there. */
  folder: string | undefined;
  /** The hash the lock records ('' or missing: none). */
  recordedHash: string | undefined;
  /** Each file's hash as the lock records it (create-squad's field); undefined when it keeps none. */
  recordedFiles: Record<string, string> | undefined;
  /** The installed files' hash now; undefined when not installed or not readable (`problem`). */
  installed: SkillHash | undefined;
  problem?: string;
}

/** Where a locked skill is installed: a member's in its folder; a team skill where create-squad writes it, else where other tools do. */
export function lockedSkillFolder(root: string, key: string): string | undefined {
  const { name, agent } = parseLockKey(key);
  const candidates = agent === undefined ? [...NATIVE_SKILL_DIRS.map((dir) => `${dir}/${name}`), aiTeamSkillDir(name)] : [agentSkillDir(agent, name)];
  return candidates.find((folder) => {
    try {
      return existsInside(root, folder) && isDirectory(resolveInside(root, folder, { allowFinalSymlink: true }));
    } catch {
      return true; // a link out of the repository: reading it says so
    }
  });
}

/** The folder's files hashed as the lock hashes them. */
export async function hashFolder(absDir: string): Promise<SkillHash> {
  const tree = await listTree(absDir);
  return hashSkillFiles(absDir, tree.files);
}

/** The skills `lock` records (those named `names`, when given), each with its installed files hashed. */
export async function readLockedSkills(root: string, lock: SkillLock, names: readonly string[] = []): Promise<LockedSkill[]> {
  const keys = Object.keys(lock.entries)
    .filter((key) => names.length === 0 || names.includes(parseLockKey(key).name) || names.includes(key))
    .sort();
  const skills: LockedSkill[] = [];
  for (const key of keys) {
    const entry = lock.entries[key]!;
    const { name, agent } = parseLockKey(key);
    const own = entry.createSquad;
    const files = typeof own === 'object' && own !== null && !Array.isArray(own) ? (own as Record<string, unknown>).files : undefined;
    const recordedFiles =
      typeof files === 'object' && files !== null && !Array.isArray(files)
        ? Object.fromEntries(Object.entries(files).filter((pair): pair is [string, string] => typeof pair[1] === 'string'))
        : undefined;
    const recordedHash = typeof entry.computedHash === 'string' && entry.computedHash !== '' ? entry.computedHash : undefined;
    const folder = lockedSkillFolder(root, key);
    const base = { key, name, ...(agent === undefined ? {} : { agent }), folder, recordedHash, recordedFiles };
    if (folder === undefined) {
      skills.push({ ...base, installed: undefined });
      continue;
    }
    try {
      skills.push({ ...base, installed: await hashFolder(resolveInside(root, folder)) });
    } catch (error) {
      skills.push({ ...base, installed: undefined, problem: isSquadError(error) ? error.message : String((error as Error).message ?? error) });
    }
  }
  return skills;
}

/** What is installed against what the lock records. */
export type InstalledState =
  | { state: 'unchanged' }
  | { state: 'modified'; changed: string[]; added: string[]; removed: string[] }
  | { state: 'not-installed' }
  | { state: 'unreadable'; reason: string }
  | { state: 'no-hash' };

/** Compare a locked skill's installed files with the lock: pure. */
export function installedState(skill: LockedSkill): InstalledState {
  if (skill.folder === undefined) return { state: 'not-installed' };
  if (skill.installed === undefined) return { state: 'unreadable', reason: skill.problem ?? 'it could not be read' };
  if (skill.recordedHash === undefined) return { state: 'no-hash' };
  if (skill.installed.computedHash === skill.recordedHash) return { state: 'unchanged' };
  const diff = skill.recordedFiles === undefined ? { changed: [], added: [], removed: [] } : changedFiles(skill.recordedFiles, skill.installed.files);
  return { state: 'modified', ...diff };
}

/** Where the source stands against what was installed. */
export type SourceState =
  | { state: 'current'; commit?: string }
  | { state: 'update-available'; detail: string; commit?: string }
  | { state: 'gone'; reason: string }
  | { state: 'not-checked'; reason: string };

const run = promisify(execFile);

/** What the source of `skill` says now (its record read from `lock`; a folder offline, a git repository through ls-remote). */
export async function checkSource(root: string, lock: SkillLock, skill: LockedSkill, env: NodeJS.ProcessEnv): Promise<SourceState> {
  let record: SourceRecord | undefined;
  try {
    record = findRecord(lock, skill.agent === undefined ? skill.name : agentSkillDir(skill.agent, skill.name));
  } catch (error) {
    return { state: 'not-checked', reason: isSquadError(error) ? error.message : String(error) };
  }
  if (record === undefined) return { state: 'not-checked', reason: 'no record' };
  if (record.type === 'folder') {
    const dir = path.resolve(root, record.path ?? record.source);
    if (!isDirectory(dir)) return { state: 'gone', reason: `the folder ${record.path ?? record.source} does not exist` };
    if (skill.recordedHash === undefined) return { state: 'not-checked', reason: 'the lock records no hash to compare with' };
    let now: SkillHash;
    try {
      now = await hashFolder(dir);
    } catch (error) {
      return { state: 'not-checked', reason: isSquadError(error) ? error.message : String((error as Error).message ?? error) };
    }
    return now.computedHash === skill.recordedHash
      ? { state: 'current' }
      : { state: 'update-available', detail: `the files in ${record.path ?? record.source} differ from those installed` };
  }
  return checkGitSource(record, env);
}

/** The commit a git source's ref names now, against the one installed. */
async function checkGitSource(record: SourceRecord, env: NodeJS.ProcessEnv): Promise<SourceState> {
  // Without the commit installed there is nothing to compare with: the repository is not asked.
  if (record.commit === undefined) return { state: 'not-checked', reason: 'the lock records no commit to compare with ("skills update" fetches the skill and records one)' };
  const url = record.url ?? '';
  const pattern = record.ref ?? 'HEAD';
  let stdout: string;
  try {
    ({ stdout } = await run('git', ['-c', 'protocol.ext.allow=never', 'ls-remote', '--', url, pattern], { env: gitEnv(env), maxBuffer: 4 * 1024 * 1024 }));
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    if (failure.code === 'ENOENT') return { state: 'not-checked', reason: 'git is not installed (or not on the PATH)' };
    const said = String(failure.stderr ?? failure.message ?? '')
      .split('\n')
      .map((line) => line.replace(/^(?:fatal|error):\s*/, '').trim())
      .filter(Boolean);
    const last = said.at(-1) ?? 'git failed';
    // A repository that is not there is gone; a network or access failure says nothing about it.
    const missing = said.some((line) => /does not appear to be a git repository|repository .* not found|not found|no such file/i.test(line));
    return missing ? { state: 'gone', reason: `${url}: ${last}` } : { state: 'not-checked', reason: `${url}: ${last}` };
  }
  const lines = stdout
    .split('\n')
    .map((line) => line.split('\t') as [string, string | undefined])
    .filter(([, name]) => name !== undefined);
  // An annotated tag's own line is followed by the commit it points to (^{}): that commit is what a clone checks out.
  const wanted = (name: string) => name === pattern || name === `refs/heads/${pattern}` || name === `refs/tags/${pattern}`;
  const peeled = lines.find(([, name]) => name!.endsWith('^{}') && wanted(name!.slice(0, -3)));
  const direct = lines.find(([, name]) => wanted(name!));
  const commit = (peeled ?? direct)?.[0];
  if (commit === undefined) return { state: 'gone', reason: `${url} has no ${record.ref === undefined ? 'default branch' : `branch or tag ${record.ref}`}` };
  if (commit === record.commit) return { state: 'current', commit };
  return { state: 'update-available', detail: `${record.ref ?? 'the default branch'} moved: ${record.commit.slice(0, 12)} → ${commit.slice(0, 12)}`, commit };
}
