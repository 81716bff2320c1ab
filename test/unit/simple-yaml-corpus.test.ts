/**
 * The YAML fast path against the yaml library on the frontmatter of real public skills (the
 * corpus in ../shared/data, read at run time; skipped with a message when it is absent): wherever
 * the fast path answers, it answers what the library does, and it answers for most of them.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { normalizeNewlines, splitFrontmatter } from '../../src/core/skills/frontmatter.js';
import { parseSimpleYaml } from '../../src/core/base/simple-yaml.js';
import { REPO_ROOT, cleanupTempDirs, tempDir } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

const CORPUS = path.resolve(REPO_ROOT, '..', 'shared', 'data', 'skills-corpus.tgz');
const present = fs.existsSync(CORPUS);
if (!present) console.warn(`skipping the corpus check: ${CORPUS} is not there`);

function skillFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((rel) => rel.endsWith('SKILL.md'))
    .map((rel) => path.join(dir, rel));
}

describe.skipIf(!present)('the YAML fast path on real skills', () => {
  it('agrees with the yaml library on every frontmatter it takes, and takes most of them', () => {
    const dir = tempDir('corpus-');
    const untar = spawnSync('tar', ['-xzf', CORPUS, '-C', dir], { encoding: 'utf8' });
    expect(untar.status, untar.stderr).toBe(0);
    const files = skillFiles(dir);
    expect(files.length).toBeGreaterThan(400);
    let fast = 0;
    for (const file of files) {
      let yamlText: string;
      try {
        yamlText = splitFrontmatter(normalizeNewlines(fs.readFileSync(file, 'utf8')), file).yaml;
      } catch {
        continue; // no frontmatter: nothing for either parser
      }
      const simple = parseSimpleYaml(yamlText);
      if (simple === undefined) continue;
      fast += 1;
      const doc = parseDocument(yamlText, { uniqueKeys: true, strict: true });
      expect(doc.errors, file).toEqual([]);
      expect(simple, file).toEqual(doc.toJS() ?? {});
    }
    expect(fast / files.length).toBeGreaterThan(0.9);
  });
});
