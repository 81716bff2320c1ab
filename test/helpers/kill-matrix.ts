/**
 * The kill and fault matrix: a writing command killed after its k-th write (or failing at it, as
 * a full or failing disk makes it fail), then run again, must end in the state a run that was
 * never interrupted leaves: nothing lost, no debris, nothing different.
 *
 * States are compared with times left out (a rerun happens later than the clean run): ISO times
 * and dates in contents, the timestamps in backup and archive folder names. Backups are compared
 * as a set of what they hold: a killed run may have made a copy the rerun makes again.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { observeWrites } from '../../src/core/fs/fs-safe.js';
import { LOCK_FILE } from '../../src/core/fs/lock.js';
import { runCli, type CliResult } from './cli.js';
import { debrisLeft } from './debris.js';

/** One writing command and the repository it starts from. */
export interface MatrixCase {
  name: string;
  /** A fresh copy of the repository the command starts from. */
  prepare: () => Promise<string>;
  args: string[];
}

/** What one interrupted run and its rerun ended in, against the clean run. */
export interface MatrixOutcome {
  /** Paths of the clean run's state missing after the rerun. */
  lost: string[];
  /** Temporary files and folders, the lock, the repository temp folder: what no run may leave. */
  debris: string[];
  /** Paths whose content differs, or that the clean run does not have; a rerun that failed. */
  different: string[];
}

const FOLDER_TIME = /\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(-\d{3})?Z/g;
const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g;
const DATE = /\d{4}-\d{2}-\d{2}/g;

function withoutTimes(text: string): string {
  return text.replace(FOLDER_TIME, '{time}').replace(ISO_TIME, '{time}').replace(DATE, '{date}');
}

/** A text with times left out, and the repository's own path and folder name (each run has its own copy). */
function normalised(text: string, root: string): string {
  return withoutTimes(text.split(root).join('{root}').split(path.basename(root)).join('{repo}'));
}

/**
 * The state of a repository as the matrix compares it: normalised path → what is there (a
 * folder, a link and its target, or a file's executable bit and the hash of its text without
 * times). Backups are keyed without their timestamp folder, so copies of the same file collapse.
 */
export function matrixState(root: string): Map<string, string> {
  const state = new Map<string, string>();
  const walk = (rel: string) => {
    for (const name of fs.readdirSync(path.join(root, rel)).sort()) {
      if (name === '.git') continue;
      const childRel = rel ? `${rel}/${name}` : name;
      const abs = path.join(root, childRel);
      const stat = fs.lstatSync(abs);
      const key = withoutTimes(childRel);
      if (stat.isSymbolicLink()) state.set(key, `link ${fs.readlinkSync(abs)}`);
      else if (stat.isDirectory()) {
        state.set(key, 'folder');
        walk(childRel);
      } else {
        const text = normalised(fs.readFileSync(abs).toString('latin1'), root);
        state.set(key, `file ${stat.mode & 0o111 ? 'x' : '-'} ${crypto.createHash('sha256').update(text).digest('hex').slice(0, 16)}`);
      }
    }
  };
  walk('');
  return state;
}

/** Compare a rerun's repository with the clean run's state. */
export function compareWithClean(root: string, clean: ReadonlyMap<string, string>): MatrixOutcome {
  const state = matrixState(root);
  const debris = debrisLeft(root);
  const isDebris = (rel: string) => debris.some((d) => rel === withoutTimes(d.replace(/\/$/, '')) || rel.startsWith(withoutTimes(d)));
  const lost = [...clean.keys()].filter((rel) => !state.has(rel));
  const different = [...state.entries()].filter(([rel, what]) => clean.get(rel) !== what && !isDebris(rel)).map(([rel]) => rel);
  return { lost, debris, different };
}

/** The number of writes `args` makes in a fresh copy, the state it leaves, and its result. */
export async function cleanRun(matrixCase: MatrixCase): Promise<{ writes: number; state: Map<string, string>; result: CliResult }> {
  const root = await matrixCase.prepare();
  let writes = 0;
  observeWrites((count) => {
    writes = count;
  });
  let result: CliResult;
  try {
    result = await runCli(matrixCase.args, { cwd: root });
  } finally {
    observeWrites(undefined);
  }
  if (result.code !== 0) throw new Error(`${matrixCase.name}: the clean run failed: ${result.stderr}`);
  return { writes, state: matrixState(root), result };
}

/** Run the command in a fresh copy stopped by `env` (a kill or a fault), then again; compare with the clean state. */
async function interruptAndRerun(
  matrixCase: MatrixCase,
  env: Record<string, string>,
  clean: ReadonlyMap<string, string>,
  expectInterrupted: (result: CliResult) => string | undefined,
  options: { last?: boolean } = {},
): Promise<MatrixOutcome> {
  const root = await matrixCase.prepare();
  const interrupted = await runCli(matrixCase.args, { cwd: root, env });
  const problem = expectInterrupted(interrupted);
  if (options.last) {
    // Killed after its last write, the command has done its work: the next writing command only
    // takes over the lock it left. Running it again would do it again (a second hire).
    const done = compareWithClean(root, clean);
    done.debris = done.debris.filter((rel) => rel !== LOCK_FILE);
    if (problem !== undefined) done.different.push(`(the interrupted run: ${problem})`);
    return done;
  }
  const again = await runCli(matrixCase.args, { cwd: root });
  const outcome = compareWithClean(root, clean);
  if (problem !== undefined) outcome.different.push(`(the interrupted run: ${problem})`);
  if (again.code !== 0) outcome.different.push(`(the rerun failed: ${again.stderr.trim()})`);
  return outcome;
}

/**
 * Kill after write k of `total` (CREATE_SQUAD_CRASH_AFTER_WRITES), run again, compare; after the
 * last write, compare without a rerun.
 */
export function killAndRerun(matrixCase: MatrixCase, k: number, total: number, clean: ReadonlyMap<string, string>): Promise<MatrixOutcome> {
  return interruptAndRerun(matrixCase, { CREATE_SQUAD_CRASH_AFTER_WRITES: String(k) }, clean, (result) => (result.code === -1 ? undefined : `not killed (exit ${result.code})`), {
    last: k === total,
  });
}

/**
 * Make write k fail with `code` (CREATE_SQUAD_FAULT_AT_WRITE): the command must stop with exit 1
 * and one line on stderr; then run again, compare.
 */
export function faultAndRerun(matrixCase: MatrixCase, k: number, code: string, clean: ReadonlyMap<string, string>): Promise<MatrixOutcome> {
  return interruptAndRerun(matrixCase, { CREATE_SQUAD_FAULT_AT_WRITE: `${k}:${code}` }, clean, (result) => {
    if (result.code !== 1) return `exit ${result.code}, not 1`;
    const lines = result.stderr.trim().split('\n');
    return lines.length === 1 && lines[0]!.startsWith('✗ ') ? undefined : `stderr is not one error line: ${JSON.stringify(result.stderr)}`;
  });
}

/**
 * Which k to try out of 1..total: all of them with CREATE_SQUAD_MATRIX=full, else a few chosen
 * deterministically (the first, the last two, and `spread` more spread evenly between).
 */
export function sampledWrites(total: number, spread = 1): number[] {
  return matrixWrites(total, () => {
    const ks = [1, total - 1, total];
    for (let i = 1; i <= spread; i += 1) ks.push(Math.round((total * i) / (spread + 1)));
    return ks;
  });
}

/**
 * Which k to try out of 1..total: all of them with CREATE_SQUAD_MATRIX=full (what .ci/run does),
 * else those `sample` picks, so `npm test` stays fast and CI still tries every write.
 */
export function matrixWrites(total: number, sample: (total: number) => readonly number[]): number[] {
  if (process.env.CREATE_SQUAD_MATRIX === 'full') return Array.from({ length: total }, (_, i) => i + 1);
  return [...new Set(sample(total))].filter((k) => k >= 1 && k <= total).sort((a, b) => a - b);
}
