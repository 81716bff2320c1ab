/** model: read once, then decide without the disk; and the one rule of model names and the order models are found in. */
import { afterAll, describe, expect, it } from 'vitest';
import { charterPath, squadPaths } from '../../src/core/base/paths.js';
import { memberProfilePath } from '../../src/core/squad/agents/member-profile.js';
import { charterModel, modelNameProblem, resolveModel, type ModelSources } from '../../src/core/roster/models.js';
import { decideMemberModel, decideSquadModel } from '../../src/core/team/model-change.js';
import { readSquadModelState } from '../../src/core/team/model-state.js';
import { readMemberChangeState } from '../../src/core/team/retire.js';
import { cleanupTempDirs, writeFiles } from '../helpers/cli.js';
import { sharedInitSquad as initSquad } from '../helpers/shared-init.js';
import { withoutFileSystemAsync } from '../helpers/no-fs.js';

afterAll(cleanupTempDirs);

const now = new Date('2026-01-02T03:04:05Z');

describe('model: read once, then decide without the disk', () => {
  it('decideMemberModel plans the registry entry and the agent with node:fs off', async () => {
    const root = await initSquad(['--yes']);
    const state = readMemberChangeState(root, 'model', 'fenster');
    const plan = await withoutFileSystemAsync(() => decideMemberModel(state, { models: ['gpt-5', 'gpt-4.1'], effort: 'low', now }));
    expect(plan.changes.map((c) => ('path' in c ? c.path : c.to))).toEqual([squadPaths.castingRegistry, memberProfilePath('fenster')]);
    expect(plan.to).toEqual({ models: ['gpt-5', 'gpt-4.1'], effort: 'low', source: 'member' });
    const agent = plan.changes.at(-1)!;
    expect('content' in agent && String(agent.content)).toContain('model: ["gpt-5","gpt-4.1"]');
  });

  it('decideMemberModel backs up a charter whose ## Model names another model before it says the new one', async () => {
    const root = await initSquad(['--yes']);
    writeFiles(root, { [charterPath('hockney')]: '# Hockney — Tester\n\n## Model\n\n- **Preferred:** claude-haiku-4.5\n- **Rationale:** cheap\n\n## Collaboration\n\nx\n' });
    const state = readMemberChangeState(root, 'model', 'hockney');
    const plan = await withoutFileSystemAsync(() => decideMemberModel(state, { models: ['gpt-5'], now }));
    expect(plan.from).toEqual({ models: ['claude-haiku-4.5'], source: 'charter' });
    const backup = plan.changes.findIndex((c) => c.kind === 'backup');
    expect(plan.changes[backup]).toMatchObject({ kind: 'backup', of: charterPath('hockney') });
    expect(plan.changes[backup + 1]).toMatchObject({ kind: 'replace', path: charterPath('hockney') });
    expect(String((plan.changes[backup + 1] as { content: string }).content)).toContain('- **Preferred:** gpt-5\n- **Rationale:** cheap\n');
  });

  it("decideSquadModel plans config.json and every member's agent with node:fs off", async () => {
    const root = await initSquad(['--yes']);
    const state = readSquadModelState(root);
    const plan = await withoutFileSystemAsync(() => decideSquadModel(state, { models: ['claude-sonnet-4.5'], now }));
    expect(plan.changes[0]).toMatchObject({ kind: 'create', path: '.ai-team/config.json' });
    expect(JSON.parse(String((plan.changes[0] as { content: string }).content))).toEqual({ version: 1, model: 'claude-sonnet-4.5' });
    expect(plan.agentProfiles.map((p) => p.path).sort()).toEqual(['fenster', 'hockney', 'keaton', 'scribe'].map(memberProfilePath));
  });
});

describe('model names and where a model is found', () => {
  it('one rule for a name: printable, no spaces, not an option, bounded', () => {
    expect(modelNameProblem('claude-sonnet-4.5')).toBeUndefined();
    expect(modelNameProblem('openai/gpt-5:latest')).toBeUndefined();
    for (const bad of ['', 'gpt 5', 'gpt\n5', 'gpt\u200b5', '-rf', 'x'.repeat(101), 'a\u0000b']) expect(modelNameProblem(bad), JSON.stringify(bad)).toBeDefined();
  });

  it("a charter's ## Model: Preferred and Reasoning Effort; auto is none; other sections are not read", () => {
    expect(charterModel('# X\n\n## Model\n\n- **Preferred:** claude-opus-4.5\n- **Reasoning Effort:** High\n')).toEqual({ models: ['claude-opus-4.5'], effort: 'high' });
    expect(charterModel('## Model\nPreferred: gpt-5\n')).toEqual({ models: ['gpt-5'] });
    expect(charterModel('## Model\n\n- **Preferred:** auto\n')).toEqual({ models: [] });
    expect(charterModel('## Notes\n\n- **Preferred:** gpt-5\n\n## Model\n\n- **Fallback:** x\n')).toEqual({ models: [] });
  });

  it('first found wins: registry entry, squad-cli override, charter, squad default; the effort on its own', () => {
    const sources = (registry: object | undefined, config: object | undefined, charter?: string): ModelSources => ({
      registry: registry as Record<string, unknown> | undefined,
      config: config as Record<string, unknown> | undefined,
      charter: () => charter,
    });
    const charter = '## Model\n\n- **Preferred:** from-charter\n- **Reasoning Effort:** low\n';
    const config = { defaultModel: 'cli-default', agentModelOverrides: { fenster: 'cli-override' } };
    expect(resolveModel('fenster', sources({ members: [{ folder: 'fenster', model: ['a', 'b'] }] }, config, charter))).toEqual({
      models: ['a', 'b'],
      effort: 'low',
      source: 'member',
    });
    expect(resolveModel('fenster', sources({ agents: { fenster: { model: 'auto' } } }, config, charter))).toMatchObject({ models: ['cli-override'], source: 'member' });
    expect(resolveModel('fenster', sources(undefined, { defaultModel: 'cli-default' }, charter))).toMatchObject({ models: ['from-charter'], source: 'charter' });
    expect(resolveModel('fenster', sources(undefined, { model: 'own', defaultModel: 'cli-default' }))).toEqual({ models: ['own'], source: 'squad' });
    expect(resolveModel('fenster', sources(undefined, undefined))).toEqual({ models: [], source: 'session' });
    // A recorded name that breaks the rule is ignored: the next source answers.
    expect(resolveModel('fenster', sources({ members: [{ folder: 'fenster', model: 'bad name' }] }, { model: 'own' }))).toMatchObject({ models: ['own'], source: 'squad' });
  });
});
