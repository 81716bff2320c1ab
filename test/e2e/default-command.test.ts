/**
 * The default command (init without the word "init"): a word meant as a command never becomes a
 * folder, and a run without a terminal never writes a squad unless told to.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { squadPaths } from '../../src/core/base/paths.js';
import { cleanupTempDirs, hashTree, initSquad, runCli, tempDir, tempRepo } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

/** Words a user types expecting a command (the ones a new user tried, and their kin). */
const ACTION_WORDS = ['status', 'list', 'ls', 'remove', 'retire', 'rehire', 'members', 'role', 'update', 'validate', 'add', 'config', 'rm', 'delete', 'install', 'show'];

/** A repository holding the squad `init --yes` makes (a copy of one made once for the file). */
const squadRepo = (): Promise<string> => initSquad();

describe('the default command never makes a squad by accident', () => {
  it('writes nothing for a word meant as a command, with or without a squad, in or out of a repository', async () => {
    const places = { squad: await squadRepo(), repo: tempRepo(), outside: tempDir('squad-outside-') };
    for (const [where, root] of Object.entries(places)) {
      // Every run must leave the folder as it was before the first: one hash to compare each with.
      const before = hashTree(root);
      for (const word of ACTION_WORDS) {
        for (const extra of [[], ['--yes'], ['--yes', '--json']]) {
          const result = await runCli([word, ...extra], { cwd: root });
          expect(hashTree(root), `${where}: ${word} ${extra.join(' ')}`).toBe(before);
          expect(fs.existsSync(path.join(root, word)), `${where}: ${word}`).toBe(false);
          // A word that became a command does what that command does; any other is a usage error.
          if (result.code !== 0) expect(result.stderr.trim().split('\n'), `${where}: ${word}`).toHaveLength(1);
        }
      }
    }
  });

  it('suggests what the word most likely meant', async () => {
    const root = tempDir('squad-outside-');
    const status = await runCli(['status', '--yes'], { cwd: root });
    expect(status.code).toBe(2);
    expect(status.stderr.trim()).toBe(
      `✗ unknown command 'status' (did you mean doctor?) — see "create-squad --help"; to set up a squad in a folder named "status", run create-squad init status`,
    );
    expect((await runCli(['config', '--yes'], { cwd: root })).stderr).toMatch(/did you mean init --project, --stack or --owner\?/);
    expect((await runCli(['lst', '--yes'], { cwd: root })).stderr).toMatch(/did you mean skills list\?/);
    const json = await runCli(['ls', '--yes', '--json'], { cwd: root });
    expect(json.code).toBe(2);
    expect(json.envelope()).toMatchObject({ ok: false, error: { code: 'usage', message: expect.stringContaining("unknown command 'ls'") } });
    expect(fs.readdirSync(root)).toEqual([]);
  });

  it('takes a plain word for a new folder only outside a repository; a path or init <dir> anywhere', async () => {
    const repo = tempRepo();
    const inRepo = await runCli(['web', '--yes'], { cwd: repo });
    expect(inRepo.code).toBe(2);
    expect(inRepo.stderr.trim()).toBe(
      `✗ unknown command 'web' — see "create-squad --help"; to set up a squad in a folder named "web", run create-squad init web (a plain word makes a new folder only outside a repository)`,
    );
    expect(fs.readdirSync(repo)).toEqual(['.git']);
    // Below a squad's repository, in a subfolder, too.
    const squad = await squadRepo();
    fs.mkdirSync(path.join(squad, 'src'));
    const before = hashTree(squad);
    expect((await runCli(['api', '--yes'], { cwd: path.join(squad, 'src') })).code).toBe(2);
    expect(hashTree(squad)).toBe(before);

    expect((await runCli(['./web', '--yes'], { cwd: repo })).code).toBe(0);
    expect(fs.existsSync(path.join(repo, 'web', squadPaths.team))).toBe(true);
    expect((await runCli(['init', 'status', '--yes'], { cwd: repo })).code).toBe(0);
    expect(fs.existsSync(path.join(repo, 'status', squadPaths.team))).toBe(true);

    const projects = tempDir('squad-projects-');
    const made = await runCli(['my-app', '--yes', '--json'], { cwd: projects });
    expect(made.code, made.stderr).toBe(0);
    expect(fs.existsSync(path.join(projects, 'my-app', squadPaths.team))).toBe(true);
  });

  it('writes nothing without a terminal unless --yes or init says so', async () => {
    for (const root of [tempRepo(), tempDir('squad-outside-')]) {
      const before = fs.readdirSync(root);
      for (const args of [[], ['--json'], ['--roles', 'Lead'], ['./my-app']]) {
        const result = await runCli(args, { cwd: root });
        expect(result.code, args.join(' ')).toBe(2);
        expect(result.stderr.trim(), args.join(' ')).toMatch(
          /^✗ create-squad without a command sets up a squad only on a terminal, where it asks first — run "create-squad init( \.\/my-app)?" to set one up with the defaults \(add --yes in scripts\), or see "create-squad --help"; nothing was written$/,
        );
        expect(fs.readdirSync(root)).toEqual(before);
      }
      const dry = await runCli(['--dry-run', '--json'], { cwd: root });
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.data<{ created: string[] }>().created.length).toBeGreaterThan(20);
      expect(fs.readdirSync(root)).toEqual(before);
      // The initializer form (npm init squad -- --yes) and an explicit init both write.
      expect((await runCli(['--yes'], { cwd: root })).code).toBe(0);
      expect(fs.existsSync(path.join(root, squadPaths.team))).toBe(true);
    }
    const explicit = tempRepo();
    expect((await runCli(['init'], { cwd: explicit })).code).toBe(0);
    expect(fs.existsSync(path.join(explicit, squadPaths.team))).toBe(true);
  });

  it('documents the rule in the help of init', async () => {
    const help = await runCli(['init', '--help'], { cwd: tempDir() });
    expect(help.stdout).toContain('Without the word init (npx create-squad, npm init squad):');
    expect(help.stdout).toContain('writes\n    nothing unless --yes is given');
  });
});
