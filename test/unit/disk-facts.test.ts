/**
 * DiskReader answers a planner's questions from the disk, once each, and records them; factsFrom
 * answers from that record alone, the same answers (errors included), and refuses a question the
 * read step never asked instead of reading.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { factsFrom, type DiskFacts } from '../../src/core/base/disk-facts.js';
import { DiskReader } from '../../src/core/fs/disk-reader.js';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

const PATHS = ['a.md', 'dir', 'dir/inner.txt', 'empty', 'link', 'dangling', 'missing.md'];

/** Every question, asked of every path, each answer or what it threw. */
function ask(facts: DiskFacts): unknown[] {
  const questions: ((relPath: string) => unknown)[] = [
    (p) => facts.blocked(p),
    (p) => facts.exists(p),
    (p) => facts.isFile(p),
    (p) => facts.isDirectory(p),
    (p) => facts.kind(p),
    (p) => facts.bytes(p)?.toString('utf8'),
    (p) => facts.mode(p),
    (p) => facts.names(p),
    (p) => facts.missingOrEmpty(p),
  ];
  return PATHS.flatMap((relPath) =>
    questions.map((question) => {
      try {
        return { value: question(relPath) };
      } catch (error) {
        return { threw: (error as NodeJS.ErrnoException).code ?? String(error) };
      }
    }),
  );
}

describe('DiskReader and factsFrom', () => {
  it('answer every question alike, the second from the record alone', () => {
    const root = tempDir();
    writeFiles(root, { 'a.md': 'text', 'dir/inner.txt': 'x' });
    fs.mkdirSync(path.join(root, 'empty'));
    fs.symlinkSync('dir', path.join(root, 'link'));
    fs.symlinkSync('nowhere', path.join(root, 'dangling'));
    const reader = new DiskReader(root);
    const live = ask(reader);
    expect(live).toContainEqual({ value: 'folder' });
    expect(live).toContainEqual({ value: 'symlink' });
    expect(live).toContainEqual({ threw: 'ENOENT' }); // the mode of what is missing
    // The disk changes after the read: the record still answers as the disk did when read.
    fs.rmSync(path.join(root, 'a.md'));
    expect(ask(factsFrom(reader.record()))).toEqual(live);
  });

  it('a question the read step did not ask is an error, never a read', () => {
    const root = tempDir();
    writeFiles(root, { 'a.md': 'text' });
    const reader = new DiskReader(root);
    reader.exists('a.md');
    const facts = factsFrom(reader.record());
    expect(facts.exists('a.md')).toBe(true);
    expect(() => facts.isFile('a.md')).toThrow(/did not read whether a file stands of a\.md/);
    expect(() => facts.bytes('a.md')).toThrow(/did not read the bytes of a\.md/);
  });
});
