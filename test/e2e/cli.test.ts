import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, cleanupTempDirs, runCli, tempRepo } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

const version = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('the CLI shell', () => {
  it('prints the version', async () => {
    const cwd = tempRepo();
    for (const flag of ['--version', '-v']) {
      const result = await runCli([flag], { cwd });
      expect(result).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });

  it('prints help listing every command', async () => {
    const result = await runCli(['--help'], { cwd: tempRepo() });
    expect(result.code).toBe(0);
    for (const command of ['init', 'hire', 'skills', 'teach', 'prompt', 'route', 'upgrade', 'export', 'import', 'doctor']) {
      expect(result.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
  });

  it('gives every command its own --help with --cwd and --json', async () => {
    const cwd = tempRepo();
    for (const command of [['skills', 'list'], ['skills', 'validate'], ['skills', 'add'], ['teach'], ['doctor']]) {
      const result = await runCli([...command, '--help'], { cwd });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('--cwd <dir>');
      expect(result.stdout).toContain('--json');
    }
  });

  it('exits 2 with one ✗ line for an unknown command or option', async () => {
    const cwd = tempRepo();
    const unknownCommand = await runCli(['frobnicate', 'x'], { cwd });
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toMatch(/^✗ .*frobnicate/);
    expect(unknownCommand.stderr.trim().split('\n')).toHaveLength(1);

    const typo = await runCli(['skills', 'lst'], { cwd });
    expect(typo.code).toBe(2);
    expect(typo.stderr.trim()).toBe(`✗ unknown command 'lst' (did you mean list?) — see "create-squad skills --help"`);

    const badOption = await runCli(['skills', 'list', '--frob'], { cwd });
    expect(badOption.code).toBe(2);
    expect(badOption.stderr.trim()).toBe(`✗ unknown option '--frob' — see "create-squad skills list --help"`);
  });

  it('exits 2 when a required argument is missing', async () => {
    const result = await runCli(['skills', 'add'], { cwd: tempRepo() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^✗ missing required argument 'source'/);
  });

  it('prints a JSON error document on stdout with --json', async () => {
    const result = await runCli(['teach', 'fenster', 'use tabs', '--json'], { cwd: tempRepo() });
    expect(result.code).toBe(1);
    expect(result.json()).toEqual({
      schemaVersion: 1,
      ok: false,
      error: expect.objectContaining({ code: 'no-squad', message: expect.stringContaining('no squad found'), hint: expect.any(String) }),
      warnings: [],
    });
  });

  it('says a --cwd folder does not exist, rather than that it has no squad', async () => {
    const cwd = tempRepo();
    const result = await runCli(['prompt', 'fenster', '--task', 'x', '--cwd', 'no/such/folder'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `✗ the folder ${path.join(fs.realpathSync(cwd), 'no/such/folder')} does not exist — check the path given with --cwd, or run the command inside the repository`,
    );
  });

  it('never prints a stack trace unless DEBUG is set', async () => {
    const cwd = tempRepo();
    const plain = await runCli(['teach', 'fenster', 'use tabs'], { cwd });
    expect(plain.code).toBe(1);
    expect(plain.stderr).not.toMatch(/\n\s+at /);
    expect(plain.stderr.trim().split('\n')).toHaveLength(1);
    const debug = await runCli(['teach', 'fenster', 'use tabs'], { cwd, env: { DEBUG: '1' } });
    expect(debug.stderr).toMatch(/\n\s+at /);
  });

  it('uses no colour without a TTY, and none with NO_COLOR even when forced', async () => {
    const cwd = tempRepo();
    const plain = await runCli(['skills', 'lst'], { cwd, env: { NO_COLOR: undefined } });
    expect(plain.stderr).not.toContain('\u001b[');
    const forced = await runCli(['skills', 'lst'], { cwd, env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(forced.stderr).toContain('\u001b[31m✗');
    const both = await runCli(['skills', 'lst'], { cwd, env: { NO_COLOR: '1', FORCE_COLOR: '1' } });
    expect(both.stderr).not.toContain('\u001b[');
  });
});
