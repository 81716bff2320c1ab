/**
 * Upgrade's read step: everything `decideUpgrade` (upgrade.ts) and the migrations it runs look at,
 * read once into an `UpgradeState`: the manifest, `.gitattributes` and `.gitignore`, the members
 * and the skills they see, the SKILL.md files it may make standard (the original Squad's style),
 * the files this version ships, and, through `DiskFacts`, what stands at every path the planners
 * ask about (owned files where they are and where they may go, the skill folders the migrations
 * move, the members' agents, the backups, the manifest), with the bytes of those that are files.
 * The planners then decide from that value alone.
 */
import { attempt, factsFrom, type DiskFacts, type Recorded } from '../base/disk-facts.js';
import {
  GITIGNORE_PATH,
  MEMBER_FACING_BUILTIN_SKILLS,
  NATIVE_SKILL_DIRS,
  SKILL_FILE,
  TEAM_SKILLS_DIR,
  aiTeamSkillDir,
  alumniDir,
  backupPathFor,
  folderTimestamp,
  nativeTeamSkillDir,
  squadPaths,
} from '../base/paths.js';
import { isValidName } from '../base/names.js';
import { DiskReader } from '../fs/disk-reader.js';
import { packageVersion } from '../fs/version.js';
import { AGENTS_DIR, memberProfilePath, profileFolder } from '../squad/agents/member-profile.js';
import { keptProfilePath, readProfileState, retiredProfilePath, type ProfileState } from '../squad/agents/profile-sync.js';
import { readManifest } from '../squad/manifest.js';
import { decideBuiltinSkillMoves, decideTeamSkillMoves, type MigrationPlan, type MigrationState } from './migrations.js';
import { builtinSkillCandidates, countLearnedSkills, shippedBuiltinSkills, shippedOwnedFiles, type OwnedFile } from '../squad/owned.js';
import { KEEP_FILE, KEEP_FOLDERS } from './scaffold.js';
import { readOriginalSkillFiles, type OriginalSkillFile } from '../squad/original/skill-migration.js';
import { COPILOT_SKILLS_DIR } from '../squad/original/stale-paths.js';
import { cameFromSquadDir } from '../squad/original/squad-dir.js';
import { SKILL_LOCK_PATH } from '../skills/skill-lock.js';
import { SKILL_SOURCES_PATH, readLegacySources } from '../skills/skill-sources.js';

export interface UpgradeState extends MigrationState {
  root: string;
  /** The version upgraded to (the options' version, else this package's). */
  version: string;
  /** The time of the run, naming its backup folder (the options' now, else when the state was read). */
  now: Date;
  /** The squad-owned files to install (the options' owned, else what this version ships, placed as in a new squad). */
  shipped: OwnedFile[];
  /** Who gets an agent, and the skills each sees (or what reading them threw, met where the plan needs them). */
  profiles: Recorded<ProfileState>;
  /** Learned skills (agent skills, team skills not named squad-*), counted (likewise). */
  learnedSkills: Recorded<number>;
  /** The SKILL.md files of the team's and the members' skills, which upgrade makes standard when they are in the original Squad's style (likewise). */
  originalSkills: Recorded<OriginalSkillFile[]>;
  /** The squad came from the original Squad's `.squad/`: the skills' `.squad/` paths are pointed at `.ai-team/` (squad/original/stale-paths.ts). */
  cameFromSquadDir: boolean;
}

/** What readUpgradeState needs of the upgrade's options. */
export interface UpgradeReadOptions {
  version?: string;
  owned?: OwnedFile[];
  now?: Date;
}

/** The same path in the other folder a built-in or team skill may live in (`.ai-team/skills/` ↔ `.github/skills/`), if it is in one. */
function twinPath(relPath: string): string | undefined {
  for (const [from, to] of [
    [squadPaths.aiTeamSkills, TEAM_SKILLS_DIR],
    [TEAM_SKILLS_DIR, squadPaths.aiTeamSkills],
  ] as const) {
    if (relPath.startsWith(`${from}/`)) return `${to}${relPath.slice(from.length)}`;
  }
  return undefined;
}

/** Read what upgrading the squad at `root` decides from (see the header). */
export async function readUpgradeState(root: string, options: UpgradeReadOptions = {}): Promise<UpgradeState> {
  const version = options.version ?? packageVersion();
  const now = options.now ?? new Date();
  const timestamp = folderTimestamp(now);
  const disk = new DiskReader(root);
  const manifest = readManifest(root);
  const shippedBuiltins = shippedBuiltinSkills();
  const shipped = options.owned ?? (await shippedOwnedFiles(version));
  // What may throw is recorded, so the plan meets it where it did when it read as it went (after a conflict, say).
  const profiles = attempt(() => readProfileState(root));
  const legacySources = await readLegacySources(root);
  const state = {
    root,
    version,
    now,
    manifest,
    shippedBuiltins,
    shipped,
    profiles,
    learnedSkills: attempt(() => countLearnedSkills(root)),
    originalSkills: attempt(() => readOriginalSkillFiles(root)),
    cameFromSquadDir: cameFromSquadDir(root),
    ...(legacySources === undefined ? {} : { legacySources: { ...legacySources, backup: backupPathFor(timestamp, SKILL_SOURCES_PATH) } }),
  };

  /** Ask now what the plan will ask; what reading throws (a file too large, nothing there) is recorded, and the plan meets it where it asks. */
  const ask = (question: () => unknown) => {
    try {
      question();
    } catch {
      // recorded by the reader
    }
  };
  /** A file the plan may replace or back up: what blocks it, its bytes (also behind an obstacle, unless told not to) and mode, and its backup's obstacles. */
  const readFile = (relPath: string, throughObstacle = true) => {
    if (disk.blocked(relPath) === undefined || throughObstacle) ask(() => disk.bytes(relPath));
    ask(() => disk.mode(relPath));
    disk.blocked(backupPathFor(timestamp, relPath));
  };

  // The migrations: the folders kept by a .gitkeep, the shared files, the skill folders they move.
  for (const folder of KEEP_FOLDERS) {
    disk.missingOrEmpty(folder);
    disk.blocked(`${folder}/${KEEP_FILE}`);
  }
  for (const shared of [squadPaths.gitattributes, GITIGNORE_PATH]) {
    disk.kind(shared);
    ask(() => disk.bytes(shared));
    disk.blocked(shared);
  }
  // The skills' source records moving into the project lock (migrations.ts planSkillsLock).
  if (legacySources !== undefined) {
    readFile(SKILL_LOCK_PATH);
    disk.blocked(SKILL_LOCK_PATH);
    disk.blocked(backupPathFor(timestamp, SKILL_SOURCES_PATH));
  }
  // team.md, whose hint on hiring names a version (migrations.ts planTeamHireHint).
  disk.kind(squadPaths.team);
  ask(() => disk.bytes(squadPaths.team));
  disk.blocked(squadPaths.team);
  const builtinNames = builtinSkillCandidates(shippedBuiltins, manifest);
  for (const name of builtinNames) disk.exists(aiTeamSkillDir(name));
  for (const name of disk.names(squadPaths.aiTeamSkills)) {
    disk.isFile(`${aiTeamSkillDir(name)}/${SKILL_FILE}`);
    disk.exists(nativeTeamSkillDir(name));
    disk.blocked(nativeTeamSkillDir(name));
  }
  for (const name of disk.names(COPILOT_SKILLS_DIR)) {
    disk.isFile(`${COPILOT_SKILLS_DIR}/${name}/${SKILL_FILE}`);
    disk.exists(nativeTeamSkillDir(name));
    disk.blocked(nativeTeamSkillDir(name));
  }
  for (const name of MEMBER_FACING_BUILTIN_SKILLS) {
    disk.kind(aiTeamSkillDir(name));
    for (const dir of NATIVE_SKILL_DIRS) disk.exists(`${dir}/${name}`);
    disk.blocked(nativeTeamSkillDir(name));
  }

  // The owned files, in either skills folder a built-in may live in (a folder the migrations move is read where it is now).
  for (const file of shipped) {
    readFile(file.path);
    const twin = twinPath(file.path);
    if (twin !== undefined) readFile(twin);
  }
  // Built-in skill files the manifest records: whether each is still there, in either folder.
  if (manifest.state === 'ok') {
    for (const relPath of Object.keys(manifest.manifest.files)) {
      const name = relPath.split('/')[2];
      if (name === undefined || !builtinNames.includes(name)) continue;
      const at = relPath.indexOf(`/${name}/`);
      if (at < 0) continue;
      const rest = relPath.slice(at + name.length + 1);
      disk.isFile(`${aiTeamSkillDir(name)}${rest}`);
      disk.isFile(`${nativeTeamSkillDir(name)}${rest}`);
    }
  }

  // The members' agents: each active member's, the one kept in its folder, every one in .github/agents/.
  for (const member of 'value' in profiles ? profiles.value.members : []) {
    readFile(memberProfilePath(member.folder), false); // a blocked agent is left as it is, unread
    readFile(keptProfilePath(member.folder));
  }
  for (const name of disk.names(AGENTS_DIR)) {
    const relPath = `${AGENTS_DIR}/${name}`;
    const folder = profileFolder(relPath);
    if (folder === undefined) continue;
    if (disk.blocked(relPath) === undefined) ask(() => disk.bytes(relPath));
    if (isValidName(folder)) {
      disk.exists(alumniDir(folder));
      disk.exists(retiredProfilePath(folder));
    }
  }

  // The manifest, written last.
  readFile(squadPaths.manifest);

  return { ...state, disk: factsFrom(disk.record()) };
}

/** What a planner that plans and writes at once asks of the disk: answered live. */
function liveState(root: string): Pick<MigrationState, 'disk' | 'manifest' | 'shippedBuiltins'> {
  const disk: DiskFacts = new DiskReader(root);
  return { disk, manifest: readManifest(root), shippedBuiltins: shippedBuiltinSkills() };
}

/**
 * Team skills still in `.ai-team/skills/` and their place in `.github/skills/`, as the squad at
 * `root` is now (migrations.ts decideTeamSkillMoves). Import moves them after its swap.
 */
export function planTeamSkillMoves(root: string): MigrationPlan {
  return decideTeamSkillMoves(liveState(root));
}

/** Member-facing built-in skills still in `.ai-team/skills/`, as the squad at `root` is now (decideBuiltinSkillMoves). */
export function planBuiltinSkillMoves(root: string): MigrationPlan {
  return decideBuiltinSkillMoves(liveState(root));
}
