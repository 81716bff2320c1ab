import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { charterPath, historyPath, squadPaths } from '../../src/core/paths.js';
import { parseRoster } from '../../src/core/roster.js';
import type { HireData } from '../../src/commands/hire.js';
import { cleanupTempDirs, hashTree, listFiles, runCli, tempRepo, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

type HireJson = HireData & { ok: boolean };

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

function squad(args: string[] = []): string {
  const root = tempRepo();
  const result = runCli(['init', '--yes', ...args], { cwd: root });
  if (result.code !== 0) throw new Error(result.stderr);
  return root;
}

/** Every file (path → content) except the ones a hire may change. */
function others(root: string, except: string[]): Record<string, string> {
  return Object.fromEntries(listFiles(root).filter((rel) => !except.includes(rel)).map((rel) => [rel, read(root, rel)]));
}

const CHANGED = [squadPaths.team, squadPaths.routing, squadPaths.castingRegistry, squadPaths.castingHistory];

describe('hire', () => {
  it('adds a member with the next casting name, touching nobody else', () => {
    const root = squad();
    const before = others(root, CHANGED);
    const team = read(root, squadPaths.team);
    const routing = read(root, squadPaths.routing);
    const result = runCli(['hire', 'frontend', '--json'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    const data = result.json<HireJson>();
    expect(data).toMatchObject({ ok: true, member: { name: 'McManus', role: 'Frontend Dev', folder: 'mcmanus' }, universe: 'The Usual Suspects', casting: 'cast', dryRun: false });
    expect(data.created).toEqual([charterPath('mcmanus'), historyPath('mcmanus')]);
    expect(data.modified.sort()).toEqual([...CHANGED].sort());

    // Rows are added; every existing byte stays.
    const newTeam = read(root, squadPaths.team);
    const row = '| McManus | Frontend Dev | `.ai-team/agents/mcmanus/charter.md` | ✅ Active |\n';
    expect(newTeam.replace(row, '')).toBe(team);
    expect(parseRoster(newTeam).map((m) => m.displayName)).toEqual(['Keaton', 'Fenster', 'Hockney', 'Scribe', 'McManus']);
    const newRouting = read(root, squadPaths.routing);
    const routingRow = newRouting.split('\n').find((line) => line.includes('| McManus |'))!;
    expect(routingRow).toMatch(/^\| User interface: .* \| McManus \| Frontend Dev \|$/);
    expect(newRouting.replace(`${routingRow}\n`, '')).toBe(routing);

    const registry = JSON.parse(read(root, squadPaths.castingRegistry)).members;
    expect(registry.at(-1)).toEqual({ name: 'McManus', folder: 'mcmanus', role: 'Frontend Dev', universe: 'The Usual Suspects' });
    expect(registry).toHaveLength(4);
    expect(JSON.parse(read(root, squadPaths.castingHistory)).events.at(-1)).toMatchObject({ event: 'cast', name: 'McManus' });
    expect(read(root, charterPath('mcmanus'))).toContain('# McManus — Frontend Dev');
    expect(others(root, [...CHANGED, charterPath('mcmanus'), historyPath('mcmanus')])).toEqual(before);

    // init afterwards sees a complete squad that includes the new member.
    const again = runCli(['init', '--json'], { cwd: root });
    expect(again.json<{ created: string[] }>().created).toEqual([]);
  });

  it('takes a name with --name and carries the project context into the history', () => {
    const root = squad(['--project', 'Billing service', '--owner', 'Ada']);
    const result = runCli(['hire', 'Data Engineer', '--name', 'Dave Kujan'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^✓ Hired Dave Kujan as Data Engineer\n/);
    expect(read(root, historyPath('dave-kujan'))).toContain('- **Project:** Billing service');
    expect(read(root, charterPath('dave-kujan'))).toContain('- **Works for:** Ada');
    const last = JSON.parse(read(root, squadPaths.castingRegistry)).members.at(-1);
    expect(last).toEqual({ name: 'Dave Kujan', folder: 'dave-kujan', role: 'Data Engineer', universe: null });
    // The next cast name skips nothing it does not have to.
    expect(runCli(['hire', 'Tester', '--json'], { cwd: root }).json<HireJson>().member.name).toBe('McManus');
  });

  it('refuses a name already in the squad, listing the members', () => {
    const root = squad();
    const before = hashTree(root);
    for (const name of ['keaton', 'HOCKNEY', 'Scribe']) {
      const result = runCli(['hire', 'Tester', '--name', name], { cwd: root });
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toMatch(/^✗ the squad already has a member named ".*" — members: Keaton, Fenster, Hockney, Scribe; /);
    }
    expect(hashTree(root)).toBe(before);
  });

  it('writes nothing with --dry-run', () => {
    const root = squad();
    const before = hashTree(root);
    const result = runCli(['hire', 'DevOps', '--dry-run', '--json'], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.json<HireJson>()).toMatchObject({ dryRun: true, member: { name: 'McManus', role: 'DevOps' } });
    const text = runCli(['hire', 'DevOps', '--dry-run'], { cwd: root });
    expect(text.stdout).toContain('Would hire McManus as DevOps');
    expect(text.stdout).toContain('Dry run: nothing was written.');
    expect(hashTree(root)).toBe(before);
  });

  it('rejects bad input with clear errors and writes nothing', () => {
    const noSquad = tempRepo();
    const missing = runCli(['hire', 'Tester'], { cwd: noSquad });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^✗ no squad found/);
    expect(fs.readdirSync(noSquad)).toEqual(['.git']);

    const root = squad();
    const before = hashTree(root);
    const empty = runCli(['hire', '  '], { cwd: root });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/^✗ the role is empty/);
    expect(runCli(['hire', 'Scribe'], { cwd: root }).code).toBe(2);
    expect(runCli(['hire', 'Tester', '--name', '!!!'], { cwd: root }).code).toBe(2);
    expect(runCli(['hire'], { cwd: root }).code).toBe(2);
    expect(hashTree(root)).toBe(before);

    writeFiles(root, { [squadPaths.castingRegistry]: '{ broken' });
    const brokenTree = hashTree(root);
    const broken = runCli(['hire', 'Tester'], { cwd: root });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^✗ \.ai-team\/casting\/registry\.json is not valid: not valid JSON/);
    expect(hashTree(root)).toBe(brokenTree);

    writeFiles(root, { [squadPaths.castingRegistry]: '{"schema": 1, "members": []}', [squadPaths.team]: '# Team without a table\n' });
    const noTableTree = hashTree(root);
    const noTable = runCli(['hire', 'Tester'], { cwd: root });
    expect(noTable.code).toBe(1);
    expect(noTable.stderr).toMatch(/has no roster table/);
    expect(hashTree(root)).toBe(noTableTree);
  });

  it('fills a --no-team squad and keeps CRLF files CRLF', () => {
    const root = squad(['--no-team']);
    const crlf = read(root, squadPaths.team).replace(/\n/g, '\r\n');
    writeFiles(root, { [squadPaths.team]: crlf });
    const result = runCli(['hire', 'Lead', '--json'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.json<HireJson>().member.name).toBe('Keaton');
    const team = read(root, squadPaths.team);
    expect(team.startsWith(crlf.slice(0, crlf.indexOf('| Scribe')))).toBe(true);
    expect(team).toContain('| Keaton | Lead | `.ai-team/agents/keaton/charter.md` | ✅ Active |\r\n');
    expect(team.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('refuses a symlinked roster before writing anything', () => {
    const root = squad();
    fs.renameSync(path.join(root, squadPaths.team), path.join(root, 'team-real.md'));
    fs.symlinkSync('../team-real.md', path.join(root, squadPaths.team));
    const before = hashTree(root);
    const result = runCli(['hire', 'Tester'], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^✗ refusing to write \.ai-team\/team\.md: .* is a symlink/);
    expect(hashTree(root)).toBe(before);
  });

  it('warns and still hires when routing.md is missing', () => {
    const root = squad();
    fs.rmSync(path.join(root, squadPaths.routing));
    const result = runCli(['hire', 'Tester'], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^⚠ \.ai-team\/routing\.md is missing/);
    expect(fs.existsSync(path.join(root, squadPaths.routing))).toBe(false);
  });

  it('overflows to the next universe when the names run out', () => {
    const root = squad(['--roles', Array.from({ length: 15 }, (_, i) => `R${i}`).join(',')]);
    const result = runCli(['hire', 'Tester', '--json'], { cwd: root });
    expect(result.json<HireJson>()).toMatchObject({ member: { name: 'Danny' }, universe: "Ocean's Eleven", casting: 'overflow' });
    const event = JSON.parse(read(root, squadPaths.castingHistory)).events.at(-1);
    expect(event).toMatchObject({ event: 'overflow', name: 'Danny', note: expect.stringContaining('capacity 15') });
  });
});
