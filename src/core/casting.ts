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
 */
import fs from 'node:fs';
import { usageError } from './errors.js';
import { isValidName, slugify } from './names.js';
import { SCRIBE_AGENT, resolveIn, squadPaths } from './paths.js';
import { readTemplateJson } from './templates.js';
import { isMapping } from './util.js';

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
  members: CastEntry[];
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
      universes.push({ name: universe.name, names: universe.names.filter((name): name is string => typeof name === 'string') });
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

/**
 * The next free name for `role`. `taken` holds the folder names already in use (registry, roster,
 * existing folders, Scribe); the caller adds the result to it before casting again.
 */
export function nextCast(role: string, policy: CastingPolicy, taken: ReadonlySet<string>, catalogUniverses: readonly Universe[] = universes()): CastResult {
  const isFree = (folder: string) => isValidName(folder) && folder !== SCRIBE_AGENT && !taken.has(folder);
  const order = [policy.universe, ...policy.overflow.filter((name) => name !== policy.universe)];
  for (const universeName of order) {
    const universe = catalogUniverses.find((u) => u.name === universeName);
    if (!universe) continue;
    for (const name of universe.names) {
      const folder = slugify(name);
      if (!isFree(folder)) continue;
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
      if (isFree(folder)) {
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
export function castTeam(roles: readonly string[], policy: CastingPolicy, taken: ReadonlySet<string>, catalogUniverses: readonly Universe[] = universes()): CastResult[] {
  const used = new Set(taken);
  return roles.map((role) => {
    const result = nextCast(role, policy, used, catalogUniverses);
    used.add(result.entry.folder);
    return result;
  });
}

export function castingEvent(result: CastResult, at: Date): CastingEvent {
  return { at: at.toISOString(), event: result.event, ...result.entry, ...(result.note ? { note: result.note } : {}) };
}

// ---- reading and writing .ai-team/casting/ ----

/** A casting file: missing, unreadable as what it should be, or its value plus the raw object (unknown keys kept). */
export type CastingRead<T> =
  | { state: 'missing' }
  | { state: 'invalid'; reason: string }
  | { state: 'ok'; value: T; raw: Record<string, unknown> };

function parseObject(text: string): { raw: Record<string, unknown> } | { reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { reason: `not valid JSON (${(error as Error).message})` };
  }
  return isMapping(value) ? { raw: value } : { reason: 'not a JSON object' };
}

function castEntry(value: unknown): CastEntry | undefined {
  if (!isMapping(value)) return undefined;
  const { name, folder, role, universe } = value;
  if (typeof name !== 'string' || typeof folder !== 'string' || !isValidName(folder)) return undefined;
  return { name, folder, role: typeof role === 'string' ? role : '', universe: typeof universe === 'string' ? universe : null };
}

export function parsePolicy(text: string): CastingRead<CastingPolicy> {
  const parsed = parseObject(text);
  if ('reason' in parsed) return { state: 'invalid', reason: parsed.reason };
  const { raw } = parsed;
  if (typeof raw.universe !== 'string') return { state: 'invalid', reason: '"universe" is not a string' };
  const overflow = Array.isArray(raw.overflow) ? raw.overflow.filter((u): u is string => typeof u === 'string') : [];
  const capacities: Record<string, number> = {};
  if (isMapping(raw.capacities)) {
    for (const [name, count] of Object.entries(raw.capacities)) if (typeof count === 'number') capacities[name] = count;
  }
  return { state: 'ok', raw, value: { schema: CASTING_SCHEMA, universe: raw.universe, overflow, capacities } };
}

export function parseRegistry(text: string): CastingRead<CastingRegistry> {
  const parsed = parseObject(text);
  if ('reason' in parsed) return { state: 'invalid', reason: parsed.reason };
  const { raw } = parsed;
  if (!Array.isArray(raw.members)) return { state: 'invalid', reason: '"members" is not a list' };
  const members = raw.members.map(castEntry).filter((entry): entry is CastEntry => entry !== undefined);
  return { state: 'ok', raw, value: { schema: CASTING_SCHEMA, members } };
}

export function parseHistory(text: string): CastingRead<CastingHistory> {
  const parsed = parseObject(text);
  if ('reason' in parsed) return { state: 'invalid', reason: parsed.reason };
  const { raw } = parsed;
  if (!Array.isArray(raw.events)) return { state: 'invalid', reason: '"events" is not a list' };
  // Events are a log: they are kept as they are, never interpreted beyond their count.
  return { state: 'ok', raw, value: { schema: CASTING_SCHEMA, events: raw.events as CastingEvent[] } };
}

function readWith<T>(root: string, relPath: string, parse: (text: string) => CastingRead<T>): CastingRead<T> {
  let text: string;
  try {
    text = fs.readFileSync(resolveIn(root, relPath), 'utf8');
  } catch {
    return { state: 'missing' };
  }
  return parse(text);
}

export interface CastingState {
  policy: CastingRead<CastingPolicy>;
  registry: CastingRead<CastingRegistry>;
  history: CastingRead<CastingHistory>;
}

/** The squad's casting files, read defensively. */
export function readCasting(root: string): CastingState {
  return {
    policy: readWith(root, squadPaths.castingPolicy, parsePolicy),
    registry: readWith(root, squadPaths.castingRegistry, parseRegistry),
    history: readWith(root, squadPaths.castingHistory, parseHistory),
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
