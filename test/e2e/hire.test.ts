import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { memberProfilePath } from '../../src/core/squad/agents/member-profile.js';
import { planHire } from '../../src/core/team/hire-state.js';
import { applyPlan } from '../../src/core/fs/apply-plan.js';
import { charterPath, historyPath, squadPaths } from '../../src/core/base/paths.js';
import { parseRoster } from '../../src/core/roster/roster.js';
import type { HireData } from '../../src/commands/hire.js';
import { cleanupTempDirs, filesWithoutTimes, hashTree, initSquad, listFiles, runCli, tempDir, tempRepo, writeFiles } from '../helpers/cli.js';
import { debrisLeft } from '../helpers/debris.js';
import { matrixWrites } from '../helpers/kill-matrix.js';

afterAll(cleanupTempDirs);

type HireJson = HireData;

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

async function squad(args: string[] = []): Promise<string> {
  return initSquad(['--yes', ...args]);
}

/** Every file (path → content) except the ones a hire may change. */
function others(root: string, except: string[]): Record<string, string> {
  return Object.fromEntries(
    listFiles(root)
      .filter((rel) => !except.includes(rel))
      .map((rel) => [rel, read(root, rel)]),
  );
}

const CHANGED = [squadPaths.team, squadPaths.routing, squadPaths.castingRegistry, squadPaths.castingHistory];

describe('hire', () => {
  it('adds a member with the next casting name, touching nobody else', async () => {
    const root = await squad();
    const before = others(root, CHANGED);
    const team = read(root, squadPaths.team);
    const routing = read(root, squadPaths.routing);
    const result = await runCli(['hire', 'frontend', '--json'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.envelope()).toMatchObject({
      ok: true,
      warnings: [{ code: 'role-alias', message: '"frontend" is recorded as Frontend Dev, a role create-squad knows (its routing row and charter wording come with it)' }],
    });
    const data = result.data<HireJson>();
    expect(data).toMatchObject({ member: { name: 'McManus', role: 'Frontend Dev', folder: 'mcmanus' }, universe: 'The Usual Suspects', casting: 'cast', dryRun: false });
    expect(data.created).toEqual([charterPath('mcmanus'), historyPath('mcmanus'), memberProfilePath('mcmanus')]);
    expect(data.modified.sort()).toEqual([...CHANGED].sort());

    // Rows are added; every existing byte stays.
    const newTeam = read(root, squadPaths.team);
    const row = '| McManus | Frontend Dev | `.ai-team/agents/mcmanus/charter.md` | ✅ Active |\n';
    expect(newTeam.replace(row, '')).toBe(team);
    expect(parseRoster(newTeam).map((m) => m.displayName)).toEqual(['Keaton', 'Fenster', 'Hockney', 'McManus', 'Scribe']);
    const newRouting = read(root, squadPaths.routing);
    const routingRow = newRouting.split('\n').find((line) => line.includes('| McManus |'))!;
    expect(routingRow).toMatch(/^\| User interface: .* \| McManus \| Frontend Dev \|$/);
    // The Scribe stays last, in both tables.
    const tableRows = (text: string) => text.split('\n').filter((line) => /^\| (?!-|Name |Work Type )/.test(line));
    expect(tableRows(newRouting).at(-1)).toMatch(/\| Scribe \| Session Logger \|$/);
    expect(tableRows(newTeam).at(-1)).toMatch(/^\| Scribe \|/);
    expect(newRouting.replace(`${routingRow}\n`, '')).toBe(routing);

    const registry = JSON.parse(read(root, squadPaths.castingRegistry)).members;
    expect(registry.at(-1)).toEqual({ name: 'McManus', folder: 'mcmanus', role: 'Frontend Dev', universe: 'The Usual Suspects' });
    expect(registry).toHaveLength(4);
    expect(JSON.parse(read(root, squadPaths.castingHistory)).events.at(-1)).toMatchObject({ event: 'cast', name: 'McManus' });
    expect(read(root, charterPath('mcmanus'))).toContain('# McManus — Frontend Dev');
    expect(others(root, [...CHANGED, charterPath('mcmanus'), historyPath('mcmanus'), memberProfilePath('mcmanus')])).toEqual(before);

    // init afterwards sees a complete squad that includes the new member.
    const again = await runCli(['init', '--json'], { cwd: root });
    expect(again.data<{ created: string[] }>().created).toEqual([]);
  });

  it('takes a name with --name and carries the project context into the history', async () => {
    const root = await squad(['--project', 'Billing service', '--owner', 'Ada']);
    const result = await runCli(['hire', 'Data Engineer', '--name', 'Dave Kujan'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^✓ Hired Dave Kujan as Data Engineer\n/);
    expect(read(root, historyPath('dave-kujan'))).toContain('- **Project:** Billing service');
    expect(read(root, charterPath('dave-kujan'))).toContain('- **Works for:** Ada');
    const last = JSON.parse(read(root, squadPaths.castingRegistry)).members.at(-1);
    expect(last).toEqual({ name: 'Dave Kujan', folder: 'dave-kujan', role: 'Data Engineer', universe: null });
    // The next cast name skips nothing it does not have to.
    expect((await runCli(['hire', 'Tester', '--json'], { cwd: root })).data<HireJson>().member.name).toBe('McManus');
  });

  it('refuses a name already in the squad, listing the members', async () => {
    const root = await squad();
    const before = hashTree(root);
    for (const name of ['keaton', 'HOCKNEY', 'Scribe']) {
      const result = await runCli(['hire', 'Tester', '--name', name], { cwd: root });
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toMatch(/^✗ the squad already has a member named ".*" — members: Keaton, Fenster, Hockney, Scribe; /);
    }
    expect(hashTree(root)).toBe(before);
  });

  it('writes nothing with --dry-run', async () => {
    const root = await squad();
    const before = hashTree(root);
    const result = await runCli(['hire', 'DevOps', '--dry-run', '--json'], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.data<HireJson>()).toMatchObject({ dryRun: true, member: { name: 'McManus', role: 'DevOps' } });
    const text = await runCli(['hire', 'DevOps', '--dry-run'], { cwd: root });
    expect(text.stdout).toContain('Would hire McManus as DevOps');
    expect(text.stdout).toContain('Dry run: nothing was written.');
    expect(hashTree(root)).toBe(before);
  });

  it('rejects bad input with clear errors and writes nothing', async () => {
    const noSquad = tempRepo();
    const missing = await runCli(['hire', 'Tester'], { cwd: noSquad });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^✗ no squad found/);
    expect(fs.readdirSync(noSquad)).toEqual(['.git']);

    const root = await squad();
    const before = hashTree(root);
    const empty = await runCli(['hire', '  '], { cwd: root });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/^✗ the role is empty/);
    expect((await runCli(['hire', 'Scribe'], { cwd: root })).code).toBe(2);
    expect((await runCli(['hire', 'Tester', '--name', '!!!'], { cwd: root })).code).toBe(2);
    expect((await runCli(['hire'], { cwd: root })).code).toBe(2);
    const linked = await squad();
    fs.rmSync(path.join(linked, squadPaths.team));
    fs.mkdirSync(path.join(linked, squadPaths.team));
    expect((await runCli(['hire', 'Tester'], { cwd: linked })).stderr).toMatch(
      /^✗ \.ai-team\/team\.md is not a readable file \(a folder, a dangling symlink or a special file\) — restore the file from git, or remove/,
    );
    // Names and roles are written into one-line table cells and shown on the terminal.
    const escapes = await runCli(['hire', 'Dev\u001b[31mOps'], { cwd: root });
    expect(escapes.code).toBe(2);
    expect(escapes.stderr.trim()).toBe('✗ the role "Dev\\u001b[31mOps" contains a control character (U+001B) — write the role as plain text, e.g. "Frontend Dev"');
    expect((await runCli(['hire', 'Tester', '--name', 'Ev\u001b[2Jil'], { cwd: root })).stderr).toMatch(/^✗ the name "Ev\\u001b\[2Jil" contains a control character/);
    expect((await runCli(['hire', 'Tester', '--name', '../x'], { cwd: root })).stderr).toMatch(/^✗ the name "\.\.\/x" contains a path separator/);
    expect((await runCli(['hire', 'Tester', '--name', '-keaton-'], { cwd: root })).stderr).toMatch(/^✗ the squad already has a member in \.ai-team\/agents\/keaton\/ — /);
    expect(hashTree(root)).toBe(before);

    writeFiles(root, { [squadPaths.castingRegistry]: '{ broken' });
    const brokenTree = hashTree(root);
    const broken = await runCli(['hire', 'Tester'], { cwd: root });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^✗ \.ai-team\/casting\/registry\.json is not valid: not valid JSON/);
    expect(hashTree(root)).toBe(brokenTree);

    writeFiles(root, { [squadPaths.castingRegistry]: '{"schema": 1, "members": []}', [squadPaths.team]: '# Team without a table\n' });
    const noTableTree = hashTree(root);
    const noTable = await runCli(['hire', 'Tester'], { cwd: root });
    expect(noTable.code).toBe(1);
    expect(noTable.stderr).toMatch(/has no roster table/);
    expect(hashTree(root)).toBe(noTableTree);
  });

  it('fills a --no-team squad and keeps CRLF files CRLF', async () => {
    const root = await squad(['--no-team']);
    const crlf = read(root, squadPaths.team).replace(/\n/g, '\r\n');
    writeFiles(root, { [squadPaths.team]: crlf });
    const result = await runCli(['hire', 'Lead', '--json'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.data<HireJson>().member.name).toBe('Keaton');
    const team = read(root, squadPaths.team);
    expect(team.startsWith(crlf.slice(0, crlf.indexOf('| Scribe')))).toBe(true);
    expect(team).toContain('| Keaton | Lead | `.ai-team/agents/keaton/charter.md` | ✅ Active |\r\n');
    expect(team.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('refuses a symlinked roster before writing anything', async () => {
    const root = await squad();
    fs.renameSync(path.join(root, squadPaths.team), path.join(root, 'team-real.md'));
    fs.symlinkSync('../team-real.md', path.join(root, squadPaths.team));
    const before = hashTree(root);
    const result = await runCli(['hire', 'Tester'], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^✗ refusing to write \.ai-team\/team\.md: .* is a symlink/);
    expect(hashTree(root)).toBe(before);
  });

  it('warns and still hires when routing.md is missing', async () => {
    const root = await squad();
    fs.rmSync(path.join(root, squadPaths.routing));
    const result = await runCli(['hire', 'Tester'], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^⚠ \.ai-team\/routing\.md is missing/);
    expect(fs.existsSync(path.join(root, squadPaths.routing))).toBe(false);
  });

  it('overflows to the next universe when the names run out', async () => {
    const root = await squad(['--roles', Array.from({ length: 15 }, (_, i) => `R${i}`).join(',')]);
    const result = await runCli(['hire', 'Tester', '--json'], { cwd: root });
    expect(result.data<HireJson>()).toMatchObject({ member: { name: 'Danny' }, universe: "Ocean's Eleven", casting: 'overflow' });
    const event = JSON.parse(read(root, squadPaths.castingHistory)).events.at(-1);
    expect(event).toMatchObject({ event: 'overflow', name: 'Danny', note: expect.stringContaining('capacity 15') });
  });
});

/** A copy of the repository at `root` (git folder included), in a new temporary folder. */
function copyRepo(root: string): string {
  const copy = tempDir('squad-copy-');
  fs.cpSync(root, copy, { recursive: true });
  return copy;
}

describe('hire interrupted', () => {
  it('ends with one complete hire when run again after being killed after any write', async () => {
    const base = await squad();
    const reference = copyRepo(base);
    const full = await runCli(['hire', 'Frontend Dev', '--json'], { cwd: reference });
    expect(full.code, full.stderr).toBe(0);
    const data = full.data<HireJson>();
    const total = data.created.length + data.modified.length;
    expect(total).toBe(7);
    const expected = filesWithoutTimes(reference);
    // A sample of the writes in `npm test`, every one with CREATE_SQUAD_MATRIX=full.
    for (const k of matrixWrites(total - 1, (last) => [1, Math.ceil(last / 2), last])) {
      const root = copyRepo(base);
      const killed = await runCli(['hire', 'Frontend Dev'], { cwd: root, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(k) } });
      expect(killed.code, `k=${k}`).not.toBe(0);
      const again = await runCli(['hire', 'Frontend Dev', '--json'], { cwd: root });
      expect(again.code, `k=${k}: ${again.stderr}`).toBe(0);
      expect(again.data<HireJson>()).toMatchObject({ member: { name: 'McManus', folder: 'mcmanus' }, resumed: true, casting: 'cast' });
      expect(again.warnings(), `k=${k}`).toEqual([{ code: 'hire-resumed', message: expect.stringMatching(/^finishing the interrupted hire of McManus \(Frontend Dev\)/) }]);
      expect(filesWithoutTimes(root), `k=${k}`).toEqual(expected);
      expect(debrisLeft(root), `k=${k}`).toEqual([]);
      // The next hire is someone new again.
      expect((await runCli(['hire', 'Frontend Dev', '--json'], { cwd: root })).data<HireJson>()).toMatchObject({ member: { name: 'Verbal' }, resumed: false });
    }
  });

  it('never mistakes a retired or renamed member for an interrupted hire', async () => {
    const root = await squad();
    expect((await runCli(['hire', 'Designer'], { cwd: root })).code).toBe(0);
    // Retire McManus as squad-team-changes says: folder to _alumni, row out, an Alumni line in.
    fs.mkdirSync(path.join(root, '.ai-team/agents/_alumni'));
    fs.renameSync(path.join(root, '.ai-team/agents/mcmanus'), path.join(root, '.ai-team/agents/_alumni/mcmanus'));
    const team = read(root, squadPaths.team);
    writeFiles(root, { [squadPaths.team]: `${team.replace(/^\| McManus .*\n/m, '')}\n## Alumni\n\n- McManus — Designer — retired 2026-01-01\n` });
    const hired = await runCli(['hire', 'Designer', '--json'], { cwd: root });
    expect(hired.data<HireJson>()).toMatchObject({ member: { name: 'Verbal' }, resumed: false });
  });
});

describe('hire and files changed meanwhile', () => {
  it('stops before replacing a file that changed since it was read, writing nothing further', async () => {
    const root = await squad();
    const plan = await planHire(root, { role: 'Tester' });
    // Another hire got there first: the registry changed. Nothing at all is written.
    const registry = read(root, squadPaths.castingRegistry);
    writeFiles(root, {
      [squadPaths.castingRegistry]: registry.replace('"members": [', '"members": [\n    { "name": "Kujan", "folder": "kujan", "role": "Tester", "universe": null },'),
    });
    const before = hashTree(root);
    expect(() => applyPlan(root, plan, 'hiring')).toThrow(
      expect.objectContaining({ code: 'conflict', message: `${squadPaths.castingRegistry} changed while hiring; nothing was written` }),
    );
    expect(hashTree(root)).toBe(before);

    // team.md changed after the rest was written: the roster is not replaced, and a rerun finishes the hire.
    writeFiles(root, { [squadPaths.castingRegistry]: registry });
    const again = await planHire(root, { role: 'Tester' });
    const edited = `${read(root, squadPaths.team)}\nA note added meanwhile.\n`;
    const written: string[] = [];
    for (const change of again.changes) {
      if (change.kind !== 'create' && change.kind !== 'replace') throw new Error(`a hire plans files only, not ${change.kind}`);
      if (change.path === squadPaths.team) writeFiles(root, { [squadPaths.team]: edited });
      try {
        applyPlan(root, { changes: [change] }, 'hiring');
        written.push(change.path);
      } catch (error) {
        expect(error).toMatchObject({ code: 'conflict', message: `${squadPaths.team} changed while hiring; nothing was written` });
      }
    }
    expect(written).not.toContain(squadPaths.team);
    expect(read(root, squadPaths.team)).toBe(edited);
    const finished = await runCli(['hire', 'Tester', '--json'], { cwd: root });
    expect(finished.data<HireJson>()).toMatchObject({ member: { name: 'McManus' }, resumed: true });
    expect(parseRoster(read(root, squadPaths.team)).map((m) => m.displayName)).toEqual(['Keaton', 'Fenster', 'Hockney', 'McManus', 'Scribe']);
    expect(read(root, squadPaths.team)).toContain('A note added meanwhile.');
  });
});

describe('hire into hand-made and original Squad rosters', () => {
  it('lays the new rows out in the columns of the tables it finds', async () => {
    const root = await squad();
    writeFiles(root, {
      [squadPaths.team]: read(root, squadPaths.team).replace(
        /\| Name \| Role \| Charter \| Status \|\n\|[-|]+\|\n((?:\|.*\n)+)/,
        (_all, rows: string) =>
          `| Role | Name | Status | Charter | Notes |\n|---|---|---|---|---|\n${rows
            .split('\n')
            .filter(Boolean)
            .map((row) => {
              const [name, role, charter, status] = row
                .split('|')
                .slice(1, 5)
                .map((c) => c.trim());
              return `| ${role} | ${name} | ${status} | ${charter} | |\n`;
            })
            .join('')}`,
      ),
      [squadPaths.routing]: read(root, squadPaths.routing).replace('| Work Type | Route To | Role |', '| Route To | Role | Work Type |'),
    });
    const result = await runCli(['hire', 'Frontend Dev'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(read(root, squadPaths.team)).toContain('| Frontend Dev | McManus | ✅ Active | `.ai-team/agents/mcmanus/charter.md` |  |\n');
    expect(parseRoster(read(root, squadPaths.team)).slice(-2)).toMatchObject([{ name: 'mcmanus', displayName: 'McManus', role: 'Frontend Dev' }, { name: 'scribe' }]);
    expect(read(root, squadPaths.routing)).toMatch(/\n\| McManus \| Frontend Dev \| User interface: [^|]+ \|\n/);
  });

  it('never casts a name the roster already uses, whatever its folder', async () => {
    const root = await squad();
    const team = read(root, squadPaths.team);
    writeFiles(root, { [squadPaths.team]: team.replace('| Scribe |', '| McManus | Designer | `.ai-team/agents/designer-one/charter.md` | ✅ Active |\n| Scribe |') });
    const result = await runCli(['hire', 'Frontend Dev', '--json'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.data<HireJson>().member).toMatchObject({ name: 'Verbal', folder: 'verbal' });
  });

  it('hires into a squad the original Squad set up, keeping its casting files as they are', async () => {
    const root = tempRepo();
    const policy = { casting_policy_version: '1.1', allowlist_universes: ['Alien', 'The Usual Suspects'], universe_capacity: { Alien: 15 } };
    const registry = {
      agents: {
        ripley: { persistent_name: 'Ripley', role: 'Lead', universe: 'Alien', created_at: '2025-01-01T00:00:00Z', legacy_named: false, status: 'active' },
        dallas: { persistent_name: 'Dallas', universe: 'Alien', status: 'active' },
      },
    };
    const history = { universe_usage_history: [{ assignment_id: 'a1', universe: 'Alien', timestamp: '2025-01-01T00:00:00Z' }], assignment_cast_snapshots: { a1: {} } };
    writeFiles(root, {
      [squadPaths.team]:
        '# Team Roster\n\n## Members\n\n| Name | Role | Charter | Status |\n|------|------|---------|--------|\n' +
        '| Ripley | Lead | `.ai-team/agents/ripley/charter.md` | ✅ Active |\n| Dallas | Backend Dev | `.ai-team/agents/dallas/charter.md` | ✅ Active |\n' +
        '| Scribe | Session Logger | `.ai-team/agents/scribe/charter.md` | 📋 Silent |\n| Ralph | Work Monitor | — | 🔄 Monitor |\n',
      [squadPaths.castingPolicy]: JSON.stringify(policy, null, 2),
      [squadPaths.castingRegistry]: JSON.stringify(registry, null, 2),
      [squadPaths.castingHistory]: JSON.stringify(history, null, 2),
      [charterPath('ripley')]: '# Ripley — Lead\n',
      [charterPath('dallas')]: '# Dallas — Backend Dev\n',
    });
    const init = await runCli(['init', '--yes', '--json'], { cwd: root });
    expect(init.code, init.stderr).toBe(0);
    expect(init.data<{ notes: string[]; universe: string }>()).toMatchObject({ notes: [], universe: 'Alien' });
    expect(fs.existsSync(path.join(root, '.ai-team/agents/ralph'))).toBe(false);
    expect(read(root, squadPaths.castingRegistry)).toBe(JSON.stringify(registry, null, 2));

    const hired = await runCli(['hire', 'Tester', '--json'], { cwd: root });
    expect(hired.code, hired.stderr).toBe(0);
    expect(hired.data<HireJson>()).toMatchObject({ member: { name: 'Kane', folder: 'kane', role: 'Tester' }, universe: 'Alien', casting: 'cast' });
    const newRegistry = JSON.parse(read(root, squadPaths.castingRegistry));
    expect(newRegistry.agents).toEqual(registry.agents);
    expect(newRegistry.members).toEqual([{ name: 'Kane', folder: 'kane', role: 'Tester', universe: 'Alien' }]);
    const newHistory = JSON.parse(read(root, squadPaths.castingHistory));
    expect(newHistory).toMatchObject(history);
    expect(newHistory.events).toEqual([expect.objectContaining({ event: 'cast', name: 'Kane' })]);
    expect(read(root, squadPaths.castingPolicy)).toBe(JSON.stringify(policy, null, 2));
    expect((await runCli(['hire', 'Tester', '--json'], { cwd: root })).data<HireJson>().member.name).toBe('Lambert');
    expect((await runCli(['hire', 'Tester', '--name', 'dallas'], { cwd: root })).code).toBe(1);
  });
});
