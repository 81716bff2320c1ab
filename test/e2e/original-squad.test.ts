/**
 * Squads made by the original Squad, reproduced in our own words (test/helpers/original-squad.ts):
 * their roster layout, casting files and skills, read by every command.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRoster } from '../../src/core/roster.js';
import { squadPaths } from '../../src/core/paths.js';
import { cleanupTempDirs, runCli, tempDir, tempRepo } from '../helpers/cli.js';
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
    const report = doctor.json<{ findings: { code: string; message: string }[]; checked: { members: number } }>();
    expect(report.findings.map((f) => f.message).join('\n')).not.toMatch(/\bSquad is in the roster|agents\/squad\//);
    expect(report.findings.filter((f) => f.code === 'member-not-in-roster')).toEqual([]);
    expect(report.checked.members).toBe(4);

    const prompt = await runCli(['prompt', 'parker', '--task', 'add a dock endpoint'], { cwd: root });
    expect(prompt.code, prompt.stderr).toBe(0);
    expect(prompt.stdout).toContain('You are Parker, the Backend Dev');

    const route = await runCli(['route', 'write integration tests for rides', '--json'], { cwd: root });
    const suggestion = route.json<{ agent: string; ranking: { agent: string; role?: string }[] }>();
    expect(suggestion.ranking.map((r) => `${r.agent}:${r.role}`).sort()).toEqual(['lambert:Tester', 'parker:Backend Dev', 'ripley:Lead']);

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
    const data = hired.json<{ member: { name: string }; universe: string }>();
    expect(data.universe).toBe('Alien');
    expect(['Ripley', 'Parker', 'Lambert', 'Brett']).not.toContain(data.member.name);
    const team = read(root, squadPaths.team);
    const row = team.split('\n').find((line) => line.startsWith(`| ${data.member.name} |`))!;
    expect(team.replace(`${row}\n`, '')).toBe(before);
    expect(team.indexOf(row)).toBeGreaterThan(team.indexOf('## Members'));
    expect(team.indexOf(row)).toBeLessThan(team.indexOf('| Scribe |'));
    expect(parseRoster(team).map((m) => m.displayName)).toEqual(['Ripley', 'Parker', 'Lambert', data.member.name, 'Scribe', 'Dana']);
  });

  it('hire accepts a custom universe the registry records, and overflows once its names are taken', async () => {
    const root = originalSquad('StarCraft');
    const hired = await runCli(['hire', 'Frontend Dev', '--json'], { cwd: root });
    expect(hired.code, hired.stderr).toBe(0);
    const data = hired.json<{ universe: string; casting: string }>();
    expect(data.casting).toBe('overflow');
    const events = JSON.parse(read(root, squadPaths.castingHistory)).events as { note?: string }[];
    expect(events.at(-1)!.note).toMatch(/"StarCraft" is a custom universe with no free name left/);
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
    expect(parseRoster(read(target, squadPaths.team)).map((m) => `${m.displayName}:${m.human}`)).toEqual(['Ripley:false', 'Parker:false', 'Lambert:false', 'Scribe:false', 'Dana:true']);
  });
});
