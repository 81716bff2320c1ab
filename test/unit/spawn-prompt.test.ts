import fs from 'node:fs';
import path from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { SquadError } from '../../src/core/base/errors.js';
import { buildSpawnPrompt } from '../../src/core/prompt/spawn-prompt.js';
import { cleanupTempDirs, REPO_ROOT, skillMd, tempDir, validSkill, writeFiles } from '../helpers/cli.js';
import { promptSquad } from '../helpers/prompt-squad.js';

afterAll(cleanupTempDirs);

const GOLDEN_DIR = path.join(REPO_ROOT, 'test', 'fixtures', 'prompt');

/** Compare with a golden file; UPDATE_GOLDEN=1 rewrites it (review the diff before committing). */
function expectGolden(name: string, actual: string): void {
  const file = path.join(GOLDEN_DIR, name);
  if (process.env.UPDATE_GOLDEN === '1') {
    fs.mkdirSync(GOLDEN_DIR, { recursive: true });
    fs.writeFileSync(file, actual);
  }
  expect(actual).toBe(fs.readFileSync(file, 'utf8'));
}

function block(prompt: string, open: string, close: string): string {
  const start = prompt.indexOf(open);
  const end = prompt.indexOf(close, start);
  expect(start).toBeGreaterThanOrEqual(0);
  return prompt.slice(start, end + close.length);
}

describe('buildSpawnPrompt (standard)', () => {
  it('matches the golden prompt for a small squad', async () => {
    const root = promptSquad();
    const result = await buildSpawnPrompt({ root, agent: 'fenster', task: 'Add pagination to the orders endpoint.', home: tempDir() });
    expectGolden('standard-fenster.md', result.prompt);
    expect(result.mode).toBe('standard');
    expect(result.skills.map((s) => `${s.scope}:${s.name}`)).toEqual(['builtin:squad-git-workflow', 'team:database-schema', 'agent:api-design', 'agent:react-component-patterns']);
    expect(result.mcp.map((r) => [r.skill, r.server, r.required, r.seenBy, r.hosts.vscode.files])).toEqual([
      ['database-schema', 'azure-devops', false, ['vscode'], ['.vscode/mcp.json']],
      ['database-schema', 'postgres', true, [], []],
    ]);
    expect(result.warnings).toEqual([
      { code: 'skill-overridden', message: 'fenster\'s skill "api-design" overrides the team skill of the same name', path: '.ai-team/agents/fenster/skills/api-design/SKILL.md' },
      { code: 'skill-invalid', message: expect.stringMatching(/^skill "broken" is invalid: .*\(skipped\)$/), path: expect.stringContaining('broken') },
    ]);
    expect(result.tokens.total).toBeGreaterThan(result.tokens.charter + result.tokens.skills + result.tokens.mcp);
    expect(result.tokens.skills).toBe(Math.ceil(result.parts.skills.length / 4));
  });

  it('keeps the order of the parts', async () => {
    const root = promptSquad();
    const { prompt } = await buildSpawnPrompt({ root, agent: 'Fenster', task: 'Do the task.' });
    const order = [
      'You are Fenster, the Core Dev on this project.',
      'YOUR CHARTER (.ai-team/agents/fenster/charter.md):',
      '<available_skills>',
      'MCP TOOL REQUIREMENTS:',
      'Read .ai-team/agents/fenster/history.md',
      'Read .ai-team/decisions.md',
      'AFTER your work',
      'TASK:\nDo the task.',
    ].map((marker) => prompt.indexOf(marker));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(prompt).toContain("Your history and the team's decisions win over skills");
    expect(prompt).toContain('.ai-team/decisions/inbox/fenster-{brief-slug}.md');
    expect(prompt).toContain('at most 1024 characters');
    expect(prompt).toContain('under 500 lines');
    expect(prompt).toContain('mcp-servers:');
    expect(prompt).toContain('references/');
  });

  it('leaves out hidden and invalid skills, and the XML block parses', async () => {
    const root = promptSquad();
    const { prompt } = await buildSpawnPrompt({ root, agent: 'fenster', task: 'x' });
    const xml = block(prompt, '<available_skills>', '</available_skills>');
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).not.toContain('internal-release');
    expect(xml).not.toContain('broken');
    expect(xml).toContain('<location>.ai-team/agents/fenster/skills/api-design/SKILL.md</location>');
    expect(xml).not.toContain('<location>.ai-team/skills/api-design/SKILL.md</location>');
    expect(xml).toContain('migrations &amp; models');
  });

  it('has no skills block and no MCP block when there is nothing to show', async () => {
    const root = tempDir();
    writeFiles(root, {
      '.ai-team/team.md': '| Name | Role |\n|---|---|\n| Solo | Dev |\n',
      '.ai-team/agents/solo/charter.md': '# Solo\n',
    });
    const result = await buildSpawnPrompt({ root, agent: 'solo', task: 'x' });
    expect(result.prompt).not.toContain('available_skills');
    expect(result.prompt).not.toContain('MCP TOOL REQUIREMENTS');
    expect(result.tokens.skills).toBe(0);
    expect(result.tokens.mcp).toBe(0);
  });

  it('with no configuration file, no host has a server: a required one is flagged; without a home folder the Copilot CLI cannot be told, and nothing is flagged', async () => {
    const root = promptSquad();
    fs.rmSync(path.join(root, '.vscode'), { recursive: true });
    const result = await buildSpawnPrompt({ root, agent: 'fenster', task: 'x', home: tempDir() });
    expect(result.mcp.map((r) => r.seenBy)).toEqual([[], []]);
    expect(result.prompt).toContain('REQUIRED MCP SERVER NO HOST HAS: postgres (needed by database-schema)');
    const homeless = await buildSpawnPrompt({ root, agent: 'fenster', task: 'x' });
    expect(homeless.mcp.map((r) => r.hosts['copilot-cli'].answer)).toEqual(['unknown', 'unknown']);
    expect(homeless.prompt).not.toContain('REQUIRED MCP SERVER NO HOST HAS');
  });

  it("looks for .mcp.json from the working folder up, and for the user's file in COPILOT_HOME", async () => {
    const root = promptSquad({ 'packages/api/.mcp.json': '{ "mcpServers": { "postgres": { "command": "pg-mcp" } } }' });
    const copilotHome = tempDir();
    writeFiles(copilotHome, { 'mcp-config.json': '{ "mcpServers": { "azure-devops": { "url": "https://ado.example" } } }' });
    const result = await buildSpawnPrompt({ root, agent: 'fenster', task: 'x', home: tempDir(), cwd: path.join(root, 'packages', 'api'), env: { COPILOT_HOME: copilotHome } });
    expect(result.mcp.map((r) => [r.server, r.seenBy, r.hosts['copilot-cli'].files])).toEqual([
      ['azure-devops', ['copilot-cli', 'vscode'], ['$COPILOT_HOME/mcp-config.json']],
      ['postgres', ['copilot-cli'], ['packages/api/.mcp.json']],
    ]);
    expect(result.prompt).not.toContain('REQUIRED MCP SERVER NO HOST HAS');
    expect(result.prompt).toContain('| database-schema | postgres | Yes | Query the existing schema, validate migrations | CLI (cloud: ?) |');
  });

  it('warns about a malformed MCP configuration and still builds the prompt', async () => {
    const root = promptSquad({ '.mcp.json': '{ not json' });
    const result = await buildSpawnPrompt({ root, agent: 'fenster', task: 'x' });
    expect(result.warnings).toContainEqual({ code: 'mcp-config-ignored', message: 'MCP configuration .mcp.json ignored: it is not valid JSON (line 1)', path: '.mcp.json' });
    expect(result.mcp.find((r) => r.server === 'postgres')!.hosts['copilot-cli'].answer).toBe('unknown');
  });

  it('does not read the MCP configuration when no skill in the prompt declares a server', async () => {
    const root = promptSquad({ '.vscode/mcp.json': '{ not json' });
    const result = await buildSpawnPrompt({ root, agent: 'fenster', task: 'React component bug', mode: 'lightweight', home: tempDir() });
    expect(result.skills.map((s) => s.name)).toEqual(['react-component-patterns']);
    expect(result.mcp).toEqual([]);
    expect(result.mcpConfig).toEqual([]);
    expect(result.warnings.filter((w) => w.code.startsWith('mcp-') || w.message.includes('MCP'))).toEqual([]);
    // A standard prompt lists database-schema, which declares servers: then the file is read and reported.
    const standard = await buildSpawnPrompt({ root, agent: 'fenster', task: 'x', home: tempDir() });
    expect(standard.warnings).toContainEqual({
      code: 'mcp-config-ignored',
      message: 'MCP configuration .vscode/mcp.json ignored: it is not valid JSON (line 1)',
      path: '.vscode/mcp.json',
    });
  });

  it('builds a prompt without a charter file, with a warning', async () => {
    const root = promptSquad();
    fs.rmSync(path.join(root, '.ai-team/agents/hockney/charter.md'));
    const result = await buildSpawnPrompt({ root, agent: 'hockney', task: 'x' });
    expect(result.warnings).toContainEqual({
      code: 'charter-missing',
      message: '.ai-team/agents/hockney/charter.md is missing; the prompt has no charter',
      path: '.ai-team/agents/hockney/charter.md',
    });
    expect(result.prompt).toContain('YOUR CHARTER (.ai-team/agents/hockney/charter.md):\n(no charter yet: .ai-team/agents/hockney/charter.md is missing)\n\n');
    expect(result.parts.charter).toBe('');
    expect(result.tokens.charter).toBe(0);

    fs.writeFileSync(path.join(root, '.ai-team/agents/hockney/charter.md'), '\n');
    const empty = await buildSpawnPrompt({ root, agent: 'hockney', task: 'x' });
    expect(empty.prompt).toContain('YOUR CHARTER (.ai-team/agents/hockney/charter.md):\n(no charter yet: .ai-team/agents/hockney/charter.md is empty)\n\n');
  });

  it('shows controls and bidi controls of the charter and the task as escapes, in the prompt, its parts and their token counts', async () => {
    const root = promptSquad({ '.ai-team/agents/hockney/charter.md': '# Hockney\n\nTests \u202eeverything\u202c \u001b[2J twice.\n' });
    // A task can come from a file or an MCP client as well as from the user.
    const result = await buildSpawnPrompt({ root, agent: 'hockney', task: 'Check \u2066the\u2069 build\u0007.' });
    expect(result.parts.charter).toBe('# Hockney\n\nTests \\u202eeverything\\u202c \\u001b[2J twice.');
    expect(result.parts.task).toBe('Check \\u2066the\\u2069 build\\u0007.');
    expect(result.prompt).toContain(`\n${result.parts.charter}\n`);
    expect(result.prompt.endsWith(`TASK:\n${result.parts.task}\n`)).toBe(true);
    expect(result.tokens.charter).toBe(Math.ceil(result.parts.charter.length / 4));
    expect(result.tokens.total).toBe(Math.ceil(result.prompt.length / 4));
  });

  it('refuses an unknown agent with the list of agents, and a missing squad with a pointer to init', async () => {
    const root = promptSquad();
    await expect(buildSpawnPrompt({ root, agent: 'nobody', task: 'x' })).rejects.toMatchObject({
      code: 'unknown-agent',
      hint: 'agents: keaton, fenster, hockney, scribe',
    });
    const error = await buildSpawnPrompt({ root: tempDir(), agent: 'fenster', task: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SquadError);
    expect((error as SquadError).code).toBe('no-squad');
    expect((error as SquadError).hint).toMatch(/init/);
    await expect(buildSpawnPrompt({ root, agent: 'fenster', task: '  \n' })).rejects.toMatchObject({ code: 'usage' });
  });
});

describe('buildSpawnPrompt (lightweight)', () => {
  it('matches the golden prompt: relevant skills inlined, history and decisions skipped', async () => {
    const root = promptSquad();
    const result = await buildSpawnPrompt({
      root,
      agent: 'fenster',
      task: 'Fix the re-render loop in the OrderList React component.',
      mode: 'lightweight',
      home: tempDir(),
    });
    expectGolden('lightweight-fenster.md', result.prompt);
    expect(result.mode).toBe('lightweight');
    expect(result.skills.map((s) => [s.name, s.inlined])).toEqual([['react-component-patterns', true]]);
    expect(result.prompt).toContain('Prefer composition over inheritance.');
    expect(result.prompt).not.toContain('Read .ai-team/decisions.md');
    expect(result.prompt).toContain('append a one-line note');
    expect(result.tokens.charter).toBe(0);
  });

  it('inlines the skills named with --skill, skipping unknown and invalid ones with warnings', async () => {
    const root = promptSquad();
    const result = await buildSpawnPrompt({
      root,
      agent: 'fenster',
      task: 'Add an index to orders.',
      mode: 'lightweight',
      skills: ['database-schema', 'nope', 'broken', 'internal-release'],
    });
    expect(result.mode).toBe('lightweight');
    expect(result.skills.map((s) => s.name)).toEqual(['database-schema']);
    expect(result.prompt).toContain('Always write reversible migrations.');
    expect(result.mcp.map((r) => r.server)).toEqual(['azure-devops', 'postgres']);
    expect(result.warnings).toEqual(
      expect.arrayContaining([
        { code: 'requested-skill-unknown', message: 'fenster has no skill named "nope", skipped (see "create-squad skills list --agent fenster")' },
        expect.objectContaining({ code: 'requested-skill-invalid', message: 'skill "broken" is invalid, skipped (run "create-squad skills validate")' }),
        expect.objectContaining({ code: 'requested-skill-hidden', message: 'skill "internal-release" is not offered to the model (disable-model-invocation), skipped' }),
      ]),
    );
  });

  it.each([
    ['Decide the architecture of the state layer', 'architecture'],
    ['Choose between Redux and Zustand for the React app', 'choose between'],
    ['Rewrite the React components with the whole team', 'rewrite'],
    ['Pair with Hockney on the React component tests', 'pair with'],
    ['Fix the React component Keaton reviewed', 'keaton'],
  ])('refuses lightweight for %j and builds a standard prompt', async (task, clue) => {
    const root = promptSquad();
    const result = await buildSpawnPrompt({ root, agent: 'fenster', task, mode: 'lightweight' });
    expect(result.mode).toBe('standard');
    expect(result.requestedMode).toBe('lightweight');
    const refusal = result.warnings.find((w) => w.code === 'lightweight-refused')!;
    expect(refusal.message).toMatch(/^lightweight mode refused/);
    expect(refusal.message.toLowerCase()).toContain(clue);
    expect(result.prompt).toContain('<available_skills>');
  });

  it('falls back to standard when no skill matches the task', async () => {
    const root = promptSquad();
    const result = await buildSpawnPrompt({ root, agent: 'fenster', task: 'Update the changelog wording', mode: 'lightweight' });
    expect(result.mode).toBe('standard');
    expect(result.warnings.some((w) => w.code === 'lightweight-refused' && w.message.includes('no skill of this agent matches the task'))).toBe(true);
  });

  const REACT_SKILL = '.ai-team/agents/fenster/skills/react-component-patterns/SKILL.md';
  const reactPrompt = (root: string) => buildSpawnPrompt({ root, agent: 'fenster', task: 'React component bug', mode: 'lightweight' });
  /** The skill is shown by `line` instead of its body, and not reported as inlined. */
  const expectNotInlined = (result: Awaited<ReturnType<typeof reactPrompt>>, line: string) => {
    expect(result.mode).toBe('lightweight');
    expect(result.prompt).toContain(`=== SKILL react-component-patterns (${REACT_SKILL}) ===\n${line}\n=== END OF SKILL`);
    expect(result.skills.map((s) => [s.name, s.inlined])).toEqual([['react-component-patterns', false]]);
  };

  it('points to a skill too large to inline instead of reading it', async () => {
    const root = promptSquad({ [REACT_SKILL]: `${validSkill('react-component-patterns', 'React component patterns.')}${'x'.repeat(200 * 1024)}` });
    const result = await reactPrompt(root);
    expectNotInlined(result, `(Too large to inline: read ${REACT_SKILL} before you start.)`);
    expect(result.prompt).not.toContain('xxxxxxxxxx');
  });

  it('says a skill with an empty body has nothing more to say, and does not call it inlined', async () => {
    const root = promptSquad({
      [REACT_SKILL]: skillMd('name: react-component-patterns\ndescription: React component patterns. Use when building React components.', '\n'),
    });
    expectNotInlined(await reactPrompt(root), '(This skill has no instructions beyond its name and description.)');
  });

  it('points to a skill that cannot be read, with a warning, and does not call it inlined', async () => {
    const root = promptSquad();
    const file = path.join(root, REACT_SKILL);
    // Discovery reads the frontmatter; the read for the body then fails.
    let opens = 0;
    const original = fs.openSync;
    const mutable = fs as unknown as { openSync: typeof fs.openSync };
    mutable.openSync = ((target: fs.PathLike, ...rest: unknown[]) => {
      if (target === file && ++opens > 1) throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
      return (original as (...a: unknown[]) => unknown)(target, ...rest);
    }) as typeof fs.openSync;
    let result: Awaited<ReturnType<typeof reactPrompt>>;
    try {
      result = await reactPrompt(root);
    } finally {
      mutable.openSync = original;
    }
    expectNotInlined(result, `(Could not be read when this prompt was built: read ${REACT_SKILL} before you start.)`);
    expect(result.warnings).toContainEqual({
      code: 'skill-not-inlined',
      message: `cannot inline ${REACT_SKILL} (EIO: i/o error); the prompt points to it instead`,
      path: REACT_SKILL,
    });
  });
});

describe('buildSpawnPrompt at scale', () => {
  it('builds a prompt for an agent that sees 1,000 skills without reading a single body', async () => {
    const root = tempDir();
    writeFiles(root, {
      '.ai-team/team.md': '| Name | Role | Charter |\n|---|---|---|\n| Fenster | Core Dev | `.ai-team/agents/fenster/charter.md` |\n',
      '.ai-team/agents/fenster/charter.md': '# Fenster\n',
    });
    // Bodies are large and start with bytes that are not UTF-8: reading one would show as U+FFFD.
    const body = Buffer.concat([Buffer.from([0xff, 0xfe, 0xc3]), Buffer.alloc(64 * 1024, 0x41)]);
    for (let i = 0; i < 1000; i += 1) {
      const name = `skill-${String(i).padStart(4, '0')}`;
      const dir = i % 2 === 0 ? `.ai-team/skills/${name}` : `.ai-team/agents/fenster/skills/${name}`;
      const head = `---\nname: ${name}\ndescription: "Use when working on area ${i}."\nmetadata:\n  version: "1.0"\n${
        i % 100 === 0 ? `  mcp-servers:\n    - name: server-${i % 300}\n      optional: true\n` : ''
      }---\n`;
      fs.mkdirSync(path.join(root, dir), { recursive: true });
      fs.writeFileSync(path.join(root, dir, 'SKILL.md'), Buffer.concat([Buffer.from(head), body]));
    }

    const reads = { bytes: 0, whole: [] as string[] };
    const original = { readSync: fs.readSync, readFileSync: fs.readFileSync };
    const mutable = fs as unknown as { readSync: typeof fs.readSync; readFileSync: typeof fs.readFileSync };
    mutable.readSync = ((...args: Parameters<typeof fs.readSync>) => {
      const n = original.readSync(...args);
      reads.bytes += n;
      return n;
    }) as typeof fs.readSync;
    mutable.readFileSync = ((file: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
      if (String(file).endsWith('SKILL.md')) reads.whole.push(String(file));
      return (original.readFileSync as (...a: unknown[]) => unknown)(file, ...rest);
    }) as typeof fs.readFileSync;
    let result: Awaited<ReturnType<typeof buildSpawnPrompt>>;
    try {
      result = await buildSpawnPrompt({ root, agent: 'fenster', task: 'x', home: tempDir(), allSkills: true });
    } finally {
      mutable.readSync = original.readSync;
      mutable.readFileSync = original.readFileSync;
    }
    expect(reads.whole).toEqual([]);
    // One 4 KB chunk per SKILL.md at most: the 64 KB bodies were never read.
    expect(reads.bytes).toBeLessThanOrEqual(1000 * 4096);
    expect(result.skills).toHaveLength(1000);
    expect(result.prompt).not.toContain('\uFFFD');
    expect(result.mcp).toHaveLength(10);
    expect(XMLValidator.validate(block(result.prompt, '<available_skills>', '</available_skills>'))).toBe(true);
  });
});
