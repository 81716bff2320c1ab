/**
 * Reads of squad state stay inside the repository: a charter, history or roster that is a link
 * to a file outside it (a pull request can make one) is never read into a prompt, and doctor names
 * it with its fix. Links inside the repository keep working.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { charterPath, historyPath, squadPaths } from '../../src/core/base/paths.js';
import { cleanupTempDirs, runCli, tempDir, tempRepo } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

const SECRET = 'aws_secret_access_key = do-not-leak-1234';
let secretFile: string;

beforeAll(() => {
  secretFile = path.join(tempDir(), 'credentials');
  fs.writeFileSync(secretFile, `${SECRET}\n`);
});

async function squad(): Promise<string> {
  const root = tempRepo();
  expect((await runCli(['init', '--yes'], { cwd: root })).code).toBe(0);
  return root;
}

function linkTo(root: string, relPath: string, target: string): void {
  const abs = path.join(root, relPath);
  fs.rmSync(abs, { force: true });
  fs.symlinkSync(target, abs);
}

interface DoctorJson {
  findings: { severity: string; code: string; path?: string; message: string; fix: string }[];
}

describe('a squad file linked to a file outside the repository', () => {
  it('a charter: prompt refuses it in one line and prints nothing of it; doctor names it with its fix', async () => {
    const root = await squad();
    linkTo(root, charterPath('fenster'), secretFile);
    const prompt = await runCli(['prompt', 'fenster', '--task', 'add a login form'], { cwd: root });
    expect(prompt.code).toBe(1);
    expect(prompt.stdout).toBe('');
    expect(prompt.stderr.trim()).toBe(
      `✗ refusing to read ${charterPath('fenster')}: ${charterPath('fenster')} is a symlink that leads outside the repository — replace ${charterPath('fenster')} with a real file inside the repository (a link may only point inside it), then run the command again`,
    );
    expect(prompt.stdout + prompt.stderr).not.toContain(SECRET);
    const route = await runCli(['route', 'add a login form', '--json'], { cwd: root });
    expect(route.stdout + route.stderr).not.toContain(SECRET);

    const doctor = await runCli(['doctor', '--json'], { cwd: root });
    expect(doctor.code).toBe(1);
    expect(doctor.data<DoctorJson>().findings).toContainEqual(
      expect.objectContaining({ severity: 'error', code: 'read-refused', path: charterPath('fenster'), fix: expect.stringContaining('replace') }),
    );
    expect(doctor.stdout).not.toContain(SECRET);
  });

  it('a history and the roster: doctor reports each, and commands that read the roster refuse', async () => {
    const root = await squad();
    linkTo(root, historyPath('keaton'), secretFile);
    const doctor = await runCli(['doctor', '--json'], { cwd: root });
    expect(
      doctor
        .data<DoctorJson>()
        .findings.filter((f) => f.code === 'read-refused')
        .map((f) => f.path),
    ).toEqual([historyPath('keaton')]);

    linkTo(root, squadPaths.team, secretFile);
    const again = await runCli(['doctor', '--json'], { cwd: root });
    expect(again.stderr).toBe('');
    expect(
      again
        .data<DoctorJson>()
        .findings.filter((f) => f.code === 'read-refused')
        .map((f) => f.path),
    ).toEqual([squadPaths.team, historyPath('keaton')]);
    for (const args of [
      ['prompt', 'keaton', '--task', 'plan the release'],
      ['hire', 'Designer'],
      ['skills', 'list', '--agent', 'keaton'],
    ]) {
      const result = await runCli(args, { cwd: root });
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr, args.join(' ')).toMatch(/^✗ refusing to read \.ai-team\/team\.md: /);
      expect(result.stdout + result.stderr).not.toContain(SECRET);
    }
  });
});

describe('links that stay inside the repository', () => {
  it('are followed: a charter linked to a file in the repository is inlined; a dangling one reads as missing', async () => {
    const root = await squad();
    fs.mkdirSync(path.join(root, 'docs'));
    fs.writeFileSync(path.join(root, 'docs/fenster.md'), '# Fenster\n\nOwns the front end.\n');
    linkTo(root, charterPath('fenster'), '../../../docs/fenster.md');
    const prompt = await runCli(['prompt', 'fenster', '--task', 'add a login form'], { cwd: root });
    expect(prompt.code, prompt.stderr).toBe(0);
    expect(prompt.stdout).toContain('Owns the front end.');

    linkTo(root, charterPath('fenster'), path.join(root, 'docs/nothing-here.md'));
    const dangling = await runCli(['prompt', 'fenster', '--task', 'add a login form'], { cwd: root });
    expect(dangling.code, dangling.stderr).toBe(0);
    expect(dangling.stderr).toContain(`${charterPath('fenster')} is missing`);
  });
});
