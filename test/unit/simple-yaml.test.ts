import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseSimpleYaml } from '../../src/core/base/simple-yaml.js';

/** What the yaml library makes of a text (the reference), or 'error'. */
function reference(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, strict: true });
  if (doc.errors.length > 0) return 'error';
  try {
    const value = doc.toJS({ maxAliasCount: 100 });
    return value === null || value === undefined ? {} : value;
  } catch {
    return 'error';
  }
}

function agreesWithYaml(text: string): void {
  const fast = parseSimpleYaml(text);
  if (fast === undefined) return; // fell back: always safe
  const expected = reference(text);
  expect(expected, `fast path accepted text the yaml library rejects:\n${text}`).not.toBe('error');
  expect(fast, `differs from the yaml library on:\n${text}`).toEqual(expected);
}

describe('parseSimpleYaml: accepts the usual frontmatter exactly as yaml reads it', () => {
  const accepted = [
    'name: pdf\ndescription: Read PDF files. Use when the user mentions PDFs.\n',
    'name: pdf\ndescription: "Read PDFs: text, tables"\nlicense: Apache-2.0\n',
    "name: a\ndescription: 'It is fine'\nallowed-tools: Read Bash(npm:*) Grep\n",
    'name: a\ndescription: d\nmetadata:\n  author: squad\n  version: "1.0"\n',
    'name: a\ndescription: d\nmetadata:\n  mcp-servers:\n    - name: postgres\n      reason: "Query schema"\n    - name: ado\n      optional: true\n      fallback: "Skip linking"\n',
    'name: a\nmetadata:\n  mcp-servers:\n  - name: x\n  - name: y\n',
    'name: a\ndescription: d\n# a comment\ndisable-model-invocation: true\n',
    'name: a\ntags:\n  - one\n  - two\n',
    'name: a\nempty:\nafter: x\n',
    'name: a\nflag: TRUE\noff: False\nnothing: ~\nalso: null\n',
    '',
    // Block scalars, as the built-in skills and many public ones write descriptions.
    'name: a\ndescription: >-\n  Folded text. Use when\n  the task says so.\nlicense: MIT\n',
    'name: a\ndescription: >\n  one\n  two\n\n  after a blank\n',
    'name: a\ndescription: |\n  line one\n    indented two\n  # not a comment\n',
    'name: a\ndescription: |-\n  x\n\n\nnext: y\n',
    'name: a\ndescription: |+\n  kept\n\n\nnext: y\n',
    'name: a\ndescription: >+\n  kept\n\n',
    'name: a\nmetadata:\n  note: >-\n    nested folded\n    text\n  version: "1.0"\n',
    'name: a\nlist:\n  - key: |\n      in a sequence\n    other: x\n',
    'name: a\ndescription: >-\n\n  leading blank\n',
    // Keys of every character a key may hold; a colon ending the line.
    '_private: x\nk.v-w_2: y\nnested:\n  z: a1\n',
  ];
  it.each(accepted)('%j', (text) => {
    expect(parseSimpleYaml(text)).toBeDefined();
    agreesWithYaml(text);
  });
});

describe('parseSimpleYaml: falls back on anything outside the subset', () => {
  it.each([
    'name: a\nversion: 1.0\n',
    'name: a\ndescription: >2\n  explicit indentation\n',
    'name: a\ndescription: > # comment\n  folded\n',
    'name: a\ndescription: >\n  folded\n    more indented\n',
    'name: a\ndescription: |\n  x\n  \n  spaces on a blank line\n',
    'name: a\ndescription: |\nno content\n',
    'name: a\ndescription: Use when: things\n',
    'name: a\ndescription: text # comment\n',
    'name: &x a\nother: *x\n',
    'name: a\nlist: [a, b]\n',
    'name: a\nmap: {a: 1}\n',
    'name: "esc\\"aped"\n',
    "name: 'it''s'\n",
    'name: a\nname: b\n',
    'name: a\n\tdescription: tab\n',
    'name: a\ndescription: Use when\n  continued on the next line\n',
    '- a\n- b\n',
    '  name: indented\n',
    'name: !tag a\n',
    '__proto__: x\n',
    'name: é-accent\n',
    '"quoted key": x\n',
    'name:value\n',
    'a:b: c\n',
    '9key: x\n',
    'name: a\n- item\n',
  ])('%j', (text) => {
    expect(parseSimpleYaml(text)).toBeUndefined();
  });
});

describe('parseSimpleYaml: differential property test against the yaml library', () => {
  const word = fc.constantFrom(
    'a',
    'name',
    'Use',
    'true',
    'False',
    'NULL',
    'null',
    'yes',
    'no',
    'on',
    'Infinity',
    'NaN',
    'x1',
    'v2.0',
    '1.0',
    '007',
    '0x1F',
    '-',
    '--',
    '#',
    ':',
    ': ',
    ' :',
    'a:b',
    'a: b',
    "it's",
    '"q"',
    "'q'",
    '\\',
    '[x]',
    '{y}',
    '&a',
    '*a',
    '!t',
    '|',
    '>',
    '%',
    '@',
    '`',
    ',',
    '?',
    '~',
    ' ',
    '  ',
    'é',
    '\u00a0',
    '日本',
    'a #b',
    'a#b',
  );
  const scalarText = fc.array(word, { minLength: 0, maxLength: 5 }).map((parts) => parts.join(''));
  const quoted = scalarText.map((s) => `"${s}"`);
  const single = scalarText.map((s) => `'${s}'`);
  const value = fc.oneof(scalarText, quoted, single);
  const key = fc.constantFrom('name', 'description', 'metadata', 'version', 'a', 'b-c', 'd_e', 'f.g', 'name', '1x', 'K', 'true', 'Null', '~', 'x y');

  type Node =
    | { kind: 'scalar'; text: string }
    | { kind: 'block'; header: string; lines: string[] }
    | { kind: 'map'; entries: [string, Node][] }
    | { kind: 'seq'; items: Node[]; compact: boolean };
  const blockLine = fc.oneof(
    scalarText,
    fc.constant(''),
    scalarText.map((t) => ` ${t}`),
    scalarText.map((t) => `# ${t}`),
  );
  const block = fc.tuple(fc.constantFrom('|', '|-', '|+', '>', '>-', '>+', '>1', '| #c'), fc.array(blockLine, { minLength: 0, maxLength: 4 }));
  const node: fc.Arbitrary<Node> = fc.letrec<{ node: Node }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      value.map((text) => ({ kind: 'scalar' as const, text })),
      block.map(([header, lines]) => ({ kind: 'block' as const, header, lines })),
      fc.array(fc.tuple(key, tie('node')), { minLength: 1, maxLength: 3 }).map((entries) => ({ kind: 'map' as const, entries })),
      fc.tuple(fc.array(tie('node'), { minLength: 1, maxLength: 3 }), fc.boolean()).map(([items, compact]) => ({ kind: 'seq' as const, items, compact })),
    ),
  })).node;

  function render(entries: [string, Node][], indent: number): string {
    const pad = ' '.repeat(indent);
    return entries
      .map(([k, v]) => {
        if (v.kind === 'scalar') return `${pad}${k}: ${v.text}\n`;
        if (v.kind === 'block') return `${pad}${k}: ${v.header}\n${v.lines.map((line) => (line === '' ? '\n' : `${pad}  ${line}\n`)).join('')}`;
        if (v.kind === 'map') return `${pad}${k}:\n${render(v.entries, indent + 2)}`;
        return `${pad}${k}:\n${renderSeq(v.items, v.compact ? indent : indent + 2)}`;
      })
      .join('');
  }
  function renderSeq(items: Node[], indent: number): string {
    const pad = ' '.repeat(indent);
    return items
      .map((item) => {
        if (item.kind === 'scalar') return `${pad}- ${item.text}\n`;
        if (item.kind === 'block') return `${pad}- x\n`;
        if (item.kind === 'map') {
          const inner = render(item.entries, indent + 2);
          return `${pad}- ${inner.slice(indent + 2)}`;
        }
        return `${pad}-\n${renderSeq(item.items, indent + 2)}`;
      })
      .join('');
  }

  const document = fc.array(fc.tuple(key, node), { minLength: 1, maxLength: 4 }).map((entries) => render(entries, 0));
  const noisy = fc.tuple(document, fc.array(fc.constantFrom('\n', ' ', '  ', '# c\n', '\t', '-', ':'), { maxLength: 2 }), fc.nat()).map(([text, noise, at]) => {
    const position = text.length === 0 ? 0 : at % text.length;
    return text.slice(0, position) + noise.join('') + text.slice(position);
  });

  it('agrees on generated documents', () => {
    fc.assert(
      fc.property(document, (text) => agreesWithYaml(text)),
      { numRuns: Number(process.env.FC_RUNS ?? 3000) },
    );
  });

  it('agrees on documents with random noise inserted', () => {
    fc.assert(
      fc.property(noisy, (text) => agreesWithYaml(text)),
      { numRuns: Number(process.env.FC_RUNS ?? 3000) },
    );
  });

  it('takes the fast path for documents written in the subset (it is worth having)', () => {
    const safeWord = fc.constantFrom('Use', 'when', 'the', 'task', 'mentions', 'PDFs.', 'v2', 'Bash(npm:*)', 'true', 'null');
    const safeText = fc.array(safeWord, { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));
    const safeValue = fc.oneof(
      safeText,
      safeText.map((t) => `"${t}"`),
      safeText.map((t) => `'${t}'`),
    );
    const safeKey = fc.constantFrom('name', 'description', 'license', 'metadata', 'author', 'mcp-servers', 'reason', 'optional');
    const safeDoc = fc
      .uniqueArray(fc.tuple(safeKey, safeValue), { minLength: 1, maxLength: 6, selector: ([k]) => k })
      .map((entries) => entries.map(([k, v]) => `${k}: ${v}\n`).join(''));
    const sample = fc.sample(safeDoc, { numRuns: 300, seed: 42 });
    for (const text of sample) {
      expect(parseSimpleYaml(text), text).toBeDefined();
      agreesWithYaml(text);
    }
  });
});
