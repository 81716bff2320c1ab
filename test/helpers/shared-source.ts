/**
 * The squad of `sourceSquad()` (test/helpers/portable.ts) and the `.squad` file its export writes,
 * made once for the whole test run in the folder the workers share (test/helpers/shared-run.ts)
 * rather than once per test file: `init`, the learned skills' writes and the export run once,
 * and each call gets a fresh copy. The same squad and file `sourceSquad` and `sourceExport` give;
 * a file uses either these or those, never both.
 */
import fs from 'node:fs';
import path from 'node:path';
import { copyTree, runCli, tempDir } from './cli.js';
import { sourceSquad } from './portable.js';
import { madeOncePerRun } from './shared-run.js';

function sharedSource(): Promise<string> {
  return madeOncePerRun('portable-source', async (into) => {
    const squad = await sourceSquad();
    copyTree(squad, path.join(into, 'squad'));
    const result = await runCli(['export', '--out', path.join(into, 'team.squad')], { cwd: squad });
    if (result.code !== 0) throw new Error(`export: ${result.stderr}`);
  });
}

/** A fresh git repository holding the `sourceSquad()` squad, made once for the run. */
export async function sharedSourceSquad(): Promise<string> {
  const dir = tempDir('squad-repo-');
  copyTree(path.join(await sharedSource(), 'squad'), dir);
  return dir;
}

/** A fresh copy, named `name`, of the `.squad` file export writes for the `sourceSquad()` squad, made once for the run. */
export async function sharedSourceExport(name = 'team.squad'): Promise<string> {
  const copy = path.join(tempDir(), name);
  fs.copyFileSync(path.join(await sharedSource(), 'team.squad'), copy);
  return copy;
}
