import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, copyTree, tempDir, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

/** Every entry below `root` with what a copy must keep: kind, mode, bytes or link target. */
function describeTree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of fs.readdirSync(path.join(root, rel)).sort()) {
      const childRel = rel ? `${rel}/${name}` : name;
      const abs = path.join(root, childRel);
      const stat = fs.lstatSync(abs);
      const mode = (stat.mode & 0o7777).toString(8);
      if (stat.isSymbolicLink()) out[childRel] = `link ${fs.readlinkSync(abs)}`;
      else if (stat.isDirectory()) {
        out[childRel] = `dir ${mode}`;
        walk(childRel);
      } else out[childRel] = `file ${mode} ${fs.readFileSync(abs, 'hex')}`;
    }
  };
  walk('');
  return out;
}

describe('copyTree (the copy most tests start from)', () => {
  it('copies files with their modes, folders with theirs, and links as links, dangling ones too', () => {
    const from = tempDir();
    writeFiles(from, { 'a/run.sh': '#!/bin/sh\n', 'a/.hidden': 'dot', 'b/c/d.md': '# d\n', 'bin.dat': Buffer.from([0, 255, 13, 10]) });
    fs.chmodSync(path.join(from, 'a/run.sh'), 0o755);
    fs.chmodSync(path.join(from, 'b/c'), 0o700);
    fs.symlinkSync('../b/c/d.md', path.join(from, 'a/link.md'));
    fs.symlinkSync('nowhere', path.join(from, 'dangling'));
    const into = tempDir();
    copyTree(from, into);
    expect(describeTree(into)).toEqual(describeTree(from));
    expect(describeTree(into)['a/run.sh']).toMatch(/^file 755 /);
    expect(describeTree(into)['b/c']).toBe('dir 700');
    const fresh = path.join(tempDir(), 'new');
    copyTree(path.join(from, 'b'), fresh);
    expect(describeTree(fresh)).toEqual({ c: 'dir 700', 'c/d.md': describeTree(from)['b/c/d.md'] });
  });

  it('refuses what is neither a file, a folder nor a link', () => {
    const from = tempDir();
    execFileSync('mkfifo', [path.join(from, 'pipe')]);
    expect(() => copyTree(from, tempDir())).toThrow(/neither a file, a folder nor a link/);
  });
});
