/**
 * The "commit it with" hints of init and upgrade name what the run wrote: running the printed
 * `git add` leaves nothing of it unstaged or untracked (an upgrade that moves team skills to
 * .github/skills/ names that folder, so a clone gets them).
 */
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, runCli, tempRepo } from '../helpers/cli.js';
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
    expect(paths).toEqual(['.ai-team', '.ai-team-templates', '.gitattributes', '.github/agents', '.github/skills', '.gitignore']);
    git(root, ['add', '-A', '--', ...paths]);
    expect(notStaged(root)).toEqual([]);
  });

  it("upgrade's git add stages every change, team skills moved to .github/skills/ included", async () => {
    const root = fixtureRepo('v0.0.1');
    git(root, ['add', '-A']);
    git(root, ['commit', '-q', '-m', 'before']);
    const upgrade = await runCli(['upgrade'], { cwd: root });
    expect(upgrade.code, upgrade.stderr).toBe(0);
    const paths = hintedPaths(upgrade.stdout);
    expect(paths).toContain('.github/skills');
    git(root, ['add', '-A', '--', ...paths]);
    expect(notStaged(root)).toEqual([]);
  });
});
