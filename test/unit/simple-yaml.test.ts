import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseFrontmatterYaml } from '../../src/core/frontmatter.js';
import { parseSimpleYaml } from '../../src/core/simple-yaml.js';

/** What the full parser makes of `text`, or 'error'. Same options as parseFrontmatterYaml. */
function reference(text: string): unknown {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true, strict: true });
  if (doc.errors.length > 0) return 'error';
  try {
    return doc.toJS({ maxAliasCount: 100 }) ?? {};
  } catch {
    return 'error';
  }
}

/** The fast path either declines or agrees exactly with `yaml`. */
function expectAgrees(text: string): unknown {
  const fast = parseSimpleYaml(text);
  if (fast !== undefined) {
    const ref = reference(text);
    expect(ref, `yaml rejects what the fast path accepted:\n${text}`).not.toBe('error');
    expect(fast, text).toStrictEqual(ref);
  }
  return fast;
}

const SUPPORTED: Record<string, unknown> = {
  '': {},
  '# only a comment\n': {},
  'name: pdf\ndescription: Use when reading PDFs.\n': { name: 'pdf', description: 'Use when reading PDFs.' },
  'name: pdf\ndescription: "quoted: with \\"escapes\\" and \\u00e9"\n': {
    name: 'pdf',
    description: 'quoted: with "escapes" and é',
  },
  "description: 'it''s single-quoted: fine'\n": { description: "it's single-quoted: fine" },
  'metadata:\n  author: fenster\n  version: "1.0"\n': { metadata: { author: 'fenster', version: '1.0' } },
  'metadata:\n  version: 1.0\n  count: 3\n  neg: -2\n': { metadata: { version: 1, count: 3, neg: -2 } },
  'disable-model-invocation: true\nother: False\nnothing: ~\nempty:\n': {
    'disable-model-invocation': true,
    other: false,
    nothing: null,
    empty: null,
  },
  'metadata:\n  mcp-servers:\n    - name: postgres\n      reason: Query the schema\n    - name: ado\n      optional: true\n      fallback: skip it\n':
    {
      metadata: {
        'mcp-servers': [
          { name: 'postgres', reason: 'Query the schema' },
          { name: 'ado', optional: true, fallback: 'skip it' },
        ],
      },
    },
  'tags:\n- a\n- "b"\nnext: x\n': { tags: ['a', 'b'], next: 'x' },
  'list: []\nmap: {}\n': { list: [], map: {} },
  'description: C# and F# with http://x.y/z, [brackets] {braces} and ünïcödé 日本\n': {
    description: 'C# and F# with http://x.y/z, [brackets] {braces} and ünïcödé 日本',
  },
  'a: 1\n\n# comment between\nb: 2\n': { a: 1, b: 2 },
};

const DECLINED = [
  'description: >\n  folded\n  text\n',
  'description: |\n  literal\n',
  'description: first line\n  continued\n',
  'a: &x 1\nb: *x\n',
  'a: !!str 1\n',
  'a: b # comment\n',
  'a: [1, 2]\n',
  'a: {b: 1}\n',
  'a: 1\na: 2\n',
  '- top level list\n',
  'a:\tb\n',
  'a: "unterminated\n',
  "a: 'x' y\n",
  'a: "x" y\n',
  'a: b: c\n',
  '"quoted key": 1\n',
  'a: 0x1F\n',
  'a: .inf\n',
  'a: 2024-01-01\n',
  'a: @at\n',
  'a: `tick\n',
  'a: tRuE\n',
  'x:\n  - a\n   - b\n',
  'x:\n    a: 1\n  b: 2\n',
  ' a: 1\n',
  '__proto__: 1\n',
  'a: "\\x41"\n',
  'key:value\n',
  'a: 1234567890123456789\n',
];

describe('parseSimpleYaml (frontmatter fast path)', () => {
  for (const [text, expected] of Object.entries(SUPPORTED)) {
    it(`parses ${JSON.stringify(text.slice(0, 40))}`, () => {
      expect(expectAgrees(text)).toStrictEqual(expected);
    });
  }

  for (const text of DECLINED) {
    it(`leaves ${JSON.stringify(text.slice(0, 40))} to yaml`, () => {
      expect(parseSimpleYaml(text)).toBeUndefined();
    });
  }

  it('agrees with yaml on thousands of generated documents', () => {
    // A small deterministic generator (LCG) over tricky fragments.
    let seed = 12345;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const scalars = [
      'plain text', 'true', 'True', 'FALSE', 'null', '~', '1', '-1', '+1', '0', '-0', '01', '1.5', '.5', '1.', '1e3', '-1.5e-3',
      '"dq"', '"dq \\"x\\""', '"a: b # c"', "'sq'", "'it''s'", "''", '""', 'a:b', 'a#b', 'x, y', 'yes', 'no', 'on', '日本語',
      'é', 'a - b', 'a ? b', '[]', '{}', 'key: v', 'a #c', '-x', '?x', ':x', '*x', '&x', '!x', '|', '>', '%x', '@x', '"',
      "'", '"a"b', '1_000', '0o7', '0x1', '.nan', 'NaN', 'Infinity', '12345678901234567', '"\\u0041"', '"\\/"', 'trailing  ',
    ];
    const keys = ['name', 'description', 'metadata', 'a-b', 'x_y', 'K', 'true', 'null', 'version', 'mcp-servers'];
    const indents = ['  ', '    ', '   '];
    for (let n = 0; n < 3000; n += 1) {
      const lines: string[] = [];
      const count = 1 + rand(5);
      for (let i = 0; i < count; i += 1) {
        const key = keys[rand(keys.length)]!;
        const shape = rand(6);
        const ind = indents[rand(indents.length)]!;
        if (shape === 0) {
          lines.push(`${key}:`, `${ind}${keys[rand(keys.length)]}: ${scalars[rand(scalars.length)]}`);
          if (rand(2)) lines.push(`${ind}${keys[rand(keys.length)]}: ${scalars[rand(scalars.length)]}`);
        } else if (shape === 1) {
          lines.push(`${key}:`, `${ind}- ${scalars[rand(scalars.length)]}`, `${ind}- ${scalars[rand(scalars.length)]}`);
        } else if (shape === 2) {
          lines.push(`${key}:`, `${ind}- name: ${scalars[rand(scalars.length)]}`, `${ind}  reason: ${scalars[rand(scalars.length)]}`);
        } else if (shape === 3) {
          lines.push(`${key}:`);
        } else {
          lines.push(`${key}: ${scalars[rand(scalars.length)]}`);
        }
        if (rand(10) === 0) lines.push(rand(2) ? '' : '# note');
      }
      expectAgrees(`${lines.join('\n')}\n`);
    }
  });

  it('is what parseFrontmatterYaml returns for simple frontmatter, and yaml still reports errors', () => {
    expect(parseFrontmatterYaml('name: a\ndescription: b\n')).toEqual({ name: 'a', description: 'b' });
    expect(() => parseFrontmatterYaml('a: 1\na: 2\n', 'x/SKILL.md')).toThrow(/invalid YAML/);
    expect(() => parseFrontmatterYaml('description: Use when: broken\n', 'x/SKILL.md')).toThrow(/x\/SKILL.md:2/);
  });
});
