/**
 * `import`: rebuild a squad from a `.squad` file (docs/squad-format.md). This module reads — the
 * file, parsed and checked whole (squad-validate.ts), and the repository as it is — into an
 * `ImportState`; import-plan.ts `decideImport` decides the one plan from that value alone (its
 * header says what the plan does, in which order, and why a kill at any write loses nothing);
 * `applyPlan` carries it out. `importSquad` is the three for the library.
 */
import { readSources } from '../skills/skill-sources.js';
import { expectManyLongLivedObjects } from '../base/heap.js';
import fs from 'node:fs';
import path from 'node:path';
import { factsFrom } from '../base/disk-facts.js';
import { SquadError } from '../base/errors.js';
import {
  AI_TEAM_DIR,
  GITATTRIBUTES_PATH,
  GITIGNORE_PATH,
  IMPORT_MARKER_PATH,
  NATIVE_SKILL_DIRS,
  SCRIBE_AGENT,
  TEMPLATES_COPY_DIR,
  isImportStagingDir,
  resolveIn,
  skillStagingDir,
} from '../base/paths.js';
import { compareCodePoints, formatBytes } from '../base/util.js';
import { applyPlan } from '../fs/apply-plan.js';
import { DiskReader } from '../fs/disk-reader.js';
import { checkWritableDir, readTextIfExists, resolveInside, sha256 } from '../fs/fs-safe.js';
import { packageVersion } from '../fs/version.js';
import { readProfileState } from '../squad/agents/profile-sync.js';
import { discoverSkills } from '../squad/discover.js';
import { readManifest } from '../squad/manifest.js';
import { countLearnedSkills, shippedBuiltinSkills, shippedOwnedFiles } from '../squad/owned.js';
import { listAgents, refuseBesideOriginalSquad, refuseInsideSquad } from '../roster/roster.js';
import { planOwnedFilesIn } from '../scaffold/scaffold.js';
import { readAppendTarget, readOwnedState } from '../scaffold/scaffold-state.js';
import { decideImport, type ImportMarker, type ImportReport, type ImportState, type TargetState } from './import-plan.js';
import { SQUAD_LIMITS, SquadFormatError, type SquadLimits } from './squad-format.js';
import { readSquadDocument } from './squad-validate.js';

export { withSkillName } from './skill-rename.js';
export {
  BUILTIN_AUTHOR,
  IMPORTED_HISTORY_TEMPLATE,
  IMPORTED_SUFFIX,
  decideImport,
  type ImportInput,
  type ImportPlan,
  type ImportReport,
  type ImportState,
  type ImportedAgent,
  type ImportedSkill,
  type ScriptReview,
  type SkillRename,
  type SkillScope,
  type SkillSkip,
} from './import-plan.js';

/** What the marker (IMPORT_MARKER_PATH, a dot-file no reader of the squad lists) records; see import-plan.ts. */
function readImportMarker(root: string, fileHash: string): ImportMarker | undefined {
  const text = readTextIfExists(resolveIn(root, IMPORT_MARKER_PATH), 64 * 1024);
  if (text === undefined) return undefined;
  try {
    const marker = JSON.parse(text) as ImportMarker;
    return marker.file_sha256 === fileHash ? marker : undefined;
  } catch {
    return undefined;
  }
}

export interface ImportReadOptions {
  version?: string;
  limits?: SquadLimits;
  /** How the file is named in messages (default: the path as given). */
  shownFile?: string;
}

export interface ImportOptions extends ImportReadOptions {
  /** Replace an existing squad (archived, never deleted). */
  force?: boolean;
  /** Plan and report only; write nothing. */
  dryRun?: boolean;
  now?: Date;
}

/** What was running, for a conflict's message. */
export const IMPORT_ACTIVITY = 'importing';

function insideSquad(relPath: string): boolean {
  return relPath === AI_TEAM_DIR || relPath.startsWith(`${AI_TEAM_DIR}/`);
}

/**
 * The bytes of the .squad file: a regular file (not a folder, a device such as /dev/zero, or a
 * pipe), read up to one byte past the document limit, so that an endless or growing file is
 * refused without reading it all.
 */
function readSquadFile(file: string, shown: string, limits: SquadLimits): Buffer {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new SquadError('not-found', `${shown} does not exist`, { hint: 'give the path of a .squad file ("create-squad export" writes one)' });
  }
  if (stat.isDirectory()) throw new SquadError('invalid-input', `${shown} is a folder, not a .squad file`, { hint: 'give the path of a .squad file' });
  if (!stat.isFile()) throw new SquadError('invalid-input', `${shown} is not a regular file`, { hint: 'give the path of a .squad file ("create-squad export" writes one)' });
  const tooBig = (bytes: string) => new SquadFormatError(undefined, `the file is ${bytes}; the limit is ${formatBytes(limits.documentBytes)}`);
  if (stat.size > limits.documentBytes) throw tooBig(formatBytes(stat.size));
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const most = limits.documentBytes + 1;
    let buffer = Buffer.allocUnsafe(Math.min(stat.size + 1, most));
    let total = 0;
    for (;;) {
      if (total === buffer.length) {
        // The file grew since it was measured: read on, never past the limit.
        if (total >= most) throw tooBig(`over ${formatBytes(limits.documentBytes)}`);
        const bigger = Buffer.allocUnsafe(Math.min(total * 2, most));
        buffer.copy(bigger, 0, 0, total);
        buffer = bigger;
      }
      const n = fs.readSync(fd, buffer, total, buffer.length - total, null);
      if (n === 0) return buffer.subarray(0, total);
      total += n;
    }
  } catch (error) {
    if (error instanceof SquadError) throw error;
    throw new SquadError('not-found', `cannot read ${shown} (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { hint: 'check the path and its permissions' });
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Refuse a target whose squad folders are symlinks or files; count what an existing squad holds. */
function inspectTarget(root: string): TargetState {
  for (const relPath of [AI_TEAM_DIR, TEMPLATES_COPY_DIR]) {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(resolveIn(root, relPath));
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) {
      throw new SquadError('unsafe-path', `${relPath} is a symlink; import never writes through symlinks`, {
        hint: `replace ${relPath} with a real folder (or move the link away), then import again; nothing was written`,
      });
    }
    if (!stat.isDirectory()) {
      throw new SquadError('conflict', `${relPath} is a file, not a folder`, { hint: 'move it aside, then import again; nothing was written' });
    }
  }
  let leftovers: string[] = [];
  try {
    // Older versions staged in .ai-team-import-staging-*; this one stages .ai-team/ beside itself.
    leftovers = fs
      .readdirSync(root)
      .filter((name) => isImportStagingDir(name) || name.startsWith(skillStagingDir(AI_TEAM_DIR, '')))
      .sort(compareCodePoints);
  } catch {
    // the target does not exist yet
  }
  const squadDir = resolveIn(root, AI_TEAM_DIR);
  if (!fs.existsSync(squadDir)) return { hasSquad: false, members: 0, learnedSkills: 0, leftovers };
  const members = listAgents(root).filter((agent) => agent.name !== SCRIBE_AGENT).length;
  const learnedSkills = countLearnedSkills(root);
  return { hasSquad: true, members, learnedSkills, leftovers };
}

/**
 * Read what an import of `file` (absolute path) into `root` decides from: the file, checked whole
 * before anything else (a bad file is refused naming its entry); the target (refused when inside a
 * squad, beside the original Squad's folder, or where a squad folder is a symlink or a file); the
 * marker of an import of this file that was killed after its swap; what stands where the files
 * outside `.ai-team/` go (a symlink out of the repository on the way is refused now, not halfway);
 * the skills the folders import leaves as they are hold now; and the disk's answers to every
 * question the decision asks, recorded by asking them once through a DiskReader (disk-facts.ts).
 */
export async function readImportState(root: string, file: string, options: ImportReadOptions = {}): Promise<ImportState> {
  const limits = options.limits ?? SQUAD_LIMITS;
  const version = options.version ?? packageVersion();
  const shown = options.shownFile ?? file;

  // The whole document is kept until the last file is staged (see base/heap.ts).
  expectManyLongLivedObjects();
  const sourceName = path
    .basename(file)
    .replace(/\.[^.]*$/, '')
    .replace(/\p{Cc}/gu, '');
  const bytes = readSquadFile(file, shown, limits);
  const squad = readSquadDocument(bytes, { limits, sourceName });
  refuseInsideSquad(root);
  refuseBesideOriginalSquad(root);
  checkWritableDir(root);
  const target = inspectTarget(root);
  const fileHash = sha256(bytes);
  // This file's import was killed after its swap: the squad in place is this import's; finish it.
  const unfinished = target.hasSquad ? readImportMarker(root, fileHash) : undefined;

  const owned = await shippedOwnedFiles(version);
  const ownedOutside = owned.filter((owned) => !insideSquad(owned.path));
  const outside = readOwnedState(root, ownedOutside);
  const gitattributes = readAppendTarget(root, GITATTRIBUTES_PATH);
  const gitignore = readAppendTarget(root, GITIGNORE_PATH);
  // A symlink on the way that leads outside the repository, or a file where a folder must go, is
  // refused now, not halfway through.
  for (const planned of planOwnedFilesIn(outside, ownedOutside).files) checkWritableDir(path.dirname(resolveInside(root, planned.path)));
  if (gitattributes.kind !== 'symlink') resolveInside(root, GITATTRIBUTES_PATH);
  if (gitignore.kind !== 'symlink') resolveInside(root, GITIGNORE_PATH);

  const reader = new DiskReader(root);
  const state: ImportState = {
    root,
    shownFile: shown,
    fileHash,
    squad,
    target,
    unfinished,
    version,
    shippedBuiltins: shippedBuiltinSkills(),
    owned,
    outside,
    lock: readSources(root),
    gitattributes,
    gitignore,
    disk: reader,
    keptSkills: unfinished === undefined ? skillsImportKeeps(root) : [],
    ...(unfinished === undefined ? {} : { inPlace: { manifest: readManifest(root), profiles: readProfileState(root) } }),
  };
  // The decision asks the disk what it needs (the agents in .github/agents/, what stands in the
  // skill folders): asked once here, live, and recorded; the decision then gets the record alone.
  await decideImport(state, { force: true });
  return { ...state, disk: factsFrom(reader.record()) };
}

/** The skills discovery lists now in the folders an import leaves as they are (`.github/skills/`, `.agents/skills/`, `.claude/skills/`). */
function skillsImportKeeps(root: string) {
  const discovery = discoverSkills(root);
  const kept = (location: string) => NATIVE_SKILL_DIRS.some((dir) => location.startsWith(`${dir}/`));
  return [...discovery.skills, ...discovery.overridden].filter((skill) => kept(skill.location));
}

/**
 * Import `file` (absolute path) into the repository at `root`: read, decide, and (unless a dry
 * run) apply the plan. The command does the same under the squad lock (commands/import.ts).
 */
export async function importSquad(root: string, file: string, options: ImportOptions = {}): Promise<ImportReport> {
  const dryRun = options.dryRun === true;
  const state = await readImportState(root, file, options);
  const plan = await decideImport(state, { ...(options.force === undefined ? {} : { force: options.force }), ...(options.now ? { now: options.now } : {}), dryRun });
  if (!dryRun) applyPlan(root, plan, IMPORT_ACTIVITY);
  return { ...plan.report, dryRun };
}
