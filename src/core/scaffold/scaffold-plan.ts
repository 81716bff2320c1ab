/**
 * The scaffold decided: everything `init` would create in a repository, from what its read step
 * read (scaffold-state.ts readScaffoldState, or scaffoldStateFromFiles for an import) and the
 * answers (project, stack, owner, roles, universe): the files to create (path, content, mode) and
 * the ones left alone. No disk access (test/unit/read-then-decide.test.ts runs it with node:fs off);
 * the plan's files become the one plan type's changes with `plannedChanges`, which the one applier
 * writes (each new file exclusively; `.gitattributes` and `.gitignore` only get the lines they lack).
 *
 * Other commands reuse it to "rebuild the squad as init would": `import` plans into its staging
 * folder after writing the imported team, `upgrade` compares `plan.owned` with what is installed.
 *
 * Who is on the team:
 *   1. `team.md` exists         → its roster, as it is (init never casts into an existing roster);
 *   2. else the casting registry lists members → those members, with their recorded names;
 *   3. else                    → a new cast: one member per role (unless `team: false`).
 * Scribe is always there. Casting is deterministic, and names already in use (registry, folders)
 * are never reused, so re-running init never renames anyone.
 */
import {
  SCRIBE_MEMBER,
  adoptRoster,
  appendCasting,
  castTeam,
  castingEvent,
  createPolicy,
  legacyUsedUniverses,
  policyFromRecords,
  chooseUniverse,
  serializePolicy,
  takenNamesFrom,
  type CastEntry,
  type CastResult,
  type CastingPolicy,
} from '../roster/casting.js';
import { SquadError, usageError } from '../base/errors.js';
import { sha256 } from '../fs/fs-safe.js';
import type { Change } from '../base/plan.js';
import type { Manifest } from '../squad/manifest.js';
import { MANIFEST_SCHEMA, serializeManifest } from '../squad/manifest.js';
import { tableRecords, type TableRecord } from '../base/md-table.js';
import { folderNameProblem } from '../base/names.js';
import { isShippedContent, type OwnedFile } from '../squad/owned.js';
import { DEFAULT_EXPORT_FILE, GITIGNORE_PATH, SCRIBE_AGENT, agentDir, alumniDir, charterPath, decisionInboxPath, historyPath, squadPaths, stateTemplate } from '../base/paths.js';
import { DEBRIS_KINDS } from '../fs/debris.js';
import { LOCK_DEBRIS_GLOB, LOCK_FILE } from '../fs/lock.js';
import { checkRoleList, defaultRoles, findRolePreset } from '../roster/roles.js';
import { isRosterHeader, parseRoster } from '../roster/roster.js';
import { renderTemplate } from '../fs/templates.js';
import { compareCodePoints } from '../base/util.js';
import { memberProfilePath } from '../squad/agents/member-profile.js';
import { memberProfileText } from '../squad/agents/profile-input.js';
import { existsIn, type AppendTarget, type OwnedState, type ScaffoldState } from './scaffold-state.js';
import { USAGE_LOG_IGNORE_RULE } from '../skills/usage-log.js';

/** The state templates init renders (their raw copies go to .ai-team-templates/). */
export const STATE_TEMPLATES = {
  team: stateTemplate('team.md'),
  routing: stateTemplate('routing.md'),
  decisions: stateTemplate('decisions.md'),
  ceremonies: stateTemplate('ceremonies.md'),
  charter: stateTemplate('charter.md'),
  history: stateTemplate('history.md'),
  scribeCharter: stateTemplate('scribe-charter.md'),
} as const;
export const GITATTRIBUTES_TEMPLATE = 'init/gitattributes.hbs';
export const GITIGNORE_TEMPLATE = 'init/gitignore.hbs';

/** Append-only state files: merged by union in git, so parallel branches never conflict. */
export const UNION_MERGE_PATTERNS = [squadPaths.decisions, historyPath('*'), `${squadPaths.log}/**`, `${squadPaths.orchestrationLog}/**`] as const;

/** Empty folders the squad needs, kept in git by an empty `.gitkeep`. */
export const KEEP_FOLDERS = [squadPaths.decisionsInbox, squadPaths.log, squadPaths.orchestrationLog] as const;
export const KEEP_FILE = '.gitkeep';

export interface ProjectContext {
  project: string;
  stack: string;
  owner: string;
}

export interface ScaffoldOptions extends Partial<ProjectContext> {
  /** Roles to cast when the squad has no team yet (default: Lead, Core Dev, Tester). */
  roles?: string[];
  /** Casting universe for a new squad (default: "The Usual Suspects"). */
  universe?: string;
  /** false: infrastructure only, no cast members (Scribe is still created). Default true. */
  team?: boolean;
  /** Cast several members in one role when `roles` names it more than once (else refused). */
  allowDuplicateRoles?: boolean;
  /** Time recorded in casting events (default: now). */
  now?: Date;
  /** Version stamped into the coordinator and the manifest (default: this package's). */
  version?: string;
}

export interface ScaffoldMember {
  /** Roster name ("Keaton"). */
  name: string;
  role: string;
  /** Folder under .ai-team/agents/. */
  folder: string;
}

export type PlannedKind = 'state' | 'owned' | 'gitattributes' | 'gitignore' | 'manifest';

export interface PlannedFile {
  /** Repo-relative path. */
  path: string;
  content: string | Buffer;
  mode: number;
  kind: PlannedKind;
  /**
   * True when the file exists and `content` is its current content plus additions (rows, lines,
   * entries): it is replaced atomically instead of created exclusively.
   */
  update?: boolean;
  /** For an update: the text it was planned on; the file is replaced only while it still holds it. */
  base?: string;
}

export type TeamSource = 'roster' | 'registry' | 'cast' | 'none';

export interface ScaffoldPlan {
  root: string;
  /** Files to write, in write order (team.md last, so an interrupted run is completed by the next). */
  files: PlannedFile[];
  /** Files that already exist and are left as they are, sorted. */
  skipped: string[];
  /** The team after the plan: cast members, then Scribe. */
  members: ScaffoldMember[];
  universe: string;
  teamSource: TeamSource;
  project: ProjectContext;
  /** Every squad-owned file this package ships, as it would be installed. */
  owned: OwnedFile[];
  /** The manifest describing the squad-owned files (written only when there is none). */
  manifest: Manifest;
  /** Lines appended to .gitattributes (empty when it already has them all). */
  gitattributesAdded: string[];
  /** Lines appended to .gitignore (empty when it already has them all). */
  gitignoreAdded: string[];
  /** Things the user should know: options that did not apply, and why. */
  notes: string[];
}

const MODE = 0o644;

/** The Scribe as a member: fixed name, role and folder (the templates take all three from here). */
export { SCRIBE_MEMBER };

const CONTEXT_LINE = /^\s*-\s*\*\*(Project|Stack|Owner):\*\*\s*(.*?)\s*$/;

/** Project context from team.md's "Project Context" lines; a placeholder (`_…_`) counts as empty. */
export function parseProjectContext(teamText: string): ProjectContext {
  const context: ProjectContext = { project: '', stack: '', owner: '' };
  for (const line of teamText.replace(/\r\n?/g, '\n').split('\n')) {
    const match = CONTEXT_LINE.exec(line);
    if (!match) continue;
    const key = match[1]!.toLowerCase() as keyof ProjectContext;
    const value = match[2]!;
    if (!context[key] && !/^_.*_$/.test(value)) context[key] = value;
  }
  return context;
}

/** What the templates know of a member: the member, its role preset's wording, and its paths. */
function templateMember(member: ScaffoldMember): object {
  const preset = findRolePreset(member.role);
  return {
    ...member,
    handles: preset?.handles ?? '',
    responsibilities: preset?.responsibilities ?? [],
    charterPath: charterPath(member.folder),
    historyPath: historyPath(member.folder),
    decisionPath: decisionInboxPath(member.folder, '{short-slug}'),
  };
}

function teamData(members: readonly ScaffoldMember[], project: ProjectContext, universe: string): object {
  return { ...project, universe, members: members.map(templateMember), scribe: templateMember(SCRIBE_MEMBER) };
}

/** A member's charter and history, rendered from the state templates. */
export async function renderMemberFiles(member: ScaffoldMember, project: ProjectContext): Promise<{ path: string; content: string }[]> {
  const data = { ...project, ...templateMember(member) };
  return [
    { path: charterPath(member.folder), content: await renderTemplate(STATE_TEMPLATES.charter, data) },
    { path: historyPath(member.folder), content: await renderTemplate(STATE_TEMPLATES.history, data) },
  ];
}

/** Header test for the routing table (its "Route To" column). */
export function isRoutingHeader(columns: string[]): boolean {
  return columns.includes('route to');
}

/**
 * The rows `member` adds to the roster table of team.md and to the routing table of routing.md,
 * cut from the same templates init renders, so a hired member's rows say exactly what init's do:
 * cells keyed by (lowercased) column, to be laid out in the columns of the table they go into.
 */
export async function renderMemberRows(member: ScaffoldMember, project: ProjectContext, universe: string): Promise<{ roster: TableRecord[]; routing: TableRecord[] }> {
  const data = teamData([member], project, universe);
  const pick = (text: string, accept: (columns: string[]) => boolean, column: string): TableRecord[] =>
    (tableRecords(text, accept)?.records ?? []).filter((record) => record[column] === member.name);
  return {
    roster: pick(await renderTemplate(STATE_TEMPLATES.team, data), isRosterHeader, 'name'),
    routing: pick(await renderTemplate(STATE_TEMPLATES.routing, data), isRoutingHeader, 'route to'),
  };
}

function sameLine(a: string, b: string): boolean {
  const norm = (line: string) => line.trim().split(/\s+/).join(' ');
  return norm(a) === norm(b);
}

/** Lines to append to a file create-squad shares with the user (.gitattributes, .gitignore). */
export interface AppendPlan {
  /** The lines to append (empty when the file has them all). */
  added: string[];
  /** The file's new text; undefined: nothing to write. */
  content?: string;
  /** The text it was planned on. */
  base?: string;
  existed: boolean;
  note?: string;
}

/**
 * The lines of `wanted` that `relPath` lacks, and the file's new text: append-only, the user's
 * lines never move or change. A comment line goes with the rules, unless it is already there.
 * Pure: a symlink (wherever it points, if anywhere) is left as it is, with a note; a folder or an
 * unreadable file is left alone.
 */
export function planAppendLines(existing: AppendTarget, relPath: string, wanted: readonly string[], what: string): AppendPlan {
  const existed = existing.kind !== 'missing';
  if (existing.kind === 'symlink') {
    return { added: [], existed, note: `${relPath} is a symlink; it was left as it is (add the ${what} yourself)` };
  }
  const current = existing.text;
  if (current === undefined) return { added: [], existed }; // a folder, or unreadable: leave it alone
  const have = current.split('\n');
  const missingRules = wanted.filter((line) => !line.startsWith('#') && !have.some((h) => sameLine(h, line)));
  if (missingRules.length === 0) return { added: [], existed };
  const added = wanted.filter((line) => (line.startsWith('#') ? !have.some((h) => sameLine(h, line)) : missingRules.includes(line)));
  const eol = current.includes('\r\n') ? '\r\n' : '\n';
  const head = current === '' || current.endsWith('\n') ? current : `${current}${eol}`;
  return { added, content: `${head}${added.map((line) => `${line}${eol}`).join('')}`, base: current, existed };
}

async function templateLines(template: string, data: Record<string, unknown>): Promise<string[]> {
  return (await renderTemplate(template, data)).split('\n').filter((line) => line.trim() !== '');
}

/** The .gitattributes lines that are missing (the union merge of the append-only state files), from what stands at `.gitattributes` and its text (undefined: not a readable file). */
export async function planGitattributesFrom(existing: AppendTarget): Promise<AppendPlan> {
  return planAppendLines(existing, squadPaths.gitattributes, await templateLines(GITATTRIBUTES_TEMPLATE, { patterns: UNION_MERGE_PATTERNS }), 'merge=union lines');
}

/**
 * What git must not track, as .gitignore patterns (the repository root's .gitignore, since some of
 * them are outside .ai-team/): the backups (copies of what was replaced, which may hold what a user
 * or an agent wrote and then removed), every temporary name a killed run can leave (fs/debris.ts),
 * the lock and its own temporary files, and the default export file (it holds the team's
 * learnings, histories included). init, upgrade (migration gitignore-hygiene) and import plan the
 * missing ones with planGitignoreFrom.
 */
export const GITIGNORE_PATTERNS: readonly string[] = [
  `/${squadPaths.backups}/`,
  ...DEBRIS_KINDS.map((kind) => kind.ignoreRule),
  `/${LOCK_FILE}`,
  LOCK_DEBRIS_GLOB,
  `/${DEFAULT_EXPORT_FILE}`,
  USAGE_LOG_IGNORE_RULE, // the opt-in usage log (core/skills/usage-log.ts)
];

/** The .gitignore lines that are missing, from what stands at `.gitignore` and its text. */
export async function planGitignoreFrom(existing: AppendTarget): Promise<AppendPlan> {
  return planAppendLines(existing, GITIGNORE_PATH, await templateLines(GITIGNORE_TEMPLATE, { patterns: GITIGNORE_PATTERNS }), 'ignore rules');
}

export interface OwnedFilesPlan {
  files: PlannedFile[];
  skipped: string[];
  manifestFiles: Record<string, string>;
  notes: string[];
}

/**
 * Squad-owned files, from what was read: planned when missing; recorded in the manifest when
 * planned, or when the file already there is exactly what this version ships (a file the user
 * changed is not claimed).
 */
export function planOwnedFilesIn(state: OwnedState, owned: readonly OwnedFile[]): OwnedFilesPlan {
  const files: PlannedFile[] = [];
  const skipped: string[] = [];
  const notes: string[] = [];
  const manifestFiles: Record<string, string> = {};
  for (const file of owned) {
    const hash = sha256(file.content);
    if (!existsIn(state, file.path)) {
      files.push({ path: file.path, content: file.content, mode: file.mode, kind: 'owned' });
      manifestFiles[file.path] = hash;
      continue;
    }
    skipped.push(file.path);
    if (state.entries.get(file.path) === 'symlink') {
      notes.push(`${file.path} is a symlink; it was left as it is (replace it with a real file, then run "create-squad upgrade")`);
      continue;
    }
    const current = state.ownedBytes.get(file.path);
    if (current && isShippedContent(current, file.content)) manifestFiles[file.path] = hash;
  }
  return { files, skipped, manifestFiles, notes };
}

/**
 * Refuse members (from a hand-made roster or registry, `source`) whose folder cannot be made on
 * every system: the rule export and hire use (a Windows device name such as "con").
 */
function refuseMemberFolders(members: readonly ScaffoldMember[], source: string): void {
  for (const member of members) {
    const problem = folderNameProblem(member.folder, 'the folder name');
    if (problem === undefined) continue;
    throw new SquadError('invalid-input', `${source} lists ${member.name}, whose folder cannot be made: ${problem}`, {
      hint: `rename that member in ${source}, then run init again; nothing was written`,
    });
  }
}

/**
 * The scaffold of the repository `state` was read from (readScaffoldState, or scaffoldStateFromFiles
 * for an import), decided without touching the disk. Throws a usage error for an unknown universe
 * or a bad role list, unsafe-path when the state folders lead outside the repository, and
 * invalid-input for a member whose folder name cannot be made.
 */
export async function decideScaffold(state: ScaffoldState, options: ScaffoldOptions & { version: string }, owned: readonly OwnedFile[]): Promise<ScaffoldPlan> {
  const { root } = state;
  const { version } = options;
  const now = options.now ?? new Date();
  const wantTeam = options.team !== false;
  if (!wantTeam && options.roles !== undefined) {
    throw usageError('--roles and --no-team contradict each other', 'give roles to cast a team, or --no-team for infrastructure only');
  }
  // Validate every input first, even when the existing squad means it will not be used.
  const chosenUniverse = chooseUniverse(options.universe);
  const roleList = wantTeam ? checkRoleList(options.roles ?? defaultRoles(), { allowDuplicates: options.allowDuplicateRoles === true }) : { roles: [], notes: [] };
  const { roles } = roleList;

  const notes: string[] = [];
  const files: PlannedFile[] = [];
  const skipped: string[] = [];
  const add = (path: string, content: string | Buffer, kind: PlannedKind = 'state', mode = MODE): void => {
    if (files.some((file) => file.path === path)) return; // planned already (a roster row given twice)
    if (existsIn(state, path)) skipped.push(path);
    else files.push({ path, content, mode, kind });
  };

  const teamExists = existsIn(state, squadPaths.team);
  const teamText = teamExists ? state.teamText : undefined;
  if (teamExists && teamText === undefined) {
    notes.push(`${squadPaths.team} is not a readable file (a folder, a dangling symlink or a special file): restore it from git, or remove it and run init again to rebuild it`);
  }
  const { casting } = state;
  const fromTeam = teamText === undefined ? { project: '', stack: '', owner: '' } : parseProjectContext(teamText);
  const project: ProjectContext = {
    project: options.project ?? fromTeam.project,
    stack: options.stack ?? fromTeam.stack,
    owner: options.owner ?? fromTeam.owner,
  };

  // Casting policy: the squad's own, when it has one.
  let policy: CastingPolicy;
  if (casting.policy.state === 'ok') {
    policy = casting.policy.value;
    if (options.universe !== undefined && policy.universe !== chosenUniverse.name) {
      notes.push(`the casting policy already uses "${policy.universe}"; --universe "${chosenUniverse.name}" was not applied`);
    }
  } else {
    // Without a policy, a squad with a registry goes on in the universe it records.
    const recorded = casting.registry.state === 'ok' && options.universe === undefined ? casting.registry.value.members : [];
    policy = recorded.length > 0 ? policyFromRecords(recorded, casting.history.state === 'ok' ? legacyUsedUniverses(casting.history.raw) : []) : createPolicy(chosenUniverse);
    if (casting.policy.state === 'invalid') notes.push(`${squadPaths.castingPolicy} is not valid (${casting.policy.reason}); it was left as it is`);
  }

  // The team.
  let teamSource: TeamSource;
  let results: CastResult[] = [];
  const roster = teamText === undefined ? undefined : parseRoster(teamText).filter((m) => m.name !== SCRIBE_AGENT);
  const registryMembers = casting.registry.state === 'ok' ? casting.registry.value.members.filter((m) => m.folder !== SCRIBE_AGENT) : [];
  const ignoredRoles = (why: string) => {
    if (options.roles !== undefined) notes.push(`${why}; --roles was not applied (add members with "create-squad hire <role>")`);
  };
  if (roster !== undefined) {
    teamSource = 'roster';
    results = adoptRoster(roster);
    ignoredRoles(`${squadPaths.team} already exists`);
  } else if (registryMembers.length > 0) {
    teamSource = 'registry';
    // The registry keeps every name ever cast; a member whose folder moved to the alumni folder
    // retired, and a rebuilt roster must not bring them back.
    const markedRetired = new Set(casting.registry.state === 'ok' ? (casting.registry.value.retired ?? []) : []);
    const retired = registryMembers.filter((m) => (existsIn(state, alumniDir(m.folder)) || markedRetired.has(m.folder)) && !existsIn(state, agentDir(m.folder)));
    results = registryMembers.filter((m) => !retired.includes(m)).map((entry) => ({ entry, event: 'cast' }));
    ignoredRoles(`the casting registry already lists the team`);
    if (retired.length > 0) {
      notes.push(`left out of the rebuilt roster, retired (in ${alumniDir('')}, or marked retired in ${squadPaths.castingRegistry}): ${retired.map((m) => m.name).join(', ')}`);
    }
  } else if (!wantTeam) {
    teamSource = 'none';
  } else if (casting.registry.state !== 'missing') {
    teamSource = 'none';
    notes.push(
      casting.registry.state === 'invalid'
        ? `${squadPaths.castingRegistry} is not valid (${casting.registry.reason}); no team was cast — fix it, then add members with "create-squad hire <role>"`
        : `${squadPaths.castingRegistry} exists with no members; no team was cast — add members with "create-squad hire <role>"`,
    );
  } else {
    teamSource = 'cast';
    results = castTeam(roles, policy, takenNamesFrom(state.agentFolders, []));
    notes.push(...roleList.notes);
  }
  const cast: CastEntry[] = results.map((result) => result.entry);
  const members: ScaffoldMember[] = cast.map(({ name, role, folder }) => ({ name, role, folder }));
  refuseMemberFolders(members, teamSource === 'registry' ? squadPaths.castingRegistry : squadPaths.team);

  // Casting files first: once the registry exists, a re-run (after a crash) keeps these names.
  add(squadPaths.castingPolicy, serializePolicy(policy));
  add(squadPaths.castingRegistry, appendCasting(undefined, 'members', cast));
  add(
    squadPaths.castingHistory,
    appendCasting(
      undefined,
      'events',
      results.map((result) => castingEvent(result, now)),
    ),
  );

  // A roster row whose Charter cell says "—" is a member without files, on purpose.
  const withoutFiles = new Set(roster?.filter((m) => m.noCharter).map((m) => m.name));
  for (const member of members) {
    if (withoutFiles.has(member.folder)) continue;
    for (const file of await renderMemberFiles(member, project)) add(file.path, file.content);
  }
  add(charterPath(SCRIBE_AGENT), await renderTemplate(STATE_TEMPLATES.scribeCharter, templateMember(SCRIBE_MEMBER)));
  // Each member with files, and the Scribe, as a Copilot agent the coordinator can spawn by name.
  const squadSkills = state.squadSkills;
  for (const member of [...members.filter((m) => !withoutFiles.has(m.folder)), SCRIBE_MEMBER]) {
    add(memberProfilePath(member.folder), await memberProfileText(root, { folder: member.folder, displayName: member.name, role: member.role }, { version, squad: squadSkills }));
  }

  const data = teamData(members, project, policy.universe);
  add(squadPaths.routing, await renderTemplate(STATE_TEMPLATES.routing, data));
  add(squadPaths.decisions, await renderTemplate(STATE_TEMPLATES.decisions, data));
  add(squadPaths.ceremonies, await renderTemplate(STATE_TEMPLATES.ceremonies, data));
  for (const folder of KEEP_FOLDERS) add(`${folder}/${KEEP_FILE}`, '');

  const ownedPlan = planOwnedFilesIn(state, owned);
  notes.push(...ownedPlan.notes);
  files.push(...ownedPlan.files);
  skipped.push(...ownedPlan.skipped);
  const manifestFiles = ownedPlan.manifestFiles;

  const gitattributes = await planGitattributesFrom(state.gitattributes);
  if (gitattributes.note) notes.push(gitattributes.note);
  if (gitattributes.content !== undefined) {
    const update = gitattributes.existed ? { update: true, base: gitattributes.base ?? '' } : {};
    files.push({ path: squadPaths.gitattributes, content: gitattributes.content, mode: MODE, kind: 'gitattributes', ...update });
  } else {
    skipped.push(squadPaths.gitattributes);
  }
  const gitignore = await planGitignoreFrom(state.gitignore);
  if (gitignore.note) notes.push(gitignore.note);
  if (gitignore.content !== undefined) {
    const update = gitignore.existed ? { update: true, base: gitignore.base ?? '' } : {};
    files.push({ path: GITIGNORE_PATH, content: gitignore.content, mode: MODE, kind: 'gitignore', ...update });
  } else {
    skipped.push(GITIGNORE_PATH);
  }

  const manifest: Manifest = { schema: MANIFEST_SCHEMA, version, files: manifestFiles };
  add(squadPaths.manifest, serializeManifest(manifest), 'manifest');

  add(squadPaths.team, await renderTemplate(STATE_TEMPLATES.team, { ...data, version }));

  if (teamSource === 'roster' && roster!.length === 0 && wantTeam) {
    notes.push(`the roster in ${squadPaths.team} has no members yet; add them with "create-squad hire <role>"`);
  }

  return {
    root,
    files,
    skipped: skipped.sort(compareCodePoints),
    members: [...members, SCRIBE_MEMBER],
    universe: policy.universe,
    teamSource,
    project,
    owned: [...owned],
    manifest,
    gitattributesAdded: gitattributes.added,
    gitignoreAdded: gitignore.added,
    notes,
  };
}

/** Planned files as the one plan type's changes: a new file created exclusively, an update replaced only over its base. */
export function plannedChanges(files: readonly PlannedFile[]): Change[] {
  return files.map((file) =>
    file.update
      ? { kind: 'replace', path: file.path, content: file.content, base: file.base ?? '', mode: file.mode }
      : { kind: 'create', path: file.path, content: file.content, mode: file.mode },
  );
}
