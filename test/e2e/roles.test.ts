/** What init and hire say about the roles they are given: aliases and duplicates are never silent. */
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { InitData } from '../../src/commands/init.js';
import { customRolesProblem } from '../../src/cli/init-questions.js';
import { checkRoleList } from '../../src/core/roster/roles.js';
import { cleanupTempDirs, runCli, tempRepo } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

describe('roles given to init', () => {
  it('records another name of a known role under its title, and says so', async () => {
    const root = tempRepo();
    const result = await runCli(['init', '--yes', '--roles', 'ML Engineer, qa, lead, Release Manager', '--json'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    const data = result.data<InitData>();
    expect(data.members.map((m) => m.role)).toEqual(['Data Engineer', 'Tester', 'Lead', 'Release Manager', 'Session Logger']);
    expect(data.notes).toEqual([
      '"ML Engineer" is recorded as Data Engineer, a role create-squad knows (its routing row and charter wording come with it)',
      '"qa" is recorded as Tester, a role create-squad knows (its routing row and charter wording come with it)',
    ]);
  });

  it('refuses a role named twice, aliases included, unless --allow-duplicate-roles', async () => {
    const root = tempRepo();
    for (const roles of ['Lead,Lead,Lead', 'Lead, tech lead', 'qa,Tester,Core Dev']) {
      const result = await runCli(['init', '--yes', '--roles', roles], { cwd: root });
      expect(result.code, roles).toBe(2);
      expect(result.stderr.trim(), roles).toMatch(
        /^✗ the roles list (Lead 3 times|Lead 2 times|Tester 2 times) — name each role once \(aliases count: "qa" is Tester\), or pass --allow-duplicate-roles/,
      );
      expect(fs.readdirSync(root)).toEqual(['.git']);
    }
    const allowed = await runCli(['init', '--yes', '--roles', 'Lead,Lead,Lead', '--allow-duplicate-roles', '--json'], { cwd: root });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.data<InitData>().members.map((m) => `${m.name}:${m.role}`)).toEqual(['Keaton:Lead', 'Fenster:Lead', 'Hockney:Lead', 'Scribe:Session Logger']);
    expect(allowed.data<InitData>().notes).toEqual(['3 members are cast as Lead (--allow-duplicate-roles)']);
  });

  it('asks again at the terminal when a typed role repeats a picked one', () => {
    expect(customRolesProblem(['Lead', 'Tester'], 'qa')).toBe(
      'the roles list Tester 2 times — name each role once (aliases count: "qa" is Tester), or pass --allow-duplicate-roles to cast several members in one role',
    );
    expect(customRolesProblem(['Lead', 'Tester'], 'qa', true)).toBe(true);
    expect(checkRoleList(['Lead', 'Designer']).notes).toEqual([]);
  });
});

describe('roles given to hire', () => {
  it('says when the role is another name of a known one, and when the squad has that role already', async () => {
    const root = tempRepo();
    expect((await runCli(['init', '--yes'], { cwd: root })).code).toBe(0);
    const qa = await runCli(['hire', 'qa', '--json'], { cwd: root });
    expect(qa.warnings()).toEqual([
      { code: 'role-alias', message: '"qa" is recorded as Tester, a role create-squad knows (its routing row and charter wording come with it)' },
      { code: 'role-taken', message: 'the squad has Hockney as Tester already; McManus is one more (give them different work in routing.md)' },
    ]);
    const text = await runCli(['hire', 'Release Manager'], { cwd: root });
    expect(text.stderr).toBe('');
  });
});
