/**
 * What the Copilot runtime drops from `.github/agents/` (measured with CLI 1.0.102 through its SDK's
 * agents.discover), as doctor's check states it.
 */
import { describe, expect, it } from 'vitest';
import { renderMemberProfile } from '../../src/core/squad/agents/member-profile.js';
import { runtimeDropReason } from '../../src/core/squad/agents/profile-check.js';

const agent = (frontmatter: string) => `---\nname: x\ndescription: d\n${frontmatter}---\nbody\n`;
const server = (lines: string) =>
  agent(
    `mcp-servers:\n  s:\n${lines
      .split('\n')
      .map((line) => `    ${line}`)
      .join('\n')}\n`,
  );

describe('runtimeDropReason', () => {
  it('accepts what the runtime keeps', () => {
    for (const text of [
      agent(''),
      agent('description2: ok\n'),
      agent('tools: read\n'),
      agent('tools: ["read", "edit"]\nskills: ["tailwind"]\nuser-invocable: false\n'),
      agent('mcp-servers: {}\n'),
      server('type: local\ncommand: node\nargs: []\ntools: ["*"]'),
      server('command: node\nargs: ["-y", "x"]\ntools: ["*"]'),
      server('type: stdio\ncommand: node\nargs: []\ntools: ["*"]'),
      server('type: http\nurl: http://127.0.0.1:1/mcp\ntools: ["*"]'),
      server('type: sse\nurl: http://127.0.0.1:1/mcp\ntools: ["*"]'),
      server('type: local\ncommand: node\nargs: []\ntools: ["*"]\nenv:\n  A: ${A}'),
    ]) {
      expect(runtimeDropReason(text, 'x.agent.md'), text).toBeUndefined();
    }
  });

  it('names why the runtime drops the rest', () => {
    const cases: [string, RegExp][] = [
      ['no frontmatter\n', /frontmatter/],
      ['---\nname: x\n---\nbody\n', /no "description"/],
      ['---\nname: x\ndescription: d\nfoo: [\n---\nbody\n', /./],
      [agent('tools: [1, 2]\n'), /"tools"/],
      [agent('skills: tailwind\n'), /"skills"/],
      [agent('user-invocable: "no"\n'), /"user-invocable" is not true or false/],
      [agent('mcp-servers: []\n'), /"mcp-servers" is not a mapping/],
      [server('type: local\ncommand: node\ntools: ["*"]'), /has no "args" list/],
      [server('type: local\ncommand: node\nargs: "a"\ntools: ["*"]'), /has no "args" list/],
      [server('type: local\nargs: []\ntools: ["*"]'), /has no "command"/],
      [server('type: local\ncommand: node\nargs: []'), /has no "tools" list/],
      [server('type: local\ncommand: node\nargs: []\ntools: "*"'), /has no "tools" list/],
      [server('type: http\ntools: ["*"]'), /has no "url"/],
      [server('type: weird\ncommand: node\nargs: []\ntools: ["*"]'), /not local, stdio, http or sse/],
    ];
    for (const [text, reason] of cases) expect(runtimeDropReason(text, 'x.agent.md'), text).toMatch(reason);
  });

  it('never drops a profile create-squad writes', async () => {
    const text = await renderMemberProfile(
      {
        folder: 'fenster',
        displayName: 'Fenster',
        role: 'Core Dev',
        scribe: false,
        ownSkills: [{ name: 'a', description: 'b', location: 'c' }],
        servers: [{ name: 'pg', required: true, skills: ['a'] }],
      },
      '1.0.0',
    );
    expect(runtimeDropReason(text, 'fenster.agent.md')).toBeUndefined();
  });
});
