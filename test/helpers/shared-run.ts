/**
 * Things made once for a whole test run and shared by its workers: a folder per name in the run's
 * shared folder (test/helpers/global-setup.ts). The first worker to ask makes it; a worker that
 * asks while another is making it waits for that one instead of making it again. Only for what
 * the tests then read or copy, never change in place.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';

/** Written into a folder once it is whole; `FAILED` holds the maker's error instead. */
const DONE = '.made';
const FAILED = '.failed';

let workerDir: string | undefined;

/**
 * The run's shared folder; without the global setup (another config), one folder for this worker,
 * removed when it exits.
 */
function sharedRunDir(): string {
  const provided = inject('sharedRunDir');
  if (provided !== undefined) return provided;
  if (workerDir === undefined) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'squad-run-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    workerDir = dir;
  }
  return workerDir;
}

const inThisWorker = new Map<string, Promise<string>>();

/**
 * The folder `name` of the run's shared folder, made by `make` (which fills the empty folder it
 * is given) once for the run. Each worker asks the disk once per name.
 */
export function madeOncePerRun(name: string, make: (dir: string) => Promise<void>): Promise<string> {
  let made = inThisWorker.get(name);
  if (made === undefined) {
    made = makeOrWait(path.join(sharedRunDir(), name), make);
    inThisWorker.set(name, made);
  }
  return made;
}

async function makeOrWait(dir: string, make: (dir: string) => Promise<void>): Promise<string> {
  let mine = true;
  try {
    // mkdir is atomic: exactly one worker makes the folder, the others wait for its mark.
    fs.mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    mine = false;
  }
  if (mine) {
    try {
      await make(dir);
    } catch (error) {
      fs.writeFileSync(path.join(dir, FAILED), String((error as Error).stack ?? error));
      throw error;
    }
    fs.writeFileSync(path.join(dir, DONE), '');
    return dir;
  }
  // The test's own timeout bounds the wait should the other worker die.
  while (!fs.existsSync(path.join(dir, DONE))) {
    if (fs.existsSync(path.join(dir, FAILED))) throw new Error(`another worker failed to make ${dir}: ${fs.readFileSync(path.join(dir, FAILED), 'utf8')}`);
    await sleep(20);
  }
  return dir;
}
