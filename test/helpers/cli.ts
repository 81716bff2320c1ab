/** Helpers for end-to-end tests: run the built CLI in temporary git repositories. */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = path.join(REPO_ROOT, 'bin', 'create-squad.cjs');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json<T = Record<string, unknown>>(): T;
}

export interface RunOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  input?: string;
  /** Kill the process after this many milliseconds (a test of something that must not hang). */
  timeout?: number;
}

/** Run `create-squad …` as a user would: a separate Node process, no TTY, colours off by default. */
export function runCli(args: string[], options: RunOptions): CliResult {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, DEBUG: undefined, ...options.env };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
    env: env as NodeJS.ProcessEnv,
    input: options.input ?? '',
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    ...(options.timeout === undefined ? {} : { timeout: options.timeout, killSignal: 'SIGKILL' as const }),
  });
  if (result.error) throw result.error;
  return {
    code: result.status ?? -1,
    stdout: result.stdout,
    stderr: result.stderr,
    json<T>() {
      return JSON.parse(result.stdout) as T;
    },
  };
}

const made: string[] = [];

/** A fresh temporary folder, removed after the test run. */
export function tempDir(prefix = 'squad-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return fs.realpathSync(dir);
}

/** A fresh temporary git repository. */
export function tempRepo(): string {
  const dir = tempDir('squad-repo-');
  const result = spawnSync('git', ['init', '-q', dir], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git init failed: ${result.stderr}`);
  return dir;
}

export function cleanupTempDirs(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** Write files (path → content) under `root`, creating folders. */
export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, ...rel.split('/'));
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
}

/** A SKILL.md text with the given frontmatter lines and body. */
export function skillMd(frontmatter: string, body = '# Skill\n\nDo the thing.\n'): string {
  return `---\n${frontmatter.trim()}\n---\n\n${body}`;
}

/** A valid SKILL.md for `name`. */
export function validSkill(name: string, description = `Use when working on ${name}.`, extra = ''): string {
  return skillMd(`name: ${name}\ndescription: ${JSON.stringify(description)}\n${extra}`);
}

/** sha256 over every file (path, mode, content) below `dir`: equal hashes mean identical trees. */
export function hashTree(dir: string): string {
  const hash = crypto.createHash('sha256');
  const walk = (abs: string, rel: string) => {
    for (const name of fs.readdirSync(abs).sort()) {
      const childAbs = path.join(abs, name);
      const childRel = rel ? `${rel}/${name}` : name;
      const stat = fs.lstatSync(childAbs);
      if (stat.isDirectory()) {
        if (name === '.git') continue;
        hash.update(`d ${childRel}\n`);
        walk(childAbs, childRel);
      } else if (stat.isSymbolicLink()) {
        hash.update(`l ${childRel} ${fs.readlinkSync(childAbs)}\n`);
      } else {
        hash.update(`f ${childRel} ${(stat.mode & 0o111) !== 0 ? 'x' : '-'} `);
        hash.update(fs.readFileSync(childAbs));
        hash.update('\n');
      }
    }
  };
  if (fs.existsSync(dir)) walk(dir, '');
  return hash.digest('hex');
}

/** Every file below `root` (repo-relative, forward slashes, `.git` excluded), sorted. */
export function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const name of fs.readdirSync(dir)) {
      if (name === '.git') continue;
      const abs = path.join(dir, name);
      const childRel = rel ? `${rel}/${name}` : name;
      if (fs.statSync(abs).isDirectory()) walk(abs, childRel);
      else out.push(childRel);
    }
  };
  walk(root, '');
  return out.sort();
}

/** Every file's text (path → text), with the times of casting events left out: equal squads compare equal. */
export function filesWithoutTimes(root: string): Record<string, string> {
  return Object.fromEntries(listFiles(root).map((rel) => [rel, fs.readFileSync(path.join(root, rel), 'utf8').replace(/"at": "[^"]+"/g, '"at": "…"')]));
}
