/**
 * Casting: members get persistent names from a fictional universe ("The Usual Suspects": Keaton,
 * Fenster, Hockney, …). The universes and their names are data (`templates/casting/universes.json`);
 * a squad keeps its casting state in `.ai-team/casting/`:
 *
 *   policy.json    { schema, universe, overflow: [universe…], capacities: { universe: names },
 *                    custom_universes?: { universe: [name…] } }                a universe the user defines
 *   registry.json  { schema, members: [{ name, folder, role, universe }] }   who is who, forever
 *   history.json   { schema, events: [{ at, event, name, folder, role, universe, note? }] }
 *
 * Names are stable: a name in the registry is never given to anyone else and never changes. When the
 * chosen universe runs out of names, casting overflows to the policy's next universes in order, and
 * after those to numbered names ("Keaton 2"); each overflow is recorded as such in the history.
 * Scribe is not cast: it is always "Scribe" in the folder `scribe`.
 *
 * A squad set up by the original Squad keeps its casting files in other shapes, which are read too
 * (and kept as they are: entries are appended beside them):
 *
 *   policy.json    { casting_policy_version, allowlist_universes: [universe…], universe_capacity }
 *   registry.json  { agents: { folder: { persistent_name, role?, universe, status, … } } }
 *   history.json   { universe_usage_history: [{ universe, … }], assignment_cast_snapshots: {…} }
 *
 * The universe such a squad casts from is the one its registry (else its usage history) records:
 * the allow-list is the same in every original policy file and says nothing about the squad. A
 * universe create-squad does not ship is a custom universe, the team's own: its names are the ones
 * the policy's `custom_universes` gives and the ones the registry records. Casting never leaves it:
 * once its names are taken, new members get numbered names of it ("Raynor 2"), with a note that
 * `hire --name` gives one of the user's own.
 */
import * as v from 'valibot';
import { usageError } from '../base/errors.js';
import { allProblems, lazySchema, mapping, parseWith } from '../base/schema.js';
import { readDirNames, readTextIfExists } from '../fs/fs-safe.js';
import { folderNameProblem, isValidName, slugify } from '../base/names.js';
import { SCRIBE_AGENT, resolveIn, squadPaths } from '../base/paths.js';
import type { RosterMember } from './roster.js';
import { checkedTemplateJson } from '../fs/templates.js';
import { isMapping, jsonTypeName, nonEmptyString, stringList } from '../base/util.js';

export const UNIVERSES_DATA_FILE = 'casting/universes.json';
export const CASTING_SCHEMA = 1;
/** Scribe's roster name (its folder is SCRIBE_AGENT). */
export const SCRIBE_NAME = 'Scribe';

/** The Scribe as a member of every squad: its roster name, role and folder. */
export const SCRIBE_MEMBER: { name: string; role: string; folder: string } = { name: SCRIBE_NAME, role: 'Session Logger', folder: SCRIBE_AGENT };

export interface Universe {
  name: string;
  names: string[];
}

export interface CastingPolicy {
  schema: number;
  /** The universe names are drawn from. */
  universe: string;
  /** Universes to draw from, in order, when `universe` has no free name left. */
  overflow: string[];
  /** How many names each universe offers. */
  capacities: Record<string, number>;
  /**
   * Universes create-squad does not ship that the squad uses: defined in the policy's
   * `custom_universes`, or known only by the names its registry records. Absent: none.
   */
  custom?: Universe[];
}

export interface CastEntry {
  /** Roster name ("McManus"). */
  name: string;
  /** Folder under .ai-team/agents/ ("mcmanus"). */
  folder: string;
  role: string;
  /** Universe the name came from; null for a name chosen by hand or adopted from an existing roster. */
  universe: string | null;
}

export interface CastingRegistry {
  schema: number;
  /** Every member: the original Squad's `agents` map first (when there is one), then `members`. */
  members: CastEntry[];
  /** Folders that come only from the original Squad's `agents` map. */
  legacy: string[];
  /** Folders the original Squad's `agents` map marks retired (`"status": "retired"`): alumni, not members. */
  retired?: string[];
}

/**
 * cast: a name from the policy's universe; overflow: from an overflow universe or numbered;
 * named: a name given by hand (`hire --name`); adopted: a member found in an existing roster.
 */
export type CastingEventKind = 'cast' | 'overflow' | 'named' | 'adopted';

export interface CastingEvent extends CastEntry {
  at: string;
  event: CastingEventKind;
  note?: string;
}

export interface CastingHistory {
  schema: number;
  events: CastingEvent[];
}

interface UniverseCatalog {
  defaultName: string;
  universes: Universe[];
}

let catalog: UniverseCatalog | undefined;

/** `templates/casting/universes.json`: `{schema, default, universes: [{name, names}]}`. */
const universeCatalogSchema = lazySchema(() =>
  mapping(
    v.object({
      schema: v.literal(CASTING_SCHEMA),
      default: v.string(),
      universes: v.pipe(
        v.array(mapping(v.object({ name: v.pipe(v.string(), v.nonEmpty()), names: v.pipe(v.array(v.pipe(v.string(), v.nonEmpty())), v.nonEmpty()) }))),
        v.nonEmpty(),
      ),
    }),
  ),
);

function loadCatalog(): UniverseCatalog {
  if (catalog) return catalog;
  const data = checkedTemplateJson(UNIVERSES_DATA_FILE, universeCatalogSchema());
  catalog = { defaultName: data.default, universes: data.universes };
  return catalog;
}

/** Every universe create-squad ships, in catalog order. */
export function universes(): Universe[] {
  return loadCatalog().universes;
}

export function defaultUniverseName(): string {
  return loadCatalog().defaultName;
}

function universeKey(text: string): string {
  return slugify(text.replace(/['’]/g, ''), 1000).replace(/^the-/, '');
}

/** The universe `given` names: exact, case-insensitive, punctuation and a leading "The" ignored. */
export function findUniverse(given: string, catalogUniverses: readonly Universe[] = universes()): Universe | undefined {
  const key = universeKey(given);
  return key ? catalogUniverses.find((universe) => universeKey(universe.name) === key) : undefined;
}

/** The universe to cast from: `given`, or the default. Throws a usage error listing the universes. */
export function resolveUniverse(given: string | undefined): Universe {
  const name = given === undefined ? defaultUniverseName() : given;
  const universe = findUniverse(name);
  if (!universe) {
    throw usageError(
      `unknown casting universe "${name}"`,
      `universes: ${universes()
        .map((u) => `"${u.name}"`)
        .join(', ')}`,
    );
  }
  return universe;
}

/** The longest name a custom universe given to `init --universe` may have. */
const CUSTOM_UNIVERSE_MAX_CHARS = 80;

/**
 * The universe `init --universe` names: a shipped one, or (a name create-squad does not ship) a
 * custom universe, the team's own, with no names yet (custom_universes in the policy gives them;
 * until then members get numbered names of it). A usage error for a name no universe can have.
 */
export function chooseUniverse(given: string | undefined): Universe {
  if (given === undefined || findUniverse(given) !== undefined) return resolveUniverse(given);
  const name = given.trim().replace(/\s+/g, ' ');
  if (universeKey(name) === '' || name.length > CUSTOM_UNIVERSE_MAX_CHARS || /\p{Cc}/u.test(name)) {
    throw usageError(
      `"${given.slice(0, CUSTOM_UNIVERSE_MAX_CHARS)}" cannot name a casting universe`,
      `give a universe create-squad ships (${universes()
        .slice(0, 5)
        .map((u) => `"${u.name}"`)
        .join(', ')}, …) or a name of your own of letters or digits, at most ${CUSTOM_UNIVERSE_MAX_CHARS} characters`,
    );
  }
  return { name, names: [] };
}

/** A new squad's policy: the chosen universe, then every other one as overflow; a custom universe alone, the team's own. */
export function createPolicy(universe: Universe, catalogUniverses: readonly Universe[] = universes()): CastingPolicy {
  if (findUniverse(universe.name, catalogUniverses) === undefined) {
    // A custom universe never overflows to another one: its names are never reused, then numbered.
    return {
      schema: CASTING_SCHEMA,
      universe: universe.name,
      overflow: [],
      capacities: { [universe.name]: universe.names.length },
      custom: [{ name: universe.name, names: [...universe.names] }],
    };
  }
  const overflow = catalogUniverses.filter((u) => u.name !== universe.name);
  const capacities: Record<string, number> = {};
  for (const u of [universe, ...overflow]) capacities[u.name] = u.names.length;
  return { schema: CASTING_SCHEMA, universe: universe.name, overflow: overflow.map((u) => u.name), capacities };
}

/**
 * The policy of a squad without a policy file: the universe its registry's members (else its
 * history) record, a custom one included, else the default.
 */
export function policyFromRecords(members: readonly CastEntry[], used: readonly string[] = [], catalogUniverses: readonly Universe[] = universes()): CastingPolicy {
  const custom = customUniverses([], members, catalogUniverses);
  const recorded = usedUniverse(members, used);
  const universe = recorded === undefined ? undefined : (findUniverse(recorded, catalogUniverses) ?? findUniverse(recorded, custom));
  const policy = createPolicy(universe ?? resolveUniverse(undefined), catalogUniverses);
  return custom.length > 0 ? { ...policy, custom } : policy;
}

/** A policy file's text: custom universes known only from the registry are not written (they are read from it again). */
export function serializePolicy(policy: CastingPolicy): string {
  const { custom, ...written } = policy;
  // The team's own universe with no names known anywhere (init --universe): written, or it would be forgotten.
  const own = custom?.find((u) => u.name === policy.universe && u.names.length === 0);
  return serializeCasting(own === undefined ? written : { ...written, custom_universes: { [own.name]: [] } });
}

export interface CastResult {
  entry: CastEntry;
  event: CastingEventKind;
  note?: string;
}

/** Names already in use: folders, and roster names (lowercased). */
export interface Taken {
  folders: ReadonlySet<string>;
  names: ReadonlySet<string>;
}

/**
 * What nobody else may be named: Scribe, `members` (roster rows, registry entries: their folders
 * and names) and every folder under `.ai-team/agents/`.
 */
export function takenNames(root: string, members: readonly { folder: string; name: string }[]): Taken {
  return takenNamesFrom(readDirNames(resolveIn(root, squadPaths.agents)), members);
}

/** takenNames from the names in `.ai-team/agents/`, as read. */
export function takenNamesFrom(agentFolders: readonly string[], members: readonly { folder: string; name: string }[]): Taken {
  return {
    folders: new Set([SCRIBE_AGENT, ...members.map((m) => m.folder), ...agentFolders]),
    names: new Set([SCRIBE_NAME, ...members.map((m) => m.name)].map((name) => name.toLowerCase())),
  };
}

/** Roster rows as cast members, Scribe and human members left out: the names are kept, recorded as `adopted`. */
export function adoptRoster(roster: readonly RosterMember[]): CastResult[] {
  return roster.filter((m) => m.name !== SCRIBE_AGENT && !m.human).map((m) => ({ entry: { name: m.displayName, folder: m.name, role: m.role, universe: null }, event: 'adopted' }));
}

/**
 * The next free name for `role`: one whose folder and name are not `taken`; the caller adds the
 * result to it before casting again.
 */
export function nextCast(role: string, policy: CastingPolicy, taken: Taken, catalogUniverses: readonly Universe[] = universes()): CastResult {
  const isFree = (name: string, folder: string) =>
    folderNameProblem(folder) === undefined && folder !== SCRIBE_AGENT && !taken.folders.has(folder) && !taken.names.has(name.toLowerCase());
  const known = [...(policy.custom ?? []), ...catalogUniverses];
  // A custom universe is the team's own: its members never get names from another universe.
  const custom = isCustomUniverse(policy);
  const order = custom ? [policy.universe] : [policy.universe, ...policy.overflow.filter((name) => name !== policy.universe)];
  for (const universeName of order) {
    const universe = known.find((u) => u.name === universeName);
    if (!universe) continue;
    for (const name of universe.names) {
      const folder = slugify(name);
      if (!isFree(name, folder)) continue;
      const entry = { name, folder, role, universe: universe.name };
      if (universe.name === policy.universe) return { entry, event: 'cast' };
      return { entry, event: 'overflow', note: overflowNote(policy, known, universe.name) };
    }
  }
  // Every universe is out of names: number the primary universe's names ("Keaton 2", "Fenster 2", …).
  // A custom universe with no names of its own numbers its own name ("StarCraft 1"), which the registry then records.
  const numbered = (name: string) => name.startsWith(`${policy.universe} `) && /^\d+$/.test(name.slice(policy.universe.length + 1));
  const bases = (known.find((u) => u.name === policy.universe)?.names ?? []).filter((name) => !(custom && numbered(name)));
  const pool = bases.length > 0 ? bases : [custom ? policy.universe : 'Agent'];
  for (let round = bases.length > 0 || !custom ? 2 : 1; ; round += 1) {
    for (const base of pool) {
      const name = `${base} ${round}`;
      const folder = slugify(name);
      if (isFree(name, folder)) {
        return {
          entry: { name, folder, role, universe: policy.universe },
          event: 'overflow',
          note: custom
            ? `"${policy.universe}" is the team's own universe and has no free name left (${bases.length} known): numbered name; give one of your own with --name, or add names under "custom_universes" in ${squadPaths.castingPolicy}`
            : 'every universe of the casting policy is out of names; numbered name',
        };
      }
    }
  }
}

/** Whether the policy's universe is a custom one (the team's own, not shipped). */
function isCustomUniverse(policy: CastingPolicy): boolean {
  return policy.custom?.some((u) => u.name === policy.universe) === true;
}

/** Why a name came from `from` rather than the policy's (shipped) universe. */
function overflowNote(policy: CastingPolicy, known: readonly Universe[], from: string): string {
  const capacity = policy.capacities[policy.universe] ?? known.find((u) => u.name === policy.universe)?.names.length ?? 0;
  return `"${policy.universe}" has no free name left (capacity ${capacity}); cast from "${from}"`;
}

/** Cast one member per role, in order. Pure: `taken` is not modified. */
export function castTeam(roles: readonly string[], policy: CastingPolicy, taken: Taken, catalogUniverses: readonly Universe[] = universes()): CastResult[] {
  const folders = new Set(taken.folders);
  const names = new Set(taken.names);
  return roles.map((role) => {
    const result = nextCast(role, policy, { folders, names }, catalogUniverses);
    folders.add(result.entry.folder);
    names.add(result.entry.name.toLowerCase());
    return result;
  });
}

export function castingEvent(result: CastResult, at: Date): CastingEvent {
  return { at: at.toISOString(), event: result.event, ...result.entry, ...(result.note ? { note: result.note } : {}) };
}

// ---- reading and writing .ai-team/casting/ ----

/**
 * A casting file: missing, unreadable as what it should be, or its value plus the raw object
 * (unknown keys kept) and the text it was read from.
 */
export type CastingRead<T> = { state: 'missing' } | { state: 'invalid'; reason: string } | { state: 'ok'; value: T; raw: Record<string, unknown>; text: string };

export interface CastingParseOptions {
  /** Also accept the original Squad's shapes (see the top of this file). Default: create-squad's own only. */
  legacy?: boolean;
}

function parseObject(text: string): { raw: Record<string, unknown> } | { reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { reason: `not valid JSON (${(error as Error).message})` };
  }
  return isMapping(value) ? { raw: value } : { reason: 'not a JSON object' };
}

/** The message for each field of a registry entry: wrong, or missing where it is required. */
const ENTRY_FIELD_PROBLEMS: Record<string, string> = {
  name: '"name" is not a non-empty string',
  folder: '"folder" is not a string',
  role: '"role" is not a string',
  universe: '"universe" is neither a string nor null',
};

/** Why a registry entry's folder cannot be used, and what it could be instead ("Koba Yashi": "koba-yashi"). */
function folderProblem(folder: string): string {
  const problem = folderNameProblem(folder, '"folder"') ?? '';
  if (isValidName(folder)) return problem;
  const suggestion = slugify(folder);
  return `${problem} (a folder name is lowercase a-z, 0-9 and hyphens${suggestion === '' ? '' : `, such as "${suggestion}"`})`;
}

/**
 * A registry `members` entry, `{name, folder, role?, universe?}`: a non-empty name, a folder name
 * folderNameProblem accepts, a string role and a string (or null) universe. The one description of
 * an entry: commands read entries with it (and skip any other entry, so it must not be written:
 * import refuses it), doctor reports the ones it refuses.
 */
export const registryEntrySchema = lazySchema(() =>
  mapping(
    v.object(
      {
        name: v.pipe(
          v.string(ENTRY_FIELD_PROBLEMS.name),
          v.check((name) => name.trim() !== '', ENTRY_FIELD_PROBLEMS.name),
        ),
        folder: v.pipe(
          v.string(ENTRY_FIELD_PROBLEMS.folder),
          v.check(
            (folder) => folderNameProblem(folder, '"folder"') === undefined,
            (issue) => folderProblem(issue.input as string),
          ),
        ),
        role: v.optional(v.string(ENTRY_FIELD_PROBLEMS.role), ''),
        universe: v.nullish(v.string(ENTRY_FIELD_PROBLEMS.universe), null),
      },
      (issue) => {
        const key = issue.path?.[issue.path.length - 1]?.key;
        return typeof key === 'string' && ENTRY_FIELD_PROBLEMS[key] !== undefined
          ? ENTRY_FIELD_PROBLEMS[key]
          : `it is ${jsonTypeName(issue.input)}, not {"name", "folder", "role", "universe"}`;
      },
    ),
  ),
);

/** What is wrong with a registry `members` entry (registryEntrySchema), every problem, or undefined. */
export function registryEntryProblem(entry: unknown): string | undefined {
  const problems = allProblems(registryEntrySchema(), entry);
  return problems.length === 0 ? undefined : problems.map((problem) => problem.message).join('; ');
}

function castEntry(value: unknown): CastEntry | undefined {
  const parsed = parseWith(registryEntrySchema(), value);
  return 'value' in parsed ? parsed.value : undefined;
}

/**
 * The members of an original Squad registry (`{ agents: { folder: { persistent_name, role?,
 * universe, … } } }`), in the map's order; [] when `raw` has no such map. Entries whose key makes
 * no folder name are left out.
 */
export function legacyRegistryMembers(raw: Record<string, unknown>): CastEntry[] {
  return legacyAgents(raw).map(({ entry }) => entry);
}

/** The folders an original Squad registry marks retired (`"status": "retired"`). */
export function legacyRetiredFolders(raw: Record<string, unknown>): string[] {
  return legacyAgents(raw)
    .filter(({ status }) => status === 'retired')
    .map(({ entry }) => entry.folder);
}

function legacyAgents(raw: Record<string, unknown>): { entry: CastEntry; status: string | undefined }[] {
  const agents = Object.hasOwn(raw, 'agents') ? raw.agents : undefined;
  if (!isMapping(agents)) return [];
  const members: { entry: CastEntry; status: string | undefined }[] = [];
  for (const [key, value] of Object.entries(agents)) {
    if (!isMapping(value)) continue;
    const folder = isValidName(key) ? key : slugify(key);
    if (!folder) continue;
    const entry = { name: nonEmptyString(value.persistent_name) ?? key, folder, role: nonEmptyString(value.role) ?? '', universe: nonEmptyString(value.universe) ?? null };
    members.push({ entry, status: nonEmptyString(value.status)?.toLowerCase() });
  }
  return members;
}

/**
 * The registry's text with the original Squad's `agents` entry of `folder` marked `status` (its
 * other fields, and every other entry, kept), so that the original's tools read retire and rehire
 * as create-squad does; undefined when there is no such entry or it is marked so already.
 */
export function withLegacyStatus(registry: CastingRead<CastingRegistry>, folder: string, status: 'active' | 'retired'): string | undefined {
  if (registry.state !== 'ok' || !isMapping(registry.raw.agents)) return undefined;
  const agents = registry.raw.agents;
  const key = Object.keys(agents).find((name) => (isValidName(name) ? name : slugify(name)) === folder);
  const entry = key === undefined ? undefined : agents[key];
  if (key === undefined || !isMapping(entry) || nonEmptyString(entry.status)?.toLowerCase() === status) return undefined;
  return serializeCasting({ ...registry.raw, agents: { ...agents, [key]: { ...entry, status } } });
}

/** The universes an original Squad history records using, oldest first (`universe_usage_history`). */
export function legacyUsedUniverses(raw: Record<string, unknown> | undefined): string[] {
  const usage = raw !== undefined && Array.isArray(raw.universe_usage_history) ? raw.universe_usage_history : [];
  return usage.flatMap((item) => (isMapping(item) && typeof item.universe === 'string' && item.universe.trim() !== '' ? [item.universe] : []));
}

/**
 * The universe a squad casts from, by what it recorded: the one most of its registry's members
 * come from (on a tie, the latest member's), else the last one its history used. Undefined when
 * neither says.
 */
export function usedUniverse(members: readonly CastEntry[], used: readonly string[] = []): string | undefined {
  const counts = new Map<string, number>();
  for (const member of members) if (member.universe !== null && member.universe.trim() !== '') counts.set(member.universe, (counts.get(member.universe) ?? 0) + 1);
  let best: string | undefined;
  for (const member of members) {
    const universe = member.universe;
    if (universe === null || !counts.has(universe)) continue;
    if (best === undefined || counts.get(universe)! >= counts.get(best)!) best = universe;
  }
  return best ?? used.at(-1);
}

/**
 * Universes the squad uses that create-squad does not ship: each one `defined` (a policy's
 * `custom_universes`) with its names, and each other universe of the registry's `members` with the
 * names recorded there. Matching ignores case, punctuation and a leading "The" (findUniverse).
 */
export function customUniverses(defined: readonly Universe[], members: readonly CastEntry[], catalogUniverses: readonly Universe[] = universes()): Universe[] {
  const custom = defined.filter((u) => findUniverse(u.name, catalogUniverses) === undefined).map((u) => ({ name: u.name, names: [...u.names] }));
  for (const member of members) {
    if (member.universe === null || findUniverse(member.universe, catalogUniverses) !== undefined) continue;
    let universe = findUniverse(member.universe, custom);
    if (universe === undefined) {
      universe = { name: member.universe, names: [] };
      custom.push(universe);
    }
    if (!universe.names.some((name) => name.toLowerCase() === member.name.toLowerCase())) universe.names.push(member.name);
  }
  return custom;
}

/** The `custom_universes` of a policy (`{ universe: [name…] }`), as universes; [] when there are none. */
function definedUniverses(raw: Record<string, unknown>): Universe[] {
  const defined = raw.custom_universes;
  if (!isMapping(defined)) return [];
  return Object.entries(defined).flatMap(([name, names]) =>
    name.trim() !== '' && Array.isArray(names) ? [{ name, names: stringList(names).filter((n) => n.trim() !== '') }] : [],
  );
}

/**
 * The policy of an original Squad `policy.json` (`allowlist_universes`, no `universe`): the
 * universe the registry's members (else the history) record (usedUniverse), a custom one included,
 * else the default; the allow-list's known universes, then every other universe, as overflow.
 * Undefined when `raw` has no allow-list.
 */
export function legacyPolicy(
  raw: Record<string, unknown>,
  members: readonly CastEntry[] = [],
  catalogUniverses: readonly Universe[] = universes(),
  used: readonly string[] = [],
): CastingPolicy | undefined {
  if (!Array.isArray(raw.allowlist_universes)) return undefined;
  const custom = customUniverses(definedUniverses(raw), members, catalogUniverses);
  const recorded = usedUniverse(members, used);
  const primary =
    (recorded === undefined ? undefined : (findUniverse(recorded, catalogUniverses) ?? findUniverse(recorded, custom))) ??
    findUniverse(defaultUniverseName(), catalogUniverses) ??
    catalogUniverses[0];
  if (!primary) return undefined;
  const allowed = raw.allowlist_universes.flatMap((name) => {
    const universe = typeof name === 'string' ? findUniverse(name, catalogUniverses) : undefined;
    return universe === undefined || universe.name === primary.name ? [] : [universe.name];
  });
  const others = catalogUniverses.map((u) => u.name).filter((name) => name !== primary.name);
  const capacities: Record<string, number> = {};
  for (const u of [primary, ...catalogUniverses]) capacities[u.name] ??= u.names.length;
  return {
    schema: CASTING_SCHEMA,
    universe: primary.name,
    overflow: [...new Set([...allowed, ...others])],
    capacities,
    ...(custom.length > 0 ? { custom } : {}),
  };
}

export interface PolicyParseOptions extends CastingParseOptions {
  /** The registry's members: their universes tell an original policy's universe, and custom universes' names. */
  members?: readonly CastEntry[];
  /** The universes the history records using, oldest first (legacyUsedUniverses). */
  used?: readonly string[];
}

export function parsePolicy(text: string, options: PolicyParseOptions = {}): CastingRead<CastingPolicy> {
  const parsed = parseObject(text);
  if ('reason' in parsed) return { state: 'invalid', reason: parsed.reason };
  const { raw } = parsed;
  if (typeof raw.universe !== 'string') {
    const legacy = options.legacy ? legacyPolicy(raw, options.members, universes(), options.used) : undefined;
    return legacy ? { state: 'ok', raw, text, value: legacy } : { state: 'invalid', reason: '"universe" is not a string' };
  }
  const overflow = stringList(raw.overflow);
  const capacities: Record<string, number> = {};
  if (isMapping(raw.capacities)) {
    for (const [name, count] of Object.entries(raw.capacities)) if (typeof count === 'number') capacities[name] = count;
  }
  const custom = customUniverses(definedUniverses(raw), options.members ?? []);
  const value: CastingPolicy = { schema: CASTING_SCHEMA, universe: raw.universe, overflow, capacities, ...(custom.length > 0 ? { custom } : {}) };
  return { state: 'ok', raw, text, value };
}

export function parseRegistry(text: string, options: CastingParseOptions = {}): CastingRead<CastingRegistry> {
  const parsed = parseObject(text);
  if ('reason' in parsed) return { state: 'invalid', reason: parsed.reason };
  const { raw } = parsed;
  const legacy = options.legacy ? legacyRegistryMembers(raw) : [];
  const hasLegacy = options.legacy === true && isMapping(raw.agents);
  if (!Array.isArray(raw.members) && !(hasLegacy && raw.members === undefined)) return { state: 'invalid', reason: '"members" is not a list' };
  const own = (Array.isArray(raw.members) ? raw.members : []).map(castEntry).filter((entry): entry is CastEntry => entry !== undefined);
  const ownFolders = new Set(own.map((m) => m.folder));
  const older = legacy.filter((m) => !ownFolders.has(m.folder));
  const retired = options.legacy ? legacyRetiredFolders(raw).filter((folder) => !ownFolders.has(folder)) : [];
  const value: CastingRegistry = { schema: CASTING_SCHEMA, members: [...older, ...own], legacy: older.map((m) => m.folder), ...(retired.length > 0 ? { retired } : {}) };
  return { state: 'ok', raw, text, value };
}

const LEGACY_HISTORY_KEYS = ['universe_usage_history', 'assignment_cast_snapshots'];

export function parseHistory(text: string, options: CastingParseOptions = {}): CastingRead<CastingHistory> {
  const parsed = parseObject(text);
  if ('reason' in parsed) return { state: 'invalid', reason: parsed.reason };
  const { raw } = parsed;
  const legacy = options.legacy === true && raw.events === undefined && LEGACY_HISTORY_KEYS.some((key) => Object.hasOwn(raw, key));
  if (!Array.isArray(raw.events) && !legacy) return { state: 'invalid', reason: '"events" is not a list' };
  // Events are a log: they are kept as they are, never interpreted beyond their count.
  return { state: 'ok', raw, text, value: { schema: CASTING_SCHEMA, events: (Array.isArray(raw.events) ? raw.events : []) as CastingEvent[] } };
}

export interface CastingState {
  policy: CastingRead<CastingPolicy>;
  registry: CastingRead<CastingRegistry>;
  history: CastingRead<CastingHistory>;
}

/** The squad's casting files, read defensively, in create-squad's shapes or the original Squad's. */
export function readCasting(root: string): CastingState {
  return castingFromTexts((relPath) => readTextIfExists(resolveIn(root, relPath)));
}

/** readCasting from the texts of the casting files (`textOf` gives undefined for a missing one). */
export function castingFromTexts(textOf: (relPath: string) => string | undefined): CastingState {
  const read = <T>(relPath: string, parse: (text: string) => CastingRead<T>): CastingRead<T> => {
    const text = textOf(relPath);
    return text === undefined ? { state: 'missing' } : parse(text);
  };
  const registry = read(squadPaths.castingRegistry, (text) => parseRegistry(text, { legacy: true }));
  const history = read(squadPaths.castingHistory, (text) => parseHistory(text, { legacy: true }));
  const members = registry.state === 'ok' ? registry.value.members : [];
  const used = history.state === 'ok' ? legacyUsedUniverses(history.raw) : [];
  return { policy: read(squadPaths.castingPolicy, (text) => parsePolicy(text, { legacy: true, members, used })), registry, history };
}

/** Stable JSON for the casting files: two-space indent, trailing newline. */
export function serializeCasting(value: object): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** A new registry or history text, or the existing one (unknown keys kept) with entries appended. */
export function appendCasting(existing: Record<string, unknown> | undefined, key: 'members' | 'events', added: readonly object[]): string {
  const base = existing ?? { schema: CASTING_SCHEMA };
  const list = Array.isArray(base[key]) ? (base[key] as unknown[]) : [];
  return serializeCasting({ ...base, [key]: [...list, ...added] });
}
