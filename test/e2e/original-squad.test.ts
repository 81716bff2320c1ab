/**
 * Squads made by the original Squad, reproduced in our own words (test/helpers/original-squad.ts):
 * their roster layout, casting files and skills, read by every command.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRoster } from '../../src/core/roster/roster.js';
import { ORIGINAL_SQUAD_DIR, squadPaths } from '../../src/core/base/paths.js';
import { observeWrites } from '../../src/core/fs/fs-safe.js';
import { cleanupTempDirs, hashTree, listFiles, runCli, tempDir, tempRepo, writeFiles } from '../helpers/cli.js';
import { debrisLeft } from '../helpers/debris.js';
import { matrixWrites } from '../helpers/kill-matrix.js';
import { fileContents, fileHashes, lostFiles } from '../helpers/original-data.js';
import { originalSquadFiles, writeOriginalSquad } from '../helpers/original-squad.js';

afterAll(cleanupTempDirs);

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

function originalSquad(universe?: string): string {
  const root = tempRepo();
  writeOriginalSquad(root, universe === undefined ? {} : { universe });
  return root;
}

describe('the original roster layout', () => {
  it('doctor, prompt and route see the Members table: members, roles, the human, never the coordinator', async () => {
    const root = originalSquad();
    const doctor = await runCli(['doctor', '--json'], { cwd: root });
    const report = doctor.data<{ findings: { code: string; message: string }[]; checked: { members: number } }>();
    expect(report.findings.map((f) => f.message).join('\n')).not.toMatch(/\bSquad is in the roster|agents\/squad\//);
    expect(report.findings.filter((f) => f.code === 'member-not-in-roster')).toEqual([]);
    expect(report.checked.members).toBe(4);

    const prompt = await runCli(['prompt', 'parker', '--task', 'add a dock endpoint'], { cwd: root });
    expect(prompt.code, prompt.stderr).toBe(0);
    expect(prompt.stdout).toContain('You are Parker, the Backend Dev');

    const route = await runCli(['route', 'write integration tests for rides', '--json'], { cwd: root });
    const suggestion = route.data<{ agent: string; ranking: { agent: string; role?: string }[] }>();
    expect(suggestion.ranking.map((r) => `${r.agent}:${r.role}`).sort()).toEqual(['lambert:Tester', 'parker:Backend Dev', 'ripley:Lead']);

    expect(route.data()).not.toHaveProperty('humans');
    const decision = await runCli(['route', 'decide the price of a monthly pass', '--json'], { cwd: root });
    expect(decision.data<{ humans: object[] }>().humans).toEqual([{ name: 'dana', displayName: 'Dana', role: 'Product Owner' }]);
    expect((await runCli(['route', 'decide the price of a monthly pass'], { cwd: root })).stdout).toMatch(/Ask: +Dana \(Product Owner\), a human member: never spawned/);

    const human = await runCli(['prompt', 'Dana', '--task', 'approve pricing'], { cwd: root });
    expect(human.code).toBe(1);
    expect(human.stderr).toMatch(/Dana is a human member of this squad \(Product Owner\): humans are never spawned/);
  });

  it('init creates no folder for the coordinator or the human, and keeps every byte of team.md', async () => {
    const root = originalSquad();
    const before = read(root, squadPaths.team);
    const init = await runCli(['init', '--yes', '--json'], { cwd: root });
    expect(init.code, init.stderr).toBe(0);
    expect(fs.existsSync(path.join(root, squadPaths.agents, 'squad'))).toBe(false);
    expect(fs.existsSync(path.join(root, squadPaths.agents, 'dana'))).toBe(false);
    expect(read(root, squadPaths.team)).toBe(before);
  });

  it('hire casts from the universe the registry records, appends to the Members table, and keeps the other sections', async () => {
    const root = originalSquad();
    const before = read(root, squadPaths.team);
    const hired = await runCli(['hire', 'Frontend Dev', '--json'], { cwd: root });
    expect(hired.code, hired.stderr).toBe(0);
    const data = hired.data<{ member: { name: string }; universe: string }>();
    expect(data.universe).toBe('Alien');
    expect(['Ripley', 'Parker', 'Lambert', 'Brett']).not.toContain(data.member.name);
    const team = read(root, squadPaths.team);
    const row = team.split('\n').find((line) => line.startsWith(`| ${data.member.name} |`))!;
    expect(team.replace(`${row}\n`, '')).toBe(before);
    expect(team.indexOf(row)).toBeGreaterThan(team.indexOf('## Members'));
    expect(team.indexOf(row)).toBeLessThan(team.indexOf('| Scribe |'));
    expect(parseRoster(team).map((m) => m.displayName)).toEqual(['Ripley', 'Parker', 'Lambert', data.member.name, 'Scribe', 'Dana']);
  });

  it("hire keeps a custom universe the registry records as the team's own: numbered names of it once its names are taken, never a name twice", async () => {
    const root = originalSquad('StarCraft');
    const hired = await runCli(['hire', 'Frontend Dev', '--json'], { cwd: root });
    expect(hired.code, hired.stderr).toBe(0);
    expect(hired.data<{ universe: string; casting: string; member: { name: string } }>()).toMatchObject({
      universe: 'StarCraft',
      casting: 'overflow',
      member: { name: 'Ripley 2' },
    });
    const events = JSON.parse(read(root, squadPaths.castingHistory)).events as { note?: string }[];
    expect(events.at(-1)!.note).toMatch(/"StarCraft" is the team's own universe and has no free name left/);
    const again = await runCli(['hire', 'Tester', '--json'], { cwd: root });
    expect(again.data<{ universe: string; member: { name: string } }>()).toMatchObject({ universe: 'StarCraft', member: { name: 'Parker 2' } });
    const named = await runCli(['hire', 'Designer', '--name', 'Zeratul', '--json'], { cwd: root });
    expect(named.code, named.stderr).toBe(0);
    expect((await runCli(['hire', 'Designer', '--name', 'Ripley 2'], { cwd: root })).code).toBe(1);
  });

  it('export keeps the original casting files, and import brings them back as they were', async () => {
    const root = originalSquad();
    const out = path.join(tempDir(), 'bikes.squad');
    const exported = await runCli(['export', '--out', out, '--json'], { cwd: root });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).not.toMatch(/not a valid casting/);
    const target = tempRepo();
    const imported = await runCli(['import', out, '--json'], { cwd: target });
    expect(imported.code, imported.stderr).toBe(0);
    const files = originalSquadFiles();
    for (const rel of [squadPaths.castingPolicy, squadPaths.castingRegistry, squadPaths.castingHistory]) {
      expect(JSON.parse(read(target, rel))).toEqual(JSON.parse(files[rel]!));
    }
    expect(parseRoster(read(target, squadPaths.team)).map((m) => `${m.displayName}:${m.human}`)).toEqual([
      'Ripley:false',
      'Parker:false',
      'Lambert:false',
      'Scribe:false',
      'Dana:true',
    ]);
  });
});

function dotSquad(): string {
  const root = tempRepo();
  writeOriginalSquad(root, { dir: '.squad' });
  return root;
}

/** Every file outside the backups, with its hash: two squads that compare equal hold the same files. */
function withoutBackups(root: string): Map<string, string> {
  return new Map([...fileHashes(root)].filter(([rel]) => !rel.startsWith(`${squadPaths.backups}/`)));
}

describe("a squad in .squad/ (the original Squad's v0.5 and later)", () => {
  it('every command says what to do, never to run init, and writes nothing', async () => {
    const root = dotSquad();
    const before = hashTree(root);
    const doctor = await runCli(['doctor', '--json'], { cwd: root });
    expect(doctor.code).toBe(1);
    expect(doctor.error()).toMatchObject({ code: 'no-squad', hint: expect.stringMatching(/create-squad@\d[^ ]* upgrade/) });
    const out = path.join(tempDir(), 'x.squad');
    const squadFile = path.join(tempDir(), 'in.squad');
    fs.writeFileSync(squadFile, JSON.stringify({ squad_format_version: '1.1', agents: {} }));
    for (const args of [
      ['doctor'],
      ['prompt', 'parker', '--task', 'x'],
      ['route', 'add a dock endpoint'],
      ['hire', 'Tester'],
      ['export', '--out', out],
      ['init', '--yes'],
      ['import', squadFile],
      ['teach', '--team', 'always run the linter before pushing'],
    ]) {
      const result = await runCli(args, { cwd: root });
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr, args.join(' ')).toMatch(/is in \.squad\/, where the original Squad \(v0\.5 and later\) keeps it.*run "npx create-squad@\d[^ ]* upgrade" to move it/);
      expect(result.stderr).not.toMatch(/no squad found/);
    }
    const sub = path.join(root, 'packages', 'app');
    fs.mkdirSync(sub, { recursive: true });
    expect((await runCli(['route', 'x'], { cwd: sub })).stderr).toMatch(/is in \.squad\//);
    fs.rmdirSync(sub);
    fs.rmdirSync(path.dirname(sub));
    expect(hashTree(root)).toBe(before);
  });

  it('upgrade moves it to .ai-team/ with one rename (dry run first), backs up the roster it changes, and loses nothing', async () => {
    const root = dotSquad();
    writeFiles(root, { '.squad/agents/Wash/charter.md': '# Wash — Pilot\n', '.github/workflows/squad-triage.yml': 'on: issues\n# reads .squad/team.md\n' });
    const before = hashTree(root);
    const dry = await runCli(['upgrade', '--dry-run', '--json'], { cwd: root });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.data<{ squadDir: { moved: object; renamed: object[] } }>().squadDir).toMatchObject({
      moved: { from: '.squad', to: '.ai-team' },
      renamed: [{ from: '.ai-team/agents/Wash', to: '.ai-team/agents/wash' }],
    });
    expect(hashTree(root)).toBe(before);

    const pristine = fileContents(root);
    const team = read(root, '.squad/team.md');
    const result = await runCli(['upgrade', '--json'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(fs.existsSync(path.join(root, ORIGINAL_SQUAD_DIR))).toBe(false);
    expect(lostFiles(pristine, root)).toEqual([]);
    const data = result.data<{ squadDir: { roster: { backup: string }; notes: string[] } }>();
    expect(read(root, data.squadDir.roster.backup)).toBe(team);
    // The Charter cells point at .ai-team/, and Wash, whom the roster left out, has a row with its charter's role.
    const scribeRow = '| Scribe | Session Logger |';
    expect(read(root, squadPaths.team)).toBe(
      team.replace(/`\.squad\/agents\//g, '`.ai-team/agents/').replace(scribeRow, `| Wash | Pilot | \`.ai-team/agents/wash/charter.md\` | ✅ Active |\n${scribeRow}`),
    );
    expect(data.squadDir.notes).toContain('.ai-team/team.md: Wash was not in the roster: it has a row now, as Wash (Pilot, from its charter)');
    expect(data.squadDir.notes.join('\n')).toMatch(/1 file outside the squad still names \.squad\/ \(\.github\/workflows\/squad-triage\.yml\)/);
    expect(fs.existsSync(path.join(root, squadPaths.agents, 'wash', 'charter.md'))).toBe(true);

    const prompt = await runCli(['prompt', 'parker', '--task', 'add a dock endpoint'], { cwd: root });
    expect(prompt.stdout).toContain('You are Parker, the Backend Dev');
    const again = await runCli(['upgrade', '--json'], { cwd: root });
    expect(again.data()).not.toHaveProperty('squadDir');
  });

  it('killed after any write, the next upgrade finishes the move: one squad, nothing lost', async () => {
    const reference = dotSquad();
    let total = 0;
    observeWrites((count) => {
      total = count;
    });
    try {
      const upgrade = await runCli(['upgrade'], { cwd: reference });
      expect(upgrade.code, upgrade.stderr).toBe(0);
    } finally {
      observeWrites(undefined);
    }
    const expected = withoutBackups(reference);
    expect(total, 'the upgrade makes a bounded number of writes').toBeLessThan(200);
    // The move and the roster's writes come first; then a sample of the usual upgrade's in
    // `npm test`, every write with CREATE_SQUAD_MATRIX=full.
    for (const k of matrixWrites(total, (last) => [1, 2, 3, 4, 5, 6, Math.round(last / 2), last])) {
      const root = dotSquad();
      const pristine = fileContents(root);
      const killed = await runCli(['upgrade'], { cwd: root, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(k) } });
      expect(killed.code, `k=${k}: not killed`).toBe(-1);
      expect(fs.existsSync(path.join(root, ORIGINAL_SQUAD_DIR)) && fs.existsSync(path.join(root, squadPaths.root)), `k=${k}: two squads`).toBe(false);
      const again = await runCli(['upgrade'], { cwd: root });
      expect(again.code, `k=${k}: ${again.stderr}`).toBe(0);
      expect(withoutBackups(root), `k=${k}`).toEqual(expected);
      expect(lostFiles(pristine, root), `k=${k}`).toEqual([]);
      expect(debrisLeft(root), `k=${k}`).toEqual([]);
    }
  });

  it('beside a squad in .ai-team/ it is two teams: upgrade refuses and writes nothing, doctor says which to keep', async () => {
    const root = dotSquad();
    writeFiles(root, { '.ai-team/team.md': '# Team\n' });
    const before = hashTree(root);
    const result = await runCli(['upgrade'], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^✗ this repository has two squads: \.squad\/ \(made by the original Squad\) and \.ai-team\/ — keep one/);
    expect(hashTree(root)).toBe(before);
    const doctor = await runCli(['doctor', '--json'], { cwd: root });
    expect(doctor.data<{ findings: { code: string }[] }>().findings.map((f) => f.code)).toContain('two-squads');
    expect(listFiles(root).some((rel) => rel.startsWith(`${squadPaths.backups}/`))).toBe(false);
  });
});

describe("skills in the original Squad's style", () => {
  const SKILLS = ['dock-sync', 'flaky-ride-tests', 'map-tiles'];

  it('doctor names each with what upgrade changes; upgrade makes each standard, backed up and reported file by file', async () => {
    const root = originalSquad();
    const doctor = await runCli(['doctor', '--json'], { cwd: root });
    const findings = doctor.data<{ findings: { code: string; severity: string; path?: string; fix: string }[] }>().findings;
    const original = findings.filter((f) => f.code === 'skill-original-style');
    expect(original.map((f) => `${f.path}:${f.severity}`).sort()).toEqual([
      '.ai-team/skills/dock-sync/SKILL.md:warning',
      '.ai-team/skills/flaky-ride-tests/SKILL.md:error',
      '.ai-team/skills/map-tiles/SKILL.md:error',
    ]);
    for (const finding of original) expect(finding.fix).toMatch(/^run "create-squad upgrade": it makes the skill standard/);
    expect(findings.filter((f) => f.code === 'skill-field-unknown' && SKILLS.some((name) => f.path?.includes(name)))).toEqual([]);

    const before = Object.fromEntries(SKILLS.map((name) => [name, read(root, `.ai-team/skills/${name}/SKILL.md`)]));
    const upgrade = await runCli(['upgrade', '--json'], { cwd: root });
    expect(upgrade.code, upgrade.stderr).toBe(0);
    const converted = upgrade.data<{ originalSkills: { path: string; backup: string; changes: string[] }[] }>().originalSkills;
    expect(converted.map((c) => c.path)).toEqual(SKILLS.map((name) => `.ai-team/skills/${name}/SKILL.md`));
    for (const [index, name] of SKILLS.entries()) {
      expect(read(root, converted[index]!.backup)).toBe(before[name]);
      expect(read(root, `.github/skills/${name}/SKILL.md`).endsWith(before[name]!.replace(/^---[\s\S]*?\n---\n/, ''))).toBe(true);
    }
    // Its tools are named in a note the member reads, never made MCP servers (no table of servers, no `{server}/*` tools).
    const dockSync = converted.find((c) => c.path.includes('/dock-sync/'))!;
    expect(dockSync.changes).toContain('tools → a note before the body (tools and commands, not MCP servers)');
    expect(read(root, '.github/skills/dock-sync/SKILL.md')).toMatch(/^---\n[\s\S]*?\n---\n> \*\*Tools this skill names\*\*/);
    expect(read(root, '.github/skills/dock-sync/SKILL.md')).not.toMatch(/mcp-servers/);
    const members = fs.readdirSync(path.join(root, '.github/agents')).filter((agent) => agent !== 'squad.agent.md');
    expect(members.length).toBeGreaterThan(0);
    for (const agent of members) expect(/^tools: (.*)$/m.exec(read(root, `.github/agents/${agent}`))?.[1], agent).not.toMatch(/\/\*/);
    const validate = await runCli(['skills', 'validate'], { cwd: root });
    expect(validate.code, validate.stdout).toBe(0);
    const after = await runCli(['doctor', '--json'], { cwd: root });
    expect(after.data<{ findings: { code: string }[] }>().findings.map((f) => f.code)).not.toContain('skill-original-style');
    const again = await runCli(['upgrade', '--json'], { cwd: root });
    expect(again.data()).not.toHaveProperty('originalSkills');
  });
});
