/**
 * The plain head (src/core/skills/plain-head.ts) reads a frontmatter from its bytes and claims it
 * valid with nothing to say. Wherever it answers, the YAML library and every validation rule must
 * agree: the frontmatter parses, the skill is valid without a warning, and the fields a listing
 * keeps are the same strings. Generated heads (plain ones, and every way of not being plain), then
 * the frontmatter of real public skills (../shared/data, at run time; skipped when absent).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { plainSkillHead } from '../../src/core/skills/plain-head.js';
import { validateByRules } from '../../src/core/skills/validate.js';
import { REPO_ROOT, cleanupTempDirs, tempDir } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

/** What the yaml library and every rule make of a frontmatter: the fields a listing keeps, or why not valid. */
function byTheRules(yamlText: string, dirName: string): { name?: string; description?: string; version?: string; author?: string } | string {
  const doc = parseDocument(yamlText, { uniqueKeys: true, strict: true });
  if (doc.errors.length > 0) return 'yaml error';
  const value = doc.toJS({ maxAliasCount: 100 }) as unknown;
  const frontmatter = value === null || value === undefined ? {} : value;
  if (typeof frontmatter !== 'object' || Array.isArray(frontmatter)) return 'not a mapping';
  const result = validateByRules({ frontmatter: frontmatter as Record<string, unknown>, dirName });
  if (!result.valid || result.warnings.length > 0) return `not plain: ${[...result.errors, ...result.warnings].map((issue) => issue.code).join(', ')}`;
  return { name: result.fields.name, description: result.fields.description, version: result.fields.version, author: result.fields.author };
}

/** The plain head of a frontmatter text (the bytes between the `---` lines), as the same fields. */
function plainOf(yamlText: string, dirName: string) {
  const bytes = Buffer.from(`---\n${yamlText}---\n# body\n`);
  const head = plainSkillHead(bytes, 4, 4 + Buffer.byteLength(yamlText), dirName);
  return head && { name: head.name, description: head.description, version: head.version, author: head.author };
}

function expectAgrees(yamlText: string, dirName: string): boolean {
  const plain = plainOf(yamlText, dirName);
  if (plain === undefined) return false;
  expect(byTheRules(yamlText, dirName), `the plain head took:\n${yamlText}`).toEqual(plain);
  return true;
}

describe('plainSkillHead', () => {
  it('takes the usual frontmatter, folded descriptions and metadata strings included', () => {
    const usual = [
      'name: pdf-tools\ndescription: Read PDF files. Use when the user mentions PDFs.\n',
      'name: pdf-tools\ndescription: "Read PDFs: text, tables"\nlicense: Apache-2.0\n',
      "name: pdf-tools\ndescription: 'It is fine'\nallowed-tools: Read Bash(npm:*) Grep\n",
      'name: pdf-tools\ndescription: >-\n  Folded text. Use when\n  the task says so.\nmetadata:\n  author: squad\n  version: "1.0"\n',
      'description: >\n   one\n   two\nname: pdf-tools\ncompatibility: Node 20\n',
    ];
    for (const text of usual) expect(expectAgrees(text, 'pdf-tools'), text).toBe(true);
  });

  it('leaves everything else to the parser and the rules', () => {
    const others = [
      'name: pdf-tools\ndescription: d\n# a comment\n',
      'name: pdf-tools\n\ndescription: d\n',
      'name: pdf-tools\ndescription: d\ndisable-model-invocation: true\n',
      'name: pdf-tools\ndescription: d\nmetadata:\n  version: 1.0\n',
      'name: pdf-tools\ndescription: d\nmetadata:\n  mcp-servers:\n    - name: x\n',
      'name: pdf-tools\ndescription: "esc\\"aped"\n',
      'name: pdf-tools\ndescription: café\n',
      'name: pdf-tools\ndescription: tab\there\n',
      'name: pdf-tools\ndescription: true\n',
      'name: pdf-tools\ndescription: Use when: things\n',
      'name: pdf-tools\ndescription: text # comment\n',
      'name: pdf-tools\ndescription: trailing \n',
      'name: other\ndescription: d\n',
      'name: Pdf-Tools\ndescription: d\n',
      'name: pdf-tools\ndescription: |\n  literal\n',
      'name: pdf-tools\ndescription: >+\n  kept\n',
      'name: pdf-tools\ndescription: >\n  folded\n    more indented\n',
      'name: pdf-tools\ndescription: d\ndescription: again\n',
      `name: pdf-tools\ndescription: ${'x'.repeat(1025)}\n`,
      'name: pdf-tools\n',
      'name: pdf-tools\ndescription: d\nmetadata:\n',
    ];
    for (const text of others) expect(plainOf(text, 'pdf-tools'), text).toBeUndefined();
  });

  describe('agrees with the yaml library and every rule wherever it answers', () => {
    const word = fc.constantFrom('Use', 'when', 'the', 'pdf', 'v2', 'Bash(npm:*)', 'true', 'null', 'x:', 'a: b', 'c #d', '#e', "it's", '"q"', 'é', 'tab\t', '1.0', '-', '>', '|');
    const text = fc.array(word, { minLength: 0, maxLength: 5 }).map((parts) => parts.join(' '));
    const scalar = fc.oneof(
      text,
      text.map((t) => `"${t}"`),
      text.map((t) => `'${t}'`),
      fc.constantFrom('true', 'NULL', '~', '', ' ', '1.5', '"1.5"', 'trailing ', '"a\\"b"'),
    );
    const folded = fc
      .tuple(fc.constantFrom('>', '>-', '>+', '|', '> '), fc.array(fc.tuple(fc.constantFrom(1, 2, 2, 2, 3, 4), text), { minLength: 0, maxLength: 4 }))
      .map(([header, lines]) => `${header}\n${lines.map(([indent, t]) => `${' '.repeat(indent)}${t}`).join('\n')}`);
    const metadata = fc
      .array(fc.tuple(fc.constantFrom(2, 2, 2, 3), fc.constantFrom('author', 'version', 'team', 'mcp-servers', 'true', 'b-c', '9x', 'author'), scalar), {
        minLength: 0,
        maxLength: 3,
      })
      .map((entries) => `\n${entries.map(([indent, key, value]) => `${' '.repeat(indent)}${key}: ${value}`).join('\n')}`);
    const field = fc.oneof(
      fc.tuple(fc.constant('name'), fc.constantFrom('pdf-tools', 'pdf-tools', 'other', 'Pdf', '"pdf-tools"', "'pdf-tools'")),
      fc.tuple(fc.constant('description'), fc.oneof(scalar, folded)),
      fc.tuple(fc.constantFrom('license', 'compatibility', 'allowed-tools', 'tags', 'disable-model-invocation'), scalar),
      fc.tuple(fc.constant('metadata'), metadata),
    );
    const separator = fc.constantFrom(': ', ': ', ':  ', ':');
    const line = fc.tuple(field, separator).map(([[key, value], sep]) => (value.startsWith('\n') ? `${key}:${value}` : `${key}${sep}${value}`));
    const noise = fc.constantFrom('', '', '', '\n', '# c\n', '  \n', '\t\n');
    const head = fc.tuple(fc.array(line, { minLength: 1, maxLength: 6 }), noise, fc.nat()).map(([lines, extra, at]) => {
      const all = [...lines.map((l) => `${l}\n`)];
      all.splice(at % (all.length + 1), 0, extra);
      return all.join('');
    });
    // Mostly plain: safe words, well-formed blocks; the property still checks every answer.
    const safe = fc.array(fc.constantFrom('Use', 'when', 'the', 'pdf', 'v2', 'Bash(npm:*)', "it's", 'a-b'), { minLength: 1, maxLength: 6 }).map((parts) => parts.join(' '));
    const safeScalar = fc.oneof(
      safe,
      safe.map((t) => `"${t}"`),
      safe.map((t) => `'${t}'`),
    );
    const safeFolded = fc
      .tuple(fc.constantFrom('>', '>-'), fc.constantFrom(1, 2, 4), fc.array(safe, { minLength: 1, maxLength: 3 }))
      .map(([header, indent, lines]) => `${header}\n${lines.map((t) => `${' '.repeat(indent)}${t}`).join('\n')}`);
    const safeMetadata = fc
      .tuple(
        fc.constantFrom(2, 4),
        fc.uniqueArray(fc.tuple(fc.constantFrom('author', 'version', 'team', 'b-c', 'x_y.z', 'mcp-servers', 'true', 'Null'), safeScalar), {
          minLength: 1,
          maxLength: 3,
          selector: ([key]) => key,
        }),
      )
      .map(([indent, entries]) => entries.map(([key, value]) => `${' '.repeat(indent)}${key}: ${value}`).join('\n'));
    const plainHead = fc
      .tuple(fc.oneof(safeScalar, safeFolded), fc.option(safeMetadata, { nil: undefined }), fc.option(safeScalar, { nil: undefined }))
      .map(
        ([description, meta, license]) =>
          `name: pdf-tools\ndescription: ${description}\n${license === undefined ? '' : `license: ${license}\n`}${meta === undefined ? '' : `metadata:\n${meta}\n`}`,
      );

    it('on generated frontmatter, plain or not', () => {
      let taken = 0;
      fc.assert(
        fc.property(fc.oneof(head, plainHead), (yamlText) => {
          if (expectAgrees(yamlText, 'pdf-tools')) taken += 1;
        }),
        { numRuns: 4000 },
      );
      expect(taken).toBeGreaterThan(500);
    });
  });

  const CORPUS = path.resolve(REPO_ROOT, '..', 'shared', 'data', 'skills-corpus.tgz');
  const present = fs.existsSync(CORPUS);
  if (!present) console.warn(`skipping the plain head on real skills: ${CORPUS} is not there`);

  it.skipIf(!present)('on real public skills, and takes many of them', () => {
    const dir = tempDir('corpus-');
    const untar = spawnSync('tar', ['-xzf', CORPUS, '-C', dir], { encoding: 'utf8' });
    expect(untar.status, untar.stderr).toBe(0);
    const files = fs
      .readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((rel) => rel.endsWith('SKILL.md'))
      .map((rel) => path.join(dir, rel));
    expect(files.length).toBeGreaterThan(400);
    let bare = 0;
    let taken = 0;
    for (const file of files) {
      const bytes = fs.readFileSync(file);
      // The usual file only, as the listing reads it: "---" alone on the first line and on the closing one.
      if (bytes.toString('latin1', 0, 4) !== '---\n') continue;
      const close = bytes.indexOf('\n---\n');
      if (close === -1 || bytes.subarray(0, close).includes(13)) continue;
      bare += 1;
      const yamlText = bytes.toString('utf8', 4, close + 1);
      if (expectAgrees(yamlText, path.basename(path.dirname(file)))) taken += 1;
    }
    expect(bare).toBeGreaterThan(300);
    expect(taken).toBeGreaterThan(bare / 4);
  });
});
