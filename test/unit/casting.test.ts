import { afterAll, describe, expect, it } from 'vitest';
import {
  adoptRoster,
  appendCasting,
  castTeam,
  createPolicy,
  defaultUniverseName,
  findUniverse,
  legacyPolicy,
  legacyRegistryMembers,
  legacyUsedUniverses,
  nextCast,
  parseHistory,
  parsePolicy,
  parseRegistry,
  policyFromRecords,
  registryEntryProblem,
  resolveUniverse,
  serializePolicy,
  takenNames,
  universes,
  usedUniverse,
  type Taken,
  type Universe,
} from '../../src/core/roster/casting.js';
import { SquadError } from '../../src/core/base/errors.js';
import { isValidName, slugify } from '../../src/core/base/names.js';
import { SCRIBE_AGENT } from '../../src/core/base/paths.js';
import { parseRoster } from '../../src/core/roster/roster.js';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

describe('the universes data file', () => {
  it('has several universes, each with enough valid, distinct names', () => {
    const all = universes();
    expect(all.length).toBeGreaterThanOrEqual(6);
    expect(new Set(all.map((u) => u.name)).size).toBe(all.length);
    for (const universe of all) {
      expect(universe.names.length, universe.name).toBeGreaterThanOrEqual(12);
      const folders = universe.names.map((name) => slugify(name));
      expect(folders.every(isValidName), universe.name).toBe(true);
      expect(new Set(folders).size, universe.name).toBe(folders.length);
      expect(folders, universe.name).not.toContain(SCRIBE_AGENT);
    }
    expect(all.reduce((sum, u) => sum + u.names.length, 0)).toBeGreaterThanOrEqual(100);
  });

  it('makes The Usual Suspects the default', () => {
    expect(defaultUniverseName()).toBe('The Usual Suspects');
    const suspects = resolveUniverse(undefined);
    expect(suspects.names.slice(0, 9)).toEqual(['Keaton', 'Fenster', 'Hockney', 'McManus', 'Verbal', 'Kobayashi', 'Kujan', 'Redfoot', 'Edie']);
  });
});

describe('resolveUniverse', () => {
  it('matches case, punctuation and a leading "The" loosely', () => {
    expect(findUniverse('the usual suspects')?.name).toBe('The Usual Suspects');
    expect(findUniverse('Usual Suspects')?.name).toBe('The Usual Suspects');
    expect(findUniverse('oceans eleven')?.name).toBe("Ocean's Eleven");
    expect(findUniverse('')).toBeUndefined();
  });

  it('rejects an unknown universe with a usage error listing the universes', () => {
    let error: unknown;
    try {
      resolveUniverse('Narnia');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SquadError);
    expect((error as SquadError).code).toBe('usage');
    expect((error as SquadError).message).toContain('Narnia');
    expect((error as SquadError).hint).toContain('"The Usual Suspects"');
    expect((error as SquadError).hint).toContain('"Firefly"');
  });
});

/** Taken folders only. */
const folders = (...taken: string[]): Taken => ({ folders: new Set(taken), names: new Set() });

const tiny: Universe[] = [
  { name: 'Small', names: ['Alpha', 'Beta'] },
  { name: 'Spare', names: ['Gamma'] },
];

describe('casting', () => {
  it('records the universe, the overflow order and the capacities in a new policy', () => {
    expect(createPolicy(tiny[0]!, tiny)).toEqual({ schema: 1, universe: 'Small', overflow: ['Spare'], capacities: { Small: 2, Spare: 1 } });
  });

  it('casts names in order, skipping names already taken', () => {
    const policy = createPolicy(tiny[0]!, tiny);
    const cast = castTeam(['Lead', 'Dev'], policy, folders('alpha'), tiny);
    expect(cast.map((c) => [c.entry.name, c.entry.folder, c.entry.role, c.event])).toEqual([
      ['Beta', 'beta', 'Lead', 'cast'],
      ['Gamma', 'gamma', 'Dev', 'overflow'],
    ]);
    expect(cast[1]!.note).toMatch(/"Small" has no free name left \(capacity 2\); cast from "Spare"/);
  });

  it('falls back to numbered names when every universe is out of names', () => {
    const policy = createPolicy(tiny[0]!, tiny);
    const cast = castTeam(['A', 'B', 'C', 'D', 'E', 'F'], policy, folders(), tiny);
    expect(cast.map((c) => c.entry.name)).toEqual(['Alpha', 'Beta', 'Gamma', 'Alpha 2', 'Beta 2', 'Alpha 3']);
    expect(cast.map((c) => c.entry.folder)).toEqual(['alpha', 'beta', 'gamma', 'alpha-2', 'beta-2', 'alpha-3']);
    expect(cast.slice(3).every((c) => c.event === 'overflow' && /numbered/.test(c.note ?? ''))).toBe(true);
    expect(new Set(cast.map((c) => c.entry.folder)).size).toBe(6);
  });

  it('is deterministic and never hands out Scribe or a taken folder', () => {
    const policy = createPolicy(resolveUniverse(undefined));
    const taken = folders('keaton', 'hockney', SCRIBE_AGENT);
    const a = castTeam(['Lead', 'Dev', 'Tester'], policy, taken);
    const b = castTeam(['Lead', 'Dev', 'Tester'], policy, taken);
    expect(a).toEqual(b);
    expect(a.map((c) => c.entry.name)).toEqual(['Fenster', 'McManus', 'Verbal']);
    expect(taken.folders.size).toBe(3); // castTeam does not change its input
  });

  it('skips policy universes the catalog does not know', () => {
    const policy = { schema: 1, universe: 'Gone', overflow: ['Spare'], capacities: {} };
    expect(nextCast('Lead', policy, folders(), tiny).entry).toEqual({ name: 'Gamma', folder: 'gamma', role: 'Lead', universe: 'Spare' });
  });

  it('casts a large team from the real catalog with unique folders', () => {
    const policy = createPolicy(resolveUniverse('The Usual Suspects'));
    const cast = castTeam(
      Array.from({ length: 40 }, (_, i) => `Role ${i}`),
      policy,
      folders(SCRIBE_AGENT),
    );
    expect(new Set(cast.map((c) => c.entry.folder)).size).toBe(40);
    expect(cast.filter((c) => c.event === 'cast')).toHaveLength(15);
    expect(cast[15]!.entry.universe).toBe("Ocean's Eleven");
  });
});

describe('casting files', () => {
  it('parses valid files and reports invalid ones', () => {
    expect(parsePolicy('{"universe": "Firefly"}')).toMatchObject({ state: 'ok', value: { universe: 'Firefly', overflow: [], capacities: {} } });
    expect(parsePolicy('{"universe": 3}')).toMatchObject({ state: 'invalid' });
    expect(parsePolicy('nope')).toMatchObject({ state: 'invalid', reason: expect.stringContaining('not valid JSON') });
    expect(parseRegistry('[]')).toMatchObject({ state: 'invalid', reason: 'not a JSON object' });
    expect(parseRegistry('{"members": {}}')).toMatchObject({ state: 'invalid' });
    expect(parseHistory('{"events": []}')).toMatchObject({ state: 'ok' });
  });

  it('keeps registry entries it can read and drops broken ones', () => {
    const read = parseRegistry('{"members": [{"name": "Keaton", "folder": "keaton", "role": "Lead"}, {"name": "X", "folder": "../x"}, 5]}');
    expect(read.state === 'ok' && read.value.members).toEqual([{ name: 'Keaton', folder: 'keaton', role: 'Lead', universe: null }]);
  });

  it('says what is wrong with a registry entry commands would skip', () => {
    expect(registryEntryProblem({ name: 'Keaton', folder: 'keaton', role: 'Lead', universe: null })).toBeUndefined();
    expect(registryEntryProblem({ name: 'Keaton', folder: 'keaton' })).toBeUndefined();
    expect(registryEntryProblem(5)).toBe('it is a number, not {"name", "folder", "role", "universe"}');
    expect(registryEntryProblem({ name: 3, folder: '../x', role: [], universe: 1 })).toBe(
      '"name" is not a non-empty string; "folder" "../x" may only contain lowercase letters a-z, digits and hyphens (a folder name is lowercase a-z, 0-9 and hyphens, such as "x"); "role" is not a string; "universe" is neither a string nor null',
    );
    expect(registryEntryProblem({ name: 'Con', folder: 'con' })).toBe('"folder" "con" is a device name Windows reserves');
  });

  it('appends entries, keeping unknown keys and existing entries as they are', () => {
    const raw = { schema: 1, note: 'kept', members: [{ name: 'Old', folder: 'old', custom: true }] };
    const text = appendCasting(raw, 'members', [{ name: 'New', folder: 'new', role: 'Dev', universe: null }]);
    expect(JSON.parse(text)).toEqual({ ...raw, members: [...raw.members, { name: 'New', folder: 'new', role: 'Dev', universe: null }] });
    expect(text.endsWith('}\n')).toBe(true);
    expect(JSON.parse(appendCasting(undefined, 'events', []))).toEqual({ schema: 1, events: [] });
  });
});

describe('names already taken', () => {
  it('skips a name the roster uses under another folder', () => {
    const policy = createPolicy(tiny[0]!, tiny);
    const taken: Taken = { folders: new Set(['someone']), names: new Set(['alpha']) };
    expect(nextCast('Dev', policy, taken, tiny).entry.name).toBe('Beta');
    expect(castTeam(['A', 'B'], policy, taken, tiny).map((c) => c.entry.name)).toEqual(['Beta', 'Gamma']);
  });

  it('takes Scribe, the members given and every folder under agents/', () => {
    const root = tempDir();
    writeFiles(root, { '.ai-team/agents/stray/notes.md': 'x' });
    const taken = takenNames(root, [{ folder: 'designer-one', name: 'McManus' }]);
    expect([...taken.folders].sort()).toEqual(['designer-one', SCRIBE_AGENT, 'stray']);
    expect([...taken.names].sort()).toEqual(['mcmanus', 'scribe']);
  });

  it('adopts roster rows, Scribe left out, keeping their names', () => {
    const roster = parseRoster('| Name | Role |\n|---|---|\n| Ann | Dev |\n| Scribe | Session Logger |\n');
    expect(adoptRoster(roster)).toEqual([{ entry: { name: 'Ann', folder: 'ann', role: 'Dev', universe: null }, event: 'adopted' }]);
  });
});

describe("the original Squad's casting files", () => {
  const registry = JSON.stringify({
    agents: {
      keaton: { persistent_name: 'Keaton', role: 'Lead', universe: 'The Usual Suspects', status: 'active' },
      Trinity: { persistent_name: 'Trinity', universe: 'The Matrix' },
      broken: 'x',
    },
  });

  it('are invalid unless asked for, so a reader that does not know them never misreads them', () => {
    expect(parseRegistry(registry)).toMatchObject({ state: 'invalid' });
    expect(parsePolicy('{"allowlist_universes": ["Firefly"]}')).toMatchObject({ state: 'invalid' });
    expect(parseHistory('{"universe_usage_history": []}')).toMatchObject({ state: 'invalid' });
  });

  it('read members from the agents map, before the members list, each folder once', () => {
    const read = parseRegistry(registry, { legacy: true });
    expect(read.state === 'ok' && read.value).toEqual({
      schema: 1,
      members: [
        { name: 'Keaton', folder: 'keaton', role: 'Lead', universe: 'The Usual Suspects' },
        { name: 'Trinity', folder: 'trinity', role: '', universe: 'The Matrix' },
      ],
      legacy: ['keaton', 'trinity'],
    });
    const both = parseRegistry(
      JSON.stringify({
        ...JSON.parse(registry),
        members: [
          { name: 'Keaton', folder: 'keaton', role: 'Lead', universe: null },
          { name: 'New', folder: 'new', role: 'Dev', universe: null },
        ],
      }),
      { legacy: true },
    );
    expect(both.state === 'ok' && both.value.members.map((m) => `${m.folder}:${m.universe}`)).toEqual(['trinity:The Matrix', 'keaton:null', 'new:null']);
    expect(both.state === 'ok' && both.value.legacy).toEqual(['trinity']);
    expect(parseRegistry('{"agents": {}, "members": {}}', { legacy: true })).toMatchObject({ state: 'invalid' });
    expect(legacyRegistryMembers({ members: [] })).toEqual([]);
  });

  it('take the universe the registry records, else the history, else the default; the allow-list only orders the overflow', () => {
    const allow = parsePolicy('{"casting_policy_version": "1.1", "allowlist_universes": ["A Universe Nobody Ships", "firefly", "Alien"], "universe_capacity": {}}', {
      legacy: true,
    });
    expect(allow.state === 'ok' && allow.value.universe).toBe(defaultUniverseName());
    expect(allow.state === 'ok' && allow.value.overflow.slice(0, 2)).toEqual(['Firefly', 'Alien']);
    const members = [
      { name: 'Neo', folder: 'neo', role: 'Lead', universe: 'The Matrix' },
      { name: 'Mal', folder: 'mal', role: 'Dev', universe: 'Firefly' },
      { name: 'Tank', folder: 'tank', role: 'Ops', universe: 'The Matrix' },
    ];
    const fromMembers = parsePolicy('{"allowlist_universes": ["The Usual Suspects", "Firefly"]}', { legacy: true, members });
    expect(fromMembers.state === 'ok' && fromMembers.value.universe).toBe('The Matrix');
    const fromHistory = parsePolicy('{"allowlist_universes": ["The Usual Suspects"]}', { legacy: true, used: ['Firefly', 'Alien'] });
    expect(fromHistory.state === 'ok' && fromHistory.value.universe).toBe('Alien');
    const fallback = parsePolicy('{"allowlist_universes": []}', { legacy: true });
    expect(fallback.state === 'ok' && fallback.value.universe).toBe(defaultUniverseName());
    expect(legacyPolicy({ universe: 'x' })).toBeUndefined();
  });

  it("accept a custom universe: named by the registry, names from the policy and the registry, then numbered names of it (never another universe's)", () => {
    const members = [
      { name: 'Raynor', folder: 'raynor', role: 'Lead', universe: 'StarCraft' },
      { name: 'Kerrigan', folder: 'kerrigan', role: 'Dev', universe: 'StarCraft' },
    ];
    const policy = parsePolicy('{"allowlist_universes": ["Alien"], "custom_universes": {"StarCraft": ["Raynor", "Tassadar"]}}', { legacy: true, members });
    expect(policy.state).toBe('ok');
    if (policy.state !== 'ok') return;
    expect(policy.value.universe).toBe('StarCraft');
    expect(policy.value.custom).toEqual([{ name: 'StarCraft', names: ['Raynor', 'Tassadar', 'Kerrigan'] }]);
    const taken = { folders: new Set(['raynor', 'kerrigan']), names: new Set(['raynor', 'kerrigan']) };
    expect(nextCast('Tester', policy.value, taken)).toMatchObject({ entry: { name: 'Tassadar', universe: 'StarCraft' }, event: 'cast' });
    const full = { folders: new Set([...taken.folders, 'tassadar']), names: new Set([...taken.names, 'tassadar']) };
    const next = nextCast('Tester', policy.value, full);
    expect(next).toMatchObject({ entry: { name: 'Raynor 2', folder: 'raynor-2', universe: 'StarCraft' }, event: 'overflow' });
    expect(next.note).toMatch(/^"StarCraft" is the team's own universe and has no free name left \(3 known\): numbered name; give one of your own with --name/);
    const team = castTeam(['A', 'B', 'C'], policy.value, full);
    expect(team.map((r) => r.entry.name)).toEqual(['Raynor 2', 'Tassadar 2', 'Kerrigan 2']);
    expect(policyFromRecords(members)).toMatchObject({ universe: 'StarCraft', custom: [{ name: 'StarCraft', names: ['Raynor', 'Kerrigan'] }] });
    expect(JSON.parse(serializePolicy(policyFromRecords(members)))).not.toHaveProperty('custom');
    const own = parsePolicy('{"universe": "StarCraft", "overflow": [], "capacities": {}}', { members });
    expect(own.state === 'ok' && own.value.custom).toEqual([{ name: 'StarCraft', names: ['Raynor', 'Kerrigan'] }]);
  });

  it('mark retired members of the agents map, and read the universes the history used', () => {
    const read = parseRegistry(
      JSON.stringify({ agents: { ash: { persistent_name: 'Ash', universe: 'Alien', status: 'retired' }, kane: { persistent_name: 'Kane', universe: 'Alien', status: 'active' } } }),
      { legacy: true },
    );
    expect(read.state === 'ok' && read.value.retired).toEqual(['ash']);
    expect(legacyUsedUniverses({ universe_usage_history: [{ universe: 'Alien' }, { nope: 1 }, { universe: 'Firefly' }] })).toEqual(['Alien', 'Firefly']);
    expect(
      usedUniverse([
        { name: 'A', folder: 'a', role: '', universe: 'Alien' },
        { name: 'B', folder: 'b', role: '', universe: 'Firefly' },
      ]),
    ).toBe('Firefly');
  });

  it('accept a history without events, and append events beside what it has', () => {
    const text = '{"universe_usage_history": [{"universe": "Alien"}], "assignment_cast_snapshots": {}}';
    const read = parseHistory(text, { legacy: true });
    expect(read).toMatchObject({ state: 'ok', value: { events: [] }, text });
    const appended = JSON.parse(appendCasting(read.state === 'ok' ? read.raw : undefined, 'events', [{ at: 'now' }]));
    expect(appended).toEqual({ universe_usage_history: [{ universe: 'Alien' }], assignment_cast_snapshots: {}, events: [{ at: 'now' }] });
    expect(parseHistory('{"events": 3}', { legacy: true })).toMatchObject({ state: 'invalid' });
    expect(parseHistory('{}', { legacy: true })).toMatchObject({ state: 'invalid' });
  });
});
