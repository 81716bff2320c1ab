/**
 * Git skill sources for tests, made with as few git processes as the commit itself needs: what
 * `gitSource` (test/helpers/git-source.ts) makes — a bare repository reached by a file:// URL, with
 * `files` committed on main, and a clone to change it from — in two git processes instead of seven.
 *
 * `git init` runs once per test file (a template, copied for each source, as `tempRepo` does); the
 * identity and the remote are written into the copy's config rather than set by `git config` and
 * `git remote add`; and the bare repository is the commit's own `.git` made bare (`core.bare`),
 * which is what `git clone --bare` of a one-commit repository gives: its objects, HEAD and
 * refs/heads/main. Only `git add` and `git commit` run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { copyTree, tempDir, writeFiles } from './cli.js';
import { git } from './git-source.js';

let template: string | undefined;

/** The `.git` of an empty repository on main, made once per test file (again if a cleanup removed it). */
function gitTemplate(): string {
  if (template === undefined || !fs.existsSync(template)) {
    const dir = path.join(tempDir('squad-git-template-'), 'repo');
    fs.mkdirSync(dir);
    git(dir, 'init', '-q', '-b', 'main');
    template = path.join(dir, '.git');
  }
  return template;
}

/** Append a section to a repository's config, as `git config` or `git remote add` would write it. */
function appendConfig(gitDir: string, text: string): void {
  fs.appendFileSync(path.join(gitDir, 'config'), text);
}

/**
 * A folder `work` holding a git repository on main with `files` and `links` (path → target, as
 * symlinks) committed; its config names the test author, for later commits.
 */
function committed(work: string, files: Record<string, string>, links: Record<string, string>): void {
  fs.mkdirSync(work);
  copyTree(gitTemplate(), path.join(work, '.git'));
  // Commits need an author whatever the machine's git configuration holds.
  appendConfig(path.join(work, '.git'), '[user]\n\temail = test@example.com\n\tname = Test\n');
  writeFiles(work, files);
  for (const [rel, target] of Object.entries(links)) {
    fs.mkdirSync(path.dirname(path.join(work, rel)), { recursive: true });
    fs.symlinkSync(target, path.join(work, rel));
  }
  git(work, 'add', '-A');
  git(work, 'commit', '-qm', 'skills');
}

/** The repository at `work` copied as a bare repository at `bare`: what `git clone --bare` makes of it. */
function bareCopy(work: string, bare: string): void {
  copyTree(path.join(work, '.git'), bare);
  // A bare repository has no work tree, index or the clone's own settings.
  fs.rmSync(path.join(bare, 'index'), { force: true });
  fs.writeFileSync(path.join(bare, 'config'), '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n');
}

/**
 * A bare repository (file:// URL) with `files` (and `links`, committed as symlinks) on main; `work`
 * is a clone to change it from (its origin the bare repository, as `gitSource` gives).
 */
export function quickGitSource(files: Record<string, string>, links: Record<string, string> = {}): { url: string; work: string; bare: string } {
  const base = tempDir('squad-git-');
  const work = path.join(base, 'work');
  const bare = path.join(base, 'skills.git');
  committed(work, files, links);
  bareCopy(work, bare);
  appendConfig(path.join(work, '.git'), `[remote "origin"]\n\turl = ${bare}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`);
  return { url: pathToFileURL(bare).href, work, bare };
}
