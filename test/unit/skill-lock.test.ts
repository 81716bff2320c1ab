/** skills-lock.json as text: keys, the one written form, conflict healing, the ecosystem's folder hash. */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSquadError } from '../../src/core/base/errors.js';
import { listTree } from '../../src/core/fs/tree.js';
import { changedFiles, conflictSides, formatLock, hashSkillFiles, lockKey, lockWith, parseLock, parseLockKey } from '../../src/core/skills/skill-lock.js';

const hash = (c: string) => c.repeat(64);

describe('keys', () => {
  it('names a team skill by its name and a member skill by <member>/<name>, and back', () => {
    expect(lockKey('.github/skills/pdf')).toBe('pdf');
    expect(lockKey('.ai-team/skills/pdf')).toBe('pdf');
    expect(lockKey('.ai-team/agents/fenster/skills/pdf')).toBe('fenster/pdf');
    expect(parseLockKey('fenster/pdf')).toEqual({ agent: 'fenster', name: 'pdf' });
    expect(parseLockKey('pdf')).toEqual({ name: 'pdf' });
  });
});

describe('the written form', () => {
  it('sorts entries by key, puts fields in the ecosystem order then the rest sorted, and keeps other top-level fields', () => {
    const text = formatLock(
      {
        zeta: { computedHash: hash('a'), zz: { b: 1, a: 2 }, sourceType: 'local', source: './z' },
        alpha: {
          createSquad: { files: { 'b.md': hash('b'), 'a.md': hash('a') } },
          computedHash: hash('c'),
          skillPath: 'SKILL.md',
          sourceType: 'git',
          ref: 'v1',
          sourceUrl: 'https://x/y.git',
          source: 'https://x/y.git',
        },
      },
      { note: 'kept' },
    );
    expect(text).toBe(
      `${JSON.stringify(
        {
          version: 1,
          skills: {
            alpha: {
              source: 'https://x/y.git',
              sourceUrl: 'https://x/y.git',
              ref: 'v1',
              sourceType: 'git',
              skillPath: 'SKILL.md',
              computedHash: hash('c'),
              createSquad: { files: { 'a.md': hash('a'), 'b.md': hash('b') } },
            },
            zeta: { source: './z', sourceType: 'local', computedHash: hash('a'), zz: { a: 2, b: 1 } },
          },
          note: 'kept',
        },
        null,
        2,
      )}\n`,
    );
    // Read back and written again: the same bytes; nothing to change is no text.
    const lock = parseLock(text);
    expect(formatLock(lock.entries, lock.extra)).toBe(text);
    expect(lockWith(lock, {})).toBeUndefined();
    expect(lockWith(lock, { zeta: null })).not.toContain('zeta');
  });

  it('reads what is not a lock as a problem, not a throw', () => {
    expect(parseLock('[1]').problem).toBe('is not a JSON object');
    expect(parseLock('{').problem).toBe('is not valid JSON');
    expect(parseLock('{"version": 2, "skills": {}}').problem).toBe('has version 2; create-squad reads version 1');
    expect(parseLock('{"version": 1, "skills": []}').problem).toBe('has "skills" that is not an object');
    expect(parseLock(undefined)).toEqual({ text: undefined, entries: {}, extra: {}, healed: false });
  });
});

describe('git conflict markers', () => {
  const entry = (name: string, c: string) => `    "${name}": {\n      "source": "./${name}",\n      "sourceType": "local",\n      "computedHash": "${hash(c)}"\n    }`;
  const conflicted = (ours: string, theirs: string, base?: string) =>
    `{\n  "version": 1,\n  "skills": {\n    "common": {"source": "./c", "sourceType": "local", "computedHash": "${hash('0')}"},\n<<<<<<< HEAD\n${ours}\n${base === undefined ? '' : `||||||| base\n${base}\n`}=======\n${theirs}\n>>>>>>> topic\n  }\n}\n`;

  it('splits the text into both sides, dropping a diff3 base', () => {
    expect(conflictSides('a\n<<<<<<< HEAD\nb\n||||||| base\nx\n=======\nc\n>>>>>>> t\nd')).toEqual(['a\nb\nd', 'a\nc\nd']);
    expect(conflictSides('no markers')).toBeUndefined();
    expect(conflictSides('a\n<<<<<<< HEAD\nb\n')).toBeUndefined();
  });

  it('joins both sides: entries added on each, the same entry on both, a trailing comma left by the merge', () => {
    const lock = parseLock(conflicted(`${entry('one', '1')},`, entry('two', '2'), entry('old', '9')));
    expect(lock.healed).toBe(true);
    expect(Object.keys(lock.entries).sort()).toEqual(['common', 'one', 'two']);
    expect(parseLock(conflicted(entry('same', '1'), entry('same', '1'))).entries.same).toMatchObject({ computedHash: hash('1') });
    // A string holding ",}" is left as it is.
    const tricky = parseLock(conflicted(`    "s": {"source": "a,}", "sourceType": "local", "computedHash": "${hash('1')}"},`, entry('t', '2')));
    expect(tricky.entries.s?.source).toBe('a,}');
  });

  it('refuses, naming the skill, when both sides changed one entry, or a side is not JSON', () => {
    const refused = (text: string) => {
      try {
        parseLock(text);
      } catch (error) {
        if (isSquadError(error)) return `${error.code}: ${error.message}`;
        throw error;
      }
      return 'healed';
    };
    expect(refused(conflicted(entry('one', '1'), entry('one', '2')))).toBe('invalid-format: skills-lock.json: both sides of a git conflict changed the skill "one"');
    expect(refused(conflicted('    "one": {', entry('two', '2')))).toBe('invalid-format: skills-lock.json: holds git conflict markers, and a side of the conflict is not JSON');
  });
});

describe('the folder hash', () => {
  it("is the ecosystem's: SHA-256 over each path then its bytes, paths in locale order, .git and node_modules folders left out", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'squad-lock-hash-'));
    try {
      const files: Record<string, string> = { 'SKILL.md': '# s\n', 'scripts/run.sh': 'echo\n', 'assets/Logo.txt': 'L', 'node_modules/x/i.js': 'x', 'a-b.md': 'ab' };
      for (const [rel, content] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
        fs.writeFileSync(path.join(dir, rel), content);
      }
      const { computedHash, files: each } = hashSkillFiles(dir, (await listTree(dir)).files);
      // localeCompare order: case-insensitive first, so "scripts/…" comes before "SKILL.md".
      const expected = createHash('sha256');
      for (const rel of ['a-b.md', 'assets/Logo.txt', 'scripts/run.sh', 'SKILL.md']) expected.update(rel).update(files[rel]!);
      expect(computedHash).toBe(expected.digest('hex'));
      expect(Object.keys(each)).toEqual(['SKILL.md', 'a-b.md', 'assets/Logo.txt', 'scripts/run.sh']);
      expect(each['SKILL.md']).toBe(createHash('sha256').update('# s\n').digest('hex'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the files that changed, were added or are gone', () => {
    expect(changedFiles({ a: hash('1'), b: hash('2'), c: hash('3') }, { a: hash('1'), b: hash('9'), d: hash('4') })).toEqual({ changed: ['b'], added: ['d'], removed: ['c'] });
  });
});
