/**
 * The README's safety promises name the tests that prove them: every file named there exists, so a
 * promise cannot outlive its proof.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';

function safetySection(): string {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## Safety promises');
  expect(start, 'README.md has a "Safety promises" section').toBeGreaterThan(-1);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

describe('README safety promises', () => {
  it('name for each promise test files that exist', () => {
    const rows = safetySection()
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| Promise'));
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) {
      const proof = row.split(' | ').at(-1)!;
      const named = [...proof.matchAll(/`(test\/[^`]+)`/g)].flatMap(([, ref]) => {
        // `test/e2e/{init,hire}.test.ts` names several files.
        const braces = /^(.*)\{([^}]+)\}(.*)$/.exec(ref!);
        return braces ? braces[2]!.split(',').map((part) => `${braces[1]}${part}${braces[3]}`) : [ref!];
      });
      expect(named.length, row).toBeGreaterThan(0);
      for (const file of named) expect(fs.existsSync(path.join(REPO_ROOT, file)), `${file} (named in: ${row.slice(0, 60)}…)`).toBe(true);
    }
  });
});
