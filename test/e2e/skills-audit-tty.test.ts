/**
 * The question `skills add` asks on a real terminal after the audit found something to review: the
 * built CLI in a pseudo-terminal (python3's pty module, as init-tty.test.ts drives init), answered
 * no (nothing written, exit 1) and yes (installed). Needs the build (`dist/`), as every real-process test.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, REPO_ROOT, cleanupTempDirs, hashTree, initSquad, tempDir } from '../helpers/cli.js';
import { PTY_DRIVER as DRIVER, ptySkipReason as skipReason } from '../helpers/pty.js';
import { spawnAsync } from '../helpers/spawn.js';

afterAll(cleanupTempDirs);

/** A copy of the fixture skill that changes what runs later (a crontab line): high, needs consent. */
function hostileSkill(): string {
  const dir = path.join(tempDir('audit-tty-source-'), 'persistence');
  fs.cpSync(path.join(REPO_ROOT, 'test/fixtures/audit/persistence'), dir, { recursive: true });
  return dir;
}

async function addAnswering(cwd: string, source: string, answer: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, TERM: 'xterm', NO_COLOR: '1' };
  delete env.CI;
  delete env.FORCE_COLOR;
  const steps = [['anyway?', [answer]]];
  const result = await spawnAsync('python3', [DRIVER, JSON.stringify({ argv: [process.execPath, BIN, 'skills', 'add', source], cwd, steps })], {
    env,
    timeout: 90_000,
    killSignal: 'SIGTERM',
  });
  return { code: result.status, output: result.stdout + result.stderr };
}

describe.skipIf(skipReason !== undefined)(`skills add asks on a real terminal${skipReason ? ` (${skipReason})` : ''}`, { concurrent: true, timeout: 120_000 }, () => {
  it('no: nothing written, exit 1', async () => {
    const root = await initSquad();
    const before = hashTree(root);
    const { code, output } = await addAnswering(root, hostileSkill(), 'n');
    expect(code, output).toBe(1);
    expect(output).toContain('  [high] scripts/install.sh:2 changes what runs later');
    expect(output).toContain('Install "persistence" anyway?');
    expect(output).toContain('✗ "persistence" not installed: you declined after the audit; nothing was written');
    expect(hashTree(root)).toBe(before);
  });

  it('yes: installed, the finding kept as a warning', async () => {
    const root = await initSquad();
    const { code, output } = await addAnswering(root, hostileSkill(), 'y');
    expect(code, output).toBe(0);
    expect(output).toContain('⚠ persistence: [high] scripts/install.sh:2 changes what runs later');
    expect(fs.existsSync(path.join(root, '.github/skills/persistence/scripts/install.sh'))).toBe(true);
  });
});
