/**
 * `initSquad` (test/helpers/cli.ts) made once for the whole test run rather than once per test
 * file: the squad `create-squad init …args` makes, in the folder the workers share
 * (test/helpers/shared-run.ts), and each call a fresh git repository holding a copy of it. For
 * tests that need a squad to start from; tests of `init` itself run it.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { copyTree, initSquad, tempDir } from './cli.js';
import { madeOncePerRun } from './shared-run.js';

/** A fresh temporary git repository holding the squad `init …args` makes: `init` runs once per test run for each `args`. */
export async function sharedInitSquad(args: string[] = ['--yes']): Promise<string> {
  const key = crypto.createHash('sha256').update(JSON.stringify(args)).digest('hex').slice(0, 16);
  const made = await madeOncePerRun(`init-${key}`, async (into) => {
    copyTree(await initSquad(args), path.join(into, 'repo'));
  });
  const dir = tempDir('squad-repo-');
  copyTree(path.join(made, 'repo'), dir);
  return dir;
}
