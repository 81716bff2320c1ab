import { afterAll, describe, expect, it } from 'vitest';
import { didYouMean } from '../../src/core/base/edit-distance.js';
import { cleanupTempDirs, hashTree, runCli, runOk, tempRepo } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

describe('messages', () => {
  it('a name of several words given unquoted: a hint to quote it, exit 2, nothing written', async () => {
    const root = tempRepo();
    await runOk(root, ['init', '--yes']);
    const before = hashTree(root);
    const hire = await runCli(['hire', 'Frontend', 'Dev'], { cwd: root });
    expect(hire.code).toBe(2);
    expect(hire.stderr.trim()).toBe(`✗ too many arguments for 'hire'. Expected 1 argument but got 2. — quote a name or text of several words: create-squad hire "Frontend Dev"`);
    const retire = await runCli(['retire', 'Fenster', 'Jr'], { cwd: root });
    expect(retire.stderr).toContain('create-squad retire "Fenster Jr"');
    const teach = await runCli(['teach', 'fenster', 'always', 'use', 'tabs'], { cwd: root });
    expect(teach.stderr).toContain('create-squad teach fenster "always use tabs"');
    expect(hashTree(root)).toBe(before);
  });

  it('a wrong agent name: "did you mean", wherever a member is named', async () => {
    const root = tempRepo();
    await runOk(root, ['init', '--yes']);
    const cases: [string[], string][] = [
      [['prompt', 'fenstr', '--task', 'x'], 'no agent named "fenstr" in this squad (did you mean "fenster"?)'],
      [['teach', 'Fenstr', 'use tabs'], 'no agent named "Fenstr" in this squad (did you mean "fenster"?)'],
      [['retire', 'keatn'], 'no member named "keatn" in this squad (did you mean "keaton"?)'],
      [['role', 'hockny', 'Lead'], 'no member named "hockny" in this squad (did you mean "hockney"?)'],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args, { cwd: root });
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).toContain(`✗ ${message} — `);
    }
    await runOk(root, ['retire', 'hockney']);
    expect((await runCli(['rehire', 'hokney'], { cwd: root })).stderr).toContain('(did you mean "Hockney"?)');
    expect((await runCli(['prompt', 'zzzzzz', '--task', 'x'], { cwd: root })).stderr).not.toContain('did you mean');
  });

  it('didYouMean', () => {
    expect(didYouMean('fenstr', ['keaton', 'fenster'])).toBe(' (did you mean "fenster"?)');
    expect(didYouMean('FENSTER', ['fenster'])).toBe('');
    expect(didYouMean('x', ['keaton'])).toBe('');
  });

  it("-V prints the version, help <command> that command's help", async () => {
    const cwd = tempRepo();
    const version = await runCli(['-V'], { cwd });
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);
    expect((await runCli(['--version'], { cwd })).stdout).toBe(version.stdout);
    const help = await runCli(['help', 'hire'], { cwd });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: create-squad hire [options] <role>');
    const sub = await runCli(['help', 'skills', 'add'], { cwd });
    expect(sub.stdout).toContain('Usage: create-squad skills add [options] <source>');
    expect((await runCli(['help'], { cwd })).stdout).toContain('Usage: create-squad [options] [command]');
  });

  it('prompt output ends with a newline', async () => {
    const root = tempRepo();
    await runOk(root, ['init', '--yes']);
    const result = await runOk(root, ['prompt', 'fenster', '--task', 'fix the build']);
    expect(result.stdout.endsWith('\n')).toBe(true);
    expect(result.stdout.endsWith('\n\n')).toBe(false);
  });
});
