/**
 * openConfined decides on the file it opened, not on its name: a file that is a link out of the
 * repository when opened is refused even if its name leads inside again by the time it is checked,
 * and a path check made before the open proves nothing it relies on.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { confinedOpenSeams, openConfined, readStateHead, stateReadProblem, type ReadConfinement } from '../../src/core/fs/confined.js';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);
afterEach(() => {
  confinedOpenSeams.afterOpen = undefined;
  confinedOpenSeams.procFd = true;
});

const SECRET = 'token = confined-open-do-not-leak';

/** A repository with `skills/x/SKILL.md` (a regular file) and a secret file outside it. */
function setup(): { root: string; file: string; secret: string } {
  const root = tempDir();
  writeFiles(root, { 'skills/x/SKILL.md': 'inside\n', 'docs/other.md': 'also inside\n' });
  const secret = path.join(tempDir(), 'credentials');
  fs.writeFileSync(secret, `${SECRET}\n`);
  return { root, file: path.join(root, 'skills/x/SKILL.md'), secret };
}

/** The text behind `fd`, which is closed. */
function readAndClose(fd: number): string {
  try {
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}

function relink(file: string, target: string): void {
  fs.rmSync(file, { force: true });
  fs.symlinkSync(target, file);
}

const MODES: [string, (root: string) => ReadConfinement][] = [
  ['every open checked', (root) => ({ root })],
  ['folder known inside (only links checked)', (root) => ({ root, folderInside: true })],
];

describe('openConfined', () => {
  for (const [mode, within] of MODES) {
    describe(mode, () => {
      it('opens a regular file and a link that stays inside; a dangling link fails as a missing file', () => {
        const { root, file } = setup();
        expect(readAndClose(openConfined(file, within(root)))).toBe('inside\n');
        relink(file, '../../docs/other.md');
        expect(readAndClose(openConfined(file, within(root)))).toBe('also inside\n');
        relink(file, '../../docs/nothing-here.md');
        expect(() => openConfined(file, within(root))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
      });

      it('refuses a link out of the repository with unsafe-path and the fix', () => {
        const { root, file, secret } = setup();
        relink(file, secret);
        expect(() => openConfined(file, within(root))).toThrow(
          expect.objectContaining({
            code: 'unsafe-path',
            message: 'refusing to read skills/x/SKILL.md: skills/x/SKILL.md is a symlink that leads outside the repository',
            hint: 'replace skills/x/SKILL.md with a real file inside the repository (a link may only point inside it), then run the command again',
          }),
        );
      });

      it('refuses a file swapped for a link out after a path check said it was fine', () => {
        const { root, file, secret } = setup();
        expect(stateReadProblem(root, 'skills/x/SKILL.md')).toBeUndefined();
        relink(file, secret);
        expect(() => openConfined(file, within(root))).toThrow(expect.objectContaining({ code: 'unsafe-path' }));
      });
    });
  }

  for (const procFd of [true, false]) {
    it(`refuses what it opened through a link out even when the name leads inside again before the check (${procFd ? '/proc/self/fd' : 'real path, device and inode'})`, () => {
      const { root, file, secret } = setup();
      relink(file, secret);
      confinedOpenSeams.procFd = procFd;
      confinedOpenSeams.afterOpen = (opened) => {
        // The name now leads to a regular file inside: a check of the name alone would pass.
        fs.rmSync(opened);
        fs.writeFileSync(opened, 'inside again\n');
      };
      expect(() => openConfined(file, { root, folderInside: true })).toThrow(expect.objectContaining({ code: 'unsafe-path' }));
      expect(fs.readFileSync(file, 'utf8')).toBe('inside again\n');
    });
  }

  it('confines to a folder of the repository, named as the caller names it', () => {
    const { root, file, secret } = setup();
    relink(file, '../../docs/other.md');
    expect(() => openConfined(file, { root: path.dirname(file), rootName: 'the skill folder' })).toThrow(
      expect.objectContaining({ code: 'unsafe-path', message: 'refusing to read SKILL.md: SKILL.md is a symlink that leads outside the skill folder' }),
    );
    expect(readAndClose(openConfined(file, { root }))).toBe('also inside\n');
    relink(file, secret);
    expect(() => openConfined(file, { root: path.dirname(file), rootName: 'the skill folder' })).toThrow(expect.objectContaining({ code: 'unsafe-path' }));
  });

  it('without a folder known inside, refuses a folder on the way swapped for a link out', () => {
    const { root, file } = setup();
    const elsewhere = tempDir();
    writeFiles(elsewhere, { 'SKILL.md': `${SECRET}\n` });
    fs.rmSync(path.dirname(file), { recursive: true });
    fs.symlinkSync(elsewhere, path.dirname(file));
    expect(() => openConfined(file, { root })).toThrow(expect.objectContaining({ code: 'unsafe-path' }));
  });
});

describe('readStateHead', () => {
  it('reads a file whole when it is shorter than the head, else exactly the head; nothing past either', () => {
    const root = tempDir();
    writeFiles(root, { '.ai-team/short.md': 'a charter\n', '.ai-team/long.md': `${'x'.repeat(100)}TAIL`, '.ai-team/empty.md': '' });
    expect(readStateHead(root, '.ai-team/short.md', 4096)).toBe('a charter\n');
    expect(readStateHead(root, '.ai-team/long.md', 100)).toBe('x'.repeat(100));
    expect(readStateHead(root, '.ai-team/empty.md', 64)).toBe('');
    expect(readStateHead(root, '.ai-team/missing.md', 64)).toBeUndefined();
  });
});
