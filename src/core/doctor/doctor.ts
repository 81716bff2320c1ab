/**
 * `doctor`: a read-only health check of a squad. Every finding says what is wrong, where, and how
 * to fix it; errors are what breaks the squad (Copilot cannot use it as it is), warnings what
 * degrades it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { checkMemberProfiles } from '../squad/agents/profile-check.js';
import { isSquadError } from '../base/errors.js';
import { COPILOT_PROMPT_LIMIT, coordinatorBodyLength, readCoordinatorStamp } from '../squad/coordinator.js';
import { discoverSkills, type DiscoveredSkill } from '../squad/discover.js';
import { TEMP_FILE_PATTERN, isDirectory, isFile, readDirEntries, readTextIfExists } from '../fs/fs-safe.js';
import { isValidName, slugify } from '../base/names.js';
import { inspectSkill } from '../skills/inspect.js';
import { confinementFix, stateReadProblem } from '../fs/confined.js';
import { LOCK_FILE, isStaleLock, readLockOwner } from '../fs/lock.js';
import { readManifest } from '../squad/manifest.js';
import {
  UNREAD_MCP_CONFIG_FIX,
  collectMcpRequirements,
  describeServerHosts,
  detectMcpConfig,
  hostNames,
  mcpServerKey,
  mcpSetupFixes,
  missingRequiredServers,
  unreadMcpConfigFiles,
  type McpDetectOptions,
  type McpRequirementRow,
} from '../skills/mcp.js';
import { shippedOwnedFiles, type OwnedFile } from '../squad/owned.js';
import {
  COORDINATOR_PATH,
  GITATTRIBUTES_PATH,
  ORIGINAL_SQUAD_DIR,
  SCRIBE_AGENT,
  SKILL_STAGING_PREFIX,
  TEAM_SKILLS_DIR,
  TEMPLATES_COPY_DIR,
  agentDir,
  alumniDir,
  charterPath,
  historyPath,
  isImportStagingDir,
  resolveIn,
  squadPaths,
  templateCopyPath,
} from '../base/paths.js';
import { isConvertedLocation } from '../squad/original/skill-migration.js';
import { convertOriginalSkill } from '../squad/original/skills.js';
import { hasOriginalSquadDir, listAgents, parseRoster, readRoster, requireSquad } from '../squad/roster.js';
import { readCasting, type CastingState } from '../squad/casting.js';
import { STATE_TEMPLATES, planGitattributes } from '../squad/scaffold.js';
import { parseFrontmatterYaml, splitFrontmatter } from '../skills/frontmatter.js';
import { NEVER_WRITTEN, blockedReason, obstacleFix } from '../squad/upgrade.js';
import { controlCharacterProblem, foldLines, hasWord, isMapping, jsonTypeName, quoted } from '../base/util.js';
import { compareVersions, packageVersion } from '../fs/version.js';

export type Severity = 'error' | 'warning';

export interface Finding {
  severity: Severity;
  /** Stable identifier of the kind of finding. */
  code: string;
  message: string;
  /** How to fix it. */
  fix: string;
  /** Repo-relative path the finding is about, when there is one. */
  path?: string;
}

export interface DoctorReport {
  findings: Finding[];
  summary: { errors: number; warnings: number };
  checked: { skills: number; members: number; mcpServers: number };
  /** Versions: of this create-squad, and stamped in the coordinator. */
  version: { package: string; coordinator: string | undefined };
}

export interface DoctorOptions {
  /** Home folder for the user's MCP configuration (~/.copilot/mcp-config.json). */
  home?: string;
  /** The folder doctor was run in: the Copilot CLI reads `.mcp.json` from there up to the repository root (default: the squad's root). */
  cwd?: string;
  /** The command's environment (COPILOT_HOME moves ~/.copilot). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Root of the git repository holding the squad, when there is one. */
  gitRoot?: string;
}

const RECREATE = 'run "create-squad init": it recreates missing files and never touches existing ones';
const UPGRADE = 'run "create-squad upgrade": it restores what create-squad owns and backs up anything you changed';

/** Files and folders of the layout (docs/state-layout.md) that a healthy squad has, and how bad it is to miss each one. */
const LAYOUT: { path: string; kind: 'file' | 'folder'; severity: Severity }[] = [
  { path: squadPaths.team, kind: 'file', severity: 'error' },
  { path: squadPaths.routing, kind: 'file', severity: 'warning' },
  { path: squadPaths.decisions, kind: 'file', severity: 'warning' },
  { path: squadPaths.decisionsInbox, kind: 'folder', severity: 'warning' },
  { path: squadPaths.ceremonies, kind: 'file', severity: 'warning' },
  { path: squadPaths.agents, kind: 'folder', severity: 'warning' },
  { path: squadPaths.log, kind: 'folder', severity: 'warning' },
  { path: squadPaths.orchestrationLog, kind: 'folder', severity: 'warning' },
  { path: squadPaths.castingPolicy, kind: 'file', severity: 'warning' },
  { path: squadPaths.castingRegistry, kind: 'file', severity: 'warning' },
  { path: squadPaths.castingHistory, kind: 'file', severity: 'warning' },
  { path: charterPath(SCRIBE_AGENT), kind: 'file', severity: 'warning' },
];

/** A squad the original Squad keeps in `.squad/`, beside the one in `.ai-team/`. */
function twoSquadsFinding(): Finding {
  return {
    severity: 'error',
    code: 'two-squads',
    path: ORIGINAL_SQUAD_DIR,
    message: `${ORIGINAL_SQUAD_DIR}/ holds a squad made by the original Squad beside the one in ${squadPaths.root}/: two teams, and create-squad sees only the second`,
    fix: `keep one: move ${squadPaths.root}/ aside and run "create-squad upgrade" to move ${ORIGINAL_SQUAD_DIR}/ into its place, or move ${ORIGINAL_SQUAD_DIR}/ out of the repository`,
  };
}

export async function runDoctor(root: string, options: DoctorOptions = {}): Promise<DoctorReport> {
  const findings: Finding[] = [];
  const add = (finding: Finding) => findings.push(finding);
  const exists = (rel: string, kind: 'file' | 'folder') => (kind === 'file' ? isFile : isDirectory)(resolveIn(root, rel));

  try {
    requireSquad(root);
  } catch (error) {
    if (!isSquadError(error)) throw error;
    const code = hasOriginalSquadDir(root) ? 'squad-in-original-folder' : 'no-squad';
    add({ severity: 'error', code, ...(code === 'no-squad' ? {} : { path: ORIGINAL_SQUAD_DIR }), message: error.message, fix: error.hint ?? '' });
    return report(findings, { skills: 0, members: 0, mcpServers: 0 }, undefined);
  }
  if (hasOriginalSquadDir(root)) add(twoSquadsFinding());

  for (const entry of LAYOUT) {
    if (exists(entry.path, entry.kind)) continue;
    const standing = whatStandsAt(resolveIn(root, entry.path));
    if (standing === undefined) {
      add({ severity: entry.severity, code: 'layout-missing', path: entry.path, message: `${entry.path}${entry.kind === 'folder' ? '/' : ''} is missing`, fix: RECREATE });
    } else {
      add({
        severity: entry.severity,
        code: 'layout-blocked',
        path: entry.path,
        message: `${entry.path} is ${standing.what}, not a ${entry.kind}: commands cannot use it, and init will not replace it`,
        fix: `${standing.link ? 'remove the link' : 'move it aside'}, then run "create-squad init" (it recreates ${entry.path})`,
      });
    }
  }
  checkConfinedReads(root, add);
  checkRepositoryRoot(root, options.gitRoot, add);
  const casting = checkCasting(root, add);
  await checkGitattributes(root, add);

  const owned = await shippedOwnedFiles();
  const blocked = blockedOwnedFiles(root, owned);
  const stamp = checkCoordinator(root, add, blocked.get(COORDINATOR_PATH));
  checkOwnedFiles(root, owned, blocked, stamp, add);

  const members = checkRoster(root, add);
  for (const finding of await checkMemberProfiles(root)) add(finding);
  checkRegistryMembers(root, casting, add);
  const skills = checkSkills(root, add);
  const mcpServers = await checkMcp({ root, cwd: options.cwd, home: options.home, env: options.env }, skills, add);
  checkLeftovers(root, add);
  checkLock(root, add);

  return report(findings, { skills: skills.length, members, mcpServers }, stamp);
}

/**
 * What stands at `abs` when it is not what the layout expects: undefined when nothing does (it is
 * missing); otherwise a description, and whether it is a symlink.
 */
function whatStandsAt(abs: string): { what: string; link: boolean } | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(abs);
  } catch {
    return undefined;
  }
  if (stat.isSymbolicLink()) {
    try {
      const target = fs.statSync(abs);
      return { what: `a symlink to ${target.isDirectory() ? 'a folder' : target.isFile() ? 'a file' : 'something that is neither a file nor a folder'}`, link: true };
    } catch {
      return { what: 'a dangling symlink (it points to nothing)', link: true };
    }
  }
  return { what: stat.isDirectory() ? 'a folder' : stat.isFile() ? 'a file' : 'neither a file nor a folder', link: false };
}

function report(findings: Finding[], checked: DoctorReport['checked'], stamp: string | undefined): DoctorReport {
  const order = (f: Finding) => (f.severity === 'error' ? 0 : 1);
  const sorted = findings.map((f, i) => ({ f, i })).sort((a, b) => order(a.f) - order(b.f) || a.i - b.i).map(({ f }) => f);
  return {
    findings: sorted,
    summary: {
      errors: findings.filter((f) => f.severity === 'error').length,
      warnings: findings.filter((f) => f.severity === 'warning').length,
    },
    checked,
    version: { package: packageVersion(), coordinator: stamp },
  };
}

type Add = (finding: Finding) => void;

/** The casting files are readable and of the right shape, down to each registry member; returns them. */
function checkCasting(root: string, add: Add): CastingState {
  const casting = readCasting(root);
  const files = [
    [squadPaths.castingPolicy, casting.policy],
    [squadPaths.castingRegistry, casting.registry],
    [squadPaths.castingHistory, casting.history],
  ] as const;
  for (const [file, read] of files) {
    if (read.state === 'invalid') {
      add({
        severity: 'error',
        code: 'casting-invalid',
        path: file,
        message: `${file} is not valid: ${read.reason}`,
        fix: 'repair the JSON by hand (the skill squad-casting shows its shape), or restore it from git',
      });
    }
  }
  if (casting.registry.state === 'ok') checkRegistryEntries(casting.registry.raw, add);
  return casting;
}

/** What is wrong with a registry `members` entry, or undefined: `{name, folder, role?, universe?}` (casting.ts reads nothing else). */
function registryEntryProblem(entry: unknown): string | undefined {
  if (!isMapping(entry)) return `it is ${jsonTypeName(entry)}, not {"name", "folder", "role", "universe"}`;
  const problems: string[] = [];
  if (typeof entry.name !== 'string' || entry.name.trim() === '') problems.push('"name" is not a non-empty string');
  if (typeof entry.folder !== 'string') problems.push('"folder" is not a string');
  else if (!isValidName(entry.folder)) problems.push(`"folder" ${quoted(entry.folder)} is not a valid folder name (lowercase a-z, 0-9 and hyphens)`);
  if (entry.role !== undefined && typeof entry.role !== 'string') problems.push('"role" is not a string');
  if (entry.universe !== undefined && entry.universe !== null && typeof entry.universe !== 'string') problems.push('"universe" is neither a string nor null');
  return problems.length === 0 ? undefined : problems.join('; ');
}

/** Registry `members` entries that commands skip without a word (so their names could be cast again). */
function checkRegistryEntries(raw: Record<string, unknown>, add: Add): void {
  if (!Array.isArray(raw.members)) return; // the original Squad's `agents` map alone: read as it is
  raw.members.forEach((entry: unknown, index) => {
    const problem = registryEntryProblem(entry);
    if (problem === undefined) return;
    add({
      severity: 'error',
      code: 'casting-member-invalid',
      path: squadPaths.castingRegistry,
      message: `${squadPaths.castingRegistry}: member ${index + 1} is not valid (${problem}): every command ignores it, so its name is not reserved`,
      fix: `repair it by hand, as {"name": "Keaton", "folder": "keaton", "role": "Lead", "universe": "The Usual Suspects"} (universe null for a name chosen by hand), or remove it`,
    });
  });
}

async function checkGitattributes(root: string, add: Add): Promise<void> {
  const plan = await planGitattributes(root);
  const missing = plan.added.filter((line) => !line.startsWith('#'));
  if (missing.length > 0) {
    add({
      severity: 'warning',
      code: 'gitattributes-union',
      path: squadPaths.gitattributes,
      message: `${squadPaths.gitattributes} lacks the merge=union line${missing.length === 1 ? '' : 's'} for ${missing.map((l) => l.split(' ')[0]).join(', ')}: parallel branches will conflict on append-only files`,
      fix: 'run "create-squad upgrade" (it appends the missing lines and changes nothing else)',
    });
  }
}

/**
 * Squad-owned files upgrade cannot write (a symlink, a folder, a file where a folder goes), by path,
 * with what stands in the way.
 */
function blockedOwnedFiles(root: string, owned: readonly OwnedFile[]): Map<string, string> {
  const blocked = new Map<string, string>();
  for (const file of owned) {
    const reason = blockedReason(root, file.path);
    if (reason !== undefined) blocked.set(file.path, reason);
  }
  return blocked;
}

/**
 * Checks the coordinator; returns its version stamp. `blocked`: why upgrade cannot write it (then
 * its version is reported with that obstacle, and fixes that say "upgrade" say to clear it first).
 */
function checkCoordinator(root: string, add: Add, blocked: string | undefined): string | undefined {
  const upgradeFix = blocked === undefined ? UPGRADE : obstacleFix(blocked);
  const text = readTextIfExists(resolveIn(root, COORDINATOR_PATH)); // owned: checked through a link (see confined.ts)
  if (text === undefined) {
    add({ severity: 'error', code: 'coordinator-missing', path: COORDINATOR_PATH, message: `the coordinator ${COORDINATOR_PATH} is missing: Copilot has no Squad agent`, fix: upgradeFix });
    return undefined;
  }
  try {
    const fm = parseFrontmatterYaml(splitFrontmatter(text, COORDINATOR_PATH).yaml, COORDINATOR_PATH);
    if (typeof fm.description !== 'string' || fm.description.trim() === '') {
      add({ severity: 'error', code: 'coordinator-frontmatter', path: COORDINATOR_PATH, message: `${COORDINATOR_PATH} has no "description" in its frontmatter (Copilot requires one)`, fix: upgradeFix });
    }
  } catch (error) {
    add({ severity: 'error', code: 'coordinator-frontmatter', path: COORDINATOR_PATH, message: `${COORDINATOR_PATH}: ${(error as Error).message}`, fix: upgradeFix });
  }
  const length = coordinatorBodyLength(text);
  if (length > COPILOT_PROMPT_LIMIT) {
    add({
      severity: 'error',
      code: 'coordinator-too-large',
      path: COORDINATOR_PATH,
      message: `the coordinator prompt is ${length} characters; Copilot accepts at most ${COPILOT_PROMPT_LIMIT} for a custom agent`,
      fix: 'move rarely needed procedures out of it into skills, or run "create-squad upgrade" to restore the shipped one (your version is backed up)',
    });
  }
  const stamp = readCoordinatorStamp(text);
  const current = packageVersion();
  if (stamp !== undefined && compareVersions(stamp, current) > 0) {
    add({ severity: 'warning', code: 'coordinator-newer', path: COORDINATOR_PATH, message: `the coordinator is from create-squad ${stamp}, newer than this ${current}`, fix: 'update create-squad (npx create-squad@latest …) before running commands that write' });
  } else if (blocked !== undefined) {
    // An old or missing stamp is reported with the obstacle (checkOwnedFiles): upgrade cannot restamp it until it is cleared.
  } else if (stamp === undefined) {
    add({ severity: 'warning', code: 'coordinator-unstamped', path: COORDINATOR_PATH, message: `${COORDINATOR_PATH} has no create-squad version stamp (set up by hand or by the original Squad)`, fix: UPGRADE });
  } else if (compareVersions(stamp, current) < 0) {
    add({ severity: 'warning', code: 'coordinator-outdated', path: COORDINATOR_PATH, message: `the coordinator is from create-squad ${stamp}; this is ${current}`, fix: UPGRADE });
  }
  return stamp;
}

/**
 * Squad-owned files upgrade cannot write (one finding per obstacle); files create-squad ships but
 * the squad lacks; the manifest's state.
 */
function checkOwnedFiles(root: string, owned: readonly OwnedFile[], blocked: ReadonlyMap<string, string>, stamp: string | undefined, add: Add): void {
  const byReason = new Map<string, string[]>();
  for (const [file, reason] of blocked) byReason.set(reason, [...(byReason.get(reason) ?? []), file]);
  for (const [reason, files] of byReason) {
    const current = packageVersion();
    const version =
      files.includes(COORDINATOR_PATH) && compareVersions(stamp, current) < 0
        ? `, so the coordinator stays ${stamp === undefined ? 'without a create-squad stamp' : `at create-squad ${stamp}`} (this is ${current})`
        : '';
    const what = files.length > 1 ? `${files.length} files create-squad owns there (${files[0]}, …)` : reason.startsWith(`${files[0]} `) ? 'it' : files[0];
    add({
      severity: 'warning',
      code: 'owned-blocked',
      path: files[0]!,
      message: `${reason}: "create-squad upgrade" cannot write ${what} (${NEVER_WRITTEN})${version}`,
      fix: obstacleFix(reason),
    });
  }
  const missing = owned.filter((file) => file.kind !== 'coordinator' && !blocked.has(file.path) && !isFile(resolveIn(root, file.path)));
  const groups = new Map<string, number>();
  for (const file of missing) {
    const group = file.skill ? `${squadPaths.teamSkills}/${file.skill}` : path.posix.dirname(file.path);
    groups.set(group, (groups.get(group) ?? 0) + 1);
  }
  for (const [group, count] of groups) {
    add({ severity: 'warning', code: 'owned-missing', path: group, message: `${group}/ lacks ${count} file${count === 1 ? '' : 's'} create-squad ships`, fix: UPGRADE });
  }
  const manifest = readManifest(root);
  if (manifest.state === 'missing') {
    add({ severity: 'warning', code: 'manifest-missing', path: squadPaths.manifest, message: `${squadPaths.manifest} is missing: upgrades cannot tell your edits from untouched files`, fix: `${UPGRADE} (it adopts the squad and records what it installed)` });
  } else if (manifest.state === 'invalid') {
    add({ severity: 'warning', code: 'manifest-invalid', path: squadPaths.manifest, message: `${squadPaths.manifest} is not valid: ${manifest.reason}`, fix: `restore it from git, or delete it and ${UPGRADE}` });
  }
}

/** Copilot finds custom agents in `.github/agents/` at the root of the git repository only. */
function checkRepositoryRoot(root: string, gitRoot: string | undefined, add: Add): void {
  if (gitRoot === undefined || path.resolve(gitRoot) === path.resolve(root)) return;
  add({
    severity: 'warning',
    code: 'squad-below-repository-root',
    path: COORDINATOR_PATH,
    message: `the squad is in ${root}, below the repository root ${gitRoot}: Copilot looks for ${COORDINATOR_PATH} only at the root, so it does not see the Squad agent`,
    fix: `move ${squadPaths.root}/ and ${COORDINATOR_PATH} to ${gitRoot} (git mv keeps their history), or open ${root} as its own repository`,
  });
}

/** A squad file's text, or undefined when it is missing or may not be read (checkConfinedReads reports that). */
function readIfConfined(root: string, relPath: string): string | undefined {
  return stateReadProblem(root, relPath) === undefined ? readTextIfExists(resolveIn(root, relPath)) : undefined;
}

/**
 * Squad files every command reads, and each member's charter and history (printed into or pointed
 * at by spawn prompts), that are links leading outside the repository: commands refuse to read
 * them, so the squad is broken until they are real files.
 */
function checkConfinedReads(root: string, add: Add): void {
  const members = readDirEntries(resolveIn(root, squadPaths.agents), { includeIgnored: true })
    .filter((entry) => !entry.name.startsWith('.'))
    .map((entry) => entry.name);
  const files = [
    ...LAYOUT.filter((entry) => entry.kind === 'file').map((entry) => entry.path),
    squadPaths.manifest,
    ...members.flatMap((name) => [charterPath(name), historyPath(name)]),
  ];
  for (const relPath of new Set(files)) {
    const problem = stateReadProblem(root, relPath);
    if (problem === undefined || !fs.existsSync(resolveIn(root, relPath))) continue;
    add({
      severity: 'error',
      code: 'read-refused',
      path: relPath,
      message: `${relPath} cannot be read: ${problem}, so create-squad refuses it (its content could reach a model's prompt)`,
      fix: confinementFix(relPath),
    });
  }
}

/** Roster and member folders agree; returns the number of roster members. */
function checkRoster(root: string, add: Add): number {
  // A roster that may not be read is reported by checkConfinedReads.
  const roster = stateReadProblem(root, squadPaths.team) === undefined ? readRoster(root).filter((m) => m.name !== SCRIBE_AGENT) : [];
  // Without a readable team.md (reported with the layout) no member is in the roster: say nothing more about rows.
  const hasRoster = isFile(resolveIn(root, squadPaths.team)) && stateReadProblem(root, squadPaths.team) === undefined;
  if (hasRoster && roster.length === 0) {
    add({ severity: 'warning', code: 'roster-empty', path: squadPaths.team, message: `${squadPaths.team} lists no members`, fix: 'add members with "create-squad hire <role>"' });
  }
  for (const member of roster) {
    if (member.noCharter) continue;
    if (!isFile(resolveIn(root, charterPath(member.name)))) {
      add({
        severity: 'error',
        code: 'charter-missing',
        path: charterPath(member.name),
        message: `${member.displayName} is in the roster but ${charterPath(member.name)} is missing`,
        fix: `create it from ${templateCopyPath(STATE_TEMPLATES.charter)}, or remove ${member.displayName}'s row from ${squadPaths.team}`,
      });
    } else if (!isFile(resolveIn(root, historyPath(member.name)))) {
      add({
        severity: 'warning',
        code: 'history-missing',
        path: historyPath(member.name),
        message: `${historyPath(member.name)} is missing: ${member.displayName} remembers nothing between sessions`,
        fix: `create it from ${templateCopyPath(STATE_TEMPLATES.history)}`,
      });
    }
  }
  for (const entry of readDirEntries(resolveIn(root, squadPaths.agents))) {
    if (isValidName(entry.name) || !isDirectory(resolveIn(root, `${squadPaths.agents}/${entry.name}`))) continue;
    const folder = `${squadPaths.agents}/${entry.name}`;
    const suggestion = slugify(entry.name);
    add({
      severity: 'warning',
      code: 'agent-folder-invalid-name',
      path: folder,
      message: `${folder}/ is not a valid agent folder name (lowercase letters a-z, digits and hyphens): no command sees this member`,
      fix: `rename it${suggestion ? ` to ${squadPaths.agents}/${suggestion}/` : ''} (lowercase a-z, 0-9 and hyphens), and point its roster row's Charter cell to the new folder`,
    });
  }
  for (const agent of hasRoster ? listAgents(root) : []) {
    if (agent.inRoster || agent.name === SCRIBE_AGENT || !isFile(resolveIn(root, charterPath(agent.name)))) continue;
    add({
      severity: 'warning',
      code: 'member-not-in-roster',
      path: charterPath(agent.name),
      message: `${agent.name} has a charter but no row in ${squadPaths.team}: the coordinator will never route to it`,
      fix: `add a roster row for ${agent.name} to ${squadPaths.team}, or move the folder out of ${squadPaths.agents}/`,
    });
  }
  return roster.length;
}

/** A name from a file as a message shows it: as it is, or quoted when it holds a line break or a control character. */
function asWritten(text: string): string {
  return controlCharacterProblem(text) === undefined && foldLines(text) === text ? text : quoted(text);
}

/**
 * Casting registry members with neither a roster row nor a folder: what a hire killed after writing
 * the registry leaves. Not reported: the Scribe; retired members (folder in agents/_alumni/, or
 * named in team.md, as its Alumni list does); members the roster lists under any name (a row
 * without a charter included); an old name a rename left behind (a casting event "renamed from" it).
 */
function checkRegistryMembers(root: string, casting: CastingState, add: Add): void {
  const teamText = readIfConfined(root, squadPaths.team);
  if (casting.registry.state !== 'ok' || teamText === undefined) return;
  const { members, legacy } = casting.registry.value;
  const roster = parseRoster(teamText);
  const notes = casting.history.state === 'ok' ? casting.history.value.events.map((e) => (isMapping(e) && typeof e.note === 'string' ? e.note : '')) : [];
  const lastOwn = members.filter((m) => !legacy.includes(m.folder)).at(-1);
  for (const member of members) {
    const known =
      member.folder === SCRIBE_AGENT ||
      roster.some((row) => row.name === member.folder || row.displayName.toLowerCase() === member.name.toLowerCase()) ||
      isDirectory(resolveIn(root, agentDir(member.folder))) ||
      isDirectory(resolveIn(root, alumniDir(member.folder))) ||
      hasWord(teamText, member.name) ||
      notes.some((note) => hasWord(note, `renamed from ${member.name}`));
    if (known) continue;
    const role = member.role.trim();
    const name = asWritten(member.name);
    // hire finishes an interrupted hire only when it is the registry's last entry (and the role matches).
    const resumable = member === lastOwn && role !== '';
    add({
      severity: 'warning',
      code: 'casting-member-unfinished',
      path: squadPaths.castingRegistry,
      message: `${name}${role ? ` (${asWritten(role)})` : ''} is in ${squadPaths.castingRegistry} but has no row in ${squadPaths.team} and no folder ${agentDir(member.folder)}/: a hire that was interrupted`,
      fix: resumable
        ? `run create-squad hire ${quoted(role)} again to finish it (same name), or remove ${name}'s entry from ${squadPaths.castingRegistry}`
        : `remove ${name}'s entry from ${squadPaths.castingRegistry}, then hire again if you still want the member ("create-squad hire" finishes an interrupted hire only while it is the registry's last entry)`,
    });
  }
}

/** Every skill of the squad, with body limits checked too. */
function checkSkills(root: string, add: Add): DiscoveredSkill[] {
  const discovery = discoverSkills(root);
  for (const warning of discovery.warnings) {
    if (warning.code === 'skill-invalid') continue; // reported per error below
    add({
      severity: 'warning',
      code: warning.code,
      path: warning.path,
      message: warning.message,
      fix:
        warning.fix ??
        (warning.code === 'skill-overridden' ? 'intended? then nothing to do; otherwise rename one of the two skills' : 'give the folder a SKILL.md (see the skill squad-skill-authoring), or move it out of the skills folder'),
    });
  }
  for (const skill of discovery.skills) {
    const full = inspectSkill(skill.file, { readBody: true });
    const dir = path.posix.dirname(skill.location);
    const original = originalStyleFinding(skill);
    if (original) add(original);
    // What upgrade converts is said once, by that finding; the rest is reported as usual.
    const shown = (issue: { code: string }) => !original || !ORIGINAL_STYLE_CODES.test(issue.code);
    for (const issue of full.errors.filter(shown)) {
      add({
        severity: 'error',
        code: `skill-${issue.code}`,
        path: skill.location,
        message: `skill ${dir}: ${issue.message}${issue.line === undefined ? '' : ` (line ${issue.line})`}`,
        fix: `edit ${skill.location}; "create-squad skills validate ${dir}" re-checks it`,
      });
    }
    for (const issue of full.warnings.filter(shown)) {
      add({
        severity: 'warning',
        code: `skill-${issue.code}`,
        path: skill.location,
        message: `skill ${dir}: ${issue.message}`,
        fix: `edit ${skill.location} (see the skill squad-skill-authoring)`,
      });
    }
  }
  return discovery.skills;
}

/** Issues of a skill in the original Squad's style that upgrade's conversion takes away. */
const ORIGINAL_STYLE_CODES = /^(?:frontmatter-missing|name-.*|description-missing|description-empty|field-unknown)$/;

/**
 * A skill in the original Squad's style, in a folder upgrade converts: one finding naming what the
 * conversion changes (an error when the skill cannot be used as it is), with upgrade as the fix.
 */
function originalStyleFinding(skill: DiscoveredSkill): Finding | undefined {
  if (!isConvertedLocation(skill.location)) return undefined;
  const text = readTextIfExists(skill.file);
  const converted = text === undefined ? undefined : convertOriginalSkill(text, skill.dirName);
  if (converted === undefined) return undefined;
  return {
    severity: skill.valid ? 'warning' : 'error',
    code: 'skill-original-style',
    path: skill.location,
    message: `skill ${path.posix.dirname(skill.location)} is in the original Squad's style${skill.valid ? '' : ', so prompts leave it out'}: ${converted.changes.join('; ')}`,
    fix: 'run "create-squad upgrade": it makes the skill standard (its old SKILL.md is backed up), or edit it by hand (see the skill squad-skill-authoring)',
  };
}

/**
 * MCP configuration: files no host reads, files a host cannot use, and required servers that a
 * host lacks (none at all: mcp-not-configured; some of them: mcp-host-missing). Returns how many
 * servers skills declare.
 */
async function checkMcp(where: McpDetectOptions, skills: DiscoveredSkill[], add: Add): Promise<number> {
  for (const unread of unreadMcpConfigFiles(where)) {
    add({ severity: 'warning', code: 'mcp-config-unread', path: unread.path, message: `${unread.path} is not MCP configuration for any Copilot host: ${unread.note}`, fix: UNREAD_MCP_CONFIG_FIX });
  }
  const usable = skills.filter((s) => s.valid && s.mcpServers.length > 0);
  if (usable.length === 0) return 0;
  const detection = await detectMcpConfig(where);
  for (const source of detection.sources.filter((s) => s.error !== undefined || s.invalidEntries !== undefined)) {
    const problems = source.error !== undefined ? [`ignored: ${source.error}`] : source.invalidEntries!;
    for (const problem of problems) {
      add({
        severity: 'warning',
        code: 'mcp-config-invalid',
        path: source.path,
        message: `MCP configuration ${source.path}${source.error !== undefined ? ' ' : ': '}${problem}`,
        fix: `fix ${source.path} as the message says (${hostNames(source.hosts)} ${source.hosts.length > 1 ? 'read' : 'reads'} it); until then, whether a server listed there is configured is unknown`,
      });
    }
  }
  const rows = collectMcpRequirements(usable.map((s) => ({ name: s.dirName, mcpServers: s.mcpServers })), detection);
  for (const row of rows.filter((r) => r.required)) checkRequiredServer(row, add);
  return new Set(rows.map((r) => mcpServerKey(r.server))).size;
}

/** A required server some host lacks: which host has it, and how to give it to the others. */
function checkRequiredServer(row: McpRequirementRow, add: Add): void {
  if (!Object.values(row.hosts).some((h) => h.answer === 'not-configured')) return;
  const none = missingRequiredServers([row]).length > 0;
  const fixes = mcpSetupFixes(row.server, row.hosts, none);
  const needs = `skill ${row.skill} requires the MCP server ${quoted(row.server)}${row.purpose ? ` (${row.purpose})` : ''}`;
  add({
    severity: 'warning',
    code: none ? 'mcp-not-configured' : 'mcp-host-missing',
    message: `${needs}, which ${none ? 'no Copilot host has, as far as create-squad can tell' : 'not every Copilot host has'}: ${describeServerHosts(row.hosts)}`,
    fix: `${fixes.join('; ')}${none ? '; until then a member whose tools lack it stops and tells the coordinator' : ''}`,
  });
}

/**
 * Folders outside .ai-team/ that create-squad writes files into: where a killed write may have left
 * its temporary file ("." is the repository root, for .gitattributes).
 */
const OUTSIDE_WRITE_DIRS = [path.posix.dirname(COORDINATOR_PATH), TEMPLATES_COPY_DIR, path.posix.dirname(GITATTRIBUTES_PATH)];

/** Debris of interrupted runs: import staging folders, skill staging folders, temp files. */
function checkLeftovers(root: string, add: Add): void {
  const tempFile = (rel: string) =>
    add({ severity: 'warning', code: 'temp-file-leftover', path: rel, message: `${rel} is a temporary file left by an interrupted write`, fix: `delete ${rel}; the file it was written for is intact` });
  for (const dir of OUTSIDE_WRITE_DIRS) {
    for (const entry of allEntries(resolveIn(root, dir))) {
      const rel = dir === '.' ? entry.name : `${dir}/${entry.name}`;
      if (dir === '.' && entry.isDirectory() && isImportStagingDir(entry.name)) {
        add({
          severity: 'warning',
          code: 'import-staging-leftover',
          path: rel,
          message: `${rel}/ is left over from an interrupted import`,
          fix: `run the import again (it starts a fresh staging folder), then delete ${rel}/; nothing in it is lost (it is rebuilt from the .squad file)`,
        });
      } else if (entry.isFile() && TEMP_FILE_PATTERN.test(entry.name)) {
        tempFile(rel);
      }
    }
  }
  const visit = (rel: string, entry: fs.Dirent): boolean => {
    if (entry.isDirectory() && entry.name.startsWith(SKILL_STAGING_PREFIX)) {
      add({ severity: 'warning', code: 'skill-staging-leftover', path: rel, message: `${rel}/ is left over from an interrupted "skills add"`, fix: `delete ${rel}/ and run "create-squad skills add" again` });
      return false;
    }
    if (entry.isFile() && TEMP_FILE_PATTERN.test(entry.name)) tempFile(rel);
    return true;
  };
  walk(root, squadPaths.root, visit);
  // Team skills are written to .github/skills/ (its skills only: the folder is the repository's too).
  for (const entry of allEntries(resolveIn(root, TEAM_SKILLS_DIR))) visit(`${TEAM_SKILLS_DIR}/${entry.name}`, entry);
}

/** The squad lock: held by a running command (its writes are in flight), or left by a killed one. */
function checkLock(root: string, add: Add): void {
  const lockPath = path.join(root, LOCK_FILE);
  if (!fs.existsSync(lockPath)) return;
  const owner = readLockOwner(lockPath);
  const who = owner ? ` (pid ${owner.pid}, ${owner.command})` : '';
  if (isStaleLock(lockPath, owner)) {
    add({
      severity: 'warning',
      code: 'stale-lock',
      path: LOCK_FILE,
      message: `${LOCK_FILE} was left by a create-squad that did not finish${who}`,
      fix: 'run the interrupted command again: it takes the lock over and finishes the job',
    });
  } else {
    add({
      severity: 'warning',
      code: 'lock-held',
      path: LOCK_FILE,
      message: `a create-squad is writing here now${who}: what doctor read may be half updated`,
      fix: `run doctor again when it has finished; if no create-squad is running, delete ${LOCK_FILE}`,
    });
  }
}

/** Every entry of a folder, dot-entries included (temporary files and staging folders start with a dot). */
function allEntries(absDir: string): fs.Dirent[] {
  return readDirEntries(absDir, { includeIgnored: true });
}

/** Visit every entry below `rel` (dot-entries included, symlinks not followed); `visit` returning false skips a folder. */
function walk(root: string, rel: string, visit: (rel: string, entry: fs.Dirent) => boolean): void {
  for (const entry of allEntries(resolveIn(root, rel))) {
    const childRel = `${rel}/${entry.name}`;
    if (!visit(childRel, entry)) continue;
    if (entry.isDirectory()) walk(root, childRel, visit);
  }
}
