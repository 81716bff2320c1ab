/** Git skill sources for tests: a bare repository reached by a file:// URL, and a clone to change it from. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { tempDir, writeFiles } from './cli.js';

/** Run git in `cwd`; its trimmed stdout, or an error naming the command and what git said. */
export function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

/** A bare repository (file:// URL) with `files` committed on main; `work` is the clone to change it from. */
export function gitSource(files: Record<string, string>): { url: string; work: string; bare: string } {
  const base = tempDir('squad-git-');
  const work = path.join(base, 'work');
  fs.mkdirSync(work);
  git(work, 'init', '-q', '-b', 'main');
  // Commits need an author whatever the machine's git configuration holds.
  git(work, 'config', 'user.email', 'test@example.com');
  git(work, 'config', 'user.name', 'Test');
  writeFiles(work, files);
  git(work, 'add', '-A');
  git(work, 'commit', '-qm', 'skills');
  const bare = path.join(base, 'skills.git');
  git(base, 'clone', '-q', '--bare', work, bare);
  git(work, 'remote', 'add', 'origin', bare);
  return { url: pathToFileURL(bare).href, work, bare };
}

/** Commit `files` in `work` and push them to `branch` of its bare repository; the new commit. */
export function commitAndPush(work: string, files: Record<string, string>, branch = 'main'): string {
  writeFiles(work, files);
  git(work, 'add', '-A');
  git(work, 'commit', '-qm', 'change');
  git(work, 'push', '-q', 'origin', `HEAD:${branch}`);
  return git(work, 'rev-parse', 'HEAD');
}
