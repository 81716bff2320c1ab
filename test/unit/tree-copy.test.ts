/**
 * copyTree reads each file from a handle opened without following a link, and only when it is the
 * very file the walk saw. The gap between walk and copy is the seam: each test walks, then changes
 * the source the way a hostile process racing the copy would, then copies. No timing involved.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isSquadError } from '../../src/core/base/errors.js';
import { copyOpenFileAtomic } from '../../src/core/fs/fs-safe.js';
import { copyTree, listTree } from '../../src/core/fs/tree.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function scratch(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

function write(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
}

/** A skill folder, a repository to copy it into, and a file outside both that must never be copied. */
function setting() {
  const base = scratch('squad-tree-copy-');
  const source = path.join(base, 'skill');
  const root = path.join(base, 'repo');
  const outside = path.join(base, 'outside');
  write(source, { 'SKILL.md': '# skill\n', 'references/notes.md': 'plain notes\n' });
  write(outside, { 'notes.md': 'PRIVATE-KEY\n', 'secret.txt': 'PRIVATE-KEY: do not copy\n' });
  fs.mkdirSync(root);
  return { source, root, outside };
}

function refusal(run: () => void): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (isSquadError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

/** Every file's text below `dir` (none when it does not exist). */
function texts(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .map((rel) => path.join(dir, rel))
    .filter((abs) => fs.lstatSync(abs).isFile())
    .map((abs) => fs.readFileSync(abs, 'utf8'));
}

describe('copyTree', () => {
  it('copies what the walk saw, with its executable bit', async () => {
    const { source, root } = setting();
    write(source, { 'scripts/run.sh': '#!/bin/sh\n' });
    fs.chmodSync(path.join(source, 'scripts/run.sh'), 0o755);
    copyTree(source, await listTree(source), root, 'stage');
    expect(fs.readFileSync(path.join(root, 'stage/references/notes.md'), 'utf8')).toBe('plain notes\n');
    expect(fs.statSync(path.join(root, 'stage/scripts/run.sh')).mode & 0o777).toBe(0o755);
  });

  it('refuses a file swapped for a symlink after the walk, and copies nothing of what it points to', async () => {
    const { source, root, outside } = setting();
    const tree = await listTree(source);
    const notes = path.join(source, 'references/notes.md');
    fs.rmSync(notes);
    fs.symlinkSync(path.join(outside, 'secret.txt'), notes);
    expect(refusal(() => copyTree(source, tree, root, 'stage'))).toEqual({
      code: 'unsafe-path',
      message: `${notes} changed after it was read: it is a symlink now; it was not copied`,
    });
    expect(texts(path.join(root, 'stage')).join('')).not.toContain('PRIVATE-KEY');
  });

  it('refuses a folder on the way swapped for a link to a look-alike outside (same name, same size)', async () => {
    const { source, root, outside } = setting();
    const tree = await listTree(source);
    fs.renameSync(path.join(source, 'references'), path.join(source, 'moved'));
    fs.symlinkSync(outside, path.join(source, 'references'));
    expect(fs.statSync(path.join(outside, 'notes.md')).size).toBe(tree.files.find((f) => f.path === 'references/notes.md')!.size);
    expect(refusal(() => copyTree(source, tree, root, 'stage'))).toEqual({
      code: 'unsafe-path',
      message: `${path.join(source, 'references/notes.md')} changed after it was read: it is another file now; it was not copied`,
    });
    expect(texts(path.join(root, 'stage')).join('')).not.toContain('PRIVATE-KEY');
  });

  it('refuses a file that changed size, or is gone', async () => {
    const { source, root } = setting();
    const tree = await listTree(source);
    fs.appendFileSync(path.join(source, 'references/notes.md'), 'more\n');
    expect(refusal(() => copyTree(source, tree, root, 'a')).message).toBe(
      `${path.join(source, 'references/notes.md')} changed after it was read: its size changed from 12 to 17 bytes; it was not copied`,
    );
    fs.rmSync(path.join(source, 'references/notes.md'));
    expect(refusal(() => copyTree(source, tree, root, 'b')).message).toBe(`${path.join(source, 'references/notes.md')} changed after it was read: it is gone; it was not copied`);
  });

  it.skipIf(process.platform === 'win32')('refuses a file swapped for a FIFO without waiting on it', async () => {
    const { source, root } = setting();
    const tree = await listTree(source);
    const notes = path.join(source, 'references/notes.md');
    fs.rmSync(notes);
    if (spawnSync('mkfifo', [notes]).status !== 0) return; // no mkfifo here: nothing to check
    // Opening a FIFO for reading without O_NONBLOCK would wait for a writer forever.
    expect(refusal(() => copyTree(source, tree, root, 'stage')).message).toBe(`${notes} changed after it was read: it is a FIFO (named pipe) now; it was not copied`);
  });
});

describe('copyOpenFileAtomic', () => {
  it('copies exactly the bytes promised, and refuses a file that grew or shrank since', () => {
    const { source, root } = setting();
    const file = path.join(source, 'references/notes.md');
    const fd = fs.openSync(file, 'r');
    try {
      copyOpenFileAtomic(root, 'copy/notes.md', fd, 12);
      expect(fs.readFileSync(path.join(root, 'copy/notes.md'), 'utf8')).toBe('plain notes\n');
      expect(refusal(() => copyOpenFileAtomic(root, 'copy/grew.md', fd, 5))).toEqual({
        code: 'invalid-input',
        message: 'copy/grew.md: its source grew past 5 bytes while it was copied',
      });
      expect(refusal(() => copyOpenFileAtomic(root, 'copy/shrank.md', fd, 40)).message).toBe('copy/shrank.md: its source shrank to 12 of 40 bytes while it was copied');
      expect(fs.readdirSync(path.join(root, 'copy'))).toEqual(['notes.md']);
    } finally {
      fs.closeSync(fd);
    }
  });
});
