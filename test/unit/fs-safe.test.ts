import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { SquadError } from '../../src/core/base/errors.js';
import {
  STATE_FILE_MAX_BYTES,
  TEMP_FILE_PATTERN,
  copyFileAtomic,
  holdWorkPath,
  moveInside,
  observeWrites,
  readBytesIfExists,
  readDirEntries,
  readTextIfExists,
  relativePathProblem,
  resolveInside,
  sweepDebris,
  writeFileAtomic,
} from '../../src/core/fs/fs-safe.js';
import { cleanupTempDirs, tempDir } from '../helpers/cli.js';
import { deadPid } from '../helpers/debris.js';

afterAll(cleanupTempDirs);

const HAS_MKFIFO = spawnSync('mkfifo', ['--version']).error === undefined;
if (!HAS_MKFIFO) console.warn('mkfifo is not installed: the FIFO tests are skipped');

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof SquadError ? error.code : `other: ${String(error)}`;
  }
  return undefined;
}

describe('relativePathProblem', () => {
  it.each(['a', 'a/b/c.md', '.ai-team/skills/x/SKILL.md', 'dots..in..name', 'emoji-\u{1F600}.md'])('accepts %s', (p) => {
    expect(relativePathProblem(p)).toBeUndefined();
  });
  it.each([
    ['', /empty/],
    ['/etc/passwd', /absolute/],
    ['C:/x', /absolute/],
    ['c:x', /absolute/],
    ['a/../b', /\.\./],
    ['..', /\.\./],
    ['a\\b', /backslash/],
    ['a\0b', /NUL/],
    ['a//b', /empty/],
    ['./a', /empty or "\."/],
    ['a\ud800.md', /lone surrogate/],
    ['\udc00/b', /lone surrogate/],
  ])('refuses %j', (p, reason) => {
    expect(relativePathProblem(p)).toMatch(reason);
  });
});

describe('writeFileAtomic', () => {
  it('writes, creating folders, with the given mode, and leaves no temp files', () => {
    const root = tempDir();
    writeFileAtomic(root, 'a/b/run.sh', '#!/bin/sh\n', { mode: 0o755 });
    writeFileAtomic(root, 'a/b/run.sh', '#!/bin/sh\necho hi\n', { mode: 0o755 });
    const file = path.join(root, 'a/b/run.sh');
    expect(fs.readFileSync(file, 'utf8')).toBe('#!/bin/sh\necho hi\n');
    expect(fs.statSync(file).mode & 0o777).toBe(0o755);
    expect(fs.readdirSync(path.join(root, 'a/b'))).toEqual(['run.sh']);
  });

  it('with exclusive, refuses to replace an existing file and keeps it intact', () => {
    const root = tempDir();
    writeFileAtomic(root, 'x.md', 'mine');
    expect(codeOf(() => writeFileAtomic(root, 'x.md', 'theirs', { exclusive: true }))).toBe('file-exists');
    expect(fs.readFileSync(path.join(root, 'x.md'), 'utf8')).toBe('mine');
    expect(fs.readdirSync(root)).toEqual(['x.md']);
  });

  it('refuses paths that leave the root', () => {
    const root = tempDir();
    expect(codeOf(() => writeFileAtomic(root, '../escape.md', 'x'))).toBe('unsafe-path');
    expect(codeOf(() => writeFileAtomic(root, '/tmp/escape.md', 'x'))).toBe('unsafe-path');
  });

  it('refuses to follow a symlinked folder that points outside the root', () => {
    const root = tempDir();
    const outside = tempDir();
    fs.symlinkSync(outside, path.join(root, 'link'));
    expect(codeOf(() => writeFileAtomic(root, 'link/file.md', 'x'))).toBe('unsafe-path');
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it('allows a symlinked folder that stays inside the root', () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, 'real'));
    fs.symlinkSync(path.join(root, 'real'), path.join(root, 'alias'));
    writeFileAtomic(root, 'alias/file.md', 'x');
    expect(fs.readFileSync(path.join(root, 'real/file.md'), 'utf8')).toBe('x');
  });

  it('refuses to write through a symlinked file', () => {
    const root = tempDir();
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, 'target'), 'original');
    fs.symlinkSync(path.join(outside, 'target'), path.join(root, 'file.md'));
    expect(codeOf(() => writeFileAtomic(root, 'file.md', 'x'))).toBe('unsafe-path');
    expect(fs.readFileSync(path.join(outside, 'target'), 'utf8')).toBe('original');
  });

  it('reports a file in the way of a folder as not-writable', () => {
    const root = tempDir();
    fs.writeFileSync(path.join(root, 'a'), 'file');
    expect(codeOf(() => writeFileAtomic(root, 'a/b.md', 'x'))).toBe('not-writable');
  });

  it.skipIf(!HAS_MKFIFO)('never replaces a FIFO, a socket or a folder, and writes nothing when it refuses', async () => {
    const root = tempDir();
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    fs.mkdirSync(path.join(root, 'dir'));
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(root, 'sock'), resolve));
    try {
      const before = fs.readdirSync(root).sort();
      for (const [name, kind] of [
        ['pipe', 'a FIFO (named pipe)'],
        ['sock', 'a socket'],
        ['dir', 'a folder'],
      ] as const) {
        for (const options of [{}, { exclusive: true }]) {
          expect(() => writeFileAtomic(root, name, 'x', options)).toThrow(`refusing to replace ${name}: it is ${kind}, not a regular file`);
        }
      }
      expect(fs.statSync(path.join(root, 'pipe')).isFIFO()).toBe(true);
      expect(fs.statSync(path.join(root, 'sock')).isSocket()).toBe(true);
      expect(fs.readdirSync(path.join(root, 'dir'))).toEqual([]);
      expect(fs.readdirSync(root).sort()).toEqual(before);
    } finally {
      server.close();
    }
  });

  it.skipIf(process.getuid?.() === 0)('reports a read-only folder as not-writable', () => {
    const root = tempDir();
    fs.chmodSync(root, 0o555);
    try {
      expect(codeOf(() => writeFileAtomic(root, 'x.md', 'x'))).toBe('not-writable');
    } finally {
      fs.chmodSync(root, 0o755);
    }
  });
});

describe('durability', () => {
  it('flushes the new content before the rename that publishes it, and the folder after', () => {
    const root = tempDir();
    const synced: string[] = [];
    const open = vi.spyOn(fs, 'openSync');
    const sync = vi.spyOn(fs, 'fsyncSync').mockImplementation((fd) => {
      const call = open.mock.calls[open.mock.results.findLastIndex((r) => r.value === fd)];
      synced.push(String(call?.[0]));
    });
    try {
      writeFileAtomic(root, 'a/b.txt', 'new');
    } finally {
      sync.mockRestore();
      open.mockRestore();
    }
    expect(synced).toHaveLength(2);
    expect(path.basename(synced[0]!)).toMatch(TEMP_FILE_PATTERN);
    expect(synced[1]).toBe(path.join(fs.realpathSync(root), 'a'));
    expect(fs.readFileSync(path.join(root, 'a/b.txt'), 'utf8')).toBe('new');
  });
});

describe('debris of killed runs', () => {
  const tempName = (base: string, pid: number) => `.${base}.${pid}.0123abcd.tmp`;

  it('a write removes the temporary files of dead processes beside its target, and nothing else', () => {
    const root = tempDir();
    const dead = tempName('team.md', deadPid());
    const live = tempName('team.md', process.ppid); // another process that runs: maybe another create-squad writing
    fs.mkdirSync(path.join(root, 'a/sub'), { recursive: true });
    for (const name of [dead, live, 'notes.tmp', '.team.md.tmp', tempName('x.md', 1).replace('.tmp', '.bak')]) fs.writeFileSync(path.join(root, 'a', name), 'x');
    fs.writeFileSync(path.join(root, 'a/sub', tempName('deep.md', deadPid())), 'x'); // another folder: not written to
    fs.mkdirSync(path.join(root, 'a', tempName('folder', deadPid()))); // a folder: not a temporary file
    writeFileAtomic(root, 'a/team.md', '# Team\n');
    expect(fs.readdirSync(path.join(root, 'a')).sort()).toEqual(
      [live, 'notes.tmp', '.team.md.tmp', tempName('x.md', 1).replace('.tmp', '.bak'), tempName('folder', deadPid()), 'sub', 'team.md'].sort(),
    );
    expect(fs.readdirSync(path.join(root, 'a/sub'))).toHaveLength(1);
  });

  it('sweeps staging folders of dead processes, and of this one unless it is using them', () => {
    const dir = tempDir();
    const pattern = /^\.staging-.+-(\d+)-[0-9a-f]{8}$/;
    const names = {
      dead: `.staging-a-${deadPid()}-0123abcd`,
      live: `.staging-a-${process.ppid}-0123abcd`,
      mine: `.staging-a-${process.pid}-0123abcd`,
      held: `.staging-b-${process.pid}-89abcdef`,
      old: '.staging-a-0123abcd',
    };
    for (const name of Object.values(names)) fs.mkdirSync(path.join(dir, name, 'x'), { recursive: true });
    fs.symlinkSync(path.join(dir, names.live), path.join(dir, `.staging-link-${deadPid()}-0123abcd`));
    const release = holdWorkPath(path.join(dir, names.held));
    try {
      expect(sweepDebris(dir, pattern, 'dir').sort()).toEqual([names.dead, names.mine].sort());
    } finally {
      release();
    }
    expect(fs.readdirSync(dir).sort()).toEqual([names.live, names.held, names.old, `.staging-link-${deadPid()}-0123abcd`].sort());
    expect(sweepDebris(dir, pattern, 'dir')).toEqual([names.held]);
    expect(sweepDebris(path.join(dir, 'missing'), pattern, 'dir')).toEqual([]);
  });
});

describe('copyFileAtomic', () => {
  it('copies the bytes with the given mode through a temporary file, as one counted write', () => {
    const source = path.join(tempDir(), 'logo.bin');
    fs.writeFileSync(source, Buffer.from([0, 1, 2, 255]), { mode: 0o600 });
    const root = tempDir();
    const counts: number[] = [];
    observeWrites((count) => counts.push(count));
    try {
      copyFileAtomic(root, 'assets/logo.bin', source, { mode: 0o755 });
      copyFileAtomic(root, 'assets/logo.bin', source);
    } finally {
      observeWrites(undefined);
    }
    expect(counts).toEqual([1, 2]);
    const copy = path.join(root, 'assets/logo.bin');
    expect(fs.readFileSync(copy).equals(fs.readFileSync(source))).toBe(true);
    expect(fs.statSync(copy).mode & 0o777).toBe(0o644);
    expect(fs.readdirSync(path.join(root, 'assets'))).toEqual(['logo.bin']);
    expect(codeOf(() => copyFileAtomic(root, 'assets/logo.bin', source, { exclusive: true }))).toBe('file-exists');
    expect(codeOf(() => copyFileAtomic(root, '../out.bin', source))).toBe('unsafe-path');
  });
});

describe('moveInside and resolveInside', () => {
  it('moves within the root and refuses to clobber', () => {
    const root = tempDir();
    writeFileAtomic(root, 'a/one.md', '1');
    writeFileAtomic(root, 'b/two.md', '2');
    moveInside(root, 'a', 'backup/a');
    expect(fs.readFileSync(path.join(root, 'backup/a/one.md'), 'utf8')).toBe('1');
    expect(codeOf(() => moveInside(root, 'b', 'backup/a'))).toBe('file-exists');
  });

  it('resolves to an absolute path inside the root', () => {
    const root = tempDir();
    expect(resolveInside(root, 'x/y.md')).toBe(path.join(fs.realpathSync(root), 'x', 'y.md'));
  });
});

describe('pathProblem, existsInside, removeInside', async () => {
  const { existsInside, isWithin, pathProblem, removeInside } = await import('../../src/core/fs/fs-safe.js');

  it('says why a path is unsafe without throwing', () => {
    const root = tempDir();
    const outside = tempDir();
    fs.symlinkSync(outside, path.join(root, 'out'));
    fs.symlinkSync(path.join(root, 'missing'), path.join(root, 'dangling'));
    expect(pathProblem(root, 'a/b.md')).toBeUndefined();
    expect(pathProblem(root, '../x')).toMatch(/\.\./);
    expect(pathProblem(root, 'out/x.md')).toMatch(/leads outside/);
    expect(pathProblem(root, 'dangling/x.md')).toMatch(/dangling/);
    expect(pathProblem(root, 'out')).toMatch(/is a symlink/);
  });

  it('judges links against the real root when the root itself is reached through a link', () => {
    const real = tempDir();
    const outside = tempDir();
    const root = path.join(tempDir(), 'repo-link');
    fs.symlinkSync(real, root);
    fs.mkdirSync(path.join(real, 'docs'));
    fs.symlinkSync(path.join(real, 'docs'), path.join(real, 'inside'));
    fs.symlinkSync(outside, path.join(real, 'out'));
    expect(pathProblem(root, 'inside/x.md')).toBeUndefined();
    expect(pathProblem(root, 'out/x.md')).toBe('out is a symlink that leads outside the repository');
    expect(resolveInside(root, 'inside/x.md')).toBe(path.join(real, 'inside', 'x.md'));
  });

  it('treats a folder named "..cache" as inside', () => {
    expect(isWithin('/repo', '/repo/..cache/x')).toBe(true);
    expect(isWithin('/repo', '/other')).toBe(false);
    expect(isWithin('/repo', '/repo')).toBe(true);
  });

  it('sees a dangling symlink as existing, and removes only inside the root', () => {
    const root = tempDir();
    fs.symlinkSync(path.join(root, 'nowhere'), path.join(root, 'link'));
    expect(existsInside(root, 'link')).toBe(true);
    expect(existsInside(root, 'nothing')).toBe(false);
    writeFileAtomic(root, 'stage/a/b.md', 'x');
    removeInside(root, 'stage');
    expect(fs.existsSync(path.join(root, 'stage'))).toBe(false);
    removeInside(root, 'stage');
    expect(codeOf(() => removeInside(root, '../x'))).toBe('unsafe-path');
  });
});

describe('readDirEntries', () => {
  it('leaves dot- and underscore-entries out unless asked for them, sorted either way', () => {
    const root = tempDir();
    for (const name of ['b', '.tmp', '_draft', 'a']) fs.writeFileSync(path.join(root, name), '');
    expect(readDirEntries(root).map((e) => e.name)).toEqual(['a', 'b']);
    expect(readDirEntries(root, { includeIgnored: true }).map((e) => e.name)).toEqual(['.tmp', '_draft', 'a', 'b']);
    expect(readDirEntries(path.join(root, 'missing'), { includeIgnored: true })).toEqual([]);
  });
});

describe('readBytesIfExists', () => {
  it('reads a regular file, and gives undefined for a missing one', () => {
    const root = tempDir();
    fs.writeFileSync(path.join(root, 'a.md'), 'hello');
    expect(readTextIfExists(path.join(root, 'a.md'))).toBe('hello');
    expect(readBytesIfExists(path.join(root, 'missing.md'))).toBeUndefined();
  });

  it('never opens a FIFO or a device, even behind a symlink', () => {
    const root = tempDir();
    execFileSync('mkfifo', [path.join(root, 'fifo')]);
    fs.symlinkSync('/dev/zero', path.join(root, 'zero'));
    fs.mkdirSync(path.join(root, 'dir'));
    expect(readBytesIfExists(path.join(root, 'fifo'))).toBeUndefined();
    expect(readBytesIfExists(path.join(root, 'zero'))).toBeUndefined();
    expect(readBytesIfExists(path.join(root, 'dir'))).toBeUndefined();
  });

  it('refuses a file over the limit instead of reading part of it', () => {
    const root = tempDir();
    fs.writeFileSync(path.join(root, 'big.md'), 'x'.repeat(2048));
    expect(() => readBytesIfExists(path.join(root, 'big.md'), 1024)).toThrow(/big\.md is 0\.0 MB, more than create-squad reads/);
    expect(STATE_FILE_MAX_BYTES).toBe(4 * 1024 * 1024);
  });
});
