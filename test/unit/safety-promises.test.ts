/**
 * The safety promises (docs/safety.md, linked from the README) name the tests that prove them:
 * every file named there exists, so a promise cannot outlive its proof.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';

function safetySection(): string {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  expect(readme, 'the README links the safety promises').toContain('(docs/safety.md)');
  return fs.readFileSync(path.join(REPO_ROOT, 'docs', 'safety.md'), 'utf8');
}

describe('safety promises', () => {
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
