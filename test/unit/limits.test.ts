/**
 * The one table of limits: the doc's table is the constants, the door's checks and the later
 * commands' use the same numbers, and a skill's file paths are judged as export judges them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as limits from '../../src/core/base/limits.js';
import { hiddenCharacterCount } from '../../src/core/base/visible-text.js';
import { formatBytes } from '../../src/core/base/util.js';
import { STATE_FILE_MAX_BYTES as READ_LIMIT } from '../../src/core/fs/fs-safe.js';
import { squadPathProblem } from '../../src/core/portable/squad-files.js';
import { SQUAD_LIMITS } from '../../src/core/portable/squad-format.js';
import { checkSkillFilePaths, judgeSkillFilePaths, skillPathProblem } from '../../src/core/skills/skill-paths.js';
import { REPO_ROOT } from '../helpers/cli.js';

/** The rows of the "Limits" table of docs/budgets.md: constant name → value cell. */
function docTable(): Map<string, string> {
  const text = fs.readFileSync(path.join(REPO_ROOT, 'docs/budgets.md'), 'utf8');
  const section = text.slice(text.indexOf('\n## Limits\n'), text.indexOf('\n## Latest run\n'));
  const rows = [...section.matchAll(/^\| [^|]+ \| `([A-Z_]+)` \| ([^|]+) \|/gm)];
  return new Map(rows.map((m) => [m[1]!, m[2]!.trim()]));
}

function shown(limit: { value: number; unit: string }): string {
  return limit.unit === 'bytes' ? formatBytes(limit.value) : `${limit.value.toLocaleString('en-US')} ${limit.unit}`;
}

describe('the table of limits', () => {
  it('docs/budgets.md lists every limit with its value, and nothing else', () => {
    const documented = docTable();
    expect([...documented.keys()].sort()).toEqual(Object.keys(limits.LIMITS).sort());
    for (const [name, limit] of Object.entries(limits.LIMITS)) expect(documented.get(name), name).toBe(shown(limit));
  });

  it('LIMITS holds the exported constants themselves', () => {
    for (const [name, limit] of Object.entries(limits.LIMITS)) expect(limit.value, name).toBe((limits as unknown as Record<string, number>)[name]);
  });

  it('the readers and the .squad format take their numbers from it', () => {
    expect(READ_LIMIT).toBe(limits.STATE_FILE_MAX_BYTES);
    expect(SQUAD_LIMITS).toEqual({
      documentBytes: limits.SQUAD_DOCUMENT_MAX_BYTES,
      fileBytes: limits.SQUAD_FILE_MAX_BYTES,
      totalBytes: limits.SQUAD_TOTAL_MAX_BYTES,
      fileCount: limits.SQUAD_MAX_FILES,
      depth: limits.SQUAD_MAX_DEPTH,
      pathLength: limits.SKILL_PATH_MAX_CHARS,
      segmentBytes: limits.SKILL_PATH_SEGMENT_MAX_BYTES,
    });
    // No skill the door lets in holds more files than a .squad file can.
    expect(limits.SKILL_MAX_FILES).toBeLessThanOrEqual(limits.SQUAD_MAX_FILES);
    // A rule, and a whole charter of them, are far inside what is read whole.
    expect(limits.RULE_MAX_BYTES).toBeLessThan(limits.CHARTER_MAX_BYTES);
    expect(limits.CHARTER_MAX_BYTES).toBeLessThan(limits.STATE_FILE_MAX_BYTES);
    expect(limits.TEAM_RULES_MAX_BYTES).toBeLessThan(limits.STATE_FILE_MAX_BYTES);
  });

  it('counts the characters taught text may not hold: what a prompt would show as escapes', () => {
    expect(hiddenCharacterCount('plain text,\ttabs and\nnew lines\r\n')).toBe(0);
    expect(hiddenCharacterCount('\u001b[31mred\u0000 \u007f\u0085 \u202eevil\u202c \u2066x\u2069 \u200e\u200f\u061c')).toBe(11);
  });
});

describe("a skill's file paths", () => {
  const hostile: [string, RegExp][] = [
    ['notes\u001b[2J.md', /control character/],
    ['tab\there.md', /control character/],
    ['a:b.md', /":" is a character Windows does not allow/],
    ['draft.', /ends with a dot or a space/],
    ['references/aux.txt', /device name Windows reserves/],
    ['x/.git/config', /\.git folder/],
    [`${'d'.repeat(200)}/${'e'.repeat(200)}/${'f'.repeat(200)}.md`, /the path is 605 characters; the limit is 512/],
    [`${'s'.repeat(256)}.md`, /segment is longer than 255 bytes/],
  ];

  it.each(hostile)('refuses hostile path #%# as export does', (relPath, problem) => {
    expect(skillPathProblem(relPath)).toMatch(problem);
    expect(squadPathProblem(relPath)).toBe(skillPathProblem(relPath));
  });

  it('accepts the paths of an ordinary skill', () => {
    expect(judgeSkillFilePaths(['SKILL.md', 'references/api.md', 'scripts/run.sh', 'assets/logo.png', 'README.md'])).toBeUndefined();
  });

  it('finds case-only twins and names the first offender with the count of the others', () => {
    expect(judgeSkillFilePaths(['Notes.md', 'SKILL.md', 'notes.md'])).toEqual({
      path: 'notes.md',
      problem: 'the same file as "Notes.md" once case and Unicode normalisation are ignored',
      others: 0,
    });
    expect(judgeSkillFilePaths(['SKILL.md', 'a:b.md', 'c.', 'ok.md', 'd\u0007.md'])).toMatchObject({ path: 'a:b.md', others: 2 });
  });

  it('refuses more files than a skill may hold', () => {
    const files = ['SKILL.md', 'a.md', 'b.md', 'c.md'];
    expect(judgeSkillFilePaths(files, 3)).toEqual({ problem: 'it has 4 files; a skill holds at most 3', others: 0 });
    expect(judgeSkillFilePaths(files, 4)).toBeUndefined();
  });

  it('checkSkillFilePaths throws one line, escaping the path', () => {
    expect(() => checkSkillFilePaths('my-skill', [{ path: 'SKILL.md' }, { path: 'x\u001b[31m.md' }, { path: 'y.' }])).toThrow(
      expect.objectContaining({ code: 'invalid-input', message: 'my-skill/x\\u001b[31m.md: the path contains a control character (and 1 other file)' }),
    );
    expect(() => checkSkillFilePaths('big', [{ path: 'SKILL.md' }, { path: 'a' }, { path: 'b' }], 2)).toThrow(
      expect.objectContaining({ message: 'big: it has 3 files; a skill holds at most 2' }),
    );
  });
});
