/** Commands find the squad as git finds its repository: from any subfolder, the enclosing one. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findGitRoot, findSquadRoot } from '../../src/core/fs/locate.js';
import { COORDINATOR_PATH, squadPaths } from '../../src/core/base/paths.js';
import { cleanupTempDirs, listFiles, runCli, tempDir, tempRepo } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

function subfolder(root: string, rel: string): string {
  const dir = path.join(root, rel);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

describe('commands run from a subfolder', () => {
  it('act on the squad of the enclosing repository', async () => {
    const root = tempRepo();
    expect((await runCli(['init', '--yes'], { cwd: root })).code).toBe(0);
    const deep = subfolder(root, 'packages/app/src');
    const prompt = await runCli(['prompt', 'fenster', '--task', 'add a login form'], { cwd: deep });
    expect(prompt.code, prompt.stderr).toBe(0);
    expect(prompt.stdout).toContain('Fenster');
    const hire = await runCli(['hire', 'Designer', '--json'], { cwd: deep });
    expect(hire.code, hire.stderr).toBe(0);
    expect(fs.existsSync(path.join(root, '.ai-team/agents/mcmanus/charter.md'))).toBe(true);
    expect(fs.existsSync(path.join(deep, squadPaths.root))).toBe(false);
    expect((await runCli(['doctor'], { cwd: deep })).code).toBe(0);
    expect((await runCli(['skills', 'list', '--cwd', 'packages'], { cwd: root })).code).toBe(0);
  });

  it('init scaffolds at the repository root, says so, and --here makes a squad in the subfolder', async () => {
    const root = tempRepo();
    const app = subfolder(root, 'packages/app');
    const init = await runCli(['init', '--yes', '--json'], { cwd: app });
    expect(init.code, init.stderr).toBe(0);
    expect(init.data<{ dir: string; notes: string[] }>()).toMatchObject({ dir: root, notes: [expect.stringContaining(`set up the squad at the repository root ${root}`)] });
    expect(fs.existsSync(path.join(root, COORDINATOR_PATH))).toBe(true);
    expect(listFiles(app)).toEqual([]);
    // Run again from the subfolder: the squad at the root is complete, nothing nested appears.
    expect((await runCli(['init', '--yes', '--json'], { cwd: app })).data<{ created: string[] }>().created).toEqual([]);

    const other = tempRepo();
    const web = subfolder(other, 'apps/web');
    const here = await runCli(['init', '--yes', '--here', '--json'], { cwd: web });
    expect(here.code, here.stderr).toBe(0);
    expect(here.data<{ dir: string }>().dir).toBe(web);
    expect(fs.existsSync(path.join(web, COORDINATOR_PATH))).toBe(true);
    const doctor = await runCli(['doctor', '--json'], { cwd: web });
    expect(doctor.data<{ findings: { code: string; message: string }[] }>().findings).toContainEqual(
      expect.objectContaining({ code: 'squad-below-repository-root', message: expect.stringContaining(`below the repository root ${other}`) }),
    );
  });

  it('init <dir> is relative to where it runs, and a folder outside any repository is used as it is', async () => {
    const root = tempRepo();
    const app = subfolder(root, 'packages');
    const init = await runCli(['init', 'lib', '--yes', '--json'], { cwd: app });
    expect(init.data<{ dir: string }>().dir).toBe(path.join(app, 'lib'));
    const loose = tempDir();
    const plain = await runCli(['init', '--yes', '--json'], { cwd: loose });
    expect(plain.data<{ dir: string; notes: string[] }>()).toMatchObject({ dir: loose });
  });
});

describe('findSquadRoot and findGitRoot', () => {
  it('find the nearest squad, never above the repository root', () => {
    const outer = tempRepo();
    fs.mkdirSync(path.join(outer, squadPaths.root));
    const inner = subfolder(outer, 'vendor/lib');
    fs.writeFileSync(path.join(inner, '.git'), 'gitdir: ../../.git/modules/lib\n'); // a submodule
    const deep = subfolder(inner, 'src');
    expect(findGitRoot(deep)).toBe(inner);
    expect(findSquadRoot(deep)).toBeUndefined();
    expect(findSquadRoot(subfolder(outer, 'docs'))).toBe(outer);
  });
});
