/**
 * Doctor's read step: everything its checks look at, read once into a `DoctorState`. The checks
 * (checks/*.ts) are pure functions of that value; nothing after this step touches the disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isSquadError } from '../base/errors.js';
import {
  COORDINATOR_PATH,
  IMPORT_MARKER_PATH,
  MEMBER_FACING_BUILTIN_SKILLS,
  NATIVE_SKILL_DIRS,
  agentDir,
  alumniDir,
  charterPath,
  historyPath,
  isIgnoredEntry,
  nativeTeamSkillDir,
  resolveIn,
  squadPaths,
} from '../base/paths.js';
import { findDebris, type DebrisFound } from '../fs/debris.js';
import { existsInside, readBytesIfExists, readTextIfExists } from '../fs/fs-safe.js';
import { LOCK_FILE, findLockDebris, lockStatus, type LockStatus } from '../fs/lock.js';
import { packageVersion } from '../fs/version.js';
import { STATE_FILE_MAX_BYTES } from '../base/limits.js';
import { inspectSkill, type SkillReport } from '../skills/inspect.js';
import { detectMcpConfig, unreadMcpConfigFiles, type McpConfigDetection, type McpDetectOptions, type UnreadMcpConfig } from '../skills/mcp.js';
import { readLockedSkills, type LockedSkill } from '../skills/skill-check.js';
import { SKILL_LOCK_PATH, type SkillLock } from '../skills/skill-lock.js';
import { readSources } from '../skills/skill-sources.js';
import { AGENTS_DIR, memberProfilePath, profileFolder } from '../squad/agents/member-profile.js';
import { memberProfileText, squadSkillsOf, type ProfileMember } from '../squad/agents/profile-input.js';
import { activeMembersOf } from '../squad/agents/profile-sync.js';
import { discoverSkills, type Discovery } from '../squad/discover.js';
import { isConvertedLocation } from '../squad/original/skill-migration.js';
import { cameFromSquadDir, planSquadDirMigration, readRecreatedSquadDir, readTeamTexts } from '../squad/original/squad-dir.js';
import { usesStateBranch } from '../squad/original/state-branch.js';
import { isTeamTextPath, staleSquadPathLines } from '../squad/original/stale-paths.js';
import { installedBuiltinSkillDirs, ownedFilesIn, type OwnedFile } from '../squad/owned.js';
import { HOOKS_FILE_PATH } from '../base/hook-events.js';
import { planBuiltinSkillMoves } from '../scaffold/upgrade-state.js';
import { planGitattributes } from '../scaffold/scaffold.js';
import { readLocalInstall } from '../scaffold/init-state.js';
import { startRegisteredServers, type ServerStart } from './server-start.js';
import { isFileFact, listFolder, probePath, readSquadState, type PathFacts, type SquadState } from '../squad/state.js';
import { measureContextIfOver, type ContextReport } from '../context/gauge.js';
import { readModelSources, withModels } from '../roster/models.js';

export interface DoctorOptions {
  /** Home folder for the user's MCP configuration (~/.copilot/mcp-config.json). */
  home?: string;
  /** The folder doctor was run in: the Copilot CLI reads `.mcp.json` from there up to the repository root (default: the squad's root). */
  cwd?: string;
  /** The command's environment (COPILOT_HOME moves ~/.copilot; a registered server starts with it). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Root of the git repository holding the squad, when there is one. */
  gitRoot?: string;
}

/** The members' Copilot agents as read: who should have one, what is there, what would be written now. */
export interface ProfilesRead {
  members: ProfileMember[];
  /** The text of each file in `.github/agents/` (undefined: unreadable), by repo-relative path. */
  texts: ReadonlyMap<string, string | undefined>;
  /** The names in `.github/agents/`. */
  names: string[];
  /** The profile create-squad would write now, by member folder. */
  expected: ReadonlyMap<string, string>;
}

export interface DoctorState {
  root: string;
  gitRoot: string | undefined;
  /** This create-squad's version. */
  version: string;
  squad: SquadState;
  /** Facts of every path a check looks at: the squad's, the owned files', registry members' folders, the agents'. */
  paths: ReadonlyMap<string, PathFacts>;
  coordinatorText: string | undefined;
  /** The squad's hooks file (`.github/hooks/squad.json`), as it stands. */
  hooksText: string | undefined;
  /** create-squad in the repository, which the hooks file starts, and whether it has a package.json (read only when there is a hooks file). */
  hooksInstall?: { bin: string | undefined; declared: unknown; packageJson: boolean };
  /** The merge=union lines `.gitattributes` lacks (comment lines included, as init would add them). */
  gitattributesMissing: string[];
  owned: OwnedFile[];
  /**
   * Member-facing built-in skills still in `.ai-team/skills/`: each with the native folder holding a
   * skill of its name (`taken`), and whether upgrade would move it now.
   */
  builtinsLeftBehind: { name: string; dir: string; taken: string | undefined; movable: boolean }[];
  /** Undefined when the roster cannot be read (a finding of its own). */
  profiles: ProfilesRead | undefined;
  skills: {
    discovery: Discovery;
    /** Each discovered skill read whole and validated, by location. */
    full: ReadonlyMap<string, SkillReport>;
    /** The SKILL.md text of skills in folders upgrade converts from the original Squad's style, by location. */
    originalText: ReadonlyMap<string, string | undefined>;
  };
  /**
   * MCP configuration: files no host reads, what each host has (read only when a skill declares a
   * server), and each `squad` server the repository registers, started (server-start.ts).
   */
  mcp: { unread: UnreadMcpConfig[]; detection: McpConfigDetection | undefined; where: McpDetectOptions; servers: ServerStart[] };
  /** The charters, histories, rules and decisions, as the limits check needs them (readLimitedFiles). */
  limited: LimitedFile[];
  /** What interrupted runs left in the folders create-squad writes (fs/debris.ts findDebris). */
  debris: DebrisFound[];
  /** Whether `.ai-team/` holds an import's marker: its swap happened, its last steps did not. */
  importUnfinished: boolean;
  /** The project lock (skills-lock.json): why it cannot be read, whether it was healed, and each skill it records with its installed files hashed. */
  skillLock: { problem?: string; healed: boolean; skills: LockedSkill[] };
  /** What is at the squad lock's path, judged; and what killed writing commands left beside it (names at the root). */
  lock: { status: LockStatus; debris: string[] } | undefined;
  /** The team's text that still names `.squad/` paths, in a squad that came from there (squad/original/stale-paths.ts), each with those lines. */
  stalePaths: { path: string; lines: number[] }[];
  /** The files of a `.squad/` beside `.ai-team/` that holds no team.md (recreated after the move); undefined otherwise. */
  recreatedSquadDir: string[] | undefined;
  /** Histories and decisions on squad-cli's `squad-state` branch that `upgrade --from-state-branch` would bring (squad/original/state-branch.ts), by where they land. */
  stateBranchFiles: string[];
  /** Each member's spawn context against its window (context/gauge.ts); undefined when no member can be over the threshold, or it could not be measured. */
  context: ContextReport | undefined;
}

function readText(root: string, relPath: string): string | undefined {
  try {
    return readBytesIfExists(resolveIn(root, relPath))?.toString('utf8');
  } catch {
    return undefined;
  }
}

async function readProfiles(root: string, squad: SquadState, discovery: Discovery, probe: (rel: string) => void): Promise<ProfilesRead | undefined> {
  if (squad.paths.get(squadPaths.team)?.readProblem !== undefined) return undefined; // activeMembers would refuse the roster
  let members: ProfileMember[];
  try {
    members = activeMembersOf(squad.agents);
    members = withModels(
      members,
      readModelSources(
        root,
        members.map((member) => member.folder),
      ),
    );
  } catch (error) {
    if (isSquadError(error)) return undefined;
    throw error;
  }
  const names = listFolder(root, AGENTS_DIR)
    .map((entry) => entry.name)
    .filter((name) => !isIgnoredEntry(name));
  const texts = new Map<string, string | undefined>();
  for (const name of names) texts.set(`${AGENTS_DIR}/${name}`, readText(root, `${AGENTS_DIR}/${name}`));
  const skills = squadSkillsOf(discovery);
  const expected = new Map<string, string>();
  for (const member of members) {
    const relPath = memberProfilePath(member.folder);
    probe(relPath);
    if (!texts.has(relPath)) texts.set(relPath, readText(root, relPath));
    if (texts.get(relPath) !== undefined) expected.set(member.folder, await memberProfileText(root, member, { squad: skills }));
  }
  for (const name of names) {
    const folder = profileFolder(`${AGENTS_DIR}/${name}`);
    if (folder !== undefined) probe(alumniDir(folder));
  }
  return { members, texts, names, expected };
}

/** Read everything doctor's checks need from the squad at `root`. */
export async function readDoctorState(root: string, options: DoctorOptions = {}): Promise<DoctorState> {
  const squad = readSquadState(root);
  const paths = new Map(squad.paths);
  const probe = (relPath: string) => {
    if (!paths.has(relPath)) paths.set(relPath, probePath(root, relPath));
  };
  const where: McpDetectOptions = { root, cwd: options.cwd, home: options.home, env: options.env };
  const base = { root, gitRoot: options.gitRoot, version: packageVersion(), squad };
  if (squad.missing) {
    return {
      ...base,
      paths,
      coordinatorText: undefined,
      hooksText: undefined,
      gitattributesMissing: [],
      owned: [],
      builtinsLeftBehind: [],
      profiles: undefined,
      skills: { discovery: { skills: [], overridden: [], refused: [], warnings: [] }, full: new Map(), originalText: new Map() },
      mcp: { unread: [], detection: undefined, where, servers: [] },
      limited: [],
      debris: [],
      importUnfinished: false,
      skillLock: { healed: false, skills: [] },
      lock: undefined,
      stalePaths: [],
      recreatedSquadDir: undefined,
      stateBranchFiles: [],
      context: undefined,
    };
  }

  const owned = await ownedFilesIn(root);
  for (const file of owned) probe(file.path);
  const movable = new Set((planBuiltinSkillMoves(root).moves ?? []).map((move) => move.from));
  const builtinsLeftBehind = [...installedBuiltinSkillDirs(root)]
    .filter(([name, dir]) => MEMBER_FACING_BUILTIN_SKILLS.has(name) && dir !== nativeTeamSkillDir(name))
    .map(([name, dir]) => ({ name, dir, taken: NATIVE_SKILL_DIRS.map((native) => `${native}/${name}`).find((native) => existsInside(root, native)), movable: movable.has(dir) }));
  for (const entry of squad.agentEntries) probe(`${squadPaths.agents}/${entry.name}`);
  if (squad.casting.registry.state === 'ok') {
    for (const member of squad.casting.registry.value.members) {
      probe(agentDir(member.folder));
      probe(alumniDir(member.folder));
    }
  }

  const discovery = discoverSkills(root);
  const full = new Map<string, SkillReport>();
  const originalText = new Map<string, string | undefined>();
  for (const skill of discovery.skills) {
    full.set(skill.location, inspectSkill(skill.file, { readBody: true, confinedTo: { root } }));
    if (isConvertedLocation(skill.location)) originalText.set(skill.location, readTextIfExists(skill.file));
  }
  const profiles = await readProfiles(root, squad, discovery, probe);

  const usesMcp = discovery.skills.some((skill) => skill.valid && skill.mcpServers.length > 0);
  // Never opened unless a regular file, never through a link: a FIFO there cannot hang doctor.
  const lock = { status: lockStatus(path.join(root, LOCK_FILE)), debris: findLockDebris(root) };
  const hooksText = readTextIfExists(resolveIn(root, HOOKS_FILE_PATH));

  return {
    ...base,
    paths,
    coordinatorText: readTextIfExists(resolveIn(root, COORDINATOR_PATH)), // owned: read through a link (see confined.ts)
    hooksText,
    ...(hooksText === undefined ? {} : { hooksInstall: { ...readLocalInstall(root), packageJson: existsInside(root, 'package.json') } }),
    gitattributesMissing: (await planGitattributes(root)).added,
    owned,
    builtinsLeftBehind,
    profiles,
    skills: { discovery, full, originalText },
    mcp: {
      unread: unreadMcpConfigFiles(where),
      detection: usesMcp ? await detectMcpConfig(where) : undefined,
      where,
      servers: await startRegisteredServers(root, { ...(options.env ?? process.env) }),
    },
    limited: readLimitedFiles(root, squad, paths),
    debris: findDebris(root),
    importUnfinished: existsInside(root, IMPORT_MARKER_PATH),
    skillLock: await readSkillLockState(root),
    lock,
    stalePaths: cameFromSquadDir(root) ? readStalePaths(root, originalText) : [],
    recreatedSquadDir: squad.originalSquadDir ? readRecreatedSquadDir(root) : undefined,
    stateBranchFiles: !squad.originalSquadDir && usesStateBranch(root) ? readStateBranchFiles(root) : [],
    context: await measureContextIfOver(root, where).catch(() => undefined),
  };
}

/** The project lock and the skills it records, hashed as installed now (no network: doctor compares with the lock only). */
async function readSkillLockState(root: string): Promise<DoctorState['skillLock']> {
  let lock: SkillLock;
  try {
    lock = readSources(root);
  } catch (error) {
    if (!isSquadError(error)) throw error;
    return { problem: error.message.replace(`${SKILL_LOCK_PATH}: `, ''), healed: false, skills: [] };
  }
  if (lock.problem !== undefined) return { problem: lock.problem, healed: false, skills: [] };
  return { healed: lock.healed, skills: await readLockedSkills(root, lock) };
}

/** What `upgrade --from-state-branch` would bring from squad-cli's branch into `.ai-team/` (not what it would set aside in the backups). */
function readStateBranchFiles(root: string): string[] {
  try {
    return planSquadDirMigration(root, new Date(), { fromStateBranch: true })
      .fromBranch.filter((file) => file.action !== 'kept')
      .map((file) => file.path);
  } catch {
    return []; // a squad upgrade refuses: its own finding says why
  }
}

/** The team's text in `.ai-team/`, and the team skills' SKILL.md read above, that name `.squad/` paths. */
function readStalePaths(root: string, skillTexts: ReadonlyMap<string, string | undefined>): { path: string; lines: number[] }[] {
  const outsideSquad = [...skillTexts].filter(([location]) => !location.startsWith(`${squadPaths.root}/`) && isTeamTextPath(location));
  return [...readTeamTexts(root), ...outsideSquad.map(([location, text]) => ({ path: location, text }))].flatMap((file) => {
    const lines = file.text === undefined ? [] : staleSquadPathLines(file.text);
    return lines.length === 0 ? [] : [{ path: file.path, lines }];
  });
}

/** A squad file held to a limit of base/limits.ts: its size, and for a charter or rules.md its text. */
export interface LimitedFile {
  path: string;
  kind: 'charter' | 'rules' | 'history' | 'decisions';
  bytes: number;
  /** The text of a charter or rules file no larger than create-squad reads; undefined otherwise. */
  text?: string;
}

/**
 * The files doctor holds to the limits (checks/limits.ts): every member's charter and history, the
 * team's rules and the decisions, when they are regular files commands may read (a refused read is
 * a finding of its own).
 */
function readLimitedFiles(root: string, squad: SquadState, paths: ReadonlyMap<string, PathFacts>): LimitedFile[] {
  const wanted: Pick<LimitedFile, 'path' | 'kind'>[] = [
    ...squad.agents.flatMap((agent) => [
      { path: charterPath(agent.name), kind: 'charter' as const },
      { path: historyPath(agent.name), kind: 'history' as const },
    ]),
    { path: squadPaths.rules, kind: 'rules' },
    { path: squadPaths.decisions, kind: 'decisions' },
  ];
  const files: LimitedFile[] = [];
  for (const { path: relPath, kind } of wanted) {
    const facts = paths.get(relPath) ?? probePath(root, relPath);
    if (!isFileFact(facts) || facts.readProblem !== undefined) continue;
    let bytes: number;
    try {
      bytes = fs.statSync(resolveIn(root, relPath)).size;
    } catch {
      continue;
    }
    const text = (kind === 'charter' || kind === 'rules') && bytes <= STATE_FILE_MAX_BYTES ? readText(root, relPath) : undefined;
    files.push({ path: relPath, kind, bytes, ...(text === undefined ? {} : { text }) });
  }
  return files;
}
