import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseSkill } from '../../src/core/skills/skill.js';
import { MAX_BODY_LINES, MAX_COMPATIBILITY_LENGTH, MAX_DESCRIPTION_LENGTH, plainSkillFields, validateByRules, validateSkill } from '../../src/core/skills/validate.js';

const base = { name: 'my-skill', description: 'Use when testing.' };

function check(frontmatter: Record<string, unknown>, extra: { body?: string; dirName?: string } = {}) {
  const result = validateSkill({ frontmatter, dirName: extra.dirName ?? 'my-skill', ...(extra.body === undefined ? {} : { body: extra.body }) });
  return {
    ...result,
    errorCodes: result.errors.map((e) => e.code),
    warningCodes: result.warnings.map((w) => w.code),
  };
}

describe('validateSkill: valid skills', () => {
  it('accepts the minimal skill', () => {
    const result = check(base);
    expect(result.valid).toBe(true);
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
  });

  it('accepts every standard field', () => {
    const result = check({
      ...base,
      license: 'Apache-2.0',
      compatibility: 'Requires Python 3.10+',
      'allowed-tools': 'Read Bash(npm:*)',
      metadata: { author: 'me', version: '1.0' },
    });
    expect(result.errorCodes).toEqual([]);
    expect(result.warningCodes).toEqual([]);
  });

  it('accepts known platform extensions without warnings', () => {
    const result = check({ ...base, 'disable-model-invocation': true, context: 'fork', agent: 'Explore' });
    expect(result.warningCodes).toEqual([]);
  });

  it('accepts nested mcp-servers (the squad extension) without warnings', () => {
    const result = check({
      ...base,
      metadata: {
        version: '1.0',
        'mcp-servers': [
          { name: 'postgres', reason: 'Query the schema', optional: false },
          { name: 'azure-devops', reason: 'Link work items', optional: true, fallback: 'Skip linking' },
        ],
      },
    });
    expect(result.errorCodes).toEqual([]);
    expect(result.warningCodes).toEqual([]);
  });

  it('accepts limits exactly at the boundary', () => {
    const result = check(
      {
        ...base,
        description: 'd'.repeat(MAX_DESCRIPTION_LENGTH),
        compatibility: 'c'.repeat(MAX_COMPATIBILITY_LENGTH),
      },
      { body: 'line\n'.repeat(MAX_BODY_LINES) },
    );
    expect(result.errorCodes).toEqual([]);
    expect(result.warningCodes).toEqual([]);
  });
});

describe('validateSkill: name', () => {
  it.each([
    [{ description: 'd' }, 'name-missing'],
    [{ ...base, name: null }, 'name-empty'],
    [{ ...base, name: 42 }, 'name-not-string'],
    [{ ...base, name: ['a'] }, 'name-not-string'],
    [{ ...base, name: '' }, 'name-empty'],
    [{ ...base, name: 'a'.repeat(65) }, 'name-too-long'],
    [{ ...base, name: 'My-Skill' }, 'name-uppercase'],
    [{ ...base, name: 'my_skill' }, 'name-invalid-chars'],
    [{ ...base, name: '-my-skill' }, 'name-edge-hyphen'],
    [{ ...base, name: 'my-skill-' }, 'name-edge-hyphen'],
    [{ ...base, name: 'my--skill' }, 'name-double-hyphen'],
  ])('%j → %s', (frontmatter, code) => {
    const result = check(frontmatter);
    expect(result.valid).toBe(false);
    expect(result.errorCodes).toContain(code);
  });

  it('requires the name to equal the folder name', () => {
    const result = check({ ...base, name: 'other-skill' });
    expect(result.errorCodes).toEqual(['name-folder-mismatch']);
    expect(result.errors[0]!.message).toContain('"my-skill"');
  });

  it('accepts 64 characters when the folder matches', () => {
    const name = 'a'.repeat(64);
    expect(check({ ...base, name }, { dirName: name }).valid).toBe(true);
  });
});

describe('validateSkill: messages quote what the file says safely', () => {
  it('escapes line breaks, terminal escapes and quotes taken from the file', () => {
    const result = check({ name: 'esc\u001b[31mRED\nline2"', description: 'd', 'bad\u001bkey': 1 }, { dirName: 'esc' });
    const messages = [...result.errors, ...result.warnings].map((issue) => issue.message);
    expect(messages).toContain('name "esc\\u001b[31mRED\\nline2\\"" must be lowercase');
    expect(messages).toContain('field "bad\\u001bkey" is not part of the Agent Skills standard (move custom data under "metadata")');
    for (const message of messages) expect(message).not.toMatch(/[\u0000-\u001f]/);
  });
});

describe('validateSkill: description', () => {
  it.each([
    [{ name: 'my-skill' }, 'description-missing'],
    [{ ...base, description: null }, 'description-empty'],
    [{ ...base, description: 5 }, 'description-not-string'],
    [{ ...base, description: '' }, 'description-empty'],
    [{ ...base, description: '   \n' }, 'description-empty'],
    [{ ...base, description: 'd'.repeat(MAX_DESCRIPTION_LENGTH + 1) }, 'description-too-long'],
  ])('%# → %s', (frontmatter, code) => {
    const result = check(frontmatter);
    expect(result.valid).toBe(false);
    expect(result.errorCodes).toEqual([code]);
  });

  it('names the length in the message', () => {
    const result = check({ ...base, description: 'd'.repeat(1025) });
    expect(result.errors[0]!.message).toContain('1025');
    expect(result.errors[0]!.message).toContain('1024');
  });
});

describe('validateSkill: compatibility and metadata', () => {
  it('limits compatibility to 500 characters', () => {
    expect(check({ ...base, compatibility: 'c'.repeat(501) }).errorCodes).toEqual(['compatibility-too-long']);
  });

  it('requires compatibility to be a string', () => {
    expect(check({ ...base, compatibility: { requires: ['python'] } }).errorCodes).toEqual(['compatibility-not-string']);
  });

  it.each([
    ['a string', 'author: me'],
    ['a list', ['a']],
    ['a number', 3],
  ])('refuses metadata that is %s', (_kind, metadata) => {
    expect(check({ ...base, metadata }).errorCodes).toEqual(['metadata-not-mapping']);
  });

  it('warns about non-string metadata values', () => {
    const result = check({ ...base, metadata: { version: 1, tags: ['a'] } });
    expect(result.valid).toBe(true);
    expect(result.warningCodes).toEqual(['metadata-value-not-string', 'metadata-value-not-string']);
    expect(result.warnings[0]!.field).toBe('metadata.version');
    expect(result.warnings[0]!.message).toContain('quote the version');
    expect(result.warnings[1]!.message).not.toContain('quote');
    expect(check({ ...base, metadata: { author: 3 } }).warnings[0]!.message).toContain('put the value in quotes');
  });

  it('says that an unquoted version is read as a number, which may not be what was written', () => {
    const warning = check({ ...base, metadata: { version: 1.1 } }).warnings[0]!;
    expect(warning).toMatchObject({ code: 'metadata-value-not-string', field: 'metadata.version' });
    expect(warning.message).toBe('metadata.version is written unquoted; YAML reads it as the number 1.1 — quote the version, e.g. version: "1.10" (unquoted, 1.10 reads as 1.1)');
  });
});

describe('validateSkill: mcp-servers shape', () => {
  const withServers = (servers: unknown) => check({ ...base, metadata: { 'mcp-servers': servers } });

  it.each([
    ['not a list', 'postgres', 'mcp-servers-not-list'],
    ['a mapping', { name: 'postgres' }, 'mcp-servers-not-list'],
    ['an entry that is a string', ['postgres'], 'mcp-server-not-mapping'],
    ['an entry without name', [{ reason: 'x' }], 'mcp-server-name-missing'],
    ['a numeric name', [{ name: 5 }], 'mcp-server-name-invalid'],
    ['an empty name', [{ name: ' ' }], 'mcp-server-name-invalid'],
    ['a non-boolean optional', [{ name: 'pg', optional: 'yes' }], 'mcp-server-field-type'],
    ['a non-string reason', [{ name: 'pg', reason: 3 }], 'mcp-server-field-type'],
    ['a non-string fallback', [{ name: 'pg', optional: true, fallback: ['x'] }], 'mcp-server-field-type'],
  ])('reports %s', (_case, servers, code) => {
    const result = withServers(servers);
    expect(result.valid).toBe(false);
    expect(result.errorCodes).toContain(code);
    expect(result.errors[0]!.field).toMatch(/^metadata\.mcp-servers/);
  });

  it('warns about unknown entry fields and duplicates', () => {
    const result = withServers([{ name: 'pg', url: 'x' }, { name: 'pg' }]);
    expect(result.valid).toBe(true);
    expect(result.warningCodes.sort()).toEqual(['mcp-server-duplicate', 'mcp-server-unknown-field']);
  });

  it('accepts an empty list', () => {
    expect(withServers([]).valid).toBe(true);
  });
});

describe('validateSkill: warnings', () => {
  it('warns about fields outside the standard', () => {
    const result = check({ ...base, version: '1.0', tags: ['x'] });
    expect(result.valid).toBe(true);
    expect(result.warningCodes).toEqual(['field-unknown', 'field-unknown']);
    expect(result.warnings.map((w) => w.field)).toEqual(['version', 'tags']);
  });

  it('warns about a body over 500 lines', () => {
    const result = check(base, { body: 'x\n'.repeat(MAX_BODY_LINES + 1) });
    expect(result.valid).toBe(true);
    expect(result.warningCodes).toEqual(['body-too-long']);
  });

  it('warns about a body over ~5000 tokens', () => {
    const result = check(base, { body: 'word '.repeat(5000) });
    expect(result.warningCodes).toEqual(['body-too-many-tokens']);
  });

  it('does not check the body when it was not read', () => {
    expect(check(base).warningCodes).toEqual([]);
  });

  it('warns on mistyped optional fields', () => {
    const result = check({ ...base, license: 3, 'allowed-tools': ['Read'], 'disable-model-invocation': 'yes' });
    expect(result.valid).toBe(true);
    expect(result.warningCodes).toEqual(['license-not-string', 'allowed-tools-not-string', 'disable-model-invocation-not-boolean']);
  });
});

describe('validateSkill on parsed files', () => {
  it('validates a realistic SKILL.md end to end', () => {
    const text = [
      '---',
      'name: database-schema-management',
      'description: >',
      '  Manages database schema migrations. Use when changing tables.',
      'allowed-tools: Bash(npx:*) Read',
      'metadata:',
      '  author: squad-team',
      '  version: "1.0"',
      '  mcp-servers:',
      '    - name: postgres',
      '      reason: "Query existing schema"',
      '      optional: false',
      '---',
      '# Schema',
      '',
    ].join('\r\n');
    const parsed = parseSkill(text);
    const result = validateSkill({ ...parsed, dirName: 'database-schema-management' });
    expect(result).toMatchObject({ valid: true, errors: [], warnings: [] });
    // The one typed value the commands read: the same run that validated it.
    expect(result.fields).toEqual({
      name: 'database-schema-management',
      description: 'Manages database schema migrations. Use when changing tables.\n',
      metadata: parsed.frontmatter.metadata,
      version: '1.0',
      versionUnquoted: false,
      author: 'squad-team',
      mcpServers: [{ name: 'postgres', reason: 'Query existing schema', optional: false }],
      disableModelInvocation: false,
    });
  });

  it('types only what passes: a malformed mcp-servers entry, a non-string description and a non-boolean flag are absent from the typed value, and reported', () => {
    const result = validateSkill({
      frontmatter: {
        name: 's',
        description: 5,
        'disable-model-invocation': 'yes',
        metadata: { version: 1.1, 'mcp-servers': [{ name: ' github ', optional: true, fallback: 'read the docs' }, { name: 3 }, 'x', { reason: 'r' }] },
      },
      dirName: 's',
    });
    expect(result.fields).toMatchObject({ description: undefined, version: '1.1', versionUnquoted: true, disableModelInvocation: false });
    expect(result.fields.mcpServers).toEqual([{ name: 'github', optional: true, fallback: 'read the docs' }]);
    expect(result.errors.map((issue) => [issue.code, issue.message])).toEqual([
      ['description-not-string', '"description" must be a string, got number 5'],
      ['mcp-server-name-invalid', 'metadata.mcp-servers[1].name must be a non-empty string, got number 3'],
      ['mcp-server-not-mapping', 'metadata.mcp-servers[2] must be a mapping with at least "name", got the string "x"'],
      ['mcp-server-name-missing', 'metadata.mcp-servers[3] has no "name"'],
    ]);
    expect(result.warnings.map((issue) => issue.code)).toContain('disable-model-invocation-not-boolean');
  });
});

describe('validateSkill: the shortcut for plain frontmatter', () => {
  const name = fc.constantFrom('pdf-tools', 'api', 'a-b-c', 'Bad', 'x--y', '-edge', 'other-folder', 'a'.repeat(65));
  const text = fc.oneof(
    fc.constantFrom('Read PDFs.', '', '   ', '\u00a0', 'x'.repeat(MAX_DESCRIPTION_LENGTH), 'x'.repeat(MAX_DESCRIPTION_LENGTH + 1), 'y'.repeat(MAX_COMPATIBILITY_LENGTH + 1)),
    fc.string({ maxLength: 30 }),
  );
  const scalar = fc.oneof(text, fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null));
  const metadata = fc.oneof(
    fc.dictionary(fc.constantFrom('author', 'version', 'team', 'mcp-servers', 'tags'), fc.oneof(text, text, scalar, fc.array(text, { maxLength: 2 })), { maxKeys: 4 }),
    scalar,
    fc.array(text, { maxLength: 2 }),
  );
  const plainish = fc.record(
    {
      name,
      description: text,
      license: text,
      compatibility: text,
      'allowed-tools': text,
      metadata: fc.dictionary(fc.constantFrom('author', 'version', 'team', 'tags'), text, { maxKeys: 3 }),
    },
    { requiredKeys: ['name', 'description'] },
  );
  const anything = fc.record(
    {
      name: fc.oneof(name, name, scalar),
      description: fc.oneof(text, text, scalar),
      license: fc.oneof(text, scalar),
      compatibility: fc.oneof(text, scalar),
      'allowed-tools': fc.oneof(text, scalar),
      metadata,
      'disable-model-invocation': fc.oneof(fc.boolean(), scalar),
      custom: scalar,
    },
    { requiredKeys: [] },
  );
  const frontmatter = fc.oneof(plainish, anything);
  const folder = fc.option(fc.constantFrom('pdf-tools', 'api', 'a-b-c'), { nil: undefined });

  it('gives exactly what running every rule gives, on any frontmatter', () => {
    fc.assert(
      fc.property(frontmatter, folder, (fm, dirName) => {
        const input = dirName === undefined ? { frontmatter: fm } : { frontmatter: fm, dirName };
        expect(validateSkill(input)).toEqual(validateByRules(input));
      }),
      { numRuns: 3000 },
    );
  });

  it('claims only skills the rules find valid with nothing to say, with the same fields', () => {
    let plain = 0;
    fc.assert(
      fc.property(frontmatter, folder, (fm, dirName) => {
        const fields = plainSkillFields(fm, dirName);
        if (fields === undefined) return;
        plain += 1;
        const full = validateByRules(dirName === undefined ? { frontmatter: fm } : { frontmatter: fm, dirName });
        expect(full).toMatchObject({ valid: true, errors: [], warnings: [] });
        expect(fields).toEqual(full.fields);
      }),
      { numRuns: 3000 },
    );
    expect(plain).toBeGreaterThan(20);
  });

  it('takes the usual frontmatter, and leaves mcp-servers, numbers and extensions to the rules', () => {
    const usual = { name: 'pdf-tools', description: 'Read PDFs.', license: 'MIT', metadata: { author: 'team', version: '1.2' } };
    expect(plainSkillFields(usual, 'pdf-tools')).toMatchObject({ name: 'pdf-tools', version: '1.2', author: 'team', versionUnquoted: false });
    expect(plainSkillFields({ ...usual, metadata: { version: 1.2 } }, 'pdf-tools')).toBeUndefined();
    expect(plainSkillFields({ ...usual, metadata: { 'mcp-servers': 'x' } }, 'pdf-tools')).toBeUndefined();
    expect(plainSkillFields({ ...usual, 'disable-model-invocation': true }, 'pdf-tools')).toBeUndefined();
    expect(plainSkillFields(usual, 'other')).toBeUndefined();
  });
});
