/**
 * Retiring a member and bringing one back, as the squad-team-changes skill does by hand:
 *
 * retire: the name stays reserved in the casting registry (an entry is added if it lacks one);
 *   the member's folder moves whole to agents/_alumni/ (history, charter and skills kept); the
 *   rows it had in team.md and routing.md are written to a retirement record in that folder; the
 *   routing rows that route to it alone come out of routing.md; its roster row comes out of
 *   team.md and a line goes under `## Alumni` (team.md last).
 * rehire: the routing rows come back (from the record, else from its role's preset), the folder
 *   moves back, the roster row comes back and the Alumni line goes (team.md), and the record, done
 *   with, moves to .ai-team/backups/.
 *
 * Both are planned from what is on disk, so a rerun after a kill at any write finishes the job,
 * and a run over a finished one changes nothing.
 */
import { didYouMean } from '../base/edit-distance.js';
import { adoptRoster, appendCasting, readCasting } from './casting.js';
import { readStateText } from '../fs/confined.js';
import { SquadError } from '../base/errors.js';
import { existsInside, readDirNames } from '../fs/fs-safe.js';
import { insertTableRecords, type TableRecord } from '../base/md-table.js';
import { editTableRows, readTable } from '../base/md-table-edit.js';
import {
  addAlumniLine,
  alumniLine,
  alumniLines,
  backupOf,
  checkSteps,
  hasMemberDir,
  isFolderless,
  isNamed,
  isoDate,
  nameKey,
  parseRetirementRecord,
  readTeamText,
  registryMembers,
  removeAlumniLines,
  renderRetirementRecord,
  requireRosterTable,
  retirementRecordPath,
  routesTo,
  rowMember,
  type MemberStep,
} from './members.js';
import { ALUMNI_DIR, SCRIBE_AGENT, agentDir, alumniDir, resolveIn, squadPaths } from '../base/paths.js';
import { isRosterHeader, parseRoster, staysLastInRoster, type RosterMember } from './roster.js';
import { SCRIBE_MEMBER, isRoutingHeader, parseProjectContext, renderMemberRows } from './scaffold.js';
import { hasWord } from '../base/util.js';

export interface MemberRef {
  name: string;
  folder: string;
  role: string;
}

export interface MemberChangePlan {
  root: string;
  member: MemberRef;
  /** Nothing to do: the change is already made. */
  done: boolean;
  steps: MemberStep[];
  notes: string[];
}

function ref(member: RosterMember): MemberRef {
  return { name: member.displayName, folder: member.name, role: member.role };
}

function unknownMember(wanted: string, roster: readonly RosterMember[], what = 'member'): SquadError {
  const names = roster.filter((m) => m.name !== SCRIBE_AGENT).map((m) => m.name);
  const near = didYouMean(
    wanted,
    roster.filter((m) => m.name !== SCRIBE_AGENT).flatMap((m) => [m.name, m.displayName]),
  );
  return new SquadError('unknown-agent', `no ${what} named "${wanted}" in this squad${near}`, {
    hint: names.length ? `members: ${names.join(', ')} (see "create-squad members")` : 'the squad has no members; add one with "create-squad hire <role>"',
  });
}

/** The registry step that keeps `member`'s name reserved, when the registry lacks it. */
function reserveName(root: string, member: RosterMember, roster: readonly RosterMember[]): MemberStep[] {
  const registry = readCasting(root).registry;
  if (registry.state === 'invalid') {
    throw new SquadError('invalid-format', `${squadPaths.castingRegistry} is not valid: ${registry.reason}`, {
      hint: 'fix that file (or move it aside) and run retire again; nothing was written',
    });
  }
  if (registry.state === 'missing') {
    const members = adoptRoster(roster).map((result) => result.entry);
    return [{ kind: 'write', path: squadPaths.castingRegistry, content: appendCasting(undefined, 'members', members) }];
  }
  if (registry.value.members.some((entry) => entry.folder === member.name)) return [];
  const entry = { name: member.displayName, folder: member.name, role: member.role, universe: null };
  return [{ kind: 'write', path: squadPaths.castingRegistry, content: appendCasting(registry.raw, 'members', [entry]), base: registry.text }];
}

/** A record left in an active member's folder by a rehire that was stopped before its last step. */
function leftoverRecord(root: string, folder: string, now: Date): MemberStep[] {
  const record = retirementRecordPath(folder, false);
  return existsInside(root, record) ? [{ kind: 'move', from: record, to: backupOf(record, now) }] : [];
}

/** Plan retiring `wanted` (folder or roster name). Reads only; refuses before anything is written. */
export function planRetire(root: string, wanted: string, now = new Date()): MemberChangePlan {
  const teamText = readTeamText(root, 'retire');
  const roster = parseRoster(teamText);
  const member = roster.find((m) => isNamed(m, wanted));
  if (!member) {
    const alumnus = findAlumnus(root, teamText, wanted);
    if (alumnus) return { root, member: alumnus, done: true, steps: [], notes: [] };
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
  const inActive = hasMemberDir(root, active);
  const inAlumni = hasMemberDir(root, retired);
  if (inActive && inAlumni) {
    throw new SquadError('conflict', `both ${active}/ and ${retired}/ exist`, {
      hint: `merge them by hand into one of the two (keep the history and skills), then run retire again; nothing was written`,
    });
  }

  const steps: MemberStep[] = [...reserveName(root, member, roster)];
  if (inActive) steps.push(...leftoverRecord(root, member.name, now), { kind: 'move', from: active, to: retired });

  const rosterTable = requireRosterTable(teamText, 'retire');
  const rosterRows = rosterTable.rows.filter((row) => rowMember(rosterTable, row)?.name === member.name);
  const routingText = readStateText(root, squadPaths.routing);
  const routingTable = routingText === undefined ? undefined : readTable(routingText, isRoutingHeader);
  const routed = routingTable?.rows.filter((row) => routesTo(row, member)) ?? [];
  const date = isoDate(now);

  const record = retirementRecordPath(member.name, true);
  if (!existsInside(root, record)) {
    const content = renderRetirementRecord(
      member,
      date,
      { head: rosterTable.head, rows: rosterRows.map((row) => row.line) },
      routingTable && { head: routingTable.head, rows: routed.map((row) => row.line) },
    );
    steps.push({ kind: 'write', path: record, content });
  }
  if (routingText !== undefined && routed.length > 0) {
    const edited = editTableRows(routingText, isRoutingHeader, (row) => (routesTo(row, member) ? null : undefined))!;
    steps.push({ kind: 'write', path: squadPaths.routing, content: edited.text, base: routingText });
  }
  const edited = editTableRows(teamText, isRosterHeader, (row) => (rowMember(rosterTable, row)?.name === member.name ? null : undefined))!;
  steps.push({ kind: 'write', path: squadPaths.team, content: addAlumniLine(edited.text, alumniLine(member, date)), base: teamText });
  checkSteps(root, steps);

  const notes: string[] = [];
  const shared = routingTable?.rows.filter((row) => !routesTo(row, member) && hasWord(row.record['route to'] ?? '', member.displayName)) ?? [];
  for (const row of shared) notes.push(`${squadPaths.routing}: "${row.record['work type'] ?? ''}" routes to ${row.record['route to']}; left as it is (edit it by hand)`);
  if (routed.length > 0) {
    const work = routed.map((row) => row.record['work type'] ?? '').filter(Boolean);
    notes.push(`no member handles now: ${work.join('; ')} — give it to someone in ${squadPaths.routing} (the rows are kept in ${record})`);
  }
  return { root, member: ref(member), done: false, steps, notes };
}

/** A retired member named `wanted`: a folder in agents/_alumni/, or a line of the Alumni section. */
function findAlumnus(root: string, teamText: string, wanted: string): MemberRef | undefined {
  const key = nameKey(wanted);
  const registry = registryMembers(root);
  const lines = alumniLines(teamText);
  for (const folder of readDirNames(resolveIn(root, ALUMNI_DIR))) {
    const entry = registry.find((m) => m.folder === folder);
    const name = entry?.name ?? lines.find((l) => nameKey(l.name) === folder)?.name ?? folder;
    if (folder === key || nameKey(name) === key) return { name, folder, role: entry?.role ?? lines.find((l) => nameKey(l.name) === nameKey(name))?.role ?? '' };
  }
  const line = lines.find((l) => nameKey(l.name) === key || registry.find((m) => nameKey(m.name) === nameKey(l.name))?.folder === key);
  if (!line) return undefined;
  const entry = registry.find((m) => nameKey(m.name) === nameKey(line.name));
  return { name: line.name, folder: entry?.folder ?? '', role: line.role ?? entry?.role ?? '' };
}

/** Plan bringing back `wanted` (folder or roster name) from the alumni. Reads only. */
export async function planRehire(root: string, wanted: string, now = new Date()): Promise<MemberChangePlan> {
  const teamText = readTeamText(root, 'rehire');
  const roster = parseRoster(teamText);
  const active = roster.find((m) => isNamed(m, wanted));
  const lines = alumniLines(teamText);
  if (active) {
    // Back already: finish what a stopped rehire left (the Alumni line, the record), else nothing to do.
    const stale = lines.filter((line) => isNamed(active, line.name)).map((line) => line.index);
    const steps: MemberStep[] = [...leftoverRecord(root, active.name, now)];
    if (stale.length > 0) steps.push({ kind: 'write', path: squadPaths.team, content: removeAlumniLines(teamText, stale), base: teamText });
    return { root, member: ref(active), done: steps.length === 0, steps, notes: [] };
  }
  const alumnus = findAlumnus(root, teamText, wanted);
  if (!alumnus || alumnus.folder === '') {
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
  const inActive = hasMemberDir(root, agentDir(folder));
  const inAlumni = hasMemberDir(root, alumniDir(folder));
  if (inActive && inAlumni) {
    throw new SquadError('conflict', `both ${agentDir(folder)}/ and ${alumniDir(folder)}/ exist`, {
      hint: 'merge them by hand into one of the two (keep the history and skills), then run rehire again; nothing was written',
    });
  }
  const recordPath = retirementRecordPath(folder, !inActive);
  const recordText = readStateText(root, recordPath);
  const record = recordText === undefined ? undefined : parseRetirementRecord(recordText, isRoutingHeader);
  const notes: string[] = [];
  const role = record?.roster?.rows[0]?.record.role || alumnus.role;
  const member = { name: alumnus.name, folder, role };
  const project = parseProjectContext(teamText);
  const policy = readCasting(root).policy;
  const preset = await renderMemberRows(member, project, policy.state === 'ok' ? policy.value.universe : '');
  if (recordText === undefined) notes.push(`no retirement record in ${alumniDir(folder)}/: the roster and routing rows are made from the role ${role || '(none)'}`);

  const steps: MemberStep[] = [];
  const routingText = readStateText(root, squadPaths.routing);
  if (routingText !== undefined) {
    const table = readTable(routingText, isRoutingHeader);
    const routed = table?.rows.some((row) => routesTo(row, { name: folder, displayName: alumnus.name })) ?? true;
    const rows = record?.routing?.rows.map((row) => row.record) ?? (recordText === undefined ? preset.routing : []);
    if (!routed && rows.length > 0) {
      const scribeRoute = (r: TableRecord) => r['route to'] === SCRIBE_MEMBER.name;
      steps.push({ kind: 'write', path: squadPaths.routing, content: insertTableRecords(routingText, isRoutingHeader, rows, scribeRoute)!, base: routingText });
    }
  }
  if (inAlumni) steps.push({ kind: 'move', from: alumniDir(folder), to: agentDir(folder) });
  const rosterRows = record?.roster?.rows.map((row) => row.record) ?? preset.roster;
  const withRow = insertTableRecords(teamText, isRosterHeader, rosterRows, staysLastInRoster);
  if (withRow === undefined) requireRosterTable(teamText, 'rehire');
  const named = alumniLines(withRow!)
    .filter((line) => nameKey(line.name) === nameKey(alumnus.name))
    .map((line) => line.index);
  steps.push({ kind: 'write', path: squadPaths.team, content: removeAlumniLines(withRow!, named), base: teamText });
  if (recordText !== undefined) {
    const atRest = retirementRecordPath(folder, false);
    steps.push({ kind: 'move', from: atRest, to: backupOf(atRest, now) });
  }
  checkSteps(root, steps);
  return { root, member, done: false, steps, notes };
}
