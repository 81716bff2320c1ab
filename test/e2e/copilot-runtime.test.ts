/**
 * The host-check: the real Copilot runtime (the Copilot CLI's, through @github/copilot-sdk, offline)
 * says which custom agents and skills it discovers in squads create-squad made, and that is
 * compared with what create-squad says.
 *
 * It runs when CREATE_SQUAD_COPILOT_SDK names a folder where @github/copilot and @github/copilot-sdk
 * are installed (`node scripts/host-check.mjs` makes one in a temporary folder and runs this file);
 * otherwise it is skipped, saying so. Neither package is a dependency of create-squad.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBER_FACING_BUILTIN_SKILLS } from '../../src/core/base/paths.js';
import { memberProfilePath } from '../../src/core/squad/agents/member-profile.js';
import { roleTools } from '../../src/core/squad/agents/role-tools.js';
import { cleanupTempDirs, runCli, tempDir, tempRepo, validSkill, writeFiles } from '../helpers/cli.js';
import { fixtureRepo, type UpgradeFixture } from '../helpers/upgrade.js';

const SDK_DIR = process.env.CREATE_SQUAD_COPILOT_SDK;
const TITLE = 'against the real Copilot runtime';

interface RuntimeAgent {
  id: string;
  name: string;
  model?: string;
  models?: string[];
  userInvocable?: boolean;
  tools?: string[] | null;
  skills?: string[];
  mcpServers?: Record<string, unknown>;
}

interface Discovered {
  agents: RuntimeAgent[];
  skills: { name: string; source: string }[];
}

interface RuntimeClient {
  start(): Promise<void>;
  stop(): Promise<unknown>;
  rpc: {
    agents: { discover(params: { projectPaths: string[] }): Promise<{ agents: RuntimeAgent[] }> };
    skills: { discover(params: { projectPaths: string[] }): Promise<{ skills: Discovered['skills'] }> };
  };
}

let client: RuntimeClient | undefined;

async function discover(root: string): Promise<Discovered> {
  const { agents } = await client!.rpc.agents.discover({ projectPaths: [root] });
  const { skills } = await client!.rpc.skills.discover({ projectPaths: [root] });
  return { agents, skills };
}

async function run(root: string, args: string[]) {
  const result = await runCli(args, { cwd: root });
  expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
  return result;
}

/** Every `.agent.md` create-squad's squad has in `.github/agents/`, by agent name. */
function agentFiles(root: string): string[] {
  return fs
    .readdirSync(path.join(root, '.github/agents'))
    .filter((name) => name.endsWith('.agent.md'))
    .map((name) => name.slice(0, -'.agent.md'.length))
    .sort();
}

/** Each member's own skills as `create-squad prompt` lists them. */
async function promptOwnSkills(root: string, folder: string): Promise<string[]> {
  const result = await run(root, ['prompt', folder, '--task', 'look around', '--json']);
  return result
    .data<{ skills: { name: string; scope: string }[] }>()
    .skills.filter((s) => s.scope === 'agent')
    .map((s) => s.name);
}

/** The members create-squad gives an agent (roster members with a folder, and the Scribe). */
async function members(root: string): Promise<string[]> {
  const listed = (await run(root, ['members', '--json'])).data<{ members: { folder: string; state: string; folderless: boolean }[] }>().members;
  return listed.filter((m) => m.state === 'active' && !m.folderless).map((m) => m.folder);
}

/** What the runtime must report for a squad: the coordinator and every member, subagent-only, none dropped, skills as prompt lists them. */
async function expectDiscoveredAsCreateSquadSays(root: string): Promise<Discovered> {
  const found = await discover(root);
  const ids = found.agents.map((a) => a.id).sort();
  expect(ids, 'an agent file the runtime dropped').toEqual(agentFiles(root));
  const squad = found.agents.find((a) => a.id === 'squad');
  expect(squad?.userInvocable).toBe(true);
  const folders = await members(root);
  expect(folders).toContain('scribe');
  for (const folder of folders) {
    const agent = found.agents.find((a) => a.id === folder);
    expect(agent, `${folder} has no agent`).toBeDefined();
    expect(agent!.name).toBe(folder);
    expect(agent!.userInvocable, folder).toBe(false);
    // Its own skills as prompt lists them, but one a project skill of the same name shadows: the runtime would preload that one.
    const project = new Set(found.skills.filter((s) => s.source === 'project').map((s) => s.name));
    const own = folder === 'scribe' ? [] : await promptOwnSkills(root, folder);
    expect(agent!.skills ?? [], folder).toEqual(own.filter((name) => !project.has(name)));
  }
  return found;
}

const agentOf = (found: Discovered, id: string) => found.agents.find((a) => a.id === id)!;

afterAll(cleanupTempDirs);

if (!SDK_DIR) console.info(`${TITLE}: skipped (set CREATE_SQUAD_COPILOT_SDK, or run node scripts/host-check.mjs)`);

describe.skipIf(!SDK_DIR)(
  SDK_DIR ? TITLE : `${TITLE} (skipped: set CREATE_SQUAD_COPILOT_SDK to a folder with @github/copilot and @github/copilot-sdk, or run node scripts/host-check.mjs)`,
  () => {
    beforeAll(async () => {
      const sdk = createRequire(path.join(SDK_DIR!, 'package.json'))('@github/copilot-sdk') as { CopilotClient: new (options: object) => RuntimeClient };
      const home = tempDir('copilot-home-');
      client = new sdk.CopilotClient({ workingDirectory: home, baseDirectory: home, logLevel: 'error', useLoggedInUser: false });
      await client.start();
    }, 60_000);

    afterAll(async () => {
      await client?.stop();
    });

    it('on a fresh squad: the coordinator and every member, subagent-only, with the tools of its role', async () => {
      const root = tempRepo();
      await run(root, ['init', '--yes']);
      const found = await expectDiscoveredAsCreateSquadSays(root);
      expect(found.agents.map((a) => a.id).sort()).toEqual(['fenster', 'hockney', 'keaton', 'scribe', 'squad']);
      expect(agentOf(found, 'keaton').tools).toEqual(roleTools('Lead'));
      expect(agentOf(found, 'fenster').tools).toEqual(roleTools('Core Dev'));
    });

    it("after teach and skills add: the new skill and its MCP server on that member only; a team skill's server on everyone", async () => {
      const root = tempRepo();
      await run(root, ['init', '--yes']);
      await run(root, ['teach', 'fenster', 'always use Tailwind CSS', '--name', 'tailwind']);
      const source = tempDir();
      writeFiles(source, {
        'db-notes/SKILL.md': validSkill('db-notes', 'Use when changing the database.', 'metadata:\n  mcp-servers:\n    - name: postgres\n      reason: read the live schema\n'),
        'tracker/SKILL.md': validSkill(
          'tracker',
          'Use when linking work items.',
          'metadata:\n  mcp-servers:\n    - name: linear\n      reason: find the issue\n      optional: true\n',
        ),
      });
      await run(root, ['skills', 'add', path.join(source, 'db-notes'), '--agent', 'fenster']);
      await run(root, ['skills', 'add', path.join(source, 'tracker')]);
      // A team skill named like an own skill of hockney's: hockney's agent does not name it.
      await run(root, ['teach', 'hockney', 'name tests after the behaviour', '--name', 'test-names']);
      await run(root, ['teach', '--team', 'tests live beside the code', '--name', 'test-names']);
      const found = await expectDiscoveredAsCreateSquadSays(root);
      expect(agentOf(found, 'hockney').skills ?? []).toEqual([]);
      expect(agentOf(found, 'fenster').skills).toEqual(['db-notes', 'tailwind']);
      for (const id of ['keaton', 'scribe']) expect(agentOf(found, id).skills ?? [], id).toEqual([]);
      expect(agentOf(found, 'fenster').tools).toEqual([...roleTools('Core Dev'), 'linear/*', 'postgres/*']);
      expect(agentOf(found, 'hockney').tools).toEqual([...roleTools('Tester'), 'linear/*']);
      // The team skills and the member-facing built-ins are project skills every host finds; a member's own skill is not.
      expect(
        found.skills
          .filter((s) => s.source === 'project')
          .map((s) => s.name)
          .sort(),
      ).toEqual([...MEMBER_FACING_BUILTIN_SKILLS, 'test-names', 'tracker'].sort());
    });

    it("after retire, the member's agent is gone; after rehire, back", async () => {
      const root = tempRepo();
      await run(root, ['init', '--yes']);
      await run(root, ['retire', 'hockney']);
      expect((await expectDiscoveredAsCreateSquadSays(root)).agents.map((a) => a.id)).not.toContain('hockney');
      await run(root, ['rehire', 'hockney']);
      expect((await expectDiscoveredAsCreateSquadSays(root)).agents.map((a) => a.id)).toContain('hockney');
    });

    it("after hire --model and model: the runtime reads each member's model, a list as the prioritized list; none for a member without one", async () => {
      const root = tempRepo();
      await run(root, ['init', '--yes']);
      const hired = (await run(root, ['hire', 'devops', '--model', 'claude-sonnet-4.5', 'gpt-5', '--json'])).data<{ member: { folder: string } }>().member.folder;
      await run(root, ['model', 'fenster', 'gpt-5', '--effort', 'high']);
      const found = await expectDiscoveredAsCreateSquadSays(root);
      expect(agentOf(found, hired)).toMatchObject({ model: 'claude-sonnet-4.5', models: ['claude-sonnet-4.5', 'gpt-5'] });
      expect(agentOf(found, 'fenster')).toMatchObject({ model: 'gpt-5', models: ['gpt-5'] });
      expect(agentOf(found, 'keaton').model).toBeUndefined();
      await run(root, ['model', '--default', 'claude-haiku-4.5']);
      expect(agentOf(await discover(root), 'keaton')).toMatchObject({ model: 'claude-haiku-4.5' });
      await run(root, ['model', 'fenster', '--clear']);
      expect(agentOf(await discover(root), 'fenster')).toMatchObject({ model: 'claude-haiku-4.5' });
    });

    for (const fixture of ['original-squad', 'v0.0.1'] as UpgradeFixture[]) {
      it(`on the ${fixture} fixture after upgrade: every member discovered, with its own skills`, async () => {
        const root = fixtureRepo(fixture);
        await run(root, ['upgrade']);
        const found = await expectDiscoveredAsCreateSquadSays(root);
        expect(found.agents.length).toBeGreaterThan(2);
        // The member-facing built-ins upgrade installed or moved to .github/skills/ are project skills now.
        const project = found.skills.filter((s) => s.source === 'project').map((s) => s.name);
        expect(project).toEqual(expect.arrayContaining([...MEMBER_FACING_BUILTIN_SKILLS]));
        for (const folder of await members(root)) expect(fs.existsSync(path.join(root, memberProfilePath(folder))), folder).toBe(true);
      });
    }
  },
);
