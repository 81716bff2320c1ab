/**
 * Real squads and exports made by the original Squad (bradygaster/squad), kept outside the
 * repository in `../shared/data/original-squad/` (see its README): read at run time, never copied
 * here. Tests that use them skip, with a note, when the folder is absent.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { REPO_ROOT, type CliResult, cliResult, copyTree, listFiles, runCli, tempDir, tempRepo } from './cli.js';
import { madeOncePerRun } from './shared-run.js';

export const ORIGINAL_DATA_DIR = path.resolve(REPO_ROOT, '..', 'shared', 'data', 'original-squad');
export const HAS_ORIGINAL_DATA = fs.existsSync(ORIGINAL_DATA_DIR);

/** Say once, on the console, why the tests that need the data are skipped. */
export function noteMissingData(what: string): void {
  if (!HAS_ORIGINAL_DATA) console.warn(`skipping ${what}: ${ORIGINAL_DATA_DIR} is absent (the original Squad's real squads and exports live there)`);
}

export type OriginalSquadName = 's1' | 's2real' | 'v05' | 'h1';

/** A fresh git repository holding the squad `name` as its `.tgz` unpacks. */
export function unpackOriginalSquad(name: OriginalSquadName): string {
  const root = tempRepo();
  untar(name, root);
  return root;
}

function untar(name: OriginalSquadName, into: string): void {
  const result = spawnSync('tar', ['-xzf', path.join(ORIGINAL_DATA_DIR, `${name}-pristine.tgz`), '-C', into], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`tar failed: ${result.stderr}`);
}

/** The squad `name` before and after `upgrade --json`, made once for the whole test run (see `originalUpgrade`). */
export interface OriginalUpgrade {
  /** The repository as unpacked, the squad committed (read it, never change it: `pristineCopy` gives a copy to work in). */
  pristine: string;
  /** Each file of the squad as unpacked (`.git` left out), by repo-relative path. */
  pristineFiles: ReadonlyMap<string, Buffer>;
  /** What `upgrade --dry-run --json` answered there. */
  dryRun: CliResult;
  /** What `upgrade --json` answered there, right after the dry run. */
  upgrade: CliResult;
  /** A fresh copy of the repository before the upgrade. */
  pristineCopy(): string;
  /** A fresh copy of the repository as the upgrade left it (its git index still that of the squad as unpacked). */
  upgradedCopy(): string;
}

/**
 * The squad `name` unpacked into a git repository and committed, then `upgrade --dry-run --json`
 * and `upgrade --json` run on it: once per test run, whichever file and worker asks first (the
 * others copy the trees: far cheaper than the upgrade, its dry run and the git commit). For the
 * tests of the upgrade's outcome and of what comes after; the upgrade's own answers come with it.
 */
export function originalUpgrade(name: OriginalSquadName): Promise<OriginalUpgrade> {
  let made = upgrades.get(name);
  if (made === undefined) {
    made = readOriginalUpgrade(name);
    upgrades.set(name, made);
  }
  return made;
}

/** What this worker read of each shared upgrade (the trees stay on disk; each test takes its own copy). */
const upgrades = new Map<OriginalSquadName, Promise<OriginalUpgrade>>();

async function readOriginalUpgrade(name: OriginalSquadName): Promise<OriginalUpgrade> {
  const dir = await madeOncePerRun(`original-upgrade-${name}`, async (into) => {
    const pristine = path.join(into, 'pristine');
    const upgraded = path.join(into, 'upgraded');
    const initialised = spawnSync('git', ['init', '-q', pristine], { encoding: 'utf8' });
    if (initialised.status !== 0) throw new Error(`git init failed: ${initialised.stderr}`);
    untar(name, pristine);
    for (const args of [
      ['add', '-A'],
      ['commit', '-q', '-m', 'the squad as the original Squad left it'],
    ]) {
      const git = spawnSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd: pristine, encoding: 'utf8' });
      if (git.status !== 0) throw new Error(`git ${args[0]} failed: ${git.stderr}`);
    }
    copyTree(pristine, upgraded);
    const answers: Record<string, CliResult> = {};
    for (const [key, args] of [
      ['dryRun', ['upgrade', '--dry-run', '--json']],
      ['upgrade', ['upgrade', '--json']],
    ] as const) {
      const result = await runCli([...args], { cwd: upgraded });
      answers[key] = result;
      if (result.code !== 0) throw new Error(`${args.join(' ')} of ${name} failed: ${result.stderr}`);
    }
    fs.writeFileSync(path.join(into, 'answers.json'), JSON.stringify(answers));
  });
  const answers = JSON.parse(fs.readFileSync(path.join(dir, 'answers.json'), 'utf8')) as Record<'dryRun' | 'upgrade', CliResult>;
  const pristine = path.join(dir, 'pristine');
  const copyOf = (tree: string) => () => {
    const copy = tempDir('squad-repo-');
    copyTree(tree, copy);
    return copy;
  };
  return {
    pristine,
    pristineFiles: fileContents(pristine),
    dryRun: cliResult(answers.dryRun.code, answers.dryRun.stdout, answers.dryRun.stderr),
    upgrade: cliResult(answers.upgrade.code, answers.upgrade.stdout, answers.upgrade.stderr),
    pristineCopy: copyOf(pristine),
    upgradedCopy: copyOf(path.join(dir, 'upgraded')),
  };
}

/** A fresh copy of the squad `name` after `upgrade` (for tests of what comes after, not of the upgrade itself). */
export async function upgradedOriginalSquad(name: OriginalSquadName): Promise<string> {
  return (await originalUpgrade(name)).upgradedCopy();
}

/** The path of an export file, a `.gz` one unpacked into a temporary folder first. */
export function originalExport(file: string): string {
  const source = path.join(ORIGINAL_DATA_DIR, file);
  if (!file.endsWith('.gz')) return source;
  const out = path.join(tempDir(), file.slice(0, -'.gz'.length));
  fs.writeFileSync(out, zlib.gunzipSync(fs.readFileSync(source)));
  return out;
}

/** Each file below `root` (`.git` left out), by repo-relative path. */
export function fileContents(root: string): Map<string, Buffer> {
  return new Map(listFiles(root).map((rel) => [rel, fs.readFileSync(path.join(root, rel))]));
}

/** sha256 of each file below `root` (`.git` left out), by repo-relative path. */
export function fileHashes(root: string): Map<string, string> {
  return new Map([...fileContents(root)].map(([rel, data]) => [rel, sha256(data)]));
}

function sha256(data: Buffer): string {
  return crypto.createHash('sha256').update(data).digest('hex');
}

/**
 * The files of `before` (contents by path) whose bytes are nowhere in the tree at `root`: not at
 * their path, moved, nor in a backup, and not the start of the file now at their path (lines
 * appended, as to .gitattributes). What a command lost.
 */
export function lostFiles(before: ReadonlyMap<string, Buffer>, root: string): string[] {
  const after = fileContents(root);
  const kept = new Set([...after.values()].map(sha256));
  return [...before].filter(([rel, data]) => !kept.has(sha256(data)) && !(after.get(rel)?.subarray(0, data.length).equals(data) ?? false)).map(([rel]) => rel);
}
