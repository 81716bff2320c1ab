import { describe, expect, it } from 'vitest';
import { FRONTMATTER_MAX_BYTES, FrontmatterError, locateFrontmatter, normalizeNewlines, parseFrontmatterYaml, splitFrontmatter } from '../../src/core/skills/frontmatter.js';
import { parseSkill } from '../../src/core/skills/skill.js';

function parseError(text: string): FrontmatterError {
  try {
    parseSkill(text, 'skills/x/SKILL.md');
  } catch (error) {
    expect(error).toBeInstanceOf(FrontmatterError);
    return error as FrontmatterError;
  }
  throw new Error('expected a parse error');
}

describe('parseSkill', () => {
  it('parses frontmatter and body', () => {
    const skill = parseSkill('---\nname: pdf\ndescription: Read PDFs.\n---\n# PDF\n\nBody.\n');
    expect(skill.frontmatter).toEqual({ name: 'pdf', description: 'Read PDFs.' });
    expect(skill.body).toBe('# PDF\n\nBody.\n');
    expect(skill.bodyLine).toBe(5);
  });

  it('accepts a UTF-8 BOM and CRLF line endings', () => {
    const skill = parseSkill('\uFEFF---\r\nname: pdf\r\ndescription: "Read PDFs: fast"\r\n---\r\nLine 1\r\nLine 2\r\n');
    expect(skill.frontmatter).toEqual({ name: 'pdf', description: 'Read PDFs: fast' });
    expect(skill.body).toBe('Line 1\nLine 2\n');
  });

  it('accepts trailing spaces after the delimiters and a file that ends at the closing one', () => {
    expect(parseSkill('---  \nname: a\n--- \t').frontmatter).toEqual({ name: 'a' });
  });

  it('reads empty frontmatter as an empty mapping', () => {
    expect(parseSkill('---\n---\nbody').frontmatter).toEqual({});
  });

  it('keeps multi-line YAML values', () => {
    const skill = parseSkill('---\nname: a\ndescription: >\n  one\n  two\n---\n');
    expect(skill.frontmatter.description).toBe('one two\n');
  });

  it('refuses a file without frontmatter', () => {
    const error = parseError('# Just markdown\n');
    expect(error.issue).toBe('frontmatter-missing');
    expect(error.message).toContain('skills/x/SKILL.md');
    expect(error.code).toBe('skill-parse');
    expect(error.hint).toBeTruthy();
  });

  it('refuses frontmatter that does not start on the first line', () => {
    expect(parseError('\n---\nname: a\n---\n').issue).toBe('frontmatter-missing');
  });

  it('refuses unclosed frontmatter', () => {
    expect(parseError('---\nname: a\ndescription: b\n').issue).toBe('frontmatter-unclosed');
  });

  it.each([
    ['a list', '---\n- a\n- b\n---\n'],
    ['a string', '---\njust text\n---\n'],
    ['a number', '---\n42\n---\n'],
  ])('refuses frontmatter that is %s', (_kind, text) => {
    const error = parseError(text);
    expect(error.issue).toBe('frontmatter-not-mapping');
    expect(error.message).toMatch(/must be a YAML mapping/);
  });

  it('names the file and line of a YAML syntax error', () => {
    const error = parseError('---\nname: a\ndescription: b\nbad: [unclosed\n---\n');
    expect(error.issue).toBe('frontmatter-yaml');
    expect(error.file).toBe('skills/x/SKILL.md');
    expect(error.line).toBeGreaterThanOrEqual(4);
    expect(error.message).toMatch(/^skills\/x\/SKILL\.md:\d+: invalid YAML/);
    expect(error.message).not.toContain('\n');
  });

  it('points at the line of an unquoted colon value', () => {
    const error = parseError('---\nname: a\ndescription: Use when: things happen\n---\n');
    expect(error.issue).toBe('frontmatter-yaml');
    expect(error.line).toBe(3);
  });

  it('refuses duplicate keys', () => {
    expect(parseError('---\nname: a\nname: b\n---\n').issue).toBe('frontmatter-yaml');
  });

  it('refuses a YAML alias bomb instead of expanding it', () => {
    const bomb = [
      '---',
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
      'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
      'name: bomb',
      '---',
      '',
    ].join('\n');
    const started = Date.now();
    expect(parseError(bomb).issue).toBe('frontmatter-alias-limit');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('allows a few harmless aliases', () => {
    const skill = parseSkill('---\nname: a\nx: &v hello\ny: *v\n---\n');
    expect(skill.frontmatter.y).toBe('hello');
  });

  it('refuses frontmatter over the size cap', () => {
    const big = `---\nname: a\ndescription: "${'x'.repeat(FRONTMATTER_MAX_BYTES)}"\n---\n`;
    expect(parseError(big).issue).toBe('frontmatter-too-large');
  });

  it('does not turn dates or versions into other types silently', () => {
    const fm = parseSkill('---\nname: a\nwhen: 2024-01-01\nmetadata:\n  version: 1.0\n---\n').frontmatter;
    expect(fm.when).toBe('2024-01-01');
    expect((fm.metadata as Record<string, unknown>).version).toBe(1);
  });
});

describe('frontmatter helpers', () => {
  it('normalizes BOM, CRLF and lone CR', () => {
    expect(normalizeNewlines('\uFEFFa\r\nb\rc\n')).toBe('a\nb\nc\n');
  });

  it('treats a prefix without the closing line as open, not unclosed', () => {
    expect(locateFrontmatter('---\nname: a\n--', false).state).toBe('open');
    expect(locateFrontmatter('--', false).state).toBe('open');
    expect(locateFrontmatter('---\nname: a\n---', false).state).toBe('open');
    expect(locateFrontmatter('---\nname: a\n---', true).state).toBe('closed');
    expect(locateFrontmatter('# title', false).state).toBe('missing');
  });

  it('splitFrontmatter returns the YAML and body line', () => {
    expect(splitFrontmatter('---\na: 1\nb: 2\n---\nbody')).toEqual({ yaml: 'a: 1\nb: 2\n', body: 'body', bodyLine: 5 });
  });

  it('parseFrontmatterYaml offsets line numbers by the first YAML line', () => {
    try {
      parseFrontmatterYaml('a: 1\nb: [\n', 'f.md', 10);
      throw new Error('expected failure');
    } catch (error) {
      expect((error as FrontmatterError).line).toBeGreaterThanOrEqual(11);
    }
  });
});
