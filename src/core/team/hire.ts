/**
 * Hiring: add one member to an existing squad — charter and history (new files), the member's
 * Copilot agent in `.github/agents/` (a new file, written before the roster row), a roster row in
 * team.md and a routing row in routing.md (rows added, every existing byte kept), and the casting
 * registry and history. Nobody else's files are touched.
 *
 * Safe to kill, safe to run twice at once:
 *   - The casting files are written first and team.md last. The registry entry is the record that
 *     a hire started: a member who is the registry's last entry, has no row in team.md and whose
 *     name team.md does not mention at all (an interrupted hire) is finished by the next hire of
 *     the same role (or --name), instead of someone else being cast. Only what is missing is
 *     written: the casting event, the charter, the history, the routing row, the roster row.
 *   - Each file that gets additions is re-read just before it is replaced; if it changed since it
 *     was read, the hire stops there (conflict) and writes nothing further: running it again
 *     finishes it from the files as they are then.
 */
import {
  adoptRoster,
  appendCasting,
  castingEvent,
  legacyUsedUniverses,
  nextCast,
  policyFromRecords,
  serializePolicy,
  takenNamesFrom,
  type CastEntry,
  type CastResult,
  type CastingEvent,
  type CastingPolicy,
  type CastingRead,
} from '../roster/casting.js';
import { memberProfilePath } from '../squad/agents/member-profile.js';
import { memberProfileText } from '../squad/agents/profile-input.js';
import { SquadError, usageError } from '../base/errors.js';
import { warning, type Warning } from '../base/warnings.js';
import { existsIn, refuseUnwritable, type ScaffoldState } from '../scaffold/scaffold-state.js';
import { insertTableRecords, tableRecords, type TableRecord } from '../base/md-table.js';
import { memberNameProblem, slugify } from '../base/names.js';
import { SCRIBE_AGENT, agentDir, squadPaths } from '../base/paths.js';
import type { Change, Plan } from '../base/plan.js';
import { checkRoles, roleAliasNote } from '../roster/roles.js';
import { hasWord, isMapping, quoted } from '../base/util.js';
import { parseConfig, recordWithModel, recordedChoice, withModels } from '../roster/models.js';
import { insertRosterRecords, parseRoster, type RosterMember } from '../roster/roster.js';
import {
  SCRIBE_MEMBER,
  isRoutingHeader,
  parseProjectContext,
  renderMemberFiles,
  renderMemberRows,
  plannedChanges,
  type PlannedFile,
  type ScaffoldMember,
} from '../scaffold/scaffold-plan.js';

export interface HireOptions {
  role: string;
  /** Roster name; the next casting name when absent. */
  name?: string;
  /** The member's model, first choice first (checked: roster/models.ts); absent: the squad's default, else the session's. */
  models?: string[];
  now?: Date;
}

export interface HirePlan extends Plan {
  root: string;
  member: ScaffoldMember;
  /** The casting universe the name came from; null for a name given by hand. */
  universe: string | null;
  event: CastResult['event'];
  /** The member's own model (`--model`), first choice first; [] for none. */
  models: string[];
  /** True when this finishes an interrupted hire (the member was already in the casting registry). */
  resumed: boolean;
  /** In order: casting files, the member's files, routing, roster last. */
  changes: Change[];
  warnings: Warning[];
}

function readableCasting<T>(read: CastingRead<T>, relPath: string): Extract<CastingRead<T>, { state: 'ok' }> | undefined {
  if (read.state === 'invalid') {
    throw new SquadError('invalid-format', `${relPath} is not valid: ${read.reason}`, {
      hint: 'fix that file (or move it aside) and run hire again; nothing was written',
    });
  }
  return read.state === 'ok' ? read : undefined;
}

/**
 * The member an interrupted hire left behind, if this hire asks for the same one: the registry's
 * last own entry, not in the roster nor named anywhere in team.md, with the requested role (and
 * name, when one is given). A retired member (named in team.md's Alumni list) or a renamed one (not
 * the last entry) is never taken for one.
 */
function interruptedHire(
  registry: { members: CastEntry[]; legacy: string[] },
  roster: RosterMember[],
  teamText: string,
  role: string,
  name: string | undefined,
): CastEntry | undefined {
  const last = registry.members.at(-1);
  if (!last || last.folder === SCRIBE_AGENT || registry.legacy.includes(last.folder)) return undefined;
  if (roster.some((m) => m.name === last.folder) || hasWord(teamText, last.name)) return undefined;
  if (last.role.toLowerCase() !== role.toLowerCase()) return undefined;
  if (name !== undefined && last.name.toLowerCase() !== name.toLowerCase()) return undefined;
  return last;
}

/** What to tell the user about the role of a new member: a preset's other name, and others in that role. */
function roleNotes(typed: string, member: ScaffoldMember, roster: readonly RosterMember[]): Warning[] {
  const alias = roleAliasNote(typed);
  const same = roster.filter((m) => m.role.toLowerCase() === member.role.toLowerCase() && m.name !== member.folder).map((m) => m.displayName);
  return [
    ...(alias ? [warning('role-alias', alias)] : []),
    ...(same.length > 0
      ? [warning('role-taken', `the squad has ${same.join(', ')} as ${member.role} already; ${member.name} is one more (give them different work in routing.md)`)]
      : []),
  ];
}

/** What a hire decides from: the squad's tree and state files, routing.md's and config.json's texts. */
export interface HireState extends ScaffoldState {
  routingText: string | undefined;
  /** `.ai-team/config.json` (the squad's default model); undefined: none. */
  configText?: string;
}

/** The registry entry an interrupted hire left for `folder` (its model is the one to finish with). */
function pendingEntry(raw: Record<string, unknown> | undefined, folder: string): Record<string, unknown> {
  const members = Array.isArray(raw?.members) ? (raw.members as unknown[]) : [];
  const entry = members.findLast((m) => isMapping(m) && m.folder === folder);
  return isMapping(entry) ? entry : {};
}

/** planHire from what was read: decides without touching the disk. */
export async function decideHire(state: HireState, options: HireOptions): Promise<HirePlan> {
  const { root, teamText } = state;
  const [role] = checkRoles([options.role]) as [string];
  if (teamText === undefined) {
    if (existsIn(state, squadPaths.team)) {
      throw new SquadError('invalid-input', `${squadPaths.team} is not a readable file (a folder, a dangling symlink or a special file)`, {
        hint: `restore the file from git, or remove what is at ${squadPaths.team} and run "create-squad init"; then hire again`,
      });
    }
    throw new SquadError('not-found', `${squadPaths.team} is missing`, { hint: 'run "create-squad init" to recreate the missing files, then hire again' });
  }

  const { casting } = state;
  const policyRead = readableCasting(casting.policy, squadPaths.castingPolicy);
  const registryRead = readableCasting(casting.registry, squadPaths.castingRegistry);
  const historyRead = readableCasting(casting.history, squadPaths.castingHistory);
  const registry = registryRead?.value ?? { members: [], legacy: [] };
  // Without a policy, casting goes on in the universe the registry's members (else the history) record.
  const policy: CastingPolicy = policyRead?.value ?? policyFromRecords(registry.members, historyRead ? legacyUsedUniverses(historyRead.raw) : []);

  const roster = parseRoster(teamText);
  const givenName = options.name === undefined ? undefined : options.name.trim().replace(/\s+/g, ' ');
  const pending = interruptedHire(registry, roster, teamText, role, givenName);

  let result: CastResult;
  if (pending) {
    const recorded = (historyRead?.value.events ?? []).findLast((e: Partial<CastingEvent>) => e?.folder === pending.folder);
    result = { entry: pending, event: recorded?.event ?? (pending.universe === null ? 'named' : 'cast') };
  } else {
    const taken = takenNamesFrom(state.agentFolders, [...roster.map((m) => ({ folder: m.name, name: m.displayName })), ...registry.members]);
    if (givenName !== undefined) {
      const folder = slugify(givenName);
      const problem = memberNameProblem(givenName);
      if (problem) throw usageError(`the name ${quoted(options.name!)} ${problem}`, 'use a plain name, e.g. --name Kobayashi');
      if (!folder) throw usageError(`cannot make a folder name from ${quoted(options.name!)}`, 'use a name with letters or digits, e.g. --name Kobayashi');
      if (taken.folders.has(folder) || taken.names.has(givenName.toLowerCase())) {
        const members = roster.map((m) => m.displayName);
        const clash = taken.names.has(givenName.toLowerCase()) ? `a member named ${quoted(givenName)}` : `a member in ${agentDir(folder)}/`;
        throw new SquadError('conflict', `the squad already has ${clash}`, {
          hint: `members: ${members.length ? members.join(', ') : '(none)'}; choose another --name, or leave it out to get the next casting name`,
        });
      }
      result = { entry: { name: givenName, folder, role, universe: null }, event: 'named' };
    } else {
      result = nextCast(role, policy, taken);
    }
  }
  const member: ScaffoldMember = { name: result.entry.name, role: result.entry.role, folder: result.entry.folder };
  const now = options.now ?? new Date();
  const project = parseProjectContext(teamText);

  const files: PlannedFile[] = [];
  const warnings: Warning[] = [];
  if (pending) warnings.push(warning('hire-resumed', `finishing the interrupted hire of ${member.name} (${member.role}): the casting registry already has them`));
  const create = (path: string, content: string) => {
    if (existsIn(state, path)) {
      if (pending) return; // written before the interruption
      throw new SquadError('file-exists', `${path} already exists`, { hint: 'choose another --name; hire never overwrites a file' });
    }
    refuseUnwritable(state, path); // refuses a path leading out of the repository now, not halfway through
    files.push({ path, content, mode: 0o644, kind: 'state' });
  };
  const rewrite = (path: string, base: string, content: string) => {
    refuseUnwritable(state, path); // refuses a symlink now, before the first write, not halfway through
    files.push({ path, content, mode: 0o644, kind: 'state', update: true, base });
  };

  // Casting first: once the registry has the member, a rerun finishes this hire.
  if (!policyRead) create(squadPaths.castingPolicy, serializePolicy(policy));
  // The registry adopts the roster's members when it does not exist yet, so it stays complete.
  const adopted = registryRead ? [] : adoptRoster(roster);
  const joined = pending ? [] : [...adopted, result];
  const modelChoice = { models: options.models ?? [] };
  const registryText = appendCasting(
    registryRead?.raw,
    'members',
    joined.map((r) => (r === result ? recordWithModel({ ...r.entry }, modelChoice) : r.entry)),
  );
  if (!registryRead) create(squadPaths.castingRegistry, registryText);
  else if (joined.length > 0) rewrite(squadPaths.castingRegistry, registryRead.text, registryText);
  const recorded = (historyRead?.value.events ?? []).some((e: Partial<CastingEvent>) => e?.folder === member.folder);
  const events = (pending && recorded ? [] : [...adopted, result]).map((r) => castingEvent(r, now));
  const historyText = appendCasting(historyRead?.raw, 'events', events);
  if (!historyRead) create(squadPaths.castingHistory, historyText);
  else if (events.length > 0) rewrite(squadPaths.castingHistory, historyRead.text, historyText);

  for (const file of await renderMemberFiles(member, project)) create(file.path, file.content);
  // The agent runs on the member's model, else the squad's default (what the registry entry and config.json say).
  const [profileMember] = withModels([{ folder: member.folder, displayName: member.name, role: member.role }], {
    registry: { members: [recordWithModel({ folder: member.folder }, pending ? recordedChoice(pendingEntry(registryRead?.raw, member.folder)) : modelChoice)] },
    config: parseConfig(state.configText),
    charter: () => undefined,
  });
  create(memberProfilePath(member.folder), await memberProfileText(root, profileMember!, { squad: state.squadSkills }));

  const rows = await renderMemberRows(member, project, policy.universe);
  const routingText = state.routingText;
  const routed = routingText === undefined ? undefined : tableRecords(routingText, isRoutingHeader)?.records.some((r) => r['route to'] === member.name);
  // The Scribe's rows stay last, in the routing table as in the roster.
  const scribeRoute = (record: TableRecord) => record['route to'] === SCRIBE_MEMBER.name;
  const routing = routingText === undefined || routed ? undefined : insertTableRecords(routingText, isRoutingHeader, rows.routing, scribeRoute);
  if (routing !== undefined) rewrite(squadPaths.routing, routingText!, routing);
  else if (!routed) {
    warnings.push(
      routingText === undefined
        ? warning('routing-missing', `${squadPaths.routing} is missing: no routing row was added (run "create-squad init" to recreate it)`, squadPaths.routing)
        : warning('routing-table-missing', `${squadPaths.routing} has no routing table (| Work Type | Route To | … |): no routing row was added`, squadPaths.routing),
    );
  }
  const team = insertRosterRecords(teamText, rows.roster);
  if (team === undefined) {
    throw new SquadError('invalid-format', `${squadPaths.team} has no roster table (| Name | Role | Charter | Status |)`, {
      hint: 'restore the "## Members" table in team.md, then hire again; nothing was written',
    });
  }
  rewrite(squadPaths.team, teamText, team);

  if (!pending) warnings.push(...roleNotes(options.role, member, roster));

  return {
    root,
    member,
    models: modelChoice.models,
    universe: result.entry.universe,
    event: result.event,
    resumed: pending !== undefined,
    changes: plannedChanges(files),
    warnings,
  };
}
