/**
 * A member as a Copilot custom agent (`.github/agents/{folder}.agent.md`): the generator is pure,
 * the frontmatter is what the Copilot runtime accepts, tools follow the role table in roles.json,
 * and the stamp tells a generated profile from one a user edited.
 */
import { describe, expect, it } from 'vitest';
import { memberProfilePath, memberTools, profileFolder, readProfileStamp, renderMemberProfile, type MemberProfileInput } from '../../src/core/squad/agents/member-profile.js';
import { roleTools, scribeTools } from '../../src/core/squad/agents/role-tools.js';
import { splitFrontmatter, parseFrontmatterYaml } from '../../src/core/skills/frontmatter.js';
import { rolePresets } from '../../src/core/roster/roles.js';
import { MISSING_SERVER_RULE, collectMcpRequirements, renderMcpBlock } from '../../src/core/skills/mcp.js';

const VERSION = '1.2.3';

function input(overrides: Partial<MemberProfileInput> = {}): MemberProfileInput {
  return { folder: 'fenster', displayName: 'Fenster', role: 'Core Dev', scribe: false, ownSkills: [], servers: [], ...overrides };
}

function frontmatterOf(text: string): Record<string, unknown> {
  return parseFrontmatterYaml(splitFrontmatter(text).yaml);
}

/** Tool names a member's agent may name: the aliases every host knows, and the Copilot CLI's skill tool. */
const KNOWN_TOOLS = ['read', 'search', 'edit', 'execute', 'skill'];

describe('the member profile generator', () => {
  it('writes a subagent-only agent named by the member folder, with a description that says when it is spawned', async () => {
    const fm = frontmatterOf(await renderMemberProfile(input(), VERSION));
    expect(fm.name).toBe('fenster');
    expect(fm['user-invocable']).toBe(false);
    expect(fm['user-invokable']).toBe(false);
    expect(String(fm.description)).toMatch(/^Fenster, the squad's Core Dev\. The Squad coordinator spawns Fenster for this work: Core implementation/);
    expect(Object.keys(fm).sort()).toEqual(['description', 'name', 'tools', 'user-invocable', 'user-invokable']);
  });

  it("lists the member's own skills in `skills` and in the body, pointing at each SKILL.md", async () => {
    const ownSkills = [{ name: 'tailwind', description: 'Use Tailwind. Use when styling.', location: '.ai-team/agents/fenster/skills/tailwind/SKILL.md' }];
    const text = await renderMemberProfile(input({ ownSkills }), VERSION);
    expect(frontmatterOf(text).skills).toEqual(['tailwind']);
    expect(text).toContain('- `tailwind`: Use Tailwind. Use when styling. (`.ai-team/agents/fenster/skills/tailwind/SKILL.md`)');
  });

  it('leaves out of `skills` an own skill a project skill folder shadows (Copilot would preload that one), and still lists it in the body', async () => {
    const ownSkills = [
      { name: 'tailwind', description: 'Ours.', location: '.ai-team/agents/fenster/skills/tailwind/SKILL.md', shadowed: true },
      { name: 'react', description: 'React.', location: '.ai-team/agents/fenster/skills/react/SKILL.md' },
    ];
    const text = await renderMemberProfile(input({ ownSkills }), VERSION);
    expect(frontmatterOf(text).skills).toEqual(['react']);
    expect(text).toContain('- `tailwind`: Ours.');
  });

  it('points at the charter, history and decisions instead of copying them', async () => {
    const text = await renderMemberProfile(input(), VERSION);
    for (const file of ['.ai-team/agents/fenster/charter.md', '.ai-team/agents/fenster/history.md', '.ai-team/decisions.md']) expect(text).toContain(`\`${file}\``);
    expect(text).not.toContain('## What I Own');
  });

  it('opens each declared MCP server to the member through `tools` and configures none itself', async () => {
    const servers = [
      { name: 'postgres', required: true, skills: ['db-migrations'] },
      { name: 'linear', required: false, skills: ['issues'], fallback: 'use the gh CLI' },
    ];
    const text = await renderMemberProfile(input({ servers }), VERSION);
    const fm = frontmatterOf(text);
    expect(fm.tools).toEqual([...roleTools('Core Dev'), 'postgres/*', 'linear/*']);
    expect(fm['mcp-servers']).toBeUndefined();
    expect(text).toContain('- `postgres`: required (skills: `db-migrations`)');
    expect(text).toContain('- `linear`: optional (skills: `issues`); without it: use the gh CLI');
  });

  it('stops a member (the Scribe too) only before work that needs a missing required server, as the spawn prompt says', async () => {
    const servers = [{ name: 'postgres', required: true, skills: ['db-migrations'] }];
    const spawnRule = /Before any work that needs it: .*STOP/;
    const noConfig = { sources: [], warnings: [], unread: [], incomplete: [] };
    const rows = collectMcpRequirements([{ name: 'db-migrations', mcpServers: [{ name: 'postgres', optional: false }] }], noConfig);
    const prompt = await renderMcpBlock(rows);
    expect(prompt).toMatch(spawnRule);
    // One rule, said by both: the spawn prompt's lines are the agent's sentences.
    const promptLines = prompt.split('\n');
    expect(promptLines).toEqual(expect.arrayContaining([MISSING_SERVER_RULE.required, MISSING_SERVER_RULE.optional]));
    expect(prompt).not.toMatch(/unavailable, STOP/);
    for (const member of [input({ servers }), input({ folder: 'scribe', displayName: 'Scribe', role: 'Session Logger', scribe: true, servers })]) {
      const text = await renderMemberProfile(member, VERSION);
      expect(text).toContain(`${MISSING_SERVER_RULE.required} ${MISSING_SERVER_RULE.optional}`);
      expect(text).toContain('A required server you do not have: before any work that needs it, stop, change nothing');
      expect(text).toContain('work that does not need it goes on.');
      expect(text).not.toMatch(/A required server you do not have: stop/);
    }
  });

  it("writes the Scribe with its procedure and without the members' after-work duties", async () => {
    const text = await renderMemberProfile(input({ folder: 'scribe', displayName: 'Scribe', role: 'Session Logger', scribe: true }), VERSION);
    const fm = frontmatterOf(text);
    expect(fm.tools).toEqual(scribeTools());
    expect(String(fm.description)).toMatch(/silent session logger.*in the background/);
    expect(text).toContain('`.ai-team/skills/squad-scribe/SKILL.md`');
    expect(text).not.toContain('history.md');
  });

  it('keeps user text inside YAML strings: a name with quotes, colons and a hash still parses', async () => {
    const text = await renderMemberProfile(input({ displayName: 'O\'Brien: "the #1"', role: 'Rust: dev' }), VERSION);
    expect(String(frontmatterOf(text).description)).toContain('O\'Brien: "the #1", the squad\'s Rust: dev');
  });

  it('is deterministic', async () => {
    expect(await renderMemberProfile(input(), VERSION)).toBe(await renderMemberProfile(input(), VERSION));
  });
});

describe('tools by role (templates/team/roles.json)', () => {
  it('gives every preset only known tools, and a shell only to roles that run builds, tests or tools', () => {
    const shell = new Set(['Core Dev', 'Tester', 'Frontend Dev', 'Backend Dev', 'DevOps', 'Security Engineer', 'Data Engineer']);
    for (const preset of rolePresets()) {
      const tools = roleTools(preset.title);
      for (const tool of tools) expect(KNOWN_TOOLS, `${preset.title}: ${tool}`).toContain(tool);
      expect(tools.includes('execute'), preset.title).toBe(shell.has(preset.title));
      expect(tools, preset.title).toEqual(expect.arrayContaining(['read', 'search', 'skill', 'edit']));
      expect(new Set(tools).size).toBe(tools.length);
    }
  });

  it('reads an alias as its preset, gives a custom role no shell, and the Scribe one (it removes merged inbox files)', () => {
    expect(roleTools('qa')).toEqual(roleTools('Tester'));
    expect(roleTools('Rust Wrangler')).not.toContain('execute');
    expect(scribeTools()).toContain('execute');
    expect(memberTools({ role: 'Lead', scribe: false, servers: [] })).not.toContain('execute');
  });
});

describe('the profile stamp', () => {
  it('names the version and proves the text is as generated, CRLF line endings included', async () => {
    const text = await renderMemberProfile(input(), VERSION);
    expect(text.split('\n').find((line) => line.startsWith('<!--'))).toMatch(/^<!-- create-squad: 1\.2\.3 member-agent sha256:[0-9a-f]{16} -->$/);
    expect(readProfileStamp(text)).toEqual({ version: VERSION, intact: true });
    expect(readProfileStamp(text.replace(/\n/g, '\r\n'))).toEqual({ version: VERSION, intact: true });
  });

  it('tells an edited profile, and says nothing of a file create-squad did not write', async () => {
    const text = await renderMemberProfile(input(), VERSION);
    expect(readProfileStamp(text.replace('Core Dev', 'Chief Dev'))).toEqual({ version: VERSION, intact: false });
    expect(readProfileStamp(`${text}\nmy own line\n`)?.intact).toBe(false);
    expect(readProfileStamp('---\nname: fenster\ndescription: mine\n---\n\nhand-written\n')).toBeUndefined();
  });

  it('lives in .github/agents/, one file per member folder', () => {
    expect(memberProfilePath('fenster')).toBe('.github/agents/fenster.agent.md');
    expect(profileFolder('.github/agents/fenster.agent.md')).toBe('fenster');
    expect(profileFolder('.github/agents/notes.md')).toBeUndefined();
  });
});
