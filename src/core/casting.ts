/**
 * Casting: members get persistent names from a fictional universe ("The Usual Suspects": Keaton,
 * Fenster, Hockney, …). The universes and their names are data (`templates/casting/universes.json`);
 * a squad keeps its casting state in `.ai-team/casting/`:
 *
 *   policy.json    { schema, universe, overflow: [universe…], capacities: { universe: names } }
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
 *   history.json   { universe_usage_history: […], assignment_cast_snapshots: {…} }
 */
import { usageError } from './errors.js';
import { readDirNames, readTextIfExists } from './fs-safe.js';
import { folderNameProblem, isValidName, slugify } from './names.js';
import { SCRIBE_AGENT, resolveIn, squadPaths } from './paths.js';
import type { RosterMember } from './roster.js';
import { readTemplateJson } from './templates.js';
import { isMapping, jsonTypeName, nonEmptyString, stringList } from './util.js';

export const UNIVERSES_DATA_FILE = 'casting/universes.json';
export const CASTING_SCHEMA = 1;
/** Scribe's roster name (its folder is SCRIBE_AGENT). */
export const SCRIBE_NAME = 'Scribe';

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

function loadCatalog(): UniverseCatalog {
  if (catalog) return catalog;
  const data = readTemplateJson(UNIVERSES_DATA_FILE);
  const universes: Universe[] = [];
  if (isMapping(data) && Array.isArray(data.universes)) {
    for (const universe of data.universes) {
      if (!isMapping(universe) || typeof universe.name !== 'string' || !Array.isArray(universe.names)) continue;
      universes.push({ name: universe.name, names: stringList(universe.names) });
    }
  }
  const defaultName = isMapping(data) && typeof data.default === 'string' ? data.default : (universes[0]?.name ?? '');
  catalog = { defaultName, universes };
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

/** A new squad's policy: the chosen universe, then every other one as overflow. */
export function createPolicy(universe: Universe, catalogUniverses: readonly Universe[] = universes()): CastingPolicy {
  const overflow = catalogUniverses.filter((u) => u.name !== universe.name);
  const capacities: Record<string, number> = {};
  for (const u of [universe, ...overflow]) capacities[u.name] = u.names.length;
  return { schema: CASTING_SCHEMA, universe: universe.name, overflow: overflow.map((u) => u.name), capacities };
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
  return {
    folders: new Set([SCRIBE_AGENT, ...members.map((m) => m.folder), ...readDirNames(resolveIn(root, squadPaths.agents))]),
    names: new Set([SCRIBE_NAME, ...members.map((m) => m.name)].map((name) => name.toLowerCase())),
  };
}

/** Roster rows as cast members, Scribe left out: the names are kept, recorded as `adopted`. */
export function adoptRoster(roster: readonly RosterMember[]): CastResult[] {
  return roster
    .filter((m) => m.name !== SCRIBE_AGENT)
    .map((m) => ({ entry: { name: m.displayName, folder: m.name, role: m.role, universe: null }, event: 'adopted' }));
}

/**
 * The next free name for `role`: one whose folder and name are not `taken`; the caller adds the
 * result to it before casting again.
 */
export function nextCast(role: string, policy: CastingPolicy, taken: Taken, catalogUniverses: readonly Universe[] = universes()): CastResult {
  const isFree = (name: string, folder: string) =>
    folderNameProblem(folder) === undefined && folder !== SCRIBE_AGENT && !taken.folders.has(folder) && !taken.names.has(name.toLowerCase());
  const order = [policy.universe, ...policy.overflow.filter((name) => name !== policy.universe)];
  for (const universeName of order) {
    const universe = catalogUniverses.find((u) => u.name === universeName);
    if (!universe) continue;
    for (const name of universe.names) {
      const folder = slugify(name);
      if (!isFree(name, folder)) continue;
      const entry = { name, folder, role, universe: universe.name };
      if (universe.name === policy.universe) return { entry, event: 'cast' };
      return {
        entry,
        event: 'overflow',
        note: `"${policy.universe}" has no free name left (capacity ${policy.capacities[policy.universe] ?? 0}); cast from "${universe.name}"`,
      };
    }
  }
  // Every universe is out of names: number the primary universe's names ("Keaton 2", "Fenster 2", …).
  const bases = catalogUniverses.find((u) => u.name === policy.universe)?.names ?? [];
  const pool = bases.length > 0 ? bases : ['Agent'];
  for (let round = 2; ; round += 1) {
    for (const base of pool) {
      const name = `${base} ${round}`;
      const folder = slugify(name);
      if (isFree(name, folder)) {
        return {
          entry: { name, folder, role, universe: policy.universe },
          event: 'overflow',
          note: 'every universe of the casting policy is out of names; numbered name',
        };
      }
    }
  }
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
export type CastingRead<T> =
  | { state: 'missing' }
  | { state: 'invalid'; reason: string }
  | { state: 'ok'; value: T; raw: Record<string, unknown>; text: string };

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

/**
 * What is wrong with a registry `members` entry, or undefined. An entry is `{name, folder, role?,
 * universe?}`: a non-empty name, a folder name folderNameProblem accepts, a string role and a
 * string (or null) universe; commands skip any other entry without a word, so it must not be
 * written (import refuses it).
 */
export function registryEntryProblem(entry: unknown): string | undefined {
  if (!isMapping(entry)) return `it is ${jsonTypeName(entry)}, not {"name", "folder", "role", "universe"}`;
  const problems: string[] = [];
  if (typeof entry.name !== 'string' || entry.name.trim() === '') problems.push('"name" is not a non-empty string');
  if (typeof entry.folder !== 'string') problems.push('"folder" is not a string');
  else {
    const folder = folderNameProblem(entry.folder, '"folder"');
    if (folder) problems.push(folder);
  }
  if (entry.role !== undefined && typeof entry.role !== 'string') problems.push('"role" is not a string');
  if (entry.universe !== undefined && entry.universe !== null && typeof entry.universe !== 'string') problems.push('"universe" is neither a string nor null');
  return problems.length === 0 ? undefined : problems.join('; ');
}

function castEntry(value: unknown): CastEntry | undefined {
  if (!isMapping(value)) return undefined;
  const { name, folder, role, universe } = value;
  if (typeof name !== 'string' || typeof folder !== 'string' || !isValidName(folder)) return undefined;
  return { name, folder, role: typeof role === 'string' ? role : '', universe: typeof universe === 'string' ? universe : null };
}

/**
 * The members of an original Squad registry (`{ agents: { folder: { persistent_name, role?,
 * universe, … } } }`), in the map's order; [] when `raw` has no such map. Entries whose key makes
 * no folder name are left out.
 */
export function legacyRegistryMembers(raw: Record<string, unknown>): CastEntry[] {
  const agents = Object.hasOwn(raw, 'agents') ? raw.agents : undefined;
  if (!isMapping(agents)) return [];
  const members: CastEntry[] = [];
  for (const [key, value] of Object.entries(agents)) {
    if (!isMapping(value)) continue;
    const folder = isValidName(key) ? key : slugify(key);
    if (!folder) continue;
    members.push({ name: nonEmptyString(value.persistent_name) ?? key, folder, role: nonEmptyString(value.role) ?? '', universe: nonEmptyString(value.universe) ?? null });
  }
  return members;
}

/**
 * The policy of an original Squad `policy.json` (`allowlist_universes`, no `universe`): its first
 * universe create-squad knows, else the first known universe of `members` (the registry's), else the
 * default; the rest of the allow-list, then every other universe, as overflow. Undefined when `raw`
 * has no allow-list.
 */
export function legacyPolicy(raw: Record<string, unknown>, members: readonly CastEntry[] = [], catalogUniverses: readonly Universe[] = universes()): CastingPolicy | undefined {
  if (!Array.isArray(raw.allowlist_universes)) return undefined;
  const known = (names: readonly unknown[]) =>
    names.flatMap((name) => (typeof name === 'string' ? [findUniverse(name, catalogUniverses)] : [])).filter((u): u is Universe => u !== undefined);
  const allowed = known(raw.allowlist_universes);
  const primary = allowed[0] ?? known(members.map((m) => m.universe))[0] ?? findUniverse(defaultUniverseName(), catalogUniverses) ?? catalogUniverses[0];
  if (!primary) return undefined;
  const policy = createPolicy(primary, catalogUniverses);
  const first = allowed.map((u) => u.name).filter((name) => name !== primary.name);
  return { ...policy, overflow: [...new Set([...first, ...policy.overflow])] };
}

export function parsePolicy(text: string, options: CastingParseOptions & { members?: readonly CastEntry[] } = {}): CastingRead<CastingPolicy> {
  const parsed = parseObject(text);
  if ('reason' in parsed) return { state: 'invalid', reason: parsed.reason };
  const { raw } = parsed;
  if (typeof raw.universe !== 'string') {
    const legacy = options.legacy ? legacyPolicy(raw, options.members) : undefined;
    return legacy ? { state: 'ok', raw, text, value: legacy } : { state: 'invalid', reason: '"universe" is not a string' };
  }
  const overflow = stringList(raw.overflow);
  const capacities: Record<string, number> = {};
  if (isMapping(raw.capacities)) {
    for (const [name, count] of Object.entries(raw.capacities)) if (typeof count === 'number') capacities[name] = count;
  }
  return { state: 'ok', raw, text, value: { schema: CASTING_SCHEMA, universe: raw.universe, overflow, capacities } };
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
  return { state: 'ok', raw, text, value: { schema: CASTING_SCHEMA, members: [...older, ...own], legacy: older.map((m) => m.folder) } };
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
  const read = <T>(relPath: string, parse: (text: string) => CastingRead<T>): CastingRead<T> => {
    const text = readTextIfExists(resolveIn(root, relPath));
    return text === undefined ? { state: 'missing' } : parse(text);
  };
  const registry = read(squadPaths.castingRegistry, (text) => parseRegistry(text, { legacy: true }));
  const members = registry.state === 'ok' ? registry.value.members : [];
  return {
    policy: read(squadPaths.castingPolicy, (text) => parsePolicy(text, { legacy: true, members })),
    registry,
    history: read(squadPaths.castingHistory, (text) => parseHistory(text, { legacy: true })),
  };
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
