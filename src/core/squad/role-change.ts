/**
 * Changing a member's role, as the squad-team-changes skill does by hand: the casting registry's
 * entry, the charter, a line appended to the history, the member's routing rows and its roster row
 * (team.md last, so a rerun after a kill finishes the change).
 *
 * The charter: one create-squad wrote and nobody changed is written again for the new role; one
 * someone tailored keeps its text, with only its title and Role line changed, after a backup, and
 * the user is told to review what it says the member owns. A routing row's work type is changed
 * only while it is the old role's own wording.
 */
import { didYouMean } from '../base/edit-distance.js';
import { readCasting, serializeCasting } from './casting.js';
import { readStateText } from '../fs/confined.js';
import { SquadError } from '../base/errors.js';
import { editTableRows, type TableRow } from '../base/md-table-edit.js';
import type { TableRecord } from '../base/md-table.js';
import { backupStep, checkSteps, isNamed, isoDate, nameKey, readTeamText, requireRosterTable, routesTo, rowMember, type MemberStep } from './members.js';
import { SCRIBE_AGENT, charterPath, historyPath, squadPaths } from '../base/paths.js';
import { checkRoles, findRolePreset, roleAliasNote } from './roles.js';
import { isRosterHeader, parseRoster, type RosterMember } from './roster.js';
import { isRoutingHeader, parseProjectContext, renderMemberFiles } from './scaffold.js';
import { escapeRegExp, isMapping } from '../base/util.js';
import type { MemberChangePlan } from './retire.js';

export interface RoleChangePlan extends MemberChangePlan {
  /** The role before the change. */
  from: string;
  /** Where the tailored charter was backed up before its title and Role line changed. */
  backup?: string;
}

/** The work type a routing row has for `role` when nobody changed it. */
function presetWork(role: string): string {
  return findRolePreset(role)?.handles || `${role} work`;
}

/** The registry step giving `folder`'s entry the new role; none when there is no entry or it has it. */
function registryStep(root: string, folder: string, role: string): MemberStep[] {
  const registry = readCasting(root).registry;
  if (registry.state !== 'ok' || !Array.isArray(registry.raw.members)) return [];
  let changed = false;
  const members = (registry.raw.members as unknown[]).map((entry) => {
    if (!isMapping(entry) || entry.folder !== folder || entry.role === role) return entry;
    changed = true;
    return { ...entry, role };
  });
  return changed ? [{ kind: 'write', path: squadPaths.castingRegistry, content: serializeCasting({ ...registry.raw, members }), base: registry.text }] : [];
}

const ROLE_LINE = /^(\s*[-*]\s*\*\*Role:\*\*\s*)(.*?)(\s*)$/m;

/** The charter's text with its title and Role line saying `to` instead of `from`; undefined when it names neither. */
function retitledCharter(text: string, name: string, from: string, to: string): string | undefined {
  const title = new RegExp(`^(#\\s+${escapeRegExp(name)}\\s+—\\s+)${escapeRegExp(from)}(\\s*)$`, 'mi');
  let out = text.replace(title, (_m, head: string, tail: string) => `${head}${to}${tail}`);
  out = out.replace(ROLE_LINE, (whole, head: string, value: string, tail: string) => (nameKey(value) === nameKey(from) ? `${head}${to}${tail}` : whole));
  return out === text ? undefined : out;
}

interface CharterChange {
  steps: MemberStep[];
  notes: string[];
  backup?: string;
}

async function charterChange(root: string, member: RosterMember, teamText: string, to: string, now: Date): Promise<CharterChange> {
  const relPath = member.charter || charterPath(member.name);
  const text = readStateText(root, relPath);
  if (text === undefined) return { steps: [], notes: [`${relPath} is missing: no charter to update`] };
  if (nameKey(ROLE_LINE.exec(text)?.[2] ?? '') === nameKey(to)) return { steps: [], notes: [] };
  const project = parseProjectContext(teamText);
  const folder = { name: member.displayName, folder: member.name };
  const [asWritten] = await renderMemberFiles({ ...folder, role: member.role }, project);
  if (text.replace(/\r\n/g, '\n') === asWritten!.content) {
    const [fresh] = await renderMemberFiles({ ...folder, role: to }, project);
    return { steps: [{ kind: 'write', path: relPath, content: fresh!.content, base: text }], notes: [] };
  }
  const retitled = retitledCharter(text, member.displayName, member.role, to);
  if (retitled === undefined) {
    return { steps: [], notes: [`${relPath} does not name the role in its title or Role line; it was left as it is: say there what ${member.displayName} owns as ${to}`] };
  }
  const { path: backup, steps } = backupStep(root, relPath, text, now);
  return {
    steps: [...steps, { kind: 'write', path: relPath, content: retitled, base: text }],
    notes: [`${relPath} was tailored by hand: only its title and Role line changed; review what it says ${member.displayName} owns (the charter as it was: ${backup})`],
    backup,
  };
}

function historyStep(root: string, folder: string, from: string, to: string, now: Date): MemberStep[] {
  const relPath = historyPath(folder);
  const text = readStateText(root, relPath);
  if (text === undefined) return [];
  const said = `Role changed from ${from} to ${to}`;
  if (text.includes(said)) return [];
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const body = text === '' || text.endsWith('\n') ? text : `${text}${eol}`;
  return [{ kind: 'write', path: relPath, content: `${body}${eol}- ${said} on ${isoDate(now)}.${eol}`, base: text }];
}

/** A routing row of the member with the new role (and the new role's work type, when it had the old one's). */
function reroledRow(row: TableRow, from: string, to: string): TableRecord | undefined {
  const next: TableRecord = { ...row.record };
  if ('role' in next) next.role = to;
  if (nameKey(next['work type'] ?? '') === nameKey(presetWork(from))) next['work type'] = presetWork(to);
  return Object.keys(next).some((key) => next[key] !== row.record[key]) ? next : undefined;
}

/** Plan giving `wanted` (folder or roster name) the role `typed`. Reads only. */
export async function planRoleChange(root: string, wanted: string, typed: string, now = new Date()): Promise<RoleChangePlan> {
  const [role] = checkRoles([typed]) as [string];
  const teamText = readTeamText(root, 'role');
  const roster = parseRoster(teamText);
  const member = roster.find((m) => isNamed(m, wanted));
  if (!member) {
    const near = didYouMean(
      wanted,
      roster.filter((m) => m.name !== SCRIBE_AGENT).flatMap((m) => [m.name, m.displayName]),
    );
    throw new SquadError('unknown-agent', `no member named "${wanted}" in this squad${near}`, {
      hint: `members: ${
        roster
          .filter((m) => m.name !== SCRIBE_AGENT)
          .map((m) => m.name)
          .join(', ') || '(none)'
      } (see "create-squad members")`,
    });
  }
  if (member.name === SCRIBE_AGENT) throw new SquadError('invalid-input', `${member.displayName}'s role is fixed`, { hint: 'change the role of a cast member' });
  const ref = { name: member.displayName, folder: member.name, role };
  const alias = roleAliasNote(typed);
  const notes = alias ? [alias] : [];
  if (nameKey(member.role) === nameKey(role)) return { root, member: ref, from: member.role, done: true, steps: [], notes };

  const steps: MemberStep[] = [...registryStep(root, member.name, role)];
  const charter = member.noCharter ? { steps: [], notes: [] } : await charterChange(root, member, teamText, role, now);
  steps.push(...charter.steps);
  notes.push(...charter.notes);
  if (!member.noCharter) steps.push(...historyStep(root, member.name, member.role, role, now));

  const routingText = readStateText(root, squadPaths.routing);
  const routing =
    routingText === undefined ? undefined : editTableRows(routingText, isRoutingHeader, (row) => (routesTo(row, member) ? reroledRow(row, member.role, role) : undefined));
  if (routing && routing.changed.length > 0) steps.push({ kind: 'write', path: squadPaths.routing, content: routing.text, base: routingText! });

  const table = requireRosterTable(teamText, 'role');
  const team = editTableRows(teamText, isRosterHeader, (row) => (rowMember(table, row)?.name === member.name ? { ...row.record, role } : undefined))!;
  steps.push({ kind: 'write', path: squadPaths.team, content: team.text, base: teamText });
  checkSteps(root, steps);
  return { root, member: ref, from: member.role, done: false, steps, notes, ...(charter.backup ? { backup: charter.backup } : {}) };
}
