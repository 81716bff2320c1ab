/**
 * The original Squad's users keep its function, not only its bytes (test/helpers/original-squad.ts,
 * in our own words): a skill's `tools:` are no MCP servers (and a skill an earlier upgrade gave fake
 * servers is made right), a retired member is an alumnus, rehire brings back the charter's role,
 * every universe of the original's policy is known and a custom one stays the team's own, and an
 * export's roster is fitted to the members it holds.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findUniverse, universes } from '../../src/core/roster/casting.js';
import { parseRoster } from '../../src/core/roster/roster.js';
import { squadPaths } from '../../src/core/base/paths.js';
import { convertOriginalSkill, legacyConversion } from '../../src/core/squad/original/skills.js';
import { parseSkill } from '../../src/core/skills/skill.js';
import { cleanupTempDirs, runCli, tempDir, tempRepo, writeFiles } from '../helpers/cli.js';
import { writeOriginalSquad } from '../helpers/original-squad.js';

afterAll(cleanupTempDirs);

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');
const exists = (root: string, rel: string) => fs.existsSync(path.join(root, rel));

function originalSquad(universe?: string): string {
  const root = tempRepo();
  writeOriginalSquad(root, universe === undefined ? {} : { universe });
  return root;
}

/** The `tools:` line of each member's Copilot agent, by file. */
function agentTools(root: string): Record<string, string> {
  const dir = path.join(root, '.github/agents');
  return Object.fromEntries(
    fs
      .readdirSync(dir)
      .filter((file) => file !== 'squad.agent.md')
      .map((file) => [file, /^tools: (.*)$/m.exec(read(root, `.github/agents/${file}`))?.[1] ?? '']),
  );
}

const DOCK_SYNC = '.github/skills/dock-sync/SKILL.md';

interface UpgradeJson {
  originalSkills?: { path: string; backup: string; changes: string[] }[];
}

/**
 * A squad as an earlier create-squad left it: upgraded, with dock-sync's `tools:` made
 * `metadata.mcp-servers` (what that conversion wrote from the original text it backed up).
 */
async function upgradedByTheOldConversion(): Promise<{ root: string; original: string; legacy: string }> {
  const root = originalSquad();
  const first = await runCli(['upgrade', '--json'], { cwd: root });
  expect(first.code, first.stderr).toBe(0);
  const backup = first.data<UpgradeJson>().originalSkills!.find((skill) => skill.path.includes('/dock-sync/'))!.backup;
  const original = read(root, backup);
  const legacy = legacyConversion(original, 'dock-sync')!.text;
  writeFiles(root, { [DOCK_SYNC]: legacy });
  return { root, original, legacy };
}

describe("the original's skill tools", () => {
  it('are a note the member reads, never MCP servers: no server table in the prompt, no {server}/* tools, no servers for doctor', async () => {
    const root = originalSquad();
    expect((await runCli(['upgrade'], { cwd: root })).code).toBe(0);
    const skill = parseSkill(read(root, DOCK_SYNC));
    expect(skill.frontmatter.metadata).not.toHaveProperty('mcp-servers');
    expect(skill.body).toMatch(
      /^> \*\*Tools this skill names\*\*.*\n> - `github-mcp-server`: Look up the device firmware repository \(when: Before changing the sync protocol\)\n\n## Patterns\n/,
    );
    for (const [file, tools] of Object.entries(agentTools(root))) expect(tools, file).not.toMatch(/\/\*/);
    const doctor = await runCli(['doctor', '--json'], { cwd: root });
    expect(doctor.data<{ checked: { mcpServers: number } }>().checked.mcpServers).toBe(0);
    const prompt = await runCli(['prompt', 'parker', '--task', 'change the dock sync protocol', '--mode', 'standard'], { cwd: root });
    expect(prompt.code, prompt.stderr).toBe(0);
    expect(prompt.stdout).not.toContain('MCP TOOL REQUIREMENTS');
    expect(prompt.stdout).not.toContain('github-mcp-server');
  });

  it('an earlier upgrade made MCP servers of them: upgrade converts the skill again from its backup while it is exactly what that conversion wrote', async () => {
    const { root, original, legacy } = await upgradedByTheOldConversion();
    expect(parseSkill(legacy).frontmatter.metadata).toHaveProperty('mcp-servers');
    const upgrade = await runCli(['upgrade', '--json'], { cwd: root });
    expect(upgrade.code, upgrade.stderr).toBe(0);
    const redone = upgrade.data<UpgradeJson>().originalSkills!;
    expect(redone.map((skill) => skill.path)).toEqual([DOCK_SYNC]);
    expect(redone[0]!.changes).toEqual([
      expect.stringMatching(/^converted again from \.ai-team\/backups\/[^/]+\/\.ai-team\/skills\/dock-sync\/SKILL\.md: an earlier upgrade had made its tools MCP servers/),
    ]);
    expect(read(root, DOCK_SYNC)).toBe(convertOriginalSkill(original, 'dock-sync')!.text);
    // What it held is backed up, as every text upgrade replaces.
    expect(read(root, redone[0]!.backup)).toBe(legacy);
    for (const [file, tools] of Object.entries(agentTools(root))) expect(tools, file).not.toMatch(/github-mcp-server/);
    expect((await runCli(['upgrade', '--json'], { cwd: root })).data<{ upToDate: boolean }>().upToDate).toBe(true);
  });

  it('a skill the team changed after that conversion is its own: upgrade leaves it, servers and all', async () => {
    const { root, legacy } = await upgradedByTheOldConversion();
    const edited = `${legacy}- Our own line, written after the upgrade.\n`;
    writeFiles(root, { [DOCK_SYNC]: edited });
    const upgrade = await runCli(['upgrade', '--json'], { cwd: root });
    expect(upgrade.code, upgrade.stderr).toBe(0);
    expect(upgrade.data<UpgradeJson>().originalSkills ?? []).toEqual([]);
    expect(read(root, DOCK_SYNC)).toBe(edited);
  });
});

describe("the original's members", () => {
  it('a registry entry marked retired, with no folder left, is an alumnus: doctor never calls it an interrupted hire', async () => {
    const root = originalSquad();
    fs.rmSync(path.join(root, squadPaths.agents, '_alumni', 'brett'), { recursive: true });
    const doctor = await runCli(['doctor', '--json'], { cwd: root });
    const findings = doctor.data<{ findings: { code: string; message: string }[] }>().findings;
    expect(findings.filter((f) => f.code === 'casting-member-unfinished')).toEqual([]);
    expect(findings.map((f) => f.message).join('\n')).not.toMatch(/Brett.*interrupted/);
    // rehire says where the files went (an export leaves them behind), not that nobody retired.
    const rehire = await runCli(['rehire', 'Brett'], { cwd: root });
    expect(rehire.code).toBe(1);
    expect(rehire.stderr).toMatch(
      /Brett is retired \(\.ai-team\/casting\/registry\.json\), but the squad holds none of Brett's files: there is no \.ai-team\/agents\/_alumni\/brett\//,
    );
    expect(rehire.stderr).toMatch(/copy Brett's folder from the squad it retired in .* then run rehire again; nothing was written/);
  });

  it('rehire brings an original alumnus back with the role its charter states and marks the registry entry active; retire marks it retired again', async () => {
    const root = originalSquad();
    const registryBefore = JSON.parse(read(root, squadPaths.castingRegistry));
    const rehired = await runCli(['rehire', 'Brett', '--json'], { cwd: root });
    expect(rehired.code, rehired.stderr).toBe(0);
    expect(rehired.data<{ member: { name: string; role: string } }>().member).toMatchObject({ name: 'Brett', role: 'Frontend Dev' });
    expect(parseRoster(read(root, squadPaths.team)).find((m) => m.name === 'brett')).toMatchObject({ displayName: 'Brett', role: 'Frontend Dev' });
    const registry = JSON.parse(read(root, squadPaths.castingRegistry));
    expect(registry).toEqual({ ...registryBefore, agents: { ...registryBefore.agents, brett: { ...registryBefore.agents.brett, status: 'active' } } });
    const doctor = await runCli(['doctor', '--json'], { cwd: root });
    expect(doctor.data<{ findings: { code: string }[] }>().findings.filter((f) => f.code.startsWith('casting-'))).toEqual([]);

    const retired = await runCli(['retire', 'Brett'], { cwd: root });
    expect(retired.code, retired.stderr).toBe(0);
    expect(JSON.parse(read(root, squadPaths.castingRegistry)).agents.brett.status).toBe('retired');
    const again = await runCli(['rehire', 'Brett', '--json'], { cwd: root });
    expect(again.data<{ member: { role: string } }>().member.role).toBe('Frontend Dev');
    expect(JSON.parse(read(root, squadPaths.castingRegistry)).agents.brett.status).toBe('active');
  });
});

/** A squad-cli export (format 1.0) in our own words: its roster names Wren in wren/, which it does not hold. */
function exportFile(agents: Record<string, { charter: string }>): string {
  const charter = (name: string, role: string) => `# ${name} — ${role}\n\n## Identity\n\n- **Name:** ${name}\n- **Role:** ${role}\n`;
  const team = [
    '# Team',
    '',
    '## Members',
    '',
    '| Name | Role | Charter | Status |',
    '|------|------|---------|--------|',
    '| Wren | Lead | `.squad/agents/wren/charter.md` | ✅ Active |',
    '| Odo | Tester | `.squad/agents/odo/charter.md` | ✅ Active |',
    '| Scribe | Session Logger | `.squad/agents/scribe/charter.md` | 📋 Silent |',
    '',
  ].join('\n');
  const document = {
    version: '1.0',
    exported_at: '2026-02-01T00:00:00.000Z',
    squad_version: '0.9.0',
    casting: {
      registry: { agents: { wren: { persistent_name: 'Wren', universe: 'Alien', status: 'active' }, odo: { persistent_name: 'Odo', universe: 'Alien', status: 'active' } } },
    },
    agents: { odo: { charter: charter('Odo', 'Tester') }, scribe: { charter: '# Scribe\n' }, ...agents },
    skills: [],
    team_md: team,
  };
  const file = path.join(tempDir(), 'night-shift.json');
  fs.writeFileSync(file, JSON.stringify(document, null, 2));
  return file;
}

describe("an export's roster fitted to the members the file holds", () => {
  const wrenCharter = '# Wren — Lead\n\n## Identity\n\n- **Name:** Wren\n- **Role:** Lead\n';

  it('a row naming a folder the file lacks points at the agent holding that member (no empty member beside it); an unlisted agent gets a row with its name and role', async () => {
    const root = tempRepo();
    const file = exportFile({ 'Night Shift': { charter: wrenCharter }, Quill: { charter: '# Quill\n\n- **Name:** Quill\n- **Role:** Copy Editor\n' } });
    const imported = await runCli(['import', file, '--json'], { cwd: root });
    expect(imported.code, imported.stderr).toBe(0);
    expect(exists(root, `${squadPaths.agents}/wren`)).toBe(false);
    const roster = parseRoster(read(root, squadPaths.team));
    expect(roster.map((m) => `${m.displayName}|${m.role}|${m.name}`)).toEqual([
      'Wren|Lead|night-shift',
      'Odo|Tester|odo',
      'Quill|Copy Editor|quill',
      'Scribe|Session Logger|scribe',
    ]);
    const notes = imported.data<{ notes: string[] }>().notes.join('\n');
    expect(notes).toMatch(/Wren's row named \.squad\/agents\/wren\/charter\.md, which the file does not hold; agents\["Night Shift"\] holds Wren's charter/);
    expect(notes).toMatch(/agents\["Quill"\] was not in the roster: it has a row now, as Quill \(Copy Editor, from its charter\)/);
    expect((await runCli(['prompt', 'quill', '--task', 'tighten the release notes'], { cwd: root })).stdout).toContain('You are Quill, the Copy Editor');
    const doctor = await runCli(['doctor', '--json'], { cwd: root });
    expect(doctor.data<{ findings: { code: string }[] }>().findings.filter((f) => ['member-not-in-roster', 'charter-missing'].includes(f.code))).toEqual([]);
  });

  it('two agents that are both the member the row names: import refuses, naming both, and writes nothing', async () => {
    const root = tempRepo();
    const file = exportFile({ 'Night Shift': { charter: wrenCharter }, 'Day Shift': { charter: wrenCharter } });
    const imported = await runCli(['import', file], { cwd: root });
    expect(imported.code).toBe(1);
    expect(imported.stderr).toMatch(
      /team_md: the roster names Wren in \.squad\/agents\/wren\/charter\.md, which the file does not hold, and agents\["Night Shift"\] and agents\["Day Shift"\] are each Wren/,
    );
    expect(exists(root, squadPaths.root)).toBe(false);
  });
});

/** The 15 universes the original Squad's casting policy allows. */
const ORIGINAL_ALLOWLIST = [
  'The Usual Suspects',
  'Reservoir Dogs',
  'Alien',
  "Ocean's Eleven",
  'Arrested Development',
  'Star Wars',
  'The Matrix',
  'Firefly',
  'The Goonies',
  'The Simpsons',
  'Breaking Bad',
  'Lost',
  'Marvel Cinematic Universe',
  'DC Universe',
  'Futurama',
];

describe("the original's universes", () => {
  it('every universe of the original policy is known, with names of its own', () => {
    for (const name of ORIGINAL_ALLOWLIST) expect(findUniverse(name)?.names.length, name).toBeGreaterThanOrEqual(12);
  });

  it("an export cast from a custom universe keeps it as the team's own: hire names from it, numbered once its names are taken, never twice", async () => {
    const charter = (name: string) => `# ${name} — Dev\n\n- **Name:** ${name}\n- **Role:** Dev\n`;
    const document = {
      version: '1.0',
      squad_version: '0.4.1',
      casting: {
        policy: { casting_policy_version: '1.1', allowlist_universes: ['The Usual Suspects', 'Alien'], custom_universes: { Moonbase: ['Tycho', 'Vela', 'Kepler'] } },
        registry: {
          agents: { tycho: { persistent_name: 'Tycho', universe: 'Moonbase', status: 'active' }, vela: { persistent_name: 'Vela', universe: 'Moonbase', status: 'active' } },
        },
      },
      agents: { tycho: { charter: charter('Tycho') }, vela: { charter: charter('Vela') } },
      skills: [],
    };
    const file = path.join(tempDir(), 'moonbase.json');
    fs.writeFileSync(file, JSON.stringify(document));
    const root = tempRepo();
    const imported = await runCli(['import', file, '--json'], { cwd: root });
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(read(root, squadPaths.castingPolicy)).universe).toBe('Moonbase');
    const hired: string[] = [];
    for (const role of ['Tester', 'Designer', 'Writer']) {
      const hire = await runCli(['hire', role, '--json'], { cwd: root });
      expect(hire.code, hire.stderr).toBe(0);
      expect(hire.data<{ universe: string }>().universe).toBe('Moonbase');
      hired.push(hire.data<{ member: { name: string } }>().member.name);
    }
    expect(hired).toEqual(['Kepler', 'Tycho 2', 'Vela 2']);
  });

  it('a squad cast from Breaking Bad hires from Breaking Bad, never from The Usual Suspects', async () => {
    const root = originalSquad('Breaking Bad');
    const hired = await runCli(['hire', 'Frontend Dev', '--json'], { cwd: root });
    expect(hired.code, hired.stderr).toBe(0);
    const data = hired.data<{ universe: string; casting: string; member: { name: string } }>();
    expect(data).toMatchObject({ universe: 'Breaking Bad', casting: 'cast' });
    expect(universes().find((u) => u.name === 'Breaking Bad')!.names).toContain(data.member.name);
  });
});
