import { describe, expect, it } from 'vitest';
import { splitHistory } from '../../src/core/roster/history.js';
import { convertOriginalSkill, legacyConversion } from '../../src/core/squad/original/skills.js';
import { parseSkill } from '../../src/core/skills/skill.js';
import { validateSkill } from '../../src/core/skills/validate.js';

/** The errors and warnings `skills validate` reports for a SKILL.md in the folder `dirName`. */
function issues(text: string, dirName: string): string[] {
  const result = validateSkill({ ...parseSkill(text), dirName });
  return [...result.errors, ...result.warnings].map((issue) => issue.code);
}

describe('convertOriginalSkill', () => {
  it('gives a skill without frontmatter one: name from the folder, description from the first paragraph, bold fields as metadata; the body kept byte for byte', () => {
    const body =
      '# SKILL: Dock Sync\r\n\r\n**Confidence:** high\r\n**Source:** a field visit\r\n\r\nDocks report every 30 seconds,\r\nand go offline after 3 gaps.\r\n\r\n## Pattern\r\n- Poll.\r\n';
    const converted = convertOriginalSkill(body, 'dock-sync')!;
    expect(converted.name).toBe('dock-sync');
    expect(converted.text.endsWith(body)).toBe(true);
    expect(parseSkill(converted.text).frontmatter).toEqual({
      name: 'dock-sync',
      description: 'Docks report every 30 seconds, and go offline after 3 gaps.',
      metadata: { confidence: 'high', source: 'a field visit' },
    });
    expect(issues(converted.text, 'dock-sync')).toEqual([]);
    expect(convertOriginalSkill('# Ride Pricing\n\n## Pattern\n- Per minute.\n')).toMatchObject({ name: 'ride-pricing', changes: [expect.stringContaining('from its title')] });
    expect(convertOriginalSkill('no title, no folder')).toBeUndefined();
  });

  it("moves the original's fields under metadata, its tools into a note before the body (never MCP servers), and normalises the name", () => {
    const text = [
      '---',
      'name: "Map Tile Caching"',
      'description: "Caching map tiles on the phone"',
      'domain: "mobile"',
      'confidence: 0.8',
      'agents: [parker, lambert]',
      'license: MIT',
      'tools:',
      '  - name: "gh api"',
      '    description: "Read the tile server\'s  settings"',
      '    when: "Before changing\n      the cache size"',
      '  - "tile-cli purge"',
      '  - description: "an entry without a name is left out"',
      '---',
      '',
      '## Patterns',
      '- Cache the last three cities.',
      '',
    ].join('\n');
    const converted = convertOriginalSkill(text, 'map-tiles')!;
    expect(converted.changes).toEqual([
      'name "Map Tile Caching" → "map-tiles"',
      'tools → a note before the body (tools and commands, not MCP servers)',
      'domain, confidence, agents → metadata',
    ]);
    const body = '\n## Patterns\n- Cache the last three cities.\n';
    const { frontmatter, body: written } = parseSkill(converted.text);
    expect(written).toBe(
      [
        "> **Tools this skill names** (the original Squad's `tools:` field): tools and commands to use when you have them. They are not MCP servers; nothing here is installed or required.",
        "> - `gh api`: Read the tile server's settings (when: Before changing the cache size)",
        '> - `tile-cli purge`',
        body,
      ].join('\n'),
    );
    expect(frontmatter).toEqual({
      name: 'map-tiles',
      description: 'Caching map tiles on the phone',
      license: 'MIT',
      metadata: { domain: 'mobile', confidence: '0.8', agents: 'parker, lambert' },
    });
    expect(issues(converted.text, 'map-tiles')).toEqual([]);
  });

  it('puts a blank line between the tools note and a body that starts right after the frontmatter, with its line endings', () => {
    const converted = convertOriginalSkill('---\r\nname: quick\r\ntools: ["jq"]\r\n---\r\n## Steps\r\n- Run it.\r\n', 'quick')!;
    expect(converted.text).toMatch(/\r\n> - `jq`\r\n\r\n## Steps\r\n- Run it\.\r\n$/);
  });

  it('legacyConversion is what the conversion before wrote: tools as metadata.mcp-servers (only to recognise it)', () => {
    const text = '---\nname: scan\ndescription: Scan repos.\ntools:\n  - name: "gh search code"\n    description: "Search code"\n    when: "Private repos"\n---\n\nBody.\n';
    const legacy = legacyConversion(text, 'scan')!;
    expect(legacy.changes).toEqual(['tools → metadata.mcp-servers']);
    expect(parseSkill(legacy.text).frontmatter.metadata).toEqual({ 'mcp-servers': [{ name: 'gh search code', reason: 'Search code; when: Private repos', optional: true }] });
    expect(parseSkill(convertOriginalSkill(text, 'scan')!.text).frontmatter).toEqual({ name: 'scan', description: 'Scan repos.' });
  });

  it('leaves a standard skill, and one whose frontmatter is not valid YAML, alone', () => {
    expect(convertOriginalSkill('---\nname: ok\ndescription: Fine. Use when testing.\n---\n\nBody.\n', 'ok')).toBeUndefined();
    expect(convertOriginalSkill('---\nname: [unclosed\n---\n\nBody.\n', 'x')).toBeUndefined();
  });
});

describe("histories in the original Squad's layout", () => {
  it('carry ## Learnings as portable, except the parts about files, sprints, pull requests and sessions', () => {
    const text = [
      '# Project Context',
      '',
      '- **Owner:** Sam',
      '',
      '## Learnings',
      '',
      '- Sam wants one concern per pull request.',
      '',
      '### Key File Paths',
      '',
      '- api/rides.go',
      '',
      '## Core Context',
      '',
      '- Go 1.22.',
    ].join('\n');
    expect(splitHistory(text)).toEqual({
      portable: '- Sam wants one concern per pull request.',
      project: '- **Owner:** Sam\n\n### Key File Paths\n\n- api/rides.go\n\n## Core Context\n\n- Go 1.22.',
    });
  });
});
