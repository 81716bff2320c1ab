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

/** Copy the objects of `fromObjects` that `toObjects` lacks (loose objects, pack files): what a push sends. */
function copyMissingObjects(fromObjects: string, toObjects: string): void {
  for (const entry of fs.readdirSync(fromObjects, { withFileTypes: true })) {
    const from = path.join(fromObjects, entry.name);
    const to = path.join(toObjects, entry.name);
    if (entry.isDirectory()) {
      fs.mkdirSync(to, { recursive: true });
      copyMissingObjects(from, to);
    } else if (entry.isFile() && !fs.existsSync(to)) fs.copyFileSync(from, to);
  }
}

/**
 * Commit `files` in the `work` clone of a `quickGitSource` and push them to `branch` of its bare
 * repository; the new commit. What `commitAndPush` (test/helpers/git-source.ts) does, with only
 * `git add` and `git commit` run: the push is the new objects copied into the bare repository and
 * its branch set to the commit, as a fast-forward push to a file:// remote leaves them.
 */
export function quickCommitAndPush(source: { work: string; bare: string }, files: Record<string, string>, branch = 'main'): string {
  writeFiles(source.work, files);
  git(source.work, 'add', '-A');
  git(source.work, 'commit', '-qm', 'change');
  const gitDir = path.join(source.work, '.git');
  const head = fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
  const commit = head.startsWith('ref: ') ? fs.readFileSync(path.join(gitDir, head.slice(5)), 'utf8').trim() : head;
  if (!/^[0-9a-f]{40}$/.test(commit)) throw new Error(`quickCommitAndPush: HEAD of ${source.work} is not a commit: ${commit}`);
  copyMissingObjects(path.join(gitDir, 'objects'), path.join(source.bare, 'objects'));
  const ref = path.join(source.bare, 'refs', 'heads', branch);
  fs.mkdirSync(path.dirname(ref), { recursive: true });
  fs.writeFileSync(ref, `${commit}\n`);
  return commit;
}
