/**
 * The original Squad's real squads and exports (../shared/data/original-squad/, read at run time,
 * never copied into the repository): every command gives the right members, roles, universe and
 * skills, every export imports, and upgrade loses no file the team wrote; the export of each
 * real squad right after its upgrade meets the shipped JSON Schema of the .squad format (checked
 * here rather than in squad-json-schema.test.ts, so that each real squad is upgraded once).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChangeSummary } from '../../src/core/base/plan.js';
import { parseRoster } from '../../src/core/roster/roster.js';
import { findUniverse } from '../../src/core/roster/casting.js';
import { charterPath, historyPath, nativeTeamSkillDir, squadPaths, SKILL_FILE } from '../../src/core/base/paths.js';
import { cleanupTempDirs, runCli, tempDir, tempRepo } from '../helpers/cli.js';
import { HAS_ORIGINAL_DATA, type OriginalSquadName, lostFiles, noteMissingData, originalExport, originalUpgrade } from '../helpers/original-data.js';
import { squadSchemaErrors } from '../helpers/squad-schema.js';
import { rewriteSquadPaths } from '../../src/core/squad/original/stale-paths.js';

afterAll(cleanupTempDirs);
noteMissingData("the tests on the original Squad's real squads and exports");

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

function git(root: string, args: string[]): string {
  const run = spawnSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd: root, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

interface UpgradeChanges {
  changes: ChangeSummary;
  commit: string[];
}

/** Backups are named by the time of the run: a dry run's and a real run's differ only there. */
const timeless = (summary: ChangeSummary): ChangeSummary => JSON.parse(JSON.stringify(summary).replace(/\.ai-team\/backups\/[^/]+\//g, '.ai-team/backups/<time>/'));
const exists = (root: string, rel: string) => fs.existsSync(path.join(root, rel));

interface ImportJson {
  format: string;
  universe: string;
  agents: { name: string; displayName: string; role: string }[];
  skills: { name: string; scope: string }[];
  notes: string[];
}

/** The export file's own JSON, to compare the import with. */
function exportJson(file: string): { agents: Record<string, { charter?: string }>; skills: string[]; team_md?: string; decisions_md?: string; routing_md?: string } {
  return JSON.parse(fs.readFileSync(originalExport(file), 'utf8'));
}

const imported = new Map<string, Promise<{ template: string; data: ImportJson }>>();

/**
 * A fresh repository holding the import of `file`, and what the import reported: the import runs
 * once per file (the first test to ask checks it), each call gets a copy of the repository.
 */
async function importInto(file: string): Promise<{ root: string; data: ImportJson }> {
  let once = imported.get(file);
  if (once === undefined) {
    once = (async () => {
      const template = tempRepo();
      const result = await runCli(['import', originalExport(file), '--json'], { cwd: template });
      expect(result.code, result.stderr).toBe(0);
      return { template, data: result.data<ImportJson>() };
    })();
    imported.set(file, once);
  }
  const { template, data } = await once;
  const root = tempDir('squad-repo-');
  fs.cpSync(template, root, { recursive: true, verbatimSymlinks: true });
  return { root, data: structuredClone(data) };
}

describe.skipIf(!HAS_ORIGINAL_DATA)('importing every export the original Squad produced', () => {
  it.each(['recipes-v02.json', 'recipes-head.json', 'head-spacename.json', 'real-v042.json.gz'])(
    '%s: every member and skill, alumni stay alumni, hire goes on in its universe',
    async (file) => {
      const json = exportJson(file);
      const { root, data } = await importInto(file);
      expect(data.format).toBe('1.0');
      const members = Object.keys(json.agents).filter((key) => !key.startsWith('_') && key !== 'scribe');
      expect(data.agents.map((a) => a.name).sort()).toEqual(members.map((key) => key.toLowerCase().replace(/ /g, '-')).sort());
      for (const agent of data.agents) {
        expect(agent.role, agent.name).not.toBe('');
        // Kept as exported, but for squad-cli's `.squad/` paths, which now point at `.ai-team/`.
        const exported = Object.entries(json.agents).find(([key]) => key.toLowerCase().replace(/ /g, '-') === agent.name)![1].charter;
        const charter = read(root, charterPath(agent.name));
        expect(charter).toBe(rewriteSquadPaths(exported ?? '', (name) => name.toLowerCase().replace(/ /g, '-')).text);
        expect(charter).not.toMatch(/\.squad\//);
        expect(read(root, historyPath(agent.name))).toMatch(/^📌 Imported from/);
      }
      expect(data.skills.length).toBe(json.skills.length);
      for (const skill of data.skills) expect(exists(root, `${nativeTeamSkillDir(skill.name)}/${SKILL_FILE}`), skill.name).toBe(true);
      // A retired member stays retired: no folder, no roster row.
      const registry = JSON.parse(read(root, squadPaths.castingRegistry)) as { agents: Record<string, { status?: string }> };
      const retired = Object.entries(registry.agents)
        .filter(([, entry]) => entry.status === 'retired')
        .map(([key]) => key);
      const roster = parseRoster(read(root, squadPaths.team));
      for (const folder of retired) {
        expect(exists(root, `${squadPaths.agents}/${folder}`)).toBe(false);
        expect(roster.map((m) => m.name)).not.toContain(folder);
      }
      const universe = Object.values(registry.agents).map((entry) => (entry as { universe?: string }).universe)[0];
      expect(data.universe).toBe(universe);
      expect(findUniverse(universe!), universe).toBeDefined();
      // No member the file does not hold (an empty template beside the real one), and the retired are alumni, not interrupted hires.
      const folders = fs.readdirSync(path.join(root, squadPaths.agents)).filter((folder) => !folder.startsWith('_') && folder !== 'scribe');
      expect(folders.sort()).toEqual(data.agents.map((a) => a.name).sort());
      const doctor = await runCli(['doctor', '--json'], { cwd: root });
      expect(doctor.data<{ findings: { code: string }[] }>().findings.filter((f) => f.code === 'casting-member-unfinished')).toEqual([]);
      const hired = await runCli(['hire', 'Docs Writer', '--json'], { cwd: root });
      expect(hired.code, hired.stderr).toBe(0);
      expect(hired.data<{ universe: string }>().universe).toBe(universe);
      const validate = await runCli(['skills', 'validate', '--json'], { cwd: root });
      expect(validate.stdout).not.toMatch(/frontmatter-missing|no YAML frontmatter/);
    },
  );

  it("a v0.2 export: its skill without frontmatter is converted with a note, and '## Learnings' travel as portable knowledge", async () => {
    const { root, data } = await importInto('recipes-v02.json');
    expect(data.notes.join('\n')).toMatch(/skill flaky-test-triage \(skills\[1\]\) was in the original Squad's style and was made a standard skill/);
    expect(data.notes.join('\n')).toMatch(/agents\._alumni was not imported as a member/);
    const skill = read(root, `${nativeTeamSkillDir('flaky-test-triage')}/${SKILL_FILE}`);
    expect(skill).toMatch(/^---\nname: "flaky-test-triage"\n/);
    const ripley = read(root, historyPath('ripley'));
    const portable = ripley.split('## Portable Knowledge')[1]!.split('## Project Learnings')[0]!;
    expect(portable).toMatch(/cursor pagination/);
  });

  it('a squad-cli export: its roster, routing and decisions are imported, capitalised and spaced folders get valid names and keep their names', async () => {
    const json = exportJson('recipes-head.json');
    const { root, data } = await importInto('recipes-head.json');
    expect(data.agents.find((a) => a.name === 'rai')).toMatchObject({ displayName: 'Rai' });
    expect(read(root, squadPaths.decisions)).toBe(json.decisions_md);
    expect(read(root, squadPaths.routing)).toBe(json.routing_md);
    // The roster as it was, plus a row for Rai, whom it left out: Rai keeps its name and its charter's role.
    const team = read(root, squadPaths.team);
    const raiRow = '| Rai | RAI Reviewer | `.ai-team/agents/rai/charter.md` | ✅ Active |\n';
    expect(team).toContain(raiRow);
    expect(team.replace(raiRow, '').replace(/`\.ai-team\/agents\//g, '`.squad/agents/')).toBe(json.team_md);
    const roster = parseRoster(team);
    expect(roster.filter((m) => m.human).map((m) => m.displayName)).toEqual(['Brady']);
    expect(roster.map((m) => m.displayName)).not.toContain('Squad');
    const rai = await runCli(['prompt', 'rai', '--task', 'review the sign-up copy'], { cwd: root });
    expect(rai.stdout).toContain('You are Rai, the RAI Reviewer');
    // team.md names Dallas in dallas/, which the file does not hold; its folder "lead architect" holds Dallas's charter:
    // the row points there, and no empty member is made in dallas/.
    const spaced = await importInto('head-spacename.json');
    expect(spaced.data.agents.find((a) => a.name === 'lead-architect')).toMatchObject({ displayName: 'Dallas', role: 'Lead' });
    expect(exists(spaced.root, `${squadPaths.agents}/dallas`)).toBe(false);
    expect(parseRoster(read(spaced.root, squadPaths.team)).find((m) => m.displayName === 'Dallas')).toMatchObject({ name: 'lead-architect', role: 'Lead' });
    expect(spaced.data.notes.join('\n')).toMatch(/Dallas's row named \.squad\/agents\/dallas\/charter\.md, which the file does not hold/);
    const lead = await runCli(['prompt', 'lead-architect', '--task', 'scope the next release'], { cwd: spaced.root });
    expect(lead.stdout).toContain('You are Dallas, the Lead');
  });
});

/**
 * upgrade (nothing lost), then doctor, prompt, route, hire, export and import on the real squad
 * `name`, whose squad folder is `dir` before the upgrade. The upgrade and its dry run are those of
 * `originalUpgrade` (made once for the run); this works on a copy of what they left.
 */
async function checkSquad(name: OriginalSquadName, dir: string): Promise<void> {
  const upgraded = await originalUpgrade(name);
  const roster = parseRoster(read(upgraded.pristine, `${dir}/team.md`));
  const registry = JSON.parse(read(upgraded.pristine, `${dir}/casting/registry.json`)) as { agents: Record<string, { universe: string }> };
  const universe = Object.values(registry.agents)[0]!.universe;
  // Members who do the work: not the Scribe, nor a member who runs in the background (Ralph, 🔄 Monitor), whom route never ranks.
  const workers = roster.filter((m) => !m.noCharter && m.name !== 'scribe' && !m.background);
  expect(roster.map((m) => m.displayName)).not.toContain('Squad');
  expect(roster.map((m) => m.displayName)).not.toContain('Copilot');

  // Upgraded in a repository where the squad as unpacked was committed.
  const { dryRun: dry, upgrade } = upgraded;
  expect(dry.code, dry.stderr).toBe(0);
  expect(upgrade.code, upgrade.stderr).toBe(0);
  const root = upgraded.upgradedCopy();
  expect(lostFiles(upgraded.pristineFiles, root), name).toEqual([]);
  const planned = dry.data<UpgradeChanges>();
  const done = upgrade.data<UpgradeChanges>();
  // The dry run lists what the real run changed; a squad still in .squad/ lists its move (the rest is planned once it is moved).
  if (dir === '.ai-team') expect(timeless(planned.changes), name).toEqual(timeless(done.changes));
  else expect(planned.changes.moved[0], name).toEqual({ from: '.squad', to: '.ai-team' });
  // `git add -A --` of the commit paths stages every change; a second upgrade has nothing to do.
  git(root, ['add', '-A', '--', ...done.commit]);
  expect(
    git(root, ['status', '--porcelain', '--untracked-files=all'])
      .split('\n')
      .filter((line) => line !== '' && (line[1] !== ' ' || line.startsWith('??'))),
    name,
  ).toEqual([]);
  expect((await runCli(['upgrade', '--json'], { cwd: root })).data<{ upToDate: boolean }>().upToDate, name).toBe(true);
  // After upgrade, its export validates against the shipped JSON Schema of the .squad format.
  const schemaOut = path.join(tempDir(), `${name}-upgraded.squad`);
  const schemaExport = await runCli(['export', '--out', schemaOut], { cwd: root });
  expect(schemaExport.code, schemaExport.stderr).toBe(0);
  expect(squadSchemaErrors(JSON.parse(fs.readFileSync(schemaOut, 'utf8')) as unknown), name).toEqual([]);
  expect(exists(root, '.squad')).toBe(false);
  const validate = await runCli(['skills', 'validate', '--json'], { cwd: root });
  expect(validate.data<{ skills: { path: string; valid: boolean }[] }>().skills.filter((skill) => !skill.valid)).toEqual([]);

  const doctor = await runCli(['doctor', '--json'], { cwd: root });
  const report = doctor.data<{ findings: { code: string; message: string }[]; checked: { mcpServers: number } }>();
  const findings = report.findings;
  expect(findings.filter((f) => ['charter-missing', 'two-squads', 'skill-original-style', 'casting-member-unfinished'].includes(f.code))).toEqual([]);
  // The original's skill tools are no MCP servers: none declared, no `{server}/*` tool on any member's agent.
  expect(report.checked.mcpServers, name).toBe(0);
  for (const agent of fs.readdirSync(path.join(root, '.github/agents')).filter((file) => file !== 'squad.agent.md'))
    expect(/^tools: (.*)$/m.exec(read(root, `.github/agents/${agent}`))?.[1], `${name} ${agent}`).not.toMatch(/\/\*/);
  expect(findUniverse(universe), universe).toBeDefined();
  // A member folder the roster never listed (squad-cli's Rai) is named, with its fix; a roster member never is.
  for (const finding of findings.filter((f) => f.code === 'member-not-in-roster')) expect(roster.map((m) => m.name)).not.toContain(finding.message.split(' ')[0]);

  const first = workers[0]!;
  const prompt = await runCli(['prompt', first.name, '--task', 'review the last change'], { cwd: root });
  expect(prompt.code, prompt.stderr).toBe(0);
  expect(prompt.stdout).toContain(`You are ${first.displayName}, the ${first.role}`);

  const route = await runCli(['route', 'write tests for the edge cases', '--json'], { cwd: root });
  const ranking = route.data<{ ranking: { agent: string; role?: string }[] }>().ranking;
  expect(ranking.map((r) => r.agent).sort()).toEqual(expect.arrayContaining(workers.map((m) => m.name).sort()));
  expect(ranking.filter((r) => workers.some((m) => m.name === r.agent)).every((r) => r.role !== undefined)).toBe(true);

  const hired = await runCli(['hire', 'Docs Writer', '--json'], { cwd: root });
  expect(hired.code, hired.stderr).toBe(0);
  expect(hired.data<{ universe: string }>().universe).toBe(universe);
  const team = read(root, squadPaths.team);
  expect(team.slice(team.indexOf('## Members'))).toContain(`| ${hired.data<{ member: { name: string } }>().member.name} |`);

  const out = path.join(tempDir(), `${name}.squad`);
  const exported = await runCli(['export', '--out', out, '--json'], { cwd: root });
  expect(exported.code, exported.stderr).toBe(0);
  expect(exported.stdout).not.toMatch(/not a valid casting/);
  const target = tempRepo();
  const imported = await runCli(['import', out, '--json'], { cwd: target });
  expect(imported.code, imported.stderr).toBe(0);
  expect(imported.data<ImportJson>().universe).toBe(universe);
  expect(parseRoster(read(target, squadPaths.team)).map((m) => m.displayName)).toEqual(parseRoster(read(root, squadPaths.team)).map((m) => m.displayName));
  expect(JSON.parse(read(target, squadPaths.castingRegistry))).toEqual(JSON.parse(read(root, squadPaths.castingRegistry)));
}

describe.skipIf(!HAS_ORIGINAL_DATA)("the original Squad's real squads", () => {
  it.each(['s1', 's2real'] as const)(
    '%s (.ai-team/): upgrade loses nothing and its export meets the JSON Schema; doctor, prompt, route, hire, export and import see its members, roles, universe and skills',
    async (name) => {
      const root = (await originalUpgrade(name)).pristineCopy();
      const before = await runCli(['prompt', parseRoster(read(root, squadPaths.team))[0]!.name, '--task', 'x'], { cwd: root });
      expect(before.code, before.stderr).toBe(0);
      await checkSquad(name, '.ai-team');
    },
  );

  it.each(['v05', 'h1'] as const)(
    '%s (.squad/): every command says to upgrade; upgrade moves it and loses nothing, its export meets the JSON Schema; then every command sees it',
    async (name) => {
      const root = (await originalUpgrade(name)).pristineCopy();
      const route = await runCli(['route', 'x'], { cwd: root });
      expect(route.code).toBe(1);
      expect(route.stderr).toMatch(/is in \.squad\/.*run "npx create-squad@\d[^ ]* upgrade" to move it/);
      await checkSquad(name, '.squad');
    },
  );
});
