/**
 * Hiring: add one member to an existing squad — charter and history (new files), a roster row in
 * team.md and a routing row in routing.md (rows added, every existing byte kept), and the casting
 * registry and history. Nobody else's files are touched.
 */
import fs from 'node:fs';
import {
  appendCasting,
  castingEvent,
  createPolicy,
  nextCast,
  readCasting,
  resolveUniverse,
  serializeCasting,
  type CastResult,
  type CastingRead,
  type CastingPolicy,
} from './casting.js';
import { readDirNames } from './fs-safe.js';
import { SquadError, usageError } from './errors.js';
import { readTextIfExists, resolveInside, writeFileAtomic } from './fs-safe.js';
import { insertTableRows } from './md-table.js';
import { slugify } from './names.js';
import { SCRIBE_AGENT, resolveIn, squadPaths } from './paths.js';
import { checkRoles } from './roles.js';
import { isRosterHeader, parseRoster, requireSquad } from './roster.js';
import {
  isRoutingHeader,
  parseProjectContext,
  renderMemberFiles,
  renderMemberRows,
  type PlannedFile,
  type ScaffoldMember,
} from './scaffold.js';

export interface HireOptions {
  role: string;
  /** Roster name; the next casting name when absent. */
  name?: string;
  now?: Date;
}

export interface HirePlan {
  root: string;
  member: ScaffoldMember;
  /** The casting universe the name came from; null for a name given by hand. */
  universe: string | null;
  event: CastResult['event'];
  /** Files to write, in order: new ones (exclusive), then the ones that get additions (`update`). */
  files: PlannedFile[];
  created: string[];
  modified: string[];
  warnings: string[];
}

function readableCasting<T>(read: CastingRead<T>, relPath: string): Extract<CastingRead<T>, { state: 'ok' }> | undefined {
  if (read.state === 'invalid') {
    throw new SquadError('INVALID_FORMAT', `${relPath} is not valid: ${read.reason}`, {
      hint: 'fix that file (or move it aside) and run hire again; nothing was written',
    });
  }
  return read.state === 'ok' ? read : undefined;
}

/** Plan a hire. Reads only; throws before anything is written when the input or the squad is wrong. */
export async function planHire(root: string, options: HireOptions): Promise<HirePlan> {
  const role = options.role.trim();
  if (!role) throw usageError('the role is empty', 'say which role to hire, e.g. create-squad hire "Frontend Dev"');
  const [normalizedRole] = checkRoles([role]);
  requireSquad(root);
  const teamText = readTextIfExists(resolveIn(root, squadPaths.team));
  if (teamText === undefined) {
    throw new SquadError('NOT_FOUND', `${squadPaths.team} is missing`, { hint: 'run "create-squad init" to recreate the missing files, then hire again' });
  }

  const casting = readCasting(root);
  const policyRead = readableCasting(casting.policy, squadPaths.castingPolicy);
  const registryRead = readableCasting(casting.registry, squadPaths.castingRegistry);
  const historyRead = readableCasting(casting.history, squadPaths.castingHistory);
  const policy: CastingPolicy = policyRead?.value ?? createPolicy(resolveUniverse(undefined));

  const roster = parseRoster(teamText);
  const registry = registryRead?.value.members ?? [];
  const folders = readDirNames(resolveIn(root, squadPaths.agents));
  const taken = new Set([SCRIBE_AGENT, ...roster.map((m) => m.name), ...registry.map((m) => m.folder), ...folders]);
  const takenNames = new Set([...roster.map((m) => m.displayName), ...registry.map((m) => m.name)].map((n) => n.toLowerCase()));

  let result: CastResult;
  if (options.name !== undefined) {
    const name = options.name.trim().replace(/\s+/g, ' ');
    const folder = slugify(name);
    if (!folder) throw usageError(`cannot make a folder name from "${options.name}"`, 'use a name with letters or digits, e.g. --name Kobayashi');
    if (taken.has(folder) || takenNames.has(name.toLowerCase())) {
      const members = roster.map((m) => m.displayName);
      throw new SquadError('CONFLICT', `the squad already has a member named "${name}"`, {
        hint: `members: ${members.length ? members.join(', ') : '(none)'}; choose another --name, or leave it out to get the next casting name`,
      });
    }
    result = { entry: { name, folder, role: normalizedRole!, universe: null }, event: 'named' };
  } else {
    result = nextCast(normalizedRole!, policy, taken);
  }
  const member: ScaffoldMember = { name: result.entry.name, role: result.entry.role, folder: result.entry.folder };
  const now = options.now ?? new Date();
  const project = parseProjectContext(teamText);

  const files: PlannedFile[] = [];
  const warnings: string[] = [];
  const create = (path: string, content: string) => {
    if (fs.existsSync(resolveInside(root, path, { allowFinalSymlink: true }))) {
      throw new SquadError('FILE_EXISTS', `${path} already exists`, { hint: 'choose another --name; hire never overwrites a file' });
    }
    files.push({ path, content, mode: 0o644, kind: 'state' });
  };
  const rewrite = (path: string, content: string) => {
    resolveInside(root, path); // refuses a symlink now, before the first write, not halfway through
    files.push({ path, content, mode: 0o644, kind: 'state', update: true });
  };

  for (const file of await renderMemberFiles(member, project)) create(file.path, file.content);

  // The registry adopts the roster's members when it does not exist yet, so it stays complete.
  const adopted: CastResult[] = registryRead
    ? []
    : roster
        .filter((m) => m.name !== SCRIBE_AGENT)
        .map((m) => ({ entry: { name: m.displayName, folder: m.name, role: m.role, universe: null }, event: 'adopted' }));
  if (!policyRead) create(squadPaths.castingPolicy, serializeCasting(policy));
  const registryText = appendCasting(registryRead?.raw, 'members', [...adopted, result].map((r) => r.entry));
  const historyText = appendCasting(historyRead?.raw, 'events', [...adopted, result].map((r) => castingEvent(r, now)));
  if (registryRead) rewrite(squadPaths.castingRegistry, registryText);
  else create(squadPaths.castingRegistry, registryText);
  if (historyRead) rewrite(squadPaths.castingHistory, historyText);
  else create(squadPaths.castingHistory, historyText);

  const rows = await renderMemberRows(member, project, policy.universe);
  const routingText = readTextIfExists(resolveIn(root, squadPaths.routing));
  const routing = routingText === undefined ? undefined : insertTableRows(routingText, isRoutingHeader, rows.routing);
  if (routing !== undefined) rewrite(squadPaths.routing, routing);
  else {
    warnings.push(
      routingText === undefined
        ? `${squadPaths.routing} is missing: no routing row was added (run "create-squad init" to recreate it)`
        : `${squadPaths.routing} has no routing table (| Work Type | Route To | … |): no routing row was added`,
    );
  }
  const team = insertTableRows(teamText, isRosterHeader, rows.roster);
  if (team === undefined) {
    throw new SquadError('INVALID_FORMAT', `${squadPaths.team} has no roster table (| Name | Role | Charter | Status |)`, {
      hint: 'restore the "## Members" table in team.md, then hire again; nothing was written',
    });
  }
  rewrite(squadPaths.team, team);

  return {
    root,
    member,
    universe: result.entry.universe,
    event: result.event,
    files,
    created: files.filter((f) => !f.update).map((f) => f.path),
    modified: files.filter((f) => f.update).map((f) => f.path),
    warnings,
  };
}

/** Write a hire plan: new files exclusively, then the rewritten registry, history, routing and roster. */
export function applyHire(plan: HirePlan): void {
  for (const file of plan.files) writeFileAtomic(plan.root, file.path, file.content, { mode: file.mode, exclusive: !file.update });
}
