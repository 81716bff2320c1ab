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
import os from 'node:os';
import { REPO_ROOT, listFiles, runCli, tempDir, tempRepo } from './cli.js';

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
  const result = spawnSync('tar', ['-xzf', path.join(ORIGINAL_DATA_DIR, `${name}-pristine.tgz`), '-C', root], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`tar failed: ${result.stderr}`);
  return root;
}

/** Each squad as `upgrade` leaves it, made once per test worker and copied for each test that only reads it. */
const upgradedTemplates = new Map<OriginalSquadName, string>();

/** A fresh copy of the squad `name` after `upgrade` (for tests of what comes after, not of the upgrade itself). */
export async function upgradedOriginalSquad(name: OriginalSquadName): Promise<string> {
  let template = upgradedTemplates.get(name);
  if (template === undefined) {
    const root = unpackOriginalSquad(name);
    const upgrade = await runCli(['upgrade'], { cwd: root });
    if (upgrade.code !== 0) throw new Error(`upgrade of ${name} failed: ${upgrade.stderr}`);
    // Outside the temporary folders each file removes when it ends: the next file of this worker reuses it.
    template = fs.mkdtempSync(path.join(os.tmpdir(), `squad-upgraded-${name}-`));
    fs.cpSync(root, template, { recursive: true, verbatimSymlinks: true });
    const made = template;
    process.once('exit', () => fs.rmSync(made, { recursive: true, force: true }));
    upgradedTemplates.set(name, template);
  }
  const copy = tempDir('squad-upgraded-');
  fs.cpSync(template, copy, { recursive: true, verbatimSymlinks: true });
  return copy;
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
