/**
 * Members as Copilot custom agents (`.github/agents/{folder}.agent.md`), kept in step by every
 * command that changes a member or what a member sees: init, hire, teach, skills add, update and
 * remove, retire, rehire, role, upgrade (which migrates squads made before), import. An edited
 * profile is backed up before it is replaced; a run killed at any write is finished by the rerun.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { memberProfilePath, readProfileStamp } from '../../src/core/squad/agents/member-profile.js';
import { roleTools } from '../../src/core/squad/agents/role-tools.js';
import { parseFrontmatterYaml, splitFrontmatter } from '../../src/core/skills/frontmatter.js';
import { LOCK_FILE } from '../../src/core/fs/lock.js';
import { alumniDir, squadPaths } from '../../src/core/base/paths.js';
import { cleanupTempDirs, filesWithoutTimes, initSquad, listFiles, runCli, tempDir, tempRepo, validSkill, writeFiles } from '../helpers/cli.js';
import { debrisLeft } from '../helpers/debris.js';
import { fixtureRepo } from '../helpers/upgrade.js';

afterAll(cleanupTempDirs);

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');
const exists = (root: string, rel: string) => fs.existsSync(path.join(root, rel));

function profile(root: string, folder: string): Record<string, unknown> {
  return parseFrontmatterYaml(splitFrontmatter(read(root, memberProfilePath(folder))).yaml);
}

async function run(root: string, args: string[]) {
  const result = await runCli(args, { cwd: root });
  expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
  return result;
}

async function squad(): Promise<string> {
  return initSquad(['--yes']);
}

/** The member's own skills as `prompt` lists them. */
async function promptOwnSkills(root: string, folder: string): Promise<string[]> {
  const result = await run(root, ['prompt', folder, '--task', 'look around', '--json']);
  return result
    .data<{ skills: { name: string; scope: string }[] }>()
    .skills.filter((s) => s.scope === 'agent')
    .map((s) => s.name);
}

/** Every profile of the squad, by path. */
function profiles(root: string): Record<string, string> {
  const dir = path.join(root, '.github/agents');
  return Object.fromEntries(fs.readdirSync(dir).map((name) => [name, fs.readFileSync(path.join(dir, name), 'utf8')]));
}

function serverSkill(name: string, server: string): string {
  return validSkill(name, `Use when working on ${name}.`, `metadata:\n  mcp-servers:\n    - name: ${server}\n      reason: read the data\n`);
}

describe('init and hire', () => {
  it('init gives every member and the Scribe a subagent-only agent whose tools follow the role', async () => {
    const root = await squad();
    for (const [folder, role] of [
      ['keaton', 'Lead'],
      ['fenster', 'Core Dev'],
      ['hockney', 'Tester'],
    ] as const) {
      const fm = profile(root, folder);
      expect(fm).toMatchObject({ name: folder, 'user-invocable': false });
      expect(fm.tools).toEqual(roleTools(role));
      expect(fm.skills).toBeUndefined();
      expect(readProfileStamp(read(root, memberProfilePath(folder)))?.intact).toBe(true);
    }
    expect(profile(root, 'keaton').tools).not.toContain('execute');
    expect(profile(root, 'scribe').name).toBe('scribe');
  });

  it("hire writes the new member's agent", async () => {
    const root = await squad();
    const result = await run(root, ['hire', 'Designer', '--json']);
    expect(result.data<{ created: string[] }>().created).toContain(memberProfilePath('mcmanus'));
    expect(profile(root, 'mcmanus')).toMatchObject({ name: 'mcmanus', tools: roleTools('Designer') });
  });
});

describe('skills', () => {
  it("teach puts the new skill on that member's agent only, as prompt lists it", async () => {
    const root = await squad();
    const before = profiles(root);
    const taught = await run(root, ['teach', 'fenster', 'always use Tailwind CSS', '--name', 'tailwind', '--json']);
    expect(taught.data<{ agentProfiles: unknown[] }>().agentProfiles).toEqual([{ action: 'refresh', path: memberProfilePath('fenster') }]);
    expect(profile(root, 'fenster').skills).toEqual(['tailwind']);
    expect(await promptOwnSkills(root, 'fenster')).toEqual(['tailwind']);
    const after = profiles(root);
    for (const name of Object.keys(before).filter((n) => n !== 'fenster.agent.md')) expect(after[name], name).toBe(before[name]);
  });

  it("a team skill named like a member's own keeps that name out of the member's `skills` (Copilot would preload the team's)", async () => {
    const root = await squad();
    await run(root, ['teach', 'fenster', 'always use Tailwind CSS', '--name', 'tailwind']);
    const taught = await run(root, ['teach', '--team', 'styling follows the design system', '--name', 'tailwind', '--json']);
    expect(taught.data<{ agentProfiles: { path: string }[] }>().agentProfiles.map((a) => a.path)).toEqual([memberProfilePath('fenster')]);
    expect(profile(root, 'fenster').skills).toBeUndefined();
    expect(read(root, memberProfilePath('fenster'))).toContain('- `tailwind`: ');
    expect(await promptOwnSkills(root, 'fenster')).toEqual(['tailwind']);
  });

  it('teach killed after any write: the rerun ends as one clean teach', async () => {
    const base = await squad();
    const args = ['teach', 'fenster', 'always use Tailwind CSS', '--name', 'tailwind'];
    const reference = tempDir();
    fs.cpSync(base, reference, { recursive: true });
    await run(reference, args);
    const expected = filesWithoutTimes(reference);
    for (let k = 1; ; k += 1) {
      const root = tempDir();
      fs.cpSync(base, root, { recursive: true });
      const killed = await runCli(args, { cwd: root, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(k) } });
      if (killed.code === 0) {
        expect(k).toBe(3); // the agent, then the skill
        break;
      }
      expect(killed.code, `k=${k}`).toBe(-1);
      const done = k === 2; // killed after its last write: nothing is left to finish but the lock
      if (done) fs.rmSync(path.join(root, LOCK_FILE));
      else await run(root, args);
      expect(filesWithoutTimes(root), `k=${k}`).toEqual(expected);
      expect(debrisLeft(root), `k=${k}`).toEqual([]);
    }
  });

  it('skills add, update and remove keep the agents in step: MCP servers open on the agents that see the skill', async () => {
    const root = await squad();
    const source = tempDir();
    writeFiles(source, { 'db-notes/SKILL.md': serverSkill('db-notes', 'postgres'), 'tracker/SKILL.md': serverSkill('tracker', 'linear') });
    await run(root, ['skills', 'add', path.join(source, 'db-notes'), '--agent', 'fenster']);
    expect(profile(root, 'fenster')).toMatchObject({ skills: ['db-notes'], tools: [...roleTools('Core Dev'), 'postgres/*'] });
    expect(profile(root, 'hockney').tools).toEqual(roleTools('Tester'));

    await run(root, ['skills', 'add', path.join(source, 'tracker')]);
    for (const [folder, role] of [
      ['keaton', 'Lead'],
      ['hockney', 'Tester'],
    ] as const)
      expect(profile(root, folder).tools).toEqual([...roleTools(role), 'linear/*']);
    expect(profile(root, 'fenster').tools).toEqual([...roleTools('Core Dev'), 'linear/*', 'postgres/*']);

    writeFiles(source, { 'db-notes/SKILL.md': validSkill('db-notes', 'Use when working on databases.') });
    await run(root, ['skills', 'update', 'db-notes', '--agent', 'fenster']);
    expect(profile(root, 'fenster').tools).toEqual([...roleTools('Core Dev'), 'linear/*']);

    const removed = await run(root, ['skills', 'remove', 'db-notes', '--agent', 'fenster', '--json']);
    expect(removed.data<{ agentProfiles: unknown[] }>().agentProfiles).toEqual([{ action: 'refresh', path: memberProfilePath('fenster') }]);
    expect(profile(root, 'fenster').skills).toBeUndefined();
    await run(root, ['skills', 'remove', 'tracker']);
    expect(profile(root, 'keaton').tools).toEqual(roleTools('Lead'));
  });
});

describe('retire, rehire, role', () => {
  it("moves a retired member's agent to the alumni and brings it back on rehire; a new role changes its tools", async () => {
    const root = await squad();
    await run(root, ['retire', 'hockney']);
    expect(exists(root, memberProfilePath('hockney'))).toBe(false);
    expect(exists(root, `${alumniDir('hockney')}/hockney.agent.md`)).toBe(true);
    await run(root, ['rehire', 'hockney']);
    expect(profile(root, 'hockney').tools).toEqual(roleTools('Tester'));
    await run(root, ['role', 'hockney', 'Lead']);
    expect(profile(root, 'hockney').tools).toEqual(roleTools('Lead'));
  });
});

describe('upgrade', () => {
  it("migrates a squad made before members had agents, and leaves the user's own agents alone", async () => {
    const root = await squad();
    for (const folder of ['keaton', 'fenster', 'hockney', 'scribe']) fs.rmSync(path.join(root, memberProfilePath(folder)));
    writeFiles(root, { '.github/agents/helper.agent.md': '---\nname: helper\ndescription: mine\n---\nmine\n' });
    const result = await run(root, ['upgrade', '--json']);
    expect(result.data<{ created: string[] }>().created).toEqual(expect.arrayContaining(['keaton', 'fenster', 'hockney', 'scribe'].map(memberProfilePath)));
    expect(read(root, '.github/agents/helper.agent.md')).toBe('---\nname: helper\ndescription: mine\n---\nmine\n');
    expect((await run(root, ['upgrade', '--json'])).data<{ upToDate: boolean }>().upToDate).toBe(true);
  });

  it('backs an edited agent up before replacing it, refreshes a stale one without a backup, and moves one of nobody to the backups', async () => {
    const root = await squad();
    const edited = read(root, memberProfilePath('fenster')).replace('## After your work', '## After your work\n\nAlways run the linter.');
    writeFiles(root, { [memberProfilePath('fenster')]: edited });
    writeFiles(root, { [squadPaths.team]: read(root, squadPaths.team).replace('| Hockney | Tester |', '| Hockney | Lead |') });
    writeFiles(root, { '.github/agents/ghost.agent.md': read(root, memberProfilePath('keaton')) });
    const data = (await run(root, ['upgrade', '--json'])).data<{
      backedUp: { path: string; backup: string }[];
      replaced: string[];
      agentProfiles: { action: string; path: string; to?: string }[];
    }>();
    expect(data.backedUp.map((b) => b.path)).toEqual([memberProfilePath('fenster')]);
    expect(read(root, data.backedUp[0]!.backup)).toBe(edited);
    expect(data.replaced).toEqual(expect.arrayContaining([memberProfilePath('fenster'), memberProfilePath('hockney')]));
    expect(profile(root, 'hockney').tools).toEqual(roleTools('Lead'));
    const ghost = data.agentProfiles.find((a) => a.path === '.github/agents/ghost.agent.md')!;
    expect(ghost).toMatchObject({ action: 'orphan', to: expect.stringMatching(/^\.ai-team\/backups\/.+\/\.github\/agents\/ghost\.agent\.md$/) });
    expect(exists(root, ghost.to!)).toBe(true);
    expect(readProfileStamp(read(root, memberProfilePath('fenster')))?.intact).toBe(true);
  });

  it('killed after any of those writes, the rerun ends in the same agents with the edit kept', async () => {
    const prepare = async (): Promise<string> => {
      const root = await squad();
      writeFiles(root, { [memberProfilePath('fenster')]: `${read(root, memberProfilePath('fenster'))}\nmy note\n` });
      writeFiles(root, { [squadPaths.team]: read(root, squadPaths.team).replace('| Hockney | Tester |', '| Hockney | Lead |') });
      writeFiles(root, { '.github/agents/ghost.agent.md': read(root, memberProfilePath('keaton')) });
      fs.rmSync(path.join(root, memberProfilePath('keaton')));
      return root;
    };
    const reference = await prepare();
    await run(reference, ['upgrade']);
    const agents = (root: string) =>
      Object.fromEntries(
        listFiles(root)
          .filter((f) => f.startsWith('.github/'))
          .map((f) => [f, read(root, f)]),
      );
    const expected = agents(reference);
    for (let k = 1; ; k += 1) {
      const root = await prepare();
      const killed = await runCli(['upgrade'], { cwd: root, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(k) } });
      if (killed.code === 0) break;
      expect(killed.code, `k=${k}`).toBe(-1);
      await run(root, ['upgrade']);
      expect(agents(root), `k=${k}`).toEqual(expected);
      const copies = listFiles(path.join(root, squadPaths.backups)).filter((f) => f.endsWith('fenster.agent.md'));
      expect(
        copies.some((f) => read(path.join(root, squadPaths.backups), f).endsWith('\nmy note\n')),
        `k=${k}`,
      ).toBe(true);
      expect(debrisLeft(root), `k=${k}`).toEqual([]);
    }
  });

  it("gives the original Squad's members agents, each with its own skills as prompt lists them", async () => {
    const root = fixtureRepo('original-squad');
    await run(root, ['upgrade']);
    for (const folder of ['ripley', 'dallas', 'scribe']) {
      expect(profile(root, folder).name, folder).toBe(folder);
      expect(profile(root, folder).skills ?? [], folder).toEqual(folder === 'scribe' ? [] : await promptOwnSkills(root, folder));
    }
    expect(profile(root, 'ripley').skills).toEqual(['api-pagination']);
  });
});

describe('import', () => {
  it("writes the imported members' agents", async () => {
    const source = await squad();
    await run(source, ['teach', 'fenster', 'always use Tailwind CSS', '--name', 'tailwind']);
    const file = path.join(tempDir(), 'team.squad');
    await run(source, ['export', '--out', file]);
    const target = tempRepo();
    const result = await run(target, ['import', file, '--json']);
    expect(
      result
        .data<{ agentProfiles: { path: string }[] }>()
        .agentProfiles.map((a) => a.path)
        .sort(),
    ).toEqual(['fenster', 'hockney', 'keaton', 'scribe'].map(memberProfilePath).sort());
    expect(profile(target, 'fenster').skills).toEqual(['tailwind']);
  });
});

describe('doctor', () => {
  type Finding = { severity: string; code: string; path: string; fix: string; message: string };
  const agentFindings = async (root: string): Promise<Finding[]> =>
    (await runCli(['doctor', '--json'], { cwd: root, env: { HOME: tempDir('home-') } }))
      .data<{ findings: Finding[] }>()
      .findings.filter((f) => f.code.startsWith('copilot-agent-'));

  it('finds nothing on a fresh squad, and names each drift with upgrade as its fix; after upgrade, nothing again', async () => {
    const root = await squad();
    expect(await agentFindings(root)).toEqual([]);
    fs.rmSync(path.join(root, memberProfilePath('keaton')));
    writeFiles(root, { '.ai-team/agents/fenster/skills/react/SKILL.md': validSkill('react') });
    writeFiles(root, { [memberProfilePath('hockney')]: read(root, memberProfilePath('hockney')).replace('Tester', 'Test Lead') });
    writeFiles(root, { '.github/agents/ghost.agent.md': read(root, memberProfilePath('scribe')) });
    const findings = await agentFindings(root);
    expect(findings.map((f) => `${f.severity}:${f.code}:${f.path}`)).toEqual([
      `warning:copilot-agent-missing:${memberProfilePath('keaton')}`,
      `warning:copilot-agent-stale:${memberProfilePath('fenster')}`,
      `warning:copilot-agent-edited:${memberProfilePath('hockney')}`,
      'warning:copilot-agent-orphan:.github/agents/ghost.agent.md',
    ]);
    for (const finding of findings) expect(finding.fix).toMatch(/create-squad upgrade/);
    await run(root, ['upgrade']);
    expect(await agentFindings(root)).toEqual([]);
  });

  it('reports an agent Copilot would drop, such as a local MCP server without args, as an error', async () => {
    const root = await squad();
    const text = read(root, memberProfilePath('fenster')).replace(
      'user-invocable: false\n',
      'user-invocable: false\nmcp-servers:\n  db:\n    type: local\n    command: db-server\n    tools: ["*"]\n',
    );
    writeFiles(root, { [memberProfilePath('fenster')]: text });
    const [finding] = await agentFindings(root);
    expect(finding).toMatchObject({ severity: 'error', code: 'copilot-agent-dropped', path: memberProfilePath('fenster') });
    expect(finding!.message).toContain('mcp-servers.db (a local server) has no "args" list');
  });

  it('reports the agent of a member retired by hand, which upgrade moves to the alumni', async () => {
    const root = await squad();
    fs.mkdirSync(path.join(root, '.ai-team/agents/_alumni'));
    fs.renameSync(path.join(root, '.ai-team/agents/hockney'), path.join(root, alumniDir('hockney')));
    writeFiles(root, { [squadPaths.team]: read(root, squadPaths.team).replace(/^\| Hockney .*\n/m, '') });
    expect((await agentFindings(root)).map((f) => f.code)).toEqual(['copilot-agent-retired']);
    await run(root, ['upgrade']);
    expect(exists(root, `${alumniDir('hockney')}/hockney.agent.md`)).toBe(true);
    expect(await agentFindings(root)).toEqual([]);
  });
});
