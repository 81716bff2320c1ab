/**
 * stagingWriter (fs-safe.ts): the files of a folder placed whole, written into a private staging
 * folder whose place is checked once and whose folders it makes once each. What it must keep
 * doing: one counted write per file, modes as asked, nothing written through a link or over
 * anything, and a staging folder whose way leads out of the repository refused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SquadError } from '../../src/core/base/errors.js';
import { observeWrites, stagingFlushSeams, stagingWriter } from '../../src/core/fs/fs-safe.js';
import { cleanupTempDirs, listFiles, tempDir } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

function refusal(write: () => void): SquadError {
  try {
    write();
  } catch (error) {
    if (error instanceof SquadError) return error;
    throw error;
  }
  throw new Error('expected a SquadError');
}

describe('stagingWriter', () => {
  it('makes the staging folder and each folder in it, writes each file once, counts one write per file, keeps the modes asked', () => {
    const root = tempDir();
    const counts: number[] = [];
    observeWrites((count) => counts.push(count));
    try {
      const staged = stagingWriter(root, 'squad/.staging-x');
      staged.write('team.md', '# Team\n');
      staged.write('agents/ada/skills/tool/SKILL.md', 'skill');
      staged.write('agents/ada/skills/tool/scripts/check.sh', '#!/bin/sh\n', { mode: 0o755 });
      staged.write('agents/ada/skills/tool/references/deep/notes.md', new Uint8Array([0, 1, 2]));
    } finally {
      observeWrites(undefined);
    }
    expect(counts).toEqual([1, 2, 3, 4]);
    const staging = path.join(root, 'squad/.staging-x');
    expect(listFiles(staging).sort()).toEqual([
      'agents/ada/skills/tool/SKILL.md',
      'agents/ada/skills/tool/references/deep/notes.md',
      'agents/ada/skills/tool/scripts/check.sh',
      'team.md',
    ]);
    expect(fs.statSync(path.join(staging, 'agents/ada/skills/tool/scripts/check.sh')).mode & 0o777).toBe(0o755);
    expect(fs.readFileSync(path.join(staging, 'agents/ada/skills/tool/references/deep/notes.md'))).toEqual(Buffer.from([0, 1, 2]));
  });

  it('never writes over anything: a file written twice, a file where a folder goes, a link planted in the staging folder', () => {
    const root = tempDir();
    const outside = tempDir();
    const staged = stagingWriter(root, '.staging-y');
    staged.write('a.md', 'first');
    expect(refusal(() => staged.write('a.md', 'second')).code).toBe('file-exists');
    expect(fs.readFileSync(path.join(root, '.staging-y/a.md'), 'utf8')).toBe('first');
    expect(refusal(() => staged.write('a.md/b.md', 'below a file')).message).toBe('cannot write .staging-y/a.md/b.md: a file is in the way of a folder (ENOTDIR)');
    // A link someone put where a file is about to go is not followed (O_EXCL), nor one in place of a folder.
    fs.symlinkSync(path.join(outside, 'target.md'), path.join(root, '.staging-y/link.md'));
    expect(refusal(() => staged.write('link.md', 'through a link')).code).toBe('file-exists');
    fs.symlinkSync(outside, path.join(root, '.staging-y/dir'));
    expect(refusal(() => staged.write('dir/c.md', 'through a folder link')).message).toBe('cannot write .staging-y/dir/c.md: a file is in the way of a folder (ENOTDIR)');
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it('refuses a path that leaves the staging folder, and a staging folder whose way is a link out of the repository', () => {
    const root = tempDir();
    const outside = tempDir();
    const staged = stagingWriter(root, '.staging-z');
    expect(refusal(() => staged.write('../escape.md', 'x')).code).toBe('unsafe-path');
    fs.symlinkSync(outside, path.join(root, 'linked'));
    const error = refusal(() => stagingWriter(root, 'linked/.staging-z').write('a.md', 'x'));
    expect(error.code).toBe('unsafe-path');
    expect(error.message).toBe('refusing to write linked/.staging-z: linked is a symlink that leads outside the repository');
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(fs.readdirSync(root).sort()).toEqual(['linked']);
  });
});

/** How many times `run` flushes a file or folder to the disk (fs.fsyncSync). */
function fsyncs(run: () => void): number {
  const sync = fs.fsyncSync;
  let count = 0;
  fs.fsyncSync = (fd: number) => {
    count += 1;
    sync(fd);
  };
  try {
    run();
  } finally {
    fs.fsyncSync = sync;
  }
  return count;
}

describe('stagingWriter.flush', () => {
  it('flushes what it wrote to the disk, by one file-system flush or, without one, file by file and folder by folder', () => {
    const write = (staged: ReturnType<typeof stagingWriter>) => {
      staged.write('team.md', '# Team\n');
      staged.write('agents/ada/charter.md', '# Ada\n');
    };
    const root = tempDir();
    // The tests' folders may be in memory (tmpfs), which Linux skips: flushed as on a disk here.
    stagingFlushSeams.skipMemoryFileSystems = false;
    const whole = stagingWriter(root, 'squad/.staging-a');
    write(whole);
    // Linux flushes the file system in one call (no fsync of ours); elsewhere each file and folder.
    expect(fsyncs(() => whole.flush())).toBe(process.platform === 'linux' ? 0 : 5);

    const before = stagingFlushSeams.syncCommand;
    stagingFlushSeams.syncCommand = '/nonexistent/create-squad-no-such-command';
    try {
      const oneByOne = stagingWriter(root, 'squad/.staging-b');
      write(oneByOne);
      // Two files, and the three folders made: the staging folder, agents/, agents/ada/.
      expect(fsyncs(() => oneByOne.flush())).toBe(5);
      expect(fs.readFileSync(path.join(root, 'squad/.staging-b/agents/ada/charter.md'), 'utf8')).toBe('# Ada\n');
    } finally {
      stagingFlushSeams.syncCommand = before;
      stagingFlushSeams.skipMemoryFileSystems = true;
    }
    // Nothing written: nothing to flush.
    expect(fsyncs(() => stagingWriter(root, 'squad/.staging-c').flush())).toBe(0);
  });

  it.runIf(process.platform === 'linux' && fs.existsSync('/dev/shm'))('leaves a folder in memory (tmpfs) alone: nothing there outlives a power loss', () => {
    const root = fs.mkdtempSync('/dev/shm/create-squad-staging-');
    try {
      const staged = stagingWriter(root, 'squad/.staging-m');
      staged.write('team.md', '# Team\n');
      const before = stagingFlushSeams.syncCommand;
      // A flush would fail loudly into the fallback; skipped, it runs nothing.
      stagingFlushSeams.syncCommand = '/nonexistent/create-squad-no-such-command';
      try {
        expect(fsyncs(() => staged.flush())).toBe(0);
      } finally {
        stagingFlushSeams.syncCommand = before;
      }
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
