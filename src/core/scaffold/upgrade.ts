/**
 * `upgrade`: bring the files create-squad owns up to this version without losing anything the team
 * wrote or learned.
 *
 * `planUpgrade` reads the repository once (upgrade-state.ts readUpgradeState), then `decideUpgrade`
 * computes every change, in order, from that value alone: a plan of the one plan type (base/plan.ts)
 * that fs/apply-plan.ts applyPlan carries out, each write through the atomic writer. Nothing is
 * deleted, ever.
 *
 * What is whose:
 *   squad-owned   the coordinator, `.ai-team-templates/*`, the files of the built-in skills this
 *                 version ships (`owned.ts`). Refreshed here.
 *   generated     the members' Copilot agents, `.github/agents/{folder}.agent.md`, written from the
 *                 roster and the skills (agents/profile-sync.ts): created, refreshed, an edited one
 *                 backed up first, one of a retired member moved to its alumni folder.
 *   the team's    everything else: roster, routing, charters, histories, decisions, casting, logs,
 *                 learned skills (`agents/{name}/skills/**`, team skills not named `squad-*`), and
 *                 any file the user added inside a built-in skill. Never written here.
 *
 * A squad-owned file is "edited" (by the user) when its hash differs from the one the manifest
 * recorded, or, when the manifest has no entry for it (no manifest: a squad made by the original
 * Squad or by hand), when it differs from what this version ships. Comparisons accept CRLF line
 * endings in text files (a checkout with core.autocrlf is not an edit).
 *
 * Rules, per file (`shipped` = this version's content):
 *   missing                              → create it
 *   equal to shipped                     → nothing
 *   coordinator, template                → replace; an edited one is first copied to the backups
 *   built-in SKILL.md                    → shipped metadata.version newer: replace (backing up an
 *                                          edited one); same version and not edited: refresh;
 *                                          otherwise (edited, or the installed one is newer) keep
 *   other files of a built-in skill      → not edited: replace; edited: keep
 *   a folder, symlink or blocked path    → never written. When the rules above would write it
 *                                          (it is missing behind a dangling link, or differs from
 *                                          shipped and would be replaced), it is "not upgraded":
 *                                          the upgrade is not done, and the command says so (exit 1).
 *                                          When they would not (it is the shipped content, or an
 *                                          edit that is kept anyway), it is left as it is.
 *
 * Backups: one timestamped folder per run, `.ai-team/backups/{timestamp}/{path}`. The edited file
 * is copied there (exclusive write) before the replacement is written, so at every instant the
 * edit exists somewhere. A rerun after a crash may back the same edit up again under a newer
 * timestamp; a file that already is the shipped content is never backed up.
 *
 * Order of changes: skills in the original Squad's style made standard (original/skill-migration-plan.ts:
 * backup, then replacement; laid over the skills the members' agents are generated from, so the
 * agents are planned as the skills will be) → migrations (additive, idempotent) → owned files
 * (backup, then replacement) → the members' agents (backup, then replacement; moves) → the
 * manifest, last. The manifest records, for every owned file equal to what was shipped, the
 * shipped hash; for an edited file left as it is, the entry it had (what create-squad installed
 * there), so the next upgrade still sees it as edited — or no entry when it had none, which means
 * the same thing. Entries of built-in skill files this version no longer ships are kept while the file
 * is on disk (it stays create-squad's, never a learned skill); other entries of files no longer
 * shipped are dropped (the files are kept).
 * Because the manifest comes last and every rule above looks only at what is on disk, a run killed
 * at any write and started again finishes the job.
 */
import { replay, type DiskFacts } from '../base/disk-facts.js';
import { decideMemberProfiles, profileChanges, reportProfileChanges, type ProfileChangeReport } from '../squad/agents/profile-sync.js';
import type { PendingSkill } from '../squad/agents/profile-input.js';
import { carriedInstructions, readCoordinatorStamp } from '../squad/coordinator.js';
import { SquadError } from '../base/errors.js';
import { squadCommand } from '../base/cli-invocation.js';
import { sha256 } from '../fs/fs-safe.js';
import { MANIFEST_SCHEMA, serializeManifest, type Manifest } from '../squad/manifest.js';
import { migrationsUpTo, type Migration } from './migrations.js';
import { builtinSkillDirsOf, isShippedContent, matchesRecordedHash, placeOwnedFiles, type OwnedFile } from '../squad/owned.js';
import { NATIVE_SKILL_DIRS, SKILL_FILE, TEAM_SKILLS_DIR, backupDir, backupPathFor, folderTimestamp, squadPaths, aiTeamSkillDir } from '../base/paths.js';
import { summarizeChanges, type Change, type Plan } from '../base/plan.js';
import { parseSkill } from '../skills/skill.js';
import { skillFields } from '../skills/skill-fields.js';
import { compareCodePoints } from '../base/util.js';
import { compareVersions } from '../fs/version.js';
import { conversionChanges, decideOriginalSkillConversions, type SkillConversion } from '../squad/original/skill-migration-plan.js';
import { readUpgradeState, type UpgradeState } from './upgrade-state.js';

/** The installed version when neither the coordinator's stamp nor the manifest says which it is. */
export const UNKNOWN_VERSION = 'unknown';

export interface UpgradeBackup {
  /** The edited file. */
  path: string;
  /** Where its copy goes. */
  backup: string;
}

export interface UpgradeSkip {
  path: string;
  reason: string;
}

export interface UpgradeMigration {
  version: string;
  id: string;
  description: string;
  /** Files the step creates or extends. */
  paths: string[];
}

/** The upgrade's changes by part, in the order they are applied (`changes` is their concatenation). */
export interface UpgradeParts {
  /** Skills in the original Squad's style made standard: each backup, then the new SKILL.md. */
  originalSkills: Change[];
  migrations: Change[];
  /** Owned files and the members' agents: backups, creations, replacements, moves. */
  owned: Change[];
  /** The manifest (a backup of an unreadable one first), last. */
  manifest: Change[];
}

export interface UpgradePlan extends Plan {
  root: string;
  /** Installed version: the older of the coordinator's stamp and the manifest's version, either one alone, else "unknown". */
  from: string;
  to: string;
  /** No usable manifest: every owned file that differs from the shipped one counts as edited. */
  adopting: boolean;
  /** Every change, in order (parts.originalSkills, .migrations, .owned, .manifest); empty when the squad is up to date. */
  changes: Change[];
  parts: UpgradeParts;
  /** Owned files and agents created (missing before), sorted: the owned part's creations. */
  created: string[];
  /** Owned files and agents replaced by the shipped version, sorted: the owned part's replacements. */
  replaced: string[];
  /** Edited files copied to the backups before being replaced, sorted by path (the owned part's and the manifest's backups). */
  backedUp: UpgradeBackup[];
  /** Owned files that differ from the shipped ones and are left as they are, with the reason. */
  skipped: UpgradeSkip[];
  /**
   * Files the upgrade needed to write but cannot (a symlink, a folder, a file where a folder must
   * be), with the obstacle, sorted: the squad is not up to date until they are replaced.
   */
  notUpgraded: UpgradeSkip[];
  /** Migrations that have something to do, in the order they run. */
  migrations: UpgradeMigration[];
  /** Skills in the original Squad's style made standard, each backed up first. */
  originalSkills: SkillConversion[];
  /** This run's backup folder (used only when something is backed up). */
  backupDir: string;
  manifest: Manifest;
  /** The members' Copilot agents (`.github/agents/{folder}.agent.md`): what happens to each. */
  agentProfiles: ProfileChangeReport[];
  /** Learned skills (agent skills, team skills not named squad-*) left as they are: counted, never written (those made standard are not counted). */
  learnedSkills: number;
  /** Nothing to change at all, and nothing that needs writing stands behind an obstacle. */
  upToDate: boolean;
  notes: string[];
}

export interface UpgradeOptions {
  /** Version to upgrade to (default: this package's). */
  version?: string;
  /** The squad-owned files to install (default: what this package ships for `version`). */
  owned?: OwnedFile[];
  /** Migration registry (default: MIGRATIONS). */
  migrations?: readonly Migration[];
  /** Time of the run, naming its backup folder (default: now). */
  now?: Date;
}

/** The bytes behind an obstacle (a symlink's target), only to compare them; undefined when there are none. */
function readBehindObstacle(disk: DiskFacts, relPath: string): Buffer | undefined {
  try {
    return disk.bytes(relPath);
  } catch {
    return undefined; // too large: it differs from what is shipped
  }
}

function readSkillVersionOf(data: Buffer): string | undefined {
  try {
    return skillFields(parseSkill(data.toString('utf8')).frontmatter).version;
  } catch {
    return undefined; // unparsable: counts as older than any version
  }
}

/** Built-in SKILL.md files follow the version rule; every other owned file the plain one. */
function isBuiltinSkillFile(file: OwnedFile): boolean {
  return file.kind === 'builtin-skill' && file.skill !== undefined && file.path.endsWith(`/${file.skill}/${SKILL_FILE}`) && file.path.split('/').length === 4;
}

type Decision = { action: 'replace' } | { action: 'keep'; reason: string };

function decide(file: OwnedFile, current: Buffer, edited: boolean): Decision {
  if (isBuiltinSkillFile(file)) {
    const shipped = readSkillVersionOf(file.content);
    const installed = readSkillVersionOf(current);
    const order = compareVersions(shipped, installed);
    const versions = `installed ${installed ?? 'without a version'}, shipped ${shipped ?? 'without a version'}`;
    if (order > 0 || (!edited && order === 0)) return { action: 'replace' };
    if (!edited) return { action: 'keep', reason: `the installed version is newer (${versions})` };
    return { action: 'keep', reason: `edited by you, and the shipped version is not newer (${versions})` };
  }
  if (file.kind === 'builtin-skill' && edited) {
    return { action: 'keep', reason: 'edited by you (a built-in skill file you changed is kept, not replaced)' };
  }
  return { action: 'replace' };
}

/**
 * True for paths inside learned skills: upgrade must never write there. `builtins` are the names of
 * the built-in skills (see installedBuiltinSkills): a folder of a skills folder that is not one of
 * them is a skill of the team's, or of the user's own in a native folder.
 */
export function isLearnedSkillPath(relPath: string, builtins: ReadonlySet<string>): boolean {
  const segments = relPath.split('/');
  const [first, second, third, fourth] = segments;
  if (segments.length < 4) return false;
  const folder = `${first}/${second}`;
  if (folder === squadPaths.aiTeamSkills || (NATIVE_SKILL_DIRS as readonly string[]).includes(folder)) return !builtins.has(third!);
  return folder === squadPaths.agents && fourth === 'skills' && segments.length > 4;
}

/** `relPath` as it is on disk before the planned `moves` (folder → where it goes) are made. */
function beforeMoves(relPath: string, moves: ReadonlyMap<string, string>): string {
  for (const [to, from] of moves) {
    if (relPath === to || relPath.startsWith(`${to}/`)) return `${from}${relPath.slice(to.length)}`;
  }
  return relPath;
}

/** `relPath` as it will be once the planned `moves` (folder → where it goes) are made. */
function afterMoves(relPath: string, moves: ReadonlyMap<string, string>): string {
  for (const [to, from] of moves) {
    if (relPath === from || relPath.startsWith(`${from}/`)) return `${to}${relPath.slice(from.length)}`;
  }
  return relPath;
}

/**
 * Where the manifest of a squad not yet upgraded records a built-in skill file that now lives
 * elsewhere (a member-facing one moved to `.github/skills/`): its `.ai-team/skills/` path.
 */
function previousPath(file: OwnedFile): string | undefined {
  if (file.kind !== 'builtin-skill' || file.skill === undefined) return undefined;
  const legacy = aiTeamSkillDir(file.skill);
  const at = file.path.indexOf(`/${file.skill}/`);
  const rest = at < 0 ? undefined : file.path.slice(at + file.skill.length + 1);
  return rest === undefined || file.path.startsWith(`${legacy}/`) ? undefined : `${legacy}${rest}`;
}

/** The version stamped into the coordinator, if it has a create-squad stamp. */
function coordinatorStamp(disk: DiskFacts): string | undefined {
  const coordinator = disk.bytes(squadPaths.coordinator)?.toString('utf8');
  return coordinator === undefined ? undefined : readCoordinatorStamp(coordinator);
}

/** What happens to a coordinator edited outside the team's own lines: it is in the backup. */
function coordinatorEditNote(relPath: string, carried: boolean): string {
  return `${relPath} had changes of yours outside its "your instructions" lines: they are not carried over, and the whole file is backed up (see the backups). Put what should stay between those lines${carried ? ' (what was there is carried over)' : ''}: upgrade keeps it`;
}

/** Compute the upgrade of `root`. Reads only. Throws conflict when the squad is newer than `version`. */
export async function planUpgrade(root: string, options: UpgradeOptions = {}): Promise<UpgradePlan> {
  return decideUpgrade(await readUpgradeState(root, options), options);
}

/**
 * planUpgrade from what readUpgradeState read: decides without touching the disk. `options` are
 * those the state was read with (its version, owned files and time are the defaults).
 */
export async function decideUpgrade(state: UpgradeState, options: UpgradeOptions = {}): Promise<UpgradePlan> {
  const { root, disk } = state;
  const to = options.version ?? state.version;
  const now = options.now ?? state.now;
  const timestamp = folderTimestamp(now);
  const notes: string[] = [];

  const manifestRead = state.manifest;
  const recorded = manifestRead.state === 'ok' ? manifestRead.manifest.files : {};
  const stamp = coordinatorStamp(disk);
  const manifestVersion = manifestRead.state === 'ok' ? manifestRead.manifest.version : undefined;
  // The older of the stamp and the manifest's version (an interrupted upgrade restamps first), or
  // the one there is (a deleted or hand-made coordinator has no stamp).
  const installedVersions = [stamp, manifestVersion].filter((v): v is string => v !== undefined).sort(compareVersions);
  const from = installedVersions[0] ?? UNKNOWN_VERSION;
  for (const installed of installedVersions) {
    if (compareVersions(installed, to) > 0) {
      throw new SquadError('conflict', `this squad was set up by create-squad ${installed}, which is newer than this one (${to})`, {
        hint: `upgrade with that version or a newer one: ${squadCommand('upgrade', installed)}`,
      });
    }
  }
  const adopting = manifestRead.state !== 'ok';
  if (manifestRead.state === 'invalid') {
    notes.push(`${squadPaths.manifest} is not valid (${manifestRead.reason}): every squad-owned file that differs from the shipped one is treated as your edit`);
  }

  const parts: UpgradeParts = { originalSkills: [], migrations: [], owned: [], manifest: [] };
  const skipped: UpgradeSkip[] = [];
  const notUpgraded: UpgradeSkip[] = [];
  const migrations: UpgradeMigration[] = [];

  // Folders the migrations move, by where they go: the owned files below are planned as they will
  // be once moved (read where they are now, written where they go).
  const moved = new Map<string, string>();

  /** A copy of `relPath` (holding `current`) kept in this run's backups, in `part`, before it is replaced. */
  const backUp = (part: Change[], relPath: string, current: Buffer, readAt = beforeMoves(relPath, moved)) => {
    const backup = backupPathFor(timestamp, relPath);
    const blocked = disk.blocked(backup);
    if (blocked !== undefined) {
      throw new SquadError('not-writable', `cannot back up ${relPath} to ${backup}: ${blocked}`, {
        hint: `move ${squadPaths.backups} aside, then run the upgrade again (nothing was changed)`,
      });
    }
    part.push({ kind: 'backup', path: backup, of: relPath, content: current, mode: disk.mode(readAt) });
  };

  // Skills in the original Squad's style, made standard first: a team skill a migration moves
  // travels converted. The members' agents below are planned with them as converted.
  const conversions = decideOriginalSkillConversions(replay(state.originalSkills), { now, cameFromSquadDir: state.cameFromSquadDir });
  parts.originalSkills.push(...conversionChanges(conversions));

  for (const migration of migrationsUpTo(to, options.migrations)) {
    const planned = await migration.plan(state);
    notes.push(...planned.notes);
    const paths: string[] = [];
    for (const write of planned.writes) {
      const blocked = disk.blocked(write.path);
      if (blocked !== undefined) {
        notUpgraded.push({ path: write.path, reason: blocked });
        continue;
      }
      parts.migrations.push(
        write.update
          ? { kind: 'replace', path: write.path, content: write.content, base: disk.bytes(write.path) ?? Buffer.alloc(0), mode: 0o644 }
          : { kind: 'create', path: write.path, content: write.content, mode: 0o644 },
      );
      paths.push(write.path);
    }
    for (const move of planned.moves ?? []) {
      const blocked = disk.blocked(move.to);
      if (blocked !== undefined) {
        notUpgraded.push({ path: move.to, reason: blocked });
        continue;
      }
      parts.migrations.push({ kind: 'move', from: move.from, to: move.to });
      moved.set(move.to, move.from);
      paths.push(move.to);
    }
    if (paths.length > 0) migrations.push({ version: migration.version, id: migration.id, description: migration.description, paths });
  }

  // Each built-in skill where it lives once the migrations are done.
  const installedDirs = builtinSkillDirsOf(state.shippedBuiltins, manifestRead, (relPath) => disk.exists(relPath));
  const builtinDirs = new Map([...installedDirs].map(([name, dir]) => [name, afterMoves(dir, moved)]));
  const owned = options.owned ?? placeOwnedFiles(state.shipped, builtinDirs);
  const files: Record<string, string> = {};
  for (const file of owned) {
    const shippedHash = sha256(file.content);
    // Read where it is now (a folder a migration moves is read before the move).
    const source = beforeMoves(file.path, moved);
    const previous = previousPath(file);
    const entry = recorded[file.path] ?? (previous === undefined ? undefined : recorded[previous]);
    const keepEntry = () => {
      if (entry !== undefined) files[file.path] = entry;
    };
    // A symlink, a folder, …: never written, but what stands there decides whether that matters.
    const blocked = disk.blocked(source) ?? (source === file.path ? undefined : disk.blocked(file.path));
    const installed = blocked === undefined ? disk.bytes(source) : readBehindObstacle(disk, source);
    // The team's own instructions in the coordinator are carried over; only the rest counts as an edit.
    const carried = file.kind === 'coordinator' && installed !== undefined ? carriedInstructions(installed, file.content) : undefined;
    const current = carried?.compared ?? installed;
    const content = carried?.content ?? file.content;
    if (current !== undefined && isShippedContent(current, file.content)) {
      if (blocked === undefined) files[file.path] = shippedHash;
      else keepEntry();
      continue;
    }
    const edited = current !== undefined && (entry === undefined || !matchesRecordedHash(current, entry));
    const decision: Decision = current === undefined ? { action: 'replace' } : decide(file, current, edited);
    if (decision.action === 'keep') {
      skipped.push({ path: file.path, reason: blocked === undefined ? decision.reason : `${blocked}; ${decision.reason}` });
      keepEntry();
      continue;
    }
    if (blocked !== undefined) {
      notUpgraded.push({ path: file.path, reason: blocked });
      keepEntry();
      continue;
    }
    if (installed === undefined) {
      parts.owned.push({ kind: 'create', path: file.path, content: file.content, mode: file.mode });
      files[file.path] = shippedHash;
      continue;
    }
    if (edited) backUp(parts.owned, file.path, installed);
    if (edited && file.kind === 'coordinator') notes.push(coordinatorEditNote(file.path, carried !== undefined));
    parts.owned.push({ kind: 'replace', path: file.path, content, base: installed, mode: file.mode });
    files[file.path] = shippedHash;
  }
  // Built-in skill files an older version installed and this one no longer ships stay recorded while
  // they are on disk: they remain create-squad's (not learned skills, never exported), and untouched.
  // A built-in that moved is recorded where it went.
  const shippedPaths = new Set(owned.map((file) => file.path));
  for (const [relPath, hash] of Object.entries(recorded)) {
    const name = relPath.split('/')[2]!;
    const dir = builtinDirs.get(name);
    const inSkillsDir = [squadPaths.aiTeamSkills, TEAM_SKILLS_DIR].some((skillsDir) => relPath.startsWith(`${skillsDir}/${name}/`));
    if (dir === undefined || !inSkillsDir) continue;
    const placed = `${dir}${relPath.slice(relPath.indexOf(`/${name}/`) + name.length + 1)}`;
    if (shippedPaths.has(placed) || files[placed] !== undefined) continue;
    if (disk.isFile(beforeMoves(placed, moved))) files[placed] = hash;
  }

  // The members' agents, generated from the roster and the skills (never recorded in the manifest),
  // the skills made standard above as they will be.
  const profiles = await decideMemberProfiles(disk, replay(state.profiles), { version: to, now, pending: convertedSkills(conversions) });
  for (const change of profileChanges(profiles)) {
    if (change.kind === 'backup') {
      // An edited agent that came back from the alumni in this same run: its mode is read where it was.
      const restoredFrom = profiles.changes.find((c) => c.action === 'restore' && c.path === change.of)?.from;
      backUp(parts.owned, change.of, Buffer.from(change.content), restoredFrom ?? change.of);
    } else parts.owned.push(change);
  }
  for (const skip of profiles.skipped) (skip.blocked ? notUpgraded : skipped).push({ path: skip.path, reason: skip.reason });

  const manifest: Manifest = { schema: MANIFEST_SCHEMA, version: to, files };
  const manifestText = serializeManifest(manifest);
  const manifestNow = disk.bytes(squadPaths.manifest);
  if (manifestNow === undefined || !manifestNow.equals(Buffer.from(manifestText))) {
    const blocked = disk.blocked(squadPaths.manifest);
    if (blocked !== undefined) {
      throw new SquadError('not-writable', `cannot write ${squadPaths.manifest}: ${blocked}`, {
        hint: 'move it aside, then run the upgrade again (nothing was changed)',
      });
    }
    // An install record that cannot be read may hold someone's hand edits: keep a copy.
    if (manifestRead.state === 'invalid' && manifestNow !== undefined) backUp(parts.manifest, squadPaths.manifest, manifestNow);
    parts.manifest.push(
      manifestNow === undefined
        ? { kind: 'create', path: squadPaths.manifest, content: manifestText, mode: 0o644 }
        : { kind: 'replace', path: squadPaths.manifest, content: manifestText, base: manifestNow, mode: 0o644 },
    );
  }

  // Only the conversions write inside learned skills (the SKILL.md of each, backed up first).
  const builtins = new Set([...builtinDirs.keys(), ...owned.flatMap((file) => (file.skill === undefined ? [] : [file.skill]))]);
  for (const change of [...parts.migrations, ...parts.owned, ...parts.manifest]) {
    const written = change.kind === 'move' ? change.to : change.kind === 'backup' ? undefined : change.path;
    if (written !== undefined && isLearnedSkillPath(written, builtins)) {
      throw new Error(`internal error: upgrade planned a write inside a learned skill (${written})`);
    }
  }

  const changes = [...parts.originalSkills, ...parts.migrations, ...parts.owned, ...parts.manifest];
  const ownedSummary = summarizeChanges(parts.owned);
  return {
    root,
    from,
    to,
    adopting,
    changes,
    parts,
    created: ownedSummary.created,
    replaced: ownedSummary.replaced,
    backedUp: summarizeChanges([...parts.owned, ...parts.manifest]).backedUp,
    skipped: skipped.sort((a, b) => compareCodePoints(a.path, b.path)),
    notUpgraded: notUpgraded.sort((a, b) => compareCodePoints(a.path, b.path)),
    migrations,
    originalSkills: conversions,
    backupDir: backupDir(timestamp),
    manifest,
    agentProfiles: reportProfileChanges(profiles),
    learnedSkills: Math.max(0, replay(state.learnedSkills) - conversions.length),
    upToDate: changes.length === 0 && notUpgraded.length === 0,
    notes,
  };
}

/**
 * The skills made standard, as the members' agents will see them: laid over what discovery read
 * (profile-input.ts), by the name, description and servers of the new SKILL.md.
 */
function convertedSkills(conversions: readonly SkillConversion[]): PendingSkill[] {
  return conversions.flatMap((conversion) => {
    const segments = conversion.path.split('/');
    const dirName = segments.at(-2)!;
    // `.ai-team/agents/{member}/skills/{skill}/SKILL.md` is a member's own skill; any other a team skill.
    const agent = conversion.path.startsWith(`${squadPaths.agents}/`) ? segments[2] : undefined;
    let fields: ReturnType<typeof skillFields>;
    try {
      fields = skillFields(parseSkill(conversion.content).frontmatter);
    } catch {
      return []; // not readable once converted: discovery will not list it either
    }
    return [
      {
        ...(agent === undefined ? {} : { agent }),
        dirName,
        name: fields.name ?? dirName,
        description: fields.description ?? '',
        location: conversion.path,
        mcpServers: fields.mcpServers,
        disableModelInvocation: fields.disableModelInvocation,
      },
    ];
  });
}
