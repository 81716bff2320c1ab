/**
 * Installing a standard skill folder into a squad (`skills add`): read and validate the source,
 * read what stands where it goes; skill-install-plan.ts decides the changes (back up the skill it
 * replaces, place the new one whole), which fs/apply-plan.ts carries out: the destination is
 * either complete and valid or untouched.
 *
 * Files are copied from a handle opened without following a link, and only when it is the file
 * the walk saw (tree.ts openWalkedFile), a chunk at a time into a temporary file, then renamed:
 * never read whole into memory, never through a link swapped in after the walk. A SKILL.md that is
 * a link is refused when the skill is read, before anything is written. One file may be at most
 * what a `.squad` file holds (MAX_FILE_BYTES_DEFAULT), so `export` can carry every skill the door
 * let in: a skill is instructions and their resources, and a larger file is most likely there by
 * mistake. A larger one is refused before anything is written, naming the file; the environment
 * variable CREATE_SQUAD_MAX_FILE_BYTES (a number of bytes) raises or lowers the limit.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SquadError } from '../base/errors.js';
import { SQUAD_FILE_MAX_BYTES } from '../base/limits.js';
import { existsInside, isDirectory, isFile, isWithin, resolveInside } from '../fs/fs-safe.js';
import { inspectSkill, type SkillReport } from './inspect.js';
import { folderNameProblem } from '../base/names.js';
import { BUILTIN_SKILL_PREFIX, SKILL_FILE, agentSkillDir, isBuiltinSkillName, nativeTeamSkillDir, aiTeamSkillDir } from '../base/paths.js';
import { formatBytes } from '../base/util.js';
import { listTree, openWalkedFile, type Tree, type TreeFile } from '../fs/tree.js';
import type { InstalledFacts } from './skill-install-plan.js';
import { checkSkillFilePaths } from './skill-paths.js';

export interface SkillSource {
  /** Absolute folder of the skill. */
  dir: string;
  report: SkillReport;
  tree: Tree;
}

/** Environment variable that sets the largest file `skills add` copies, in bytes. */
export const MAX_FILE_BYTES_ENV = 'CREATE_SQUAD_MAX_FILE_BYTES';
export const MAX_FILE_BYTES_DEFAULT = SQUAD_FILE_MAX_BYTES;

/** The largest file `skills add` copies: CREATE_SQUAD_MAX_FILE_BYTES from `env`, or the default. */
export function maxFileBytes(env: NodeJS.ProcessEnv): number {
  const value = env[MAX_FILE_BYTES_ENV];
  if (value === undefined || value === '') return MAX_FILE_BYTES_DEFAULT;
  if (!/^\d+$/.test(value.trim())) {
    throw new SquadError('invalid-input', `${MAX_FILE_BYTES_ENV} is "${value}", not a number of bytes`, {
      hint: `set it to a whole number, e.g. ${MAX_FILE_BYTES_ENV}=${2 * MAX_FILE_BYTES_DEFAULT}, or unset it for ${formatBytes(MAX_FILE_BYTES_DEFAULT)}`,
    });
  }
  return Number(value.trim());
}

/** A size as formatBytes shows it, with the exact number of bytes when that rounds it. */
function exactBytes(bytes: number): string {
  return bytes < 1024 ? formatBytes(bytes) : `${formatBytes(bytes)} (${bytes} bytes)`;
}

/** Refuse the first file of `tree` over `limit` bytes, naming it (as `given`/path) and the ways out. */
function checkFileSizes(given: string, tree: Tree, limit: number): void {
  const big = tree.files.find((file) => file.size > limit);
  if (!big) return;
  throw new SquadError('invalid-input', `${given}/${big.path} is ${exactBytes(big.size)}; skills add copies files up to ${exactBytes(limit)}`, {
    hint: `leave that file out of the skill, or raise the limit with ${MAX_FILE_BYTES_ENV}=<bytes> (export cannot carry a file over ${formatBytes(MAX_FILE_BYTES_DEFAULT)}); nothing was written`,
  });
}

/**
 * Refuse a SKILL.md that is a symlink (unsafe-path): the copy never follows links, so the skill
 * would arrive without its SKILL.md; and what it points to may lie outside the source.
 */
function refuseLinkedSkillFile(shownDir: string, file: string): void {
  let linked = false;
  try {
    linked = fs.lstatSync(file).isSymbolicLink();
  } catch {
    return; // missing: said next
  }
  if (!linked) return;
  throw new SquadError('unsafe-path', `${shownDir}/${SKILL_FILE} is a symlink: a skill's files are copied, never links`, {
    hint: `put the file itself in place of the link (copy what it points to into the skill's folder), then add the skill again; nothing was written`,
  });
}

/**
 * Read and validate a skill folder (or the folder of a SKILL.md). Throws skill-invalid with the
 * first errors, and invalid-input for a file over the size limit (see maxFileBytes; `env` holds it).
 */
export async function readSkillSource(given: string, absPath: string, env: NodeJS.ProcessEnv = {}): Promise<SkillSource> {
  const dir = isFile(absPath) ? path.dirname(absPath) : absPath;
  const shownDir = (isFile(absPath) ? path.dirname(given) : given).replace(/[\\/]+$/, '');
  const file = path.join(dir, SKILL_FILE);
  if (!isDirectory(dir)) {
    throw new SquadError('not-found', `${given} does not exist`, { hint: 'pass the folder of a skill (the one holding SKILL.md)' });
  }
  refuseLinkedSkillFile(shownDir, file);
  if (!isFile(file)) {
    throw new SquadError('not-found', `${given} has no ${SKILL_FILE}`, { hint: 'pass the folder of a skill (the one holding SKILL.md)' });
  }
  const report = inspectSkill(file, { readBody: true });
  if (!report.valid) {
    const [first, ...rest] = report.errors;
    throw new SquadError('skill-invalid', `${given} is not a valid skill: ${first!.message}${rest.length ? ` (and ${rest.length} more)` : ''}`, {
      hint: `see every problem with "create-squad skills validate ${given}"`,
    });
  }
  const tree = await listTree(dir);
  // Swapped for a link (or taken away) since it was read: the copy would arrive without it.
  if (!tree.files.some((entry) => entry.path === SKILL_FILE)) {
    throw new SquadError('unsafe-path', `${shownDir}/${SKILL_FILE} changed while the skill was read: it is no longer a regular file`, {
      hint: 'make sure nothing changes the skill while it is added, then add it again; nothing was written',
    });
  }
  checkFileSizes(shownDir, tree, maxFileBytes(env));
  checkSkillFilePaths(shownDir, tree.files);
  return { dir, report, tree };
}

/**
 * Where a skill named `name` goes: `agent`'s skills folder, or the team's when `agent` is undefined.
 * A name no folder may have (folderNameProblem: a device name Windows reserves, which export would
 * refuse) is invalid-input, and a team skill may not take the `squad-` prefix, which is reserved for
 * built-in skills: conflict; both with `hint` saying what to do instead.
 */
export function skillDestination(name: string, agent: string | undefined, hint: string): string {
  const problem = folderNameProblem(name, 'skill name');
  if (problem) throw new SquadError('invalid-input', problem, { hint });
  if (agent !== undefined) return agentSkillDir(agent, name);
  if (isBuiltinSkillName(name)) {
    throw new SquadError('conflict', `"${name}" uses the ${BUILTIN_SKILL_PREFIX} prefix, which is reserved for built-in skills`, { hint });
  }
  return nativeTeamSkillDir(name);
}

/** The same team skill still in `.ai-team/skills/` (a squad not yet upgraded), for a team skill's destination. */
function legacyTwin(root: string, destination: string): string | undefined {
  const name = path.posix.basename(destination);
  const legacy = aiTeamSkillDir(name);
  const isTeam = destination === nativeTeamSkillDir(name);
  return isTeam && !isBuiltinSkillName(name) && existsInside(root, legacy) ? legacy : undefined;
}

/**
 * Whether the skill folder at `destination` holds exactly the files of `source` (same paths, bytes
 * and executable bits, nothing more): adding it again would change nothing.
 */
export async function isInstalledCopy(root: string, destination: string, source: SkillSource): Promise<boolean> {
  if (!existsInside(root, destination)) return false;
  const target = resolveInside(root, destination, { allowFinalSymlink: true });
  if (!isDirectory(target) || fs.lstatSync(target).isSymbolicLink()) return false;
  const installed = await listTree(target);
  if (installed.skipped.length > 0 || installed.git.length > 0 || installed.files.length !== source.tree.files.length) return false;
  return installed.files.every((file, i) => {
    const wanted = source.tree.files[i]!;
    return file.path === wanted.path && file.size === wanted.size && file.executable === wanted.executable && sameBytes(target, file, source.dir, wanted);
  });
}

/** Whether two walked files of the same size hold the same bytes, read a chunk at a time through openWalkedFile. */
function sameBytes(dirA: string, a: TreeFile, dirB: string, b: TreeFile): boolean {
  const size = 64 * 1024;
  const [bufA, bufB] = [Buffer.alloc(size), Buffer.alloc(size)];
  const fdA = openWalkedFile(dirA, a);
  let fdB: number;
  try {
    fdB = openWalkedFile(dirB, b);
  } catch (error) {
    fs.closeSync(fdA);
    throw error;
  }
  try {
    for (;;) {
      const readA = fs.readSync(fdA, bufA, 0, size, null);
      const readB = fs.readSync(fdB, bufB, 0, size, null);
      if (readA !== readB || !bufA.subarray(0, readA).equals(bufB.subarray(0, readB))) return false;
      if (readA === 0) return true;
    }
  } finally {
    fs.closeSync(fdA);
    fs.closeSync(fdB);
  }
}

/**
 * What stands where `source` is to be installed at `destination`, read for the install decision
 * (skill-install-plan.ts decideSkillInstall): whether it is this very skill already, the skill it
 * would replace (and a team skill's old copy in `.ai-team/skills/`), and whether that one is the
 * folder the skill is added from.
 */
export async function readInstalledFacts(root: string, destination: string, source: SkillSource): Promise<InstalledFacts> {
  const legacy = legacyTwin(root, destination);
  const twin = legacy === undefined ? {} : { legacy };
  if (await isInstalledCopy(root, destination, source)) return { unchanged: true, isSource: false, ...twin };
  const replaces = existsInside(root, destination) ? destination : legacy;
  const target = resolveInside(root, replaces ?? destination, { allowFinalSymlink: true });
  const isSource = replaces !== undefined && isWithin(fs.realpathSync(target), fs.realpathSync(source.dir));
  return { unchanged: false, ...(replaces === undefined ? {} : { replaces }), isSource, ...twin };
}
