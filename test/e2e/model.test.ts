/** Each member on its model: hire --model, model, members, the agents' frontmatter, original squads' models. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { charterPath, squadPaths } from '../../src/core/base/paths.js';
import { memberProfilePath } from '../../src/core/squad/agents/member-profile.js';
import { parse as parseYaml } from 'yaml';
import { SQUAD_CONFIG_PATH } from '../../src/core/roster/models.js';
import type { MembersData } from '../../src/commands/members.js';
import type { ModelData } from '../../src/commands/model.js';
import type { HireData } from '../../src/commands/hire.js';
import { cleanupTempDirs, hashTree, initSquad, runCli, runOk, tempRepo, writeFiles } from '../helpers/cli.js';
import { HAS_ORIGINAL_DATA, noteMissingData, originalExport, upgradedOriginalSquad, type OriginalSquadName } from '../helpers/original-data.js';

afterAll(cleanupTempDirs);

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');
const json = (root: string, rel: string) => JSON.parse(read(root, rel)) as Record<string, unknown>;

/** The `model` a member's agent declares in its frontmatter (undefined: none). */
function agentModel(root: string, folder: string): unknown {
  const head = /^---\n([\s\S]*?)\n---\n/.exec(read(root, memberProfilePath(folder)));
  if (!head) throw new Error(`${folder}'s agent has no frontmatter`);
  return (parseYaml(head[1]!) as Record<string, unknown>).model;
}

function registryEntry(root: string, folder: string): Record<string, unknown> | undefined {
  const members = json(root, squadPaths.castingRegistry).members as Record<string, unknown>[];
  return members.findLast((m) => m.folder === folder);
}

async function members(root: string): Promise<MembersData['members']> {
  return (await runOk(root, ['members', '--json'])).data<MembersData>().members;
}

async function doctorClean(root: string): Promise<void> {
  const result = await runCli(['doctor', '--json'], { cwd: root });
  const findings = result.data<{ findings: { code: string; path?: string }[] }>().findings.filter((f) => /agent|profile|casting/i.test(f.code));
  expect(findings).toEqual([]);
}

describe('hire --model and model', () => {
  it('hire --model records the list in the registry and writes it into the agent; members shows it', async () => {
    const root = await initSquad(['--yes']);
    const hired = (await runOk(root, ['hire', 'devops', '--model', 'claude-sonnet-4.5', 'gpt-5', '--json'])).data<HireData>();
    expect(hired.models).toEqual(['claude-sonnet-4.5', 'gpt-5']);
    const folder = hired.member.folder;
    expect(registryEntry(root, folder)).toMatchObject({ folder, model: ['claude-sonnet-4.5', 'gpt-5'] });
    expect(agentModel(root, folder)).toEqual(['claude-sonnet-4.5', 'gpt-5']);
    // Nobody else got a model: unset means the session's.
    expect(agentModel(root, 'keaton')).toBeUndefined();
    const listed = await members(root);
    expect(listed.find((m) => m.folder === folder)?.model).toEqual({ models: ['claude-sonnet-4.5', 'gpt-5'], effort: null, source: 'member' });
    expect(listed.find((m) => m.folder === 'keaton')?.model).toEqual({ models: [], effort: null, source: 'session' });
    const text = (await runOk(root, ['members'])).stdout;
    expect(text).toMatch(/MODEL/);
    expect(text).toContain('claude-sonnet-4.5, then gpt-5');
    expect(text).toContain('session model');
    await doctorClean(root);
  });

  it('model sets, changes the effort of, and clears a member, refreshing its agent each time', async () => {
    const root = await initSquad(['--yes']);
    const set = (await runOk(root, ['model', 'fenster', 'gpt-5', '--json'])).data<ModelData>();
    expect(set.from).toEqual({ models: [], effort: null, source: 'session' });
    expect(set.to).toEqual({ models: ['gpt-5'], effort: null, source: 'member' });
    expect(set.changes.replaced).toEqual(expect.arrayContaining([squadPaths.castingRegistry, memberProfilePath('fenster')]));
    expect(agentModel(root, 'fenster')).toBe('gpt-5');

    const effort = (await runOk(root, ['model', 'Fenster', '--effort', 'high', '--json'])).data<ModelData>();
    expect(effort.to).toEqual({ models: ['gpt-5'], effort: 'high', source: 'member' });
    expect(registryEntry(root, 'fenster')).toMatchObject({ model: 'gpt-5', reasoningEffort: 'high' });

    // The same again: nothing to do, nothing written.
    const before = hashTree(root);
    const again = (await runOk(root, ['model', 'fenster', 'gpt-5', '--json'])).data<ModelData>();
    expect(again.changes.replaced).toEqual([]);
    expect(hashTree(root)).toEqual(before);

    // The Scribe too: an entry is added for it, and hiring goes on casting as before.
    await runOk(root, ['model', 'scribe', 'claude-haiku-4.5']);
    expect(registryEntry(root, 'scribe')).toMatchObject({ name: 'Scribe', folder: 'scribe', model: 'claude-haiku-4.5' });
    expect(agentModel(root, 'scribe')).toBe('claude-haiku-4.5');
    const hired = (await runOk(root, ['hire', 'devops', '--json'])).data<HireData>();
    expect(hired.casting).toBe('cast');
    await doctorClean(root);

    const cleared = (await runOk(root, ['model', 'fenster', '--clear', '--json'])).data<ModelData>();
    expect(cleared.to).toEqual({ models: [], effort: null, source: 'session' });
    expect(registryEntry(root, 'fenster')).not.toHaveProperty('model');
    expect(registryEntry(root, 'fenster')).not.toHaveProperty('reasoningEffort');
    expect(agentModel(root, 'fenster')).toBeUndefined();
    await doctorClean(root);
  });

  it('a model written into the registry by hand: doctor says the agent is stale, upgrade brings it in step', async () => {
    const root = await initSquad(['--yes']);
    const registry = json(root, squadPaths.castingRegistry) as { members: Record<string, unknown>[] };
    registry.members = registry.members.map((m) => (m.folder === 'hockney' ? { ...m, model: 'gpt-5-mini' } : m));
    writeFiles(root, { [squadPaths.castingRegistry]: `${JSON.stringify(registry, null, 2)}\n` });
    const doctor = (await runCli(['doctor', '--json'], { cwd: root })).data<{ findings: { code: string; path?: string }[] }>();
    expect(doctor.findings).toContainEqual(expect.objectContaining({ code: 'copilot-agent-stale', path: memberProfilePath('hockney') }));
    const upgraded = (await runOk(root, ['upgrade', '--json'])).data<{ changes: { replaced: string[] } }>();
    expect(upgraded.changes.replaced).toContain(memberProfilePath('hockney'));
    expect(agentModel(root, 'hockney')).toBe('gpt-5-mini');
    await doctorClean(root);
  });

  it('--dry-run writes nothing and reports the same changes as the run', async () => {
    const root = await initSquad(['--yes']);
    const before = hashTree(root);
    const dry = (await runOk(root, ['model', 'hockney', 'gpt-5', '--dry-run', '--json'])).data<ModelData>();
    expect(hashTree(root)).toEqual(before);
    const real = (await runOk(root, ['model', 'hockney', 'gpt-5', '--json'])).data<ModelData>();
    expect(dry.changes).toEqual(real.changes);
    expect(dry.dryRun).toBe(true);
  });

  it('--default sets the squad default in config.json, keeping its other keys; members without their own inherit it', async () => {
    const root = await initSquad(['--yes']);
    writeFiles(root, { [SQUAD_CONFIG_PATH]: '{"version": 1, "teamRoot": "."}\n' });
    await runOk(root, ['model', 'keaton', 'gpt-5']);
    const result = (await runOk(root, ['model', '--default', 'claude-sonnet-4.5', '--effort', 'medium', '--json'])).data<ModelData>();
    expect(result.member).toBeNull();
    expect(result.to).toEqual({ models: ['claude-sonnet-4.5'], effort: 'medium', source: 'squad' });
    expect(json(root, SQUAD_CONFIG_PATH)).toEqual({ version: 1, teamRoot: '.', model: 'claude-sonnet-4.5', reasoningEffort: 'medium' });
    expect(agentModel(root, 'fenster')).toBe('claude-sonnet-4.5');
    expect(agentModel(root, 'keaton')).toBe('gpt-5');
    const listed = await members(root);
    expect(listed.find((m) => m.folder === 'fenster')?.model).toEqual({ models: ['claude-sonnet-4.5'], effort: 'medium', source: 'squad' });
    // A member hired now inherits the default in its agent, with nothing recorded of its own.
    const hired = (await runOk(root, ['hire', 'devops', '--json'])).data<HireData>();
    expect(agentModel(root, hired.member.folder)).toBe('claude-sonnet-4.5');
    expect(registryEntry(root, hired.member.folder)).not.toHaveProperty('model');
    await doctorClean(root);

    await runOk(root, ['model', '--default', '--clear']);
    expect(json(root, SQUAD_CONFIG_PATH)).toEqual({ version: 1, teamRoot: '.' });
    expect(agentModel(root, 'fenster')).toBeUndefined();
    expect(agentModel(root, 'keaton')).toBe('gpt-5');
  });

  it('refuses a bad model name, a bad effort and contradictions as usage errors, writing nothing', async () => {
    const root = await initSquad(['--yes']);
    const before = hashTree(root);
    for (const args of [
      ['model', 'fenster', 'gpt 5'],
      ['model', 'fenster', 'x'.repeat(101)],
      ['model', 'fenster', 'gpt-5', 'gpt-5'],
      ['model', 'fenster', '--effort', 'extreme'],
      ['model', 'fenster', 'gpt-5', '--clear'],
      ['model', 'fenster'],
      ['hire', 'devops', '--model', 'bad\u0007name'],
    ]) {
      const result = await runCli(args, { cwd: root });
      expect(result.code, args.join(' ')).toBe(2);
    }
    const unknown = await runCli(['model', 'nobody', 'gpt-5'], { cwd: root });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no member named "nobody"/);
    expect(hashTree(root)).toEqual(before);
  });
});

describe('hostile records', () => {
  it('a name with quotes, colons and YAML syntax stays one value in the frontmatter', async () => {
    const root = await initSquad(['--yes']);
    await runOk(root, ['model', 'fenster', 'a"b:c', "'#{x}&y"]);
    expect(agentModel(root, 'fenster')).toEqual(['a"b:c', "'#{x}&y"]);
    await doctorClean(root);
  });

  it('recorded values that break the rule are passed over; a config.json that is not an object is refused, not overwritten', async () => {
    const root = await initSquad(['--yes']);
    const registry = json(root, squadPaths.castingRegistry) as { members: Record<string, unknown>[] };
    const bad: Record<string, unknown> = { keaton: 42, fenster: ['ok-model', 'bad name', 'ok-model'], hockney: 'line\nbreak' };
    registry.members = registry.members.map((m) => (typeof m.folder === 'string' && m.folder in bad ? { ...m, model: bad[m.folder], reasoningEffort: 'extreme' } : m));
    writeFiles(root, { [squadPaths.castingRegistry]: `${JSON.stringify(registry, null, 2)}\n`, [SQUAD_CONFIG_PATH]: '[1, 2]\n' });
    await runOk(root, ['upgrade']);
    expect(agentModel(root, 'keaton')).toBeUndefined();
    expect(agentModel(root, 'fenster')).toBe('ok-model');
    expect(agentModel(root, 'hockney')).toBeUndefined();
    expect((await members(root)).find((m) => m.folder === 'fenster')?.model).toEqual({ models: ['ok-model'], effort: null, source: 'member' });
    await doctorClean(root);
    const before = hashTree(root);
    const refused = await runCli(['model', '--default', 'gpt-5', '--json'], { cwd: root });
    expect(refused.code).toBe(1);
    expect(refused.stderr + refused.stdout).toMatch(/config\.json is not a JSON object/);
    expect(hashTree(root)).toEqual(before);
  });
});

describe('export and import carry the models', () => {
  it("a member's model (in the registry) and the squad's default (config.json) reach the imported agents; a second export is the same", async () => {
    const root = await initSquad(['--yes']);
    await runOk(root, ['model', 'fenster', 'gpt-5', 'gpt-4.1', '--effort', 'high']);
    await runOk(root, ['model', '--default', 'claude-sonnet-4.5']);
    const file = path.join(root, 'team.squad');
    await runOk(root, ['export', '--out', file]);
    const document = JSON.parse(read(root, 'team.squad')) as { team: Record<string, string> };
    expect(JSON.parse(document.team.config_json!)).toEqual({ version: 1, model: 'claude-sonnet-4.5' });
    const other = tempRepo();
    await runOk(other, ['import', file]);
    expect(agentModel(other, 'fenster')).toEqual(['gpt-5', 'gpt-4.1']);
    expect(agentModel(other, 'keaton')).toBe('claude-sonnet-4.5');
    expect((await members(other)).find((m) => m.folder === 'fenster')?.model).toEqual({ models: ['gpt-5', 'gpt-4.1'], effort: 'high', source: 'member' });
    await doctorClean(other);
    const again = path.join(other, 'again.squad');
    await runOk(other, ['export', '--out', again]);
    const strip = (text: string) => {
      const { exported_at: _at, source: _source, ...rest } = JSON.parse(text) as Record<string, unknown>;
      return rest;
    };
    expect(strip(read(other, 'again.squad'))).toEqual(strip(read(root, 'team.squad')));
  });
});

describe("the original Squad's models", () => {
  /** An original-style squad: a legacy registry (`agents` map with "model"), charters with `## Model`, squad-cli's config keys. */
  async function originalStyle(): Promise<string> {
    const root = await initSquad(['--yes']);
    writeFiles(root, {
      [squadPaths.castingRegistry]: `${JSON.stringify(
        {
          agents: {
            keaton: { persistent_name: 'Keaton', universe: 'The Usual Suspects', status: 'active', model: 'auto' },
            fenster: { persistent_name: 'Fenster', universe: 'The Usual Suspects', status: 'active', model: 'claude-haiku-4.5' },
            hockney: { persistent_name: 'Hockney', universe: 'The Usual Suspects', status: 'active' },
          },
        },
        null,
        2,
      )}\n`,
      [charterPath('keaton')]: `${read(root, charterPath('keaton'))}\n## Model\n\n- **Preferred:** claude-opus-4.5\n- **Reasoning Effort:** high\n\n## Collaboration\n\nTalk.\n`,
      [charterPath('hockney')]: `${read(root, charterPath('hockney'))}\n## Model\n\n- **Preferred:** auto\n`,
      [SQUAD_CONFIG_PATH]: `${JSON.stringify({ version: 1, agentModelOverrides: { scribe: 'gpt-5-mini' } })}\n`,
    });
    await runOk(root, ['upgrade']);
    return root;
  }

  it('upgrade carries the registry\'s and the charters\' models into the agents ("auto" is unset)', async () => {
    const root = await originalStyle();
    expect(agentModel(root, 'fenster')).toBe('claude-haiku-4.5');
    expect(agentModel(root, 'keaton')).toBe('claude-opus-4.5');
    expect(agentModel(root, 'hockney')).toBeUndefined();
    expect(agentModel(root, 'scribe')).toBe('gpt-5-mini');
    const listed = await members(root);
    expect(listed.find((m) => m.folder === 'keaton')?.model).toEqual({ models: ['claude-opus-4.5'], effort: 'high', source: 'charter' });
    await doctorClean(root);
  });

  it('model --clear on a member whose charter names a model says "auto" there, after a backup', async () => {
    const root = await originalStyle();
    const cleared = (await runOk(root, ['model', 'keaton', '--clear', '--json'])).data<ModelData>();
    expect(cleared.to.models).toEqual([]);
    expect(read(root, charterPath('keaton'))).toContain('- **Preferred:** auto');
    expect(cleared.changes.backedUp.map((b) => b.path)).toEqual([charterPath('keaton')]);
    expect(agentModel(root, 'keaton')).toBeUndefined();
    // An original registry entry keeps its own word for "none".
    await runOk(root, ['model', 'fenster', '--clear']);
    expect((json(root, squadPaths.castingRegistry).agents as Record<string, Record<string, unknown>>).fenster!.model).toBe('auto');
    expect(agentModel(root, 'fenster')).toBeUndefined();
    await doctorClean(root);
  });
});

noteMissingData("the original squads' models");

describe.skipIf(!HAS_ORIGINAL_DATA)("the original Squad's real squads, after upgrade", () => {
  it('s2real: every member runs on its registry model, else its charter\'s; "auto" is the session\'s', async () => {
    const root = await upgradedOriginalSquad('s2real');
    const registry = (json(root, squadPaths.castingRegistry).agents ?? {}) as Record<string, { model?: string }>;
    const listed = (await members(root)).filter((m) => m.state === 'active' && !m.folderless);
    expect(listed.length).toBeGreaterThan(5);
    let withModel = 0;
    for (const member of listed) {
      const recorded = registry[member.folder]?.model;
      const charter = /\*\*Preferred:\*\*\s*(\S+)/.exec(fs.existsSync(path.join(root, charterPath(member.folder))) ? read(root, charterPath(member.folder)) : '')?.[1];
      const expected = recorded !== undefined && recorded !== 'auto' ? recorded : charter !== undefined && charter !== 'auto' ? charter : undefined;
      expect(agentModel(root, member.folder), member.folder).toBe(expected);
      expect(member.model.models, member.folder).toEqual(expected === undefined ? [] : [expected]);
      if (expected !== undefined) withModel += 1;
    }
    expect(withModel).toBeGreaterThan(3);
    await doctorClean(root);
  });

  it('the v0.4.2 export: import gives each member the model its registry entry (else charter) records', async () => {
    const root = tempRepo();
    await runOk(root, ['import', originalExport('real-v042.json.gz')]);
    const listed = (await members(root)).filter((m) => m.state === 'active' && !m.folderless && fs.existsSync(path.join(root, memberProfilePath(m.folder))));
    const named = listed.filter((m) => m.model.models.length > 0);
    expect(named.length).toBeGreaterThan(5);
    for (const member of listed) {
      const written = agentModel(root, member.folder);
      expect(written === undefined ? [] : [written].flat(), member.folder).toEqual(member.model.models);
    }
    await doctorClean(root);
  });

  for (const name of ['s1', 'v05', 'h1'] as OriginalSquadName[]) {
    it(`${name}: upgrade leaves every agent in step with the models the squad records`, async () => {
      const root = await upgradedOriginalSquad(name);
      for (const member of (await members(root)).filter((m) => m.state === 'active' && !m.folderless)) {
        if (!fs.existsSync(path.join(root, memberProfilePath(member.folder)))) continue;
        const written = agentModel(root, member.folder);
        expect(written === undefined ? [] : [written].flat(), member.folder).toEqual(member.model.models);
      }
    });
  }
});
