/**
 * The "commit it with" hints of init and upgrade name what the run wrote: running the printed
 * `git add` leaves nothing of it unstaged or untracked (an upgrade that moves team skills to
 * .github/skills/ names that folder, so a clone gets them).
 */
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { commitPaths } from '../../src/core/base/paths.js';
import { cleanupTempDirs, runCli, tempRepo, writeFiles } from '../helpers/cli.js';
import { fixtureRepo } from '../helpers/upgrade.js';

afterAll(cleanupTempDirs);

function git(root: string, args: string[]): string {
  const run = spawnSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd: root, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

/** The paths of the `git add -A -- …` a command printed. */
function hintedPaths(stdout: string): string[] {
  const match = /git add -A -- (.+?)(?: && git commit|$)/m.exec(stdout);
  expect(match, stdout).not.toBeNull();
  return match![1]!.split(' ');
}

/** What git status shows that is not staged: changed files not added, untracked files. */
function notStaged(root: string): string[] {
  return git(root, ['status', '--porcelain', '--untracked-files=all'])
    .split('\n')
    .filter((line) => line !== '' && (line[1] !== ' ' || line.startsWith('??')));
}

describe('commit hints', () => {
  it("init's git add stages every file init wrote", async () => {
    const root = tempRepo();
    const init = await runCli(['init', '--yes'], { cwd: root });
    expect(init.code, init.stderr).toBe(0);
    const paths = hintedPaths(init.stdout);
    expect(paths).toEqual(['.ai-team', '.ai-team-templates', '.gitattributes', '.github/agents', '.github/hooks', '.github/skills', '.gitignore']);
    git(root, ['add', '-A', '--', ...paths]);
    expect(notStaged(root)).toEqual([]);
  });

  it("upgrade's git add stages every change, team skills moved to .github/skills/ included", async () => {
    const root = fixtureRepo('v0.0.1');
    git(root, ['add', '-A']);
    git(root, ['commit', '-q', '-m', 'before']);
    const ignored = ignoredFiles(root);
    const upgrade = await runCli(['upgrade'], { cwd: root });
    expect(upgrade.code, upgrade.stderr).toBe(0);
    const paths = hintedPaths(upgrade.stdout);
    expect(paths).toContain('.github/skills');
    // Exactly what changed: no path the upgrade left alone.
    expect(paths).toEqual(commitPaths(changedPaths(root, ignored)));
    git(root, ['add', '-A', '--', ...paths]);
    expect(notStaged(root)).toEqual([]);
  });

  it("upgrade's git add names exactly the skills it made standard and their backups, when nothing else changed", async () => {
    const root = fixtureRepo('v0.0.1');
    expect((await runCli(['upgrade'], { cwd: root })).code).toBe(0);
    writeFiles(root, { '.github/skills/deploy-notes/SKILL.md': '# Deploy Notes\n\nShip on Tuesdays, never on a Friday.\n' });
    git(root, ['add', '-A']);
    git(root, ['commit', '-q', '-m', 'before']);
    const ignored = ignoredFiles(root);
    const upgrade = await runCli(['upgrade'], { cwd: root });
    expect(upgrade.code, upgrade.stderr).toBe(0);
    // The skill, and its backup in .ai-team/backups/ (which .gitignore keeps out of commits).
    expect(hintedPaths(upgrade.stdout)).toEqual(['.ai-team', '.github/skills']);
    expect(hintedPaths(upgrade.stdout)).toEqual(commitPaths(changedPaths(root, ignored)));
    // Run again: nothing changes, and no hint is printed.
    const again = await runCli(['upgrade'], { cwd: root });
    expect(again.stdout).not.toContain('git add');
  });
});

/** Every path git sees changed (modified, deleted or new; new ignored files too, such as backups), one line each. */
function changedPaths(root: string, ignoredBefore: readonly string[] = []): string[] {
  return git(root, ['status', '--porcelain', '--untracked-files=all', '--ignored'])
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.slice(3))
    .filter((rel) => !ignoredBefore.includes(rel));
}

/** The ignored files there are now. */
function ignoredFiles(root: string): string[] {
  return git(root, ['status', '--porcelain', '--untracked-files=all', '--ignored'])
    .split('\n')
    .filter((line) => line.startsWith('!! '))
    .map((line) => line.slice(3));
}
