/**
 * Changing a member's role, decided from what its read step (retire.ts readMemberChangeState) read,
 * as the squad-team-changes skill does by hand: the casting registry's entry, the charter, a line
 * appended to the history, the member's routing rows and its roster row (team.md last, so a rerun
 * after a kill finishes the change), then the member's Copilot agent (its tools follow the role).
 *
 * The charter: one create-squad wrote and nobody changed is written again for the new role; one
 * someone tailored keeps its text, with only its title and Role line changed, after a backup, and
 * the user is told to review what it says the member owns. A routing row's work type is changed
 * only while it is the old role's own wording. Pure: no disk access (test/unit/decide-members.test.ts).
 */
import { didYouMean } from '../base/edit-distance.js';
import { SquadError } from '../base/errors.js';
import type { TableRecord } from '../base/md-table.js';
import { editTableRows, type TableRow } from '../base/md-table-edit.js';
import { SCRIBE_AGENT, charterPath, historyPath, squadPaths } from '../base/paths.js';
import type { Change } from '../base/plan.js';
import { escapeRegExp, isMapping } from '../base/util.js';
import { serializeCasting, type CastingState } from '../roster/casting.js';
import { backupChange, isNamed, isoDate, nameKey, readText, requireRosterTable, routesTo, rowMember } from '../roster/members.js';
import { withMemberAgent, type MemberChangeOptions, type MemberChangePlan, type MemberChangeState } from './member-change-plan.js';
import { checkRoles, findRolePreset, roleAliasNote } from '../roster/roles.js';
import { isRosterHeader, parseRoster, type RosterMember } from '../roster/roster.js';
import { isRoutingHeader, parseProjectContext, renderMemberFiles } from '../scaffold/scaffold-plan.js';

export interface RoleChangePlan extends MemberChangePlan {
  /** The role before the change. */
  from: string;
  /** Where the tailored charter was backed up before its title and Role line changed. */
  backup?: string;
}

export interface RoleChangeOptions extends MemberChangeOptions {
  /** The role as typed. */
  role: string;
}

/** The work type a routing row has for `role` when nobody changed it. */
function presetWork(role: string): string {
  return findRolePreset(role)?.handles || `${role} work`;
}

/** The registry change giving `folder`'s entry the new role; none when there is no entry or it has it. */
function registryChange(casting: CastingState, folder: string, role: string): Change[] {
  const { registry } = casting;
  if (registry.state !== 'ok' || !Array.isArray(registry.raw.members)) return [];
  let changed = false;
  const members = (registry.raw.members as unknown[]).map((entry) => {
    if (!isMapping(entry) || entry.folder !== folder || entry.role === role) return entry;
    changed = true;
    return { ...entry, role };
  });
  return changed ? [{ kind: 'replace', path: squadPaths.castingRegistry, content: serializeCasting({ ...registry.raw, members }), base: registry.text }] : [];
}

const ROLE_LINE = /^(\s*[-*]\s*\*\*Role:\*\*\s*)(.*?)(\s*)$/m;

/** The charter's text with its title and Role line saying `to` instead of `from`; undefined when it names neither. */
function retitledCharter(text: string, name: string, from: string, to: string): string | undefined {
  const title = new RegExp(`^(#\\s+${escapeRegExp(name)}\\s+—\\s+)${escapeRegExp(from)}(\\s*)$`, 'mi');
  let out = text.replace(title, (_m, head: string, tail: string) => `${head}${to}${tail}`);
  out = out.replace(ROLE_LINE, (whole, head: string, value: string, tail: string) => (nameKey(value) === nameKey(from) ? `${head}${to}${tail}` : whole));
  return out === text ? undefined : out;
}

/** Where the read step finds `member`'s charter. */
export function charterOf(member: RosterMember): string {
  return member.charter || charterPath(member.name);
}

interface CharterChange {
  changes: Change[];
  notes: string[];
  backup?: string;
}

async function charterChange(state: MemberChangeState, member: RosterMember, to: string, now: Date): Promise<CharterChange> {
  const relPath = charterOf(member);
  const text = readText(state, relPath);
  if (text === undefined) return { changes: [], notes: [`${relPath} is missing: no charter to update`] };
  if (nameKey(ROLE_LINE.exec(text)?.[2] ?? '') === nameKey(to)) return { changes: [], notes: [] };
  const project = parseProjectContext(state.teamText);
  const folder = { name: member.displayName, folder: member.name };
  const [asWritten] = await renderMemberFiles({ ...folder, role: member.role }, project);
  if (text.replace(/\r\n/g, '\n') === asWritten!.content) {
    const [fresh] = await renderMemberFiles({ ...folder, role: to }, project);
    return { changes: [{ kind: 'replace', path: relPath, content: fresh!.content, base: text }], notes: [] };
  }
  const retitled = retitledCharter(text, member.displayName, member.role, to);
  if (retitled === undefined) {
    return { changes: [], notes: [`${relPath} does not name the role in its title or Role line; it was left as it is: say there what ${member.displayName} owns as ${to}`] };
  }
  const backup = backupChange(state, relPath, text, now);
  return {
    changes: [...backup.changes, { kind: 'replace', path: relPath, content: retitled, base: text }],
    notes: [`${relPath} was tailored by hand: only its title and Role line changed; review what it says ${member.displayName} owns (the charter as it was: ${backup.path})`],
    backup: backup.path,
  };
}

function historyChange(state: MemberChangeState, folder: string, from: string, to: string, now: Date): Change[] {
  const relPath = historyPath(folder);
  const text = readText(state, relPath);
  if (text === undefined) return [];
  const said = `Role changed from ${from} to ${to}`;
  if (text.includes(said)) return [];
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const body = text === '' || text.endsWith('\n') ? text : `${text}${eol}`;
  return [{ kind: 'replace', path: relPath, content: `${body}${eol}- ${said} on ${isoDate(now)}.${eol}`, base: text }];
}

/** A routing row of the member with the new role (and the new role's work type, when it had the old one's). */
function reroledRow(row: TableRow, from: string, to: string): TableRecord | undefined {
  const next: TableRecord = { ...row.record };
  if ('role' in next) next.role = to;
  if (nameKey(next['work type'] ?? '') === nameKey(presetWork(from))) next['work type'] = presetWork(to);
  return Object.keys(next).some((key) => next[key] !== row.record[key]) ? next : undefined;
}

/** Give the member the state was read for the role `options.role`. Refuses before anything is written. */
export async function decideRoleChange(state: MemberChangeState, options: RoleChangeOptions): Promise<RoleChangePlan> {
  const now = options.now ?? new Date();
  const [role] = checkRoles([options.role]) as [string];
  const { teamText, wanted } = state;
  const roster = parseRoster(teamText);
  const member = roster.find((m) => isNamed(m, wanted));
  if (!member) {
    const cast = roster.filter((m) => m.name !== SCRIBE_AGENT);
    const near = didYouMean(
      wanted,
      cast.flatMap((m) => [m.name, m.displayName]),
    );
    throw new SquadError('unknown-agent', `no member named "${wanted}" in this squad${near}`, {
      hint: `members: ${cast.map((m) => m.name).join(', ') || '(none)'} (see "create-squad members")`,
    });
  }
  if (member.name === SCRIBE_AGENT) throw new SquadError('invalid-input', `${member.displayName}'s role is fixed`, { hint: 'change the role of a cast member' });
  const ref = { name: member.displayName, folder: member.name, role };
  const alias = roleAliasNote(options.role);
  const notes = alias ? [alias] : [];
  const planned = (change: { changes: Change[]; backup?: string }) =>
    withMemberAgent(state, { member: ref, changes: change.changes, notes }, now).then(
      (plan): RoleChangePlan => ({ ...plan, from: member.role, ...(change.backup ? { backup: change.backup } : {}) }),
    );
  if (nameKey(member.role) === nameKey(role)) return planned({ changes: [] });

  const changes: Change[] = [...registryChange(state.casting, member.name, role)];
  const charter = member.noCharter ? { changes: [], notes: [] } : await charterChange(state, member, role, now);
  changes.push(...charter.changes);
  notes.push(...charter.notes);
  if (!member.noCharter) changes.push(...historyChange(state, member.name, member.role, role, now));

  const { routingText } = state;
  const routing =
    routingText === undefined ? undefined : editTableRows(routingText, isRoutingHeader, (row) => (routesTo(row, member) ? reroledRow(row, member.role, role) : undefined));
  if (routing && routing.changed.length > 0) changes.push({ kind: 'replace', path: squadPaths.routing, content: routing.text, base: routingText! });

  const table = requireRosterTable(teamText, 'role');
  const team = editTableRows(teamText, isRosterHeader, (row) => (rowMember(table, row)?.name === member.name ? { ...row.record, role } : undefined))!;
  changes.push({ kind: 'replace', path: squadPaths.team, content: team.text, base: teamText });
  return planned({ changes, ...(charter.backup ? { backup: charter.backup } : {}) });
}
