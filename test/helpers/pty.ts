/** Driving the built CLI in a pseudo-terminal (test/helpers/pty-drive.py), and why a test cannot. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './cli.js';

export const PTY_DRIVER = path.join(REPO_ROOT, 'test', 'helpers', 'pty-drive.py');

const python = spawnSync('python3', ['-c', 'import pty'], { encoding: 'utf8' });

/** Why pseudo-terminal tests are skipped here, or undefined when they can run. */
export const ptySkipReason: string | undefined =
  process.platform === 'win32'
    ? 'skipped: no pseudo-terminals on Windows'
    : python.error || python.status !== 0
      ? 'skipped: python3 (with its pty module) is not installed'
      : undefined;
