/**
 * Retire and rehire decided from what their read step (retire.ts readMemberChangeState) read, and
 * what they share with `role` (role-change-plan.ts): one plan whose changes are the member change
 * and then the member's Copilot agent, decided on the tree as the member change leaves it
 * (base/planned-facts.ts), so `--dry-run` lists the agent's move or update as the real run makes it.
 *
 * retire: the name stays reserved in the casting registry (an entry is added if it lacks one);
 *   the member's folder moves whole to agents/_alumni/ (history, charter and skills kept); the
 *   rows it had in team.md and routing.md are written to a retirement record in that folder; the
 *   routing rows that route to it alone come out of routing.md; its roster row comes out of
 *   team.md and a line goes under `## Alumni` (team.md last); then its agent moves to the alumni.
 * rehire: the routing rows come back (from the record, else from its role's preset), the roster
 *   row comes back and the Alumni line goes (team.md), the record, done with, moves to
 *   .ai-team/backups/, the member's agent comes back from its folder, then the folder moves back;
 *   last, the agent is brought up to date.
 *
 * Both are decided from what is on disk, so a rerun after a kill at any write finishes the job
 * (the agent too: it is decided also when the member change was made already), and a run over a
 * finished one changes nothing. Pure: no disk access (test/unit/decide-members.test.ts).
 */
import { replay, type DiskFacts, type Recorded } from '../base/disk-facts.js';
import { didYouMean } from '../base/edit-distance.js';
import { SquadError } from '../base/errors.js';
import { factsAfter } from '../base/planned-facts.js';
import { insertTableRecords, type TableRecord } from '../base/md-table.js';
import { editTableRows, readTable } from '../base/md-table-edit.js';
import { isValidName } from '../base/names.js';
import { SCRIBE_AGENT, agentDir, alumniDir, squadPaths } from '../base/paths.js';
import type { Change, Plan } from '../base/plan.js';
import { hasWord } from '../base/util.js';
import { adoptRoster, appendCasting, withLegacyStatus, type CastingState } from '../roster/casting.js';
import type { DiscoveredSkill } from '../squad/discover.js';
import type { SquadSkills } from '../squad/agents/profile-input.js';
import { activeMembersOf, decideMemberProfiles, profileChanges, reportProfileChanges, type ProfileChangeReport } from '../squad/agents/profile-sync.js';
import {
  addAlumniLine,
  charterIdentity,
  readText,
  alumniLine,
  alumniLines,
  backupOf,
  isFolderless,
  isNamed,
  isoDate,
  nameKey,
  parseRetirementRecord,
  registryMembersOf,
  removeAlumniLines,
  renderRetirementRecord,
  requireRosterTable,
  retirementRecordPath,
  routesTo,
  rowMember,
} from '../roster/members.js';
import { sourcesAfter, withModels, type ModelSources } from '../roster/models.js';
import { agentsOf, isRosterHeader, parseRoster, staysLastInRoster, type RosterMember } from '../roster/roster.js';
import { SCRIBE_MEMBER, isRoutingHeader, parseProjectContext, renderMemberRows } from '../scaffold/scaffold-plan.js';

export type MemberCommand = 'retire' | 'rehire' | 'role' | 'model';

/** What retire, rehire and role decide from, read once (retire.ts readMemberChangeState). */
export interface MemberChangeState {
  root: string;
  command: MemberCommand;
  /** The member as typed: a folder or a roster name. */
  wanted: string;
  teamText: string;
  routingText: string | undefined;
  casting: CastingState;
  /** The folders in agents/_alumni/. */
  alumniFolders: string[];
  /** The folder the change is about (memberFolder), whose files were read further; undefined when there is none. */
  folder: string | undefined;
  /** The texts read of that member's files (retirement records, charter, history, backed-up charters), by path; undefined: none there. */
  texts: ReadonlyMap<string, string | undefined>;
  /** The backup folders' names (their timestamps), sorted. */
  backupStamps: string[];
  /** What stands at the member's folders, its records and its agent's places, as the read step saw it. */
  disk: DiskFacts;
  /** What the members' models are read from (roster/models.ts), as read. */
  models: ModelSources;
  /** The squad's skills (or what reading them threw: met only where a member's agent needs them). */
  skills: Recorded<SquadSkills>;
  /** The member's own skills in its folder among the alumni, placed where they will be once it is back. */
  alumniSkills: Recorded<DiscoveredSkill[]> | undefined;
  /** The create-squad version the agent is written by. */
  version: string;
}

export interface MemberRef {
  name: string;
  folder: string;
  role: string;
}

export interface MemberChangePlan extends Plan {
  root: string;
  member: MemberRef;
  /** Nothing to do: the change is made and the member's agent is in step. */
  done: boolean;
  /** The member change was made already (by an earlier run): only the member's agent may change. */
  madeAlready: boolean;
  /** The member change in its write order (team.md last), then the member's agent. */
  changes: Change[];
  /** What happens to the member's Copilot agent (its changes are the plan's last). */
  agentProfiles: ProfileChangeReport[];
  notes: string[];
}

export interface MemberChangeOptions {
  /** The date of the alumni line and history line, and the backups' folder (default: now). */
  now?: Date;
}

function ref(member: RosterMember): MemberRef {
  return { name: member.displayName, folder: member.name, role: member.role };
}

/** A retired member named `wanted`: a folder in agents/_alumni/, or a line of the Alumni section. */
function findAlumnus(state: Pick<MemberChangeState, 'teamText' | 'casting' | 'alumniFolders'>, wanted: string): MemberRef | undefined {
  const key = nameKey(wanted);
  const registry = registryMembersOf(state.casting);
  const lines = alumniLines(state.teamText);
  for (const folder of state.alumniFolders) {
    const entry = registry.find((m) => m.folder === folder);
    const name = entry?.name ?? lines.find((l) => nameKey(l.name) === folder)?.name ?? folder;
    if (folder === key || nameKey(name) === key) return { name, folder, role: entry?.role ?? lines.find((l) => nameKey(l.name) === nameKey(name))?.role ?? '' };
  }
  const line = lines.find((l) => nameKey(l.name) === key || registry.find((m) => nameKey(m.name) === nameKey(l.name))?.folder === key);
  if (!line) return undefined;
  const entry = registry.find((m) => nameKey(m.name) === nameKey(line.name));
  return { name: line.name, folder: entry?.folder ?? '', role: line.role ?? entry?.role ?? '' };
}

/** The folder `wanted` names: a roster member's, else a retired member's; what the read step reads further. */
export function memberFolder(state: Pick<MemberChangeState, 'teamText' | 'casting' | 'alumniFolders'>, wanted: string): string | undefined {
  const member = parseRoster(state.teamText).find((m) => isNamed(m, wanted));
  if (member) return member.name;
  return findAlumnus(state, wanted)?.folder || undefined;
}

/** The error for a name no roster member has, with the nearest names. */
export function unknownMember(wanted: string, roster: readonly RosterMember[]): SquadError {
  const cast = roster.filter((m) => m.name !== SCRIBE_AGENT);
  const near = didYouMean(
    wanted,
    cast.flatMap((m) => [m.name, m.displayName]),
  );
  const names = cast.map((m) => m.name);
  return new SquadError('unknown-agent', `no member named "${wanted}" in this squad${near}`, {
    hint: names.length ? `members: ${names.join(', ')} (see "create-squad members")` : 'the squad has no members; add one with "create-squad hire <role>"',
  });
}

/** What a member change decided before its agent: the member and its changes. */
export interface MemberChange {
  member: MemberRef;
  changes: Change[];
  notes: string[];
}

const NO_SKILLS: SquadSkills = { team: [], hiddenTeam: [], own: new Map() };

/**
 * The member change with the member's Copilot agent brought in step with the squad as the change
 * leaves it (written, refreshed, restored from its folder or moved to the alumni), decided on the
 * tree seen through the change; a member change made already still gets its agent, so a rerun
 * after a kill finishes the job.
 */
export async function withMemberAgent(state: MemberChangeState, change: MemberChange, now: Date): Promise<MemberChangePlan> {
  const { folder } = change.member;
  const base = { root: state.root, member: change.member, notes: change.notes, madeAlready: change.changes.length === 0 };
  if (!isValidName(folder)) return { ...base, done: change.changes.length === 0, changes: change.changes, agentProfiles: [] };
  const after = factsAfter(state.disk, change.changes);
  const team = change.changes.findLast((c): c is Extract<Change, { kind: 'replace' }> => c.kind === 'replace' && c.path === squadPaths.team);
  const members = withModels(
    activeMembersOf(agentsOf(parseRoster(team === undefined ? state.teamText : String(team.content)), after.names(squadPaths.agents))),
    sourcesAfter(state.models, change.changes),
  );
  const active = members.some((member) => member.folder === folder);
  let squad = NO_SKILLS;
  if (active) {
    squad = replay(state.skills);
    // Back from the alumni: the member sees the own skills that come back with its folder.
    const returning = state.alumniSkills !== undefined && change.changes.some((c) => c.kind === 'move' && c.from === alumniDir(folder) && c.to === agentDir(folder));
    if (returning) squad = { ...squad, own: new Map(squad.own).set(folder, replay(state.alumniSkills!)) };
  }
  const profiles = await decideMemberProfiles(after, { members, squad }, { members: [folder], version: state.version, now });
  const changes = withAgentChanges(change.changes, profileChanges(profiles));
  return { ...base, done: changes.length === 0, changes, agentProfiles: reportProfileChanges(profiles) };
}

/**
 * The member change, then the agent's changes; an agent kept in a folder the member change moves
 * (rehire's, in the member's folder among the alumni) moves from where it is now, right before its
 * folder does, so every path the plan names is one on disk before or after it.
 */
function withAgentChanges(memberChanges: readonly Change[], agentChanges: readonly Change[]): Change[] {
  const changes = [...memberChanges];
  const after: Change[] = [];
  for (const change of agentChanges) {
    const carrier = change.kind === 'move' ? changes.findLastIndex((c) => c.kind === 'move' && (change.from === c.to || change.from.startsWith(`${c.to}/`))) : -1;
    const folderMove = changes[carrier];
    if (change.kind === 'move' && folderMove?.kind === 'move')
      changes.splice(carrier, 0, { kind: 'move', from: `${folderMove.from}${change.from.slice(folderMove.to.length)}`, to: change.to });
    else after.push(change);
  }
  return [...changes, ...after];
}

// ---------------------------------------------------------------- retire

/** The registry change that keeps `member`'s name reserved, when the registry lacks it. */
function reserveName(casting: CastingState, member: RosterMember, roster: readonly RosterMember[]): Change[] {
  const { registry } = casting;
  if (registry.state === 'invalid') {
    throw new SquadError('invalid-format', `${squadPaths.castingRegistry} is not valid: ${registry.reason}`, {
      hint: 'fix that file (or move it aside) and run retire again; nothing was written',
    });
  }
  if (registry.state === 'missing') {
    const members = adoptRoster(roster).map((result) => result.entry);
    return [{ kind: 'create', path: squadPaths.castingRegistry, content: appendCasting(undefined, 'members', members) }];
  }
  if (registry.value.members.some((entry) => entry.folder === member.name)) return legacyStatus(casting, member.name, 'retired');
  const entry = { name: member.displayName, folder: member.name, role: member.role, universe: null };
  return [{ kind: 'replace', path: squadPaths.castingRegistry, content: appendCasting(registry.raw, 'members', [entry]), base: registry.text }];
}

/** An original Squad registry's entry of the member marked retired or active again (withLegacyStatus); none for create-squad's own entries. */
function legacyStatus(casting: CastingState, folder: string, status: 'active' | 'retired'): Change[] {
  const content = withLegacyStatus(casting.registry, folder, status);
  return content === undefined || casting.registry.state !== 'ok' ? [] : [{ kind: 'replace', path: squadPaths.castingRegistry, content, base: casting.registry.text }];
}

/** A record left in an active member's folder by a rehire that was stopped before its last write. */
function leftoverRecord(state: MemberChangeState, folder: string, now: Date): Change[] {
  const record = retirementRecordPath(folder, false);
  return state.disk.exists(record) ? [{ kind: 'move', from: record, to: backupOf(record, now) }] : [];
}

/** Retire the member the state was read for. Refuses before anything is written. */
export async function decideRetire(state: MemberChangeState, options: MemberChangeOptions = {}): Promise<MemberChangePlan> {
  const now = options.now ?? new Date();
  const { teamText, wanted, disk } = state;
  const roster = parseRoster(teamText);
  const member = roster.find((m) => isNamed(m, wanted));
  if (!member) {
    const alumnus = findAlumnus(state, wanted);
    if (alumnus) return withMemberAgent(state, { member: alumnus, changes: [], notes: [] }, now);
    throw unknownMember(wanted, roster);
  }
  if (member.name === SCRIBE_AGENT) {
    throw new SquadError('invalid-input', `${member.displayName} is part of every squad and cannot be retired`, { hint: 'retire a cast member; see "create-squad members"' });
  }
  if (isFolderless(member)) {
    throw new SquadError('invalid-input', `${member.displayName} has no folder (a person, or a member without files): there is nothing to retire`, {
      hint: `remove their row from ${squadPaths.team} by hand if they left the team`,
    });
  }
  const active = agentDir(member.name);
  const retired = alumniDir(member.name);
  const inActive = disk.isDirectory(active);
  const inAlumni = disk.isDirectory(retired);
  if (inActive && inAlumni) {
    throw new SquadError('conflict', `both ${active}/ and ${retired}/ exist`, {
      hint: `merge them by hand into one of the two (keep the history and skills), then run retire again; nothing was written`,
    });
  }

  const changes: Change[] = [...reserveName(state.casting, member, roster)];
  if (inActive) changes.push(...leftoverRecord(state, member.name, now), { kind: 'move', from: active, to: retired });

  const rosterTable = requireRosterTable(teamText, 'retire');
  const rosterRows = rosterTable.rows.filter((row) => rowMember(rosterTable, row)?.name === member.name);
  const { routingText } = state;
  const routingTable = routingText === undefined ? undefined : readTable(routingText, isRoutingHeader);
  const routed = routingTable?.rows.filter((row) => routesTo(row, member)) ?? [];
  const date = isoDate(now);

  const record = retirementRecordPath(member.name, true);
  if (!disk.exists(record)) {
    const content = renderRetirementRecord(
      member,
      date,
      { head: rosterTable.head, rows: rosterRows.map((row) => row.line) },
      routingTable && { head: routingTable.head, rows: routed.map((row) => row.line) },
    );
    changes.push({ kind: 'create', path: record, content });
  }
  if (routingText !== undefined && routed.length > 0) {
    const edited = editTableRows(routingText, isRoutingHeader, (row) => (routesTo(row, member) ? null : undefined))!;
    changes.push({ kind: 'replace', path: squadPaths.routing, content: edited.text, base: routingText });
  }
  const edited = editTableRows(teamText, isRosterHeader, (row) => (rowMember(rosterTable, row)?.name === member.name ? null : undefined))!;
  changes.push({ kind: 'replace', path: squadPaths.team, content: addAlumniLine(edited.text, alumniLine(member, date)), base: teamText });

  const notes: string[] = [];
  const shared = routingTable?.rows.filter((row) => !routesTo(row, member) && hasWord(row.record['route to'] ?? '', member.displayName)) ?? [];
  for (const row of shared) notes.push(`${squadPaths.routing}: "${row.record['work type'] ?? ''}" routes to ${row.record['route to']}; left as it is (edit it by hand)`);
  if (routed.length > 0) {
    const work = routed.map((row) => row.record['work type'] ?? '').filter(Boolean);
    notes.push(`no member handles now: ${work.join('; ')} — give it to someone in ${squadPaths.routing} (the rows are kept in ${record})`);
  }
  return withMemberAgent(state, { member: ref(member), changes, notes }, now);
}

// ---------------------------------------------------------------- rehire

/** Bring back the retired member the state was read for. Refuses before anything is written. */
export async function decideRehire(state: MemberChangeState, options: MemberChangeOptions = {}): Promise<MemberChangePlan> {
  const now = options.now ?? new Date();
  const { teamText, wanted, disk } = state;
  const roster = parseRoster(teamText);
  const active = roster.find((m) => isNamed(m, wanted));
  const lines = alumniLines(teamText);
  if (active) {
    // Back already: finish what a stopped rehire left (the Alumni line, the record, the folder, the agent), else nothing to do.
    const stale = lines.filter((line) => isNamed(active, line.name)).map((line) => line.index);
    const changes: Change[] = [...legacyStatus(state.casting, active.name, 'active')];
    if (stale.length > 0) changes.push({ kind: 'replace', path: squadPaths.team, content: removeAlumniLines(teamText, stale), base: teamText });
    changes.push(...folderBack(state, active.name, now));
    return withMemberAgent(state, { member: ref(active), changes, notes: [] }, now);
  }
  const alumnus = findAlumnus(state, wanted);
  if (!alumnus || alumnus.folder === '') {
    // An original registry's retired entry whose files the squad does not hold (an export leaves them behind).
    const registered = state.casting.registry.state === 'ok' ? state.casting.registry.value : undefined;
    const filesLeft = registered?.members.find((m) => registered.retired?.includes(m.folder) && (m.folder === nameKey(wanted) || nameKey(m.name) === nameKey(wanted)));
    if (filesLeft !== undefined) {
      throw new SquadError(
        'not-found',
        `${filesLeft.name} is retired (${squadPaths.castingRegistry}), but the squad holds none of ${filesLeft.name}'s files: there is no ${alumniDir(filesLeft.folder)}/`,
        {
          hint: `copy ${filesLeft.name}'s folder from the squad it retired in (the original Squad keeps it in agents/_alumni/) to ${alumniDir(filesLeft.folder)}/, then run rehire again; nothing was written`,
        },
      );
    }
    const retired = lines.map((line) => line.name);
    throw new SquadError('unknown-agent', `no retired member named "${wanted}" in this squad${didYouMean(wanted, retired)}`, {
      hint: retired.length ? `retired: ${retired.join(', ')}` : 'nobody has retired; see "create-squad members"',
    });
  }
  const { folder } = alumnus;
  const taken = roster.find((m) => m.name === folder || nameKey(m.displayName) === nameKey(alumnus.name));
  if (taken) {
    throw new SquadError('conflict', `the roster already has ${taken.displayName} in ${agentDir(taken.name)}/`, {
      hint: 'rename one of the two by hand; nothing was written',
    });
  }
  const inActive = disk.isDirectory(agentDir(folder));
  const inAlumni = disk.isDirectory(alumniDir(folder));
  if (inActive && inAlumni) {
    throw new SquadError('conflict', `both ${agentDir(folder)}/ and ${alumniDir(folder)}/ exist`, {
      hint: 'merge them by hand into one of the two (keep the history and skills), then run rehire again; nothing was written',
    });
  }
  const recordPath = retirementRecordPath(folder, !inActive);
  const recordText = readText(state, recordPath);
  const record = recordText === undefined ? undefined : parseRetirementRecord(recordText, isRoutingHeader);
  const notes: string[] = [];
  // An original Squad's registry records no role: its charter says it (`- **Role:** …`, or the title).
  const charterRole = charterIdentity(readText(state, `${inActive ? agentDir(folder) : alumniDir(folder)}/charter.md`) ?? '').role;
  const role = record?.roster?.rows[0]?.record.role || alumnus.role || charterRole || '';
  const member = { name: alumnus.name, folder, role };
  const project = parseProjectContext(teamText);
  const { policy } = state.casting;
  const preset = await renderMemberRows(member, project, policy.state === 'ok' ? policy.value.universe : '');
  if (recordText === undefined) notes.push(`no retirement record in ${alumniDir(folder)}/: the roster and routing rows are made from the role ${role || '(none)'}`);

  // The original Squad's registry says who is retired: it says active again first (a rerun finds it so).
  const changes: Change[] = [...legacyStatus(state.casting, folder, 'active')];
  const { routingText } = state;
  if (routingText !== undefined) {
    const table = readTable(routingText, isRoutingHeader);
    const routed = table?.rows.some((row) => routesTo(row, { name: folder, displayName: alumnus.name })) ?? true;
    const rows = record?.routing?.rows.map((row) => row.record) ?? (recordText === undefined ? preset.routing : []);
    if (!routed && rows.length > 0) {
      const scribeRoute = (r: TableRecord) => r['route to'] === SCRIBE_MEMBER.name;
      changes.push({ kind: 'replace', path: squadPaths.routing, content: insertTableRecords(routingText, isRoutingHeader, rows, scribeRoute)!, base: routingText });
    }
  }
  const rosterRows = record?.roster?.rows.map((row) => row.record) ?? preset.roster;
  const withRow = insertTableRecords(teamText, isRosterHeader, rosterRows, staysLastInRoster);
  if (withRow === undefined) requireRosterTable(teamText, 'rehire');
  const named = alumniLines(withRow!)
    .filter((line) => nameKey(line.name) === nameKey(alumnus.name))
    .map((line) => line.index);
  changes.push({ kind: 'replace', path: squadPaths.team, content: removeAlumniLines(withRow!, named), base: teamText });
  changes.push(...folderBack(state, folder, now));
  return withMemberAgent(state, { member, changes, notes }, now);
}

/**
 * What a rehire does once team.md has the member back (so a rerun after a kill finds the member
 * active and finishes here): the retirement record, done with, to the backups, then the folder back
 * from the alumni (unless both folders exist: that is for the user to merge).
 */
function folderBack(state: MemberChangeState, folder: string, now: Date): Change[] {
  const inActive = state.disk.isDirectory(agentDir(folder));
  const returning = !inActive && state.disk.isDirectory(alumniDir(folder));
  const record = retirementRecordPath(folder, returning);
  const atRest = retirementRecordPath(folder, false);
  return [
    ...(state.disk.exists(record) ? [{ kind: 'move' as const, from: record, to: backupOf(atRest, now) }] : []),
    ...(returning ? [{ kind: 'move' as const, from: alumniDir(folder), to: agentDir(folder) }] : []),
  ];
}
