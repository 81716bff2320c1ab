/**
 * Repository hygiene: init and upgrade append ignore rules to the repository's .gitignore (never
 * changing the user's lines), so git never tracks the backups, what an interrupted run leaves, or
 * the default export file; checked with git itself.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GITIGNORE_PATH, squadPaths } from '../../src/core/base/paths.js';
import { GITIGNORE_PATTERNS } from '../../src/core/scaffold/scaffold.js';
import { cleanupTempDirs, hashTree, runCli, runOk, tempRepo, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

/** The paths git ignores among `paths`. */
function ignored(root: string, paths: string[]): string[] {
  const result = spawnSync('git', ['check-ignore', '--no-index', ...paths], { cwd: root, encoding: 'utf8' });
  return result.stdout.split('\n').filter(Boolean);
}

const LEFTOVERS = [
  '.ai-team/backups/2026-11-24T10-00-00Z/.ai-team/team.md',
  '.ai-team-import-staging-4242-0123abcd/team.md',
  '.github/skills/.staging-pdf-4242-0123abcd/SKILL.md',
  '.ai-team/agents/fenster/.history.md.4242.0123abcd.tmp',
  '.create-squad.lock',
  'squad-export.squad',
];
const KEPT = ['.ai-team/team.md', '.ai-team/agents/fenster/history.md', '.github/skills/pdf/SKILL.md', 'docs/squad-export.squad', '.env.tmp', 'notes.tmp'];

describe('ignore rules', () => {
  it("init appends them to the user's .gitignore, which git then applies", async () => {
    const root = tempRepo();
    writeFiles(root, { [GITIGNORE_PATH]: 'node_modules/\n# mine\ndist' });
    const result = await runCli(['init', '--yes', '--json'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.data<{ gitignoreAdded: string[] }>().gitignoreAdded).toHaveLength(GITIGNORE_PATTERNS.length + 1);
    const text = read(root, GITIGNORE_PATH);
    expect(text.startsWith('node_modules/\n# mine\ndist\n')).toBe(true);
    for (const pattern of GITIGNORE_PATTERNS) expect(text).toContain(`\n${pattern}\n`);
    expect(ignored(root, [...LEFTOVERS, ...KEPT])).toEqual(LEFTOVERS);

    // Again: nothing added twice.
    await runOk(root, ['init', '--yes']);
    expect(read(root, GITIGNORE_PATH)).toBe(text);
  });

  it('the default export lands where git ignores it', async () => {
    const root = tempRepo();
    await runOk(root, ['init', '--yes']);
    await runOk(root, ['export']);
    expect(fs.existsSync(path.join(root, 'squad-export.squad'))).toBe(true);
    const status = spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: root, encoding: 'utf8' }).stdout;
    expect(status).not.toContain('squad-export.squad');
    expect(status).not.toContain(squadPaths.backups);
  });

  it("upgrade of an older squad adds the missing ones (a migration), keeping the user's lines; --dry-run writes nothing", async () => {
    const root = tempRepo();
    await runOk(root, ['init', '--yes']);
    fs.writeFileSync(path.join(root, GITIGNORE_PATH), `coverage/\r\n/${squadPaths.backups}/\r\n`);
    const before = hashTree(root);
    const dry = await runCli(['upgrade', '--dry-run', '--json'], { cwd: root });
    expect(dry.code, dry.stderr).toBe(0);
    expect(hashTree(root)).toBe(before);
    const data = (await runOk(root, ['upgrade', '--json'])).data<{ migrations: { id: string; paths: string[] }[] }>();
    expect(data.migrations).toEqual([expect.objectContaining({ id: 'gitignore-hygiene', paths: [GITIGNORE_PATH] })]);
    const text = read(root, GITIGNORE_PATH);
    expect(text.startsWith(`coverage/\r\n/${squadPaths.backups}/\r\n`)).toBe(true);
    expect(text.match(/\.ai-team\/backups/g)).toHaveLength(1); // the user's own line counts
    expect(text.endsWith('\r\n')).toBe(true);
    expect(ignored(root, LEFTOVERS)).toEqual(LEFTOVERS);
    expect((await runOk(root, ['upgrade', '--json'])).data<{ migrations: unknown[] }>().migrations).toEqual([]);
  });

  it('leaves a symlinked .gitignore alone, with a note', async () => {
    const root = tempRepo();
    writeFiles(root, { 'shared/ignore': 'x\n' });
    fs.symlinkSync('shared/ignore', path.join(root, GITIGNORE_PATH));
    const result = await runCli(['init', '--yes', '--json'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.data<{ notes: string[] }>().notes).toContain('.gitignore is a symlink; it was left as it is (add the ignore rules yourself)');
    expect(read(root, 'shared/ignore')).toBe('x\n');
  });
});
