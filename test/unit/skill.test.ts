import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FrontmatterError } from '../../src/core/skills/frontmatter.js';
import { isVersionUnquoted, mcpServers, parseSkill, readSkillFrontmatter, skillVersion } from '../../src/core/skills/skill.js';
import { cleanupTempDirs, tempDir } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

describe('readSkillFrontmatter', () => {
  it('applies the same 64 KB limit as a whole-file parse, to closed frontmatter too', () => {
    const dir = tempDir();
    for (const [size, valid] of [
      [63 * 1024, true],
      [65 * 1024, false],
      [67 * 1024, false],
    ] as const) {
      const file = path.join(dir, `${size}.md`);
      const text = `---\nname: a\ndescription: "${'x'.repeat(size)}"\n---\nbody\n`;
      fs.writeFileSync(file, text);
      const outcome = (read: () => unknown) => {
        try {
          read();
          return 'ok';
        } catch (error) {
          return (error as FrontmatterError).issue;
        }
      };
      const expected = valid ? 'ok' : 'frontmatter-too-large';
      expect(
        outcome(() => readSkillFrontmatter(file)),
        `${size}`,
      ).toBe(expected);
      expect(
        outcome(() => parseSkill(text)),
        `${size}`,
      ).toBe(expected);
    }
  });

  it('reads only as far as the closing delimiter, whatever the body size', () => {
    const dir = tempDir();
    const file = path.join(dir, 'SKILL.md');
    const head = '---\nname: big\ndescription: A skill with a 50 MB body.\n---\n';
    const fd = fs.openSync(file, 'w');
    fs.writeSync(fd, head);
    const block = Buffer.alloc(1024 * 1024, 'lorem ipsum dolor sit amet\n');
    for (let i = 0; i < 50; i += 1) fs.writeSync(fd, block);
    fs.closeSync(fd);

    const result = readSkillFrontmatter(file);
    expect(result.frontmatter).toEqual({ name: 'big', description: 'A skill with a 50 MB body.' });
    expect(result.bytesRead).toBeLessThanOrEqual(4096);
  });

  it('handles frontmatter spanning many read chunks with multi-byte characters on the boundaries', () => {
    const dir = tempDir();
    const file = path.join(dir, 'SKILL.md');
    const description = 'é€😀'.repeat(3000);
    fs.writeFileSync(file, `---\nname: wide\ndescription: "${description}"\n---\nbody\n`);
    expect(readSkillFrontmatter(file).frontmatter.description).toBe(description);
  });

  it('reads what a whole-file parse reads, whichever line first looks like a delimiter', () => {
    const dir = tempDir();
    const cases = [
      '---\nname: a\ndescription: x\n----\nmore: y\n---\nbody\n',
      '---\nname: a\ndescription: x\n--- not yet\n---  \nbody\n---\n',
      '---\n---\nbody\n',
      '\n---\nname: a\n---\n',
      '---\r\nname: a\r\n---\r\nbody',
      '\ufeff---\nname: é\n---',
      `---\nname: a\ndescription: ${'ü'.repeat(700)}\n---\nbody\n`,
      `---\nname: a\ndescription: x\n${'-'.repeat(3)}\t\n${'b'.repeat(5000)}`,
    ];
    for (const [index, text] of cases.entries()) {
      const file = path.join(dir, `${index}.md`);
      fs.writeFileSync(file, text);
      const outcome = (read: () => unknown) => {
        try {
          return read();
        } catch (error) {
          return (error as FrontmatterError).issue;
        }
      };
      expect(
        outcome(() => readSkillFrontmatter(file).frontmatter),
        JSON.stringify(text.slice(0, 40)),
      ).toEqual(outcome(() => parseSkill(text).frontmatter));
    }
  });

  it('accepts BOM and CRLF', () => {
    const dir = tempDir();
    const file = path.join(dir, 'SKILL.md');
    fs.writeFileSync(file, '\uFEFF---\r\nname: crlf\r\ndescription: d\r\n---\r\nbody\r\n');
    expect(readSkillFrontmatter(file).frontmatter).toEqual({ name: 'crlf', description: 'd' });
  });

  it('refuses missing, unclosed and oversized frontmatter without reading the whole file', () => {
    const dir = tempDir();
    const missing = path.join(dir, 'missing.md');
    fs.writeFileSync(missing, '# no frontmatter\n'.repeat(100000));
    const unclosed = path.join(dir, 'unclosed.md');
    fs.writeFileSync(unclosed, `---\nname: a\n${'x: y\n'.repeat(10)}`);
    const huge = path.join(dir, 'huge.md');
    fs.writeFileSync(huge, `---\nname: a\n${'# comment line\n'.repeat(1024 * 1024)}`);

    const issue = (file: string) => {
      try {
        readSkillFrontmatter(file);
      } catch (error) {
        return (error as FrontmatterError).issue;
      }
      return 'none';
    };
    expect(issue(missing)).toBe('frontmatter-missing');
    expect(issue(unclosed)).toBe('frontmatter-unclosed');
    expect(issue(huge)).toBe('frontmatter-too-large');
  });
});

describe('skill accessors', () => {
  it('reads mcp-servers, defaulting optional to false and skipping malformed entries', () => {
    const servers = mcpServers({
      metadata: {
        'mcp-servers': [
          { name: 'postgres', reason: 'schema' },
          { name: 'azure-devops', optional: true, fallback: 'skip linking' },
          { reason: 'no name' },
          'not-a-mapping',
          { name: 42 },
        ],
      },
    });
    expect(servers).toEqual([
      { name: 'postgres', reason: 'schema', optional: false },
      { name: 'azure-devops', optional: true, fallback: 'skip linking' },
    ]);
    expect(mcpServers({})).toEqual([]);
    expect(mcpServers({ metadata: 'x' })).toEqual([]);
  });

  it('reads metadata.version as a string', () => {
    expect(skillVersion({ metadata: { version: '1.2' } })).toBe('1.2');
    expect(skillVersion({ metadata: { version: 2 } })).toBe('2');
    expect(skillVersion({ metadata: {} })).toBeUndefined();
  });

  it('tells an unquoted version, which YAML read as a number', () => {
    expect(isVersionUnquoted(parseSkill('---\nmetadata:\n  version: 1.10\n---\n').frontmatter)).toBe(true);
    expect(isVersionUnquoted(parseSkill('---\nmetadata:\n  version: "1.10"\n---\n').frontmatter)).toBe(false);
    expect(isVersionUnquoted({})).toBe(false);
  });
});
