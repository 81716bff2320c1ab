import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  MCP_HOSTS,
  MISSING_SERVER_RULE,
  collectMcpRequirements,
  describeServerHosts,
  detectMcpConfig,
  mcpServerHosts,
  mcpSetupFixes,
  missingRequiredServers,
  renderMcpBlock,
  seenByCell,
  type McpConfigDetection,
  type McpDetectOptions,
  type McpHostAnswer,
  type McpHostId,
} from '../../src/core/skills/mcp.js';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

/** A server entry each host accepts. */
const LOCAL = '{ "type": "local", "command": "x", "args": [] }';

/** A repository (a folder holding .git) with `files`, and an empty home folder. */
function repo(files: Record<string, string> = {}): { root: string; home: string } {
  const root = tempDir('mcp-repo-');
  fs.mkdirSync(path.join(root, '.git'));
  writeFiles(root, files);
  return { root, home: tempDir('mcp-home-') };
}

async function detect(options: McpDetectOptions): Promise<McpConfigDetection> {
  return detectMcpConfig(options);
}

/** What each host has of `server`, as `host:answer`. */
function answers(server: string, detection: McpConfigDetection): Record<McpHostId, McpHostAnswer> {
  const hosts = mcpServerHosts(server, detection);
  return Object.fromEntries(MCP_HOSTS.map((h) => [h.id, hosts[h.id].answer])) as Record<McpHostId, McpHostAnswer>;
}

/** The files that list something, with their servers. */
function listed(detection: McpConfigDetection): [string, string[]][] {
  return detection.sources.filter((s) => s.servers.length > 0).map((s) => [s.path, s.servers]);
}

describe('detectMcpConfig: the files each host reads', () => {
  it("checks the Copilot CLI files, then VS Code's; with none present, neither host has a server and the cloud agent cannot be told", async () => {
    const { root, home } = repo();
    const detection = await detect({ root, home });
    expect(detection.sources.map((s) => [s.path, s.hosts, s.exists])).toEqual([
      ['.mcp.json', ['copilot-cli'], false],
      ['.github/mcp.json', ['copilot-cli'], false],
      ['~/.copilot/mcp-config.json', ['copilot-cli'], false],
      ['.vscode/mcp.json', ['vscode'], false],
    ]);
    expect(detection.warnings).toEqual([]);
    expect(answers('postgres', detection)).toEqual({ 'copilot-cli': 'not-configured', vscode: 'not-configured', 'cloud-agent': 'unknown' });
  });

  it('reads .vscode/mcp.json (key "servers", comments and trailing commas allowed) for VS Code only', async () => {
    const { root, home } = repo({
      '.vscode/mcp.json': `{\n  // comment\n  "servers": { "Postgres": ${LOCAL}, /* block */ },\n  "inputs": [],\n}\n`,
    });
    const detection = await detect({ root, home });
    expect(detection.warnings).toEqual([]);
    expect(listed(detection)).toEqual([['.vscode/mcp.json', ['Postgres']]]);
    expect(answers('postgres', detection)).toEqual({ 'copilot-cli': 'not-configured', vscode: 'configured', 'cloud-agent': 'unknown' });
    expect(mcpServerHosts('postgres', detection).vscode.files).toEqual(['.vscode/mcp.json']);
  });

  it('reads .github/mcp.json for the Copilot CLI only when the root has no .mcp.json', async () => {
    const alone = repo({ '.github/mcp.json': `{ "mcpServers": { "sentry": ${LOCAL} } }` });
    const detection = await detect(alone);
    expect(listed(detection)).toEqual([['.github/mcp.json', ['sentry']]]);
    expect(answers('sentry', detection)).toEqual({ 'copilot-cli': 'configured', vscode: 'not-configured', 'cloud-agent': 'unknown' });

    const shadowed = repo({
      '.github/mcp.json': `{ "mcpServers": { "sentry": ${LOCAL} } }`,
      '.mcp.json': `{ "mcpServers": { "redis": ${LOCAL} } }`,
    });
    const both = await detect(shadowed);
    expect(both.sources.map((s) => s.path)).not.toContain('.github/mcp.json');
    expect(answers('sentry', both)['copilot-cli']).toBe('not-configured');
    expect(answers('redis', both)['copilot-cli']).toBe('configured');
  });

  it('a .mcp.json of any kind, even a folder, keeps the Copilot CLI from reading .github/mcp.json there', async () => {
    const { root, home } = repo({ '.github/mcp.json': `{ "mcpServers": { "sentry": ${LOCAL} } }` });
    fs.mkdirSync(path.join(root, '.mcp.json'));
    const detection = await detect({ root, home });
    expect(detection.warnings).toEqual([{ code: 'mcp-config-ignored', message: 'MCP configuration .mcp.json ignored: it is not a file', path: '.mcp.json' }]);
    expect(answers('sentry', detection)['copilot-cli']).toBe('unknown');
  });

  it("reads .mcp.json in every folder from the working folder up to the repository root, and a folder's .github/mcp.json where it has none", async () => {
    const { root, home } = repo({
      '.mcp.json': `{ "mcpServers": { "root-server": ${LOCAL} } }`,
      'packages/app/.mcp.json': `{ "mcpServers": { "app-server": ${LOCAL} } }`,
      'packages/.github/mcp.json': `{ "mcpServers": { "packages-server": ${LOCAL} } }`,
      'packages/app/src/deep/.mcp.json': `{ "mcpServers": { "below-cwd": ${LOCAL} } }`,
      'packages/other/.mcp.json': `{ "mcpServers": { "sibling": ${LOCAL} } }`,
    });
    const detection = await detect({ root, cwd: path.join(root, 'packages', 'app', 'src'), home });
    expect(detection.sources.filter((s) => s.hosts.includes('copilot-cli')).map((s) => s.path)).toEqual([
      '.mcp.json',
      'packages/.mcp.json',
      'packages/.github/mcp.json',
      'packages/app/.mcp.json',
      'packages/app/src/.mcp.json',
      'packages/app/src/.github/mcp.json',
      '~/.copilot/mcp-config.json',
    ]);
    expect(listed(detection)).toEqual([
      ['.mcp.json', ['root-server']],
      ['packages/.github/mcp.json', ['packages-server']],
      ['packages/app/.mcp.json', ['app-server']],
    ]);
    for (const server of ['root-server', 'packages-server', 'app-server']) expect(answers(server, detection)['copilot-cli'], server).toBe('configured');
    for (const server of ['below-cwd', 'sibling']) expect(answers(server, detection)['copilot-cli'], server).toBe('not-configured');

    const fromRoot = await detect({ root, home });
    expect(answers('app-server', fromRoot)['copilot-cli']).toBe('not-configured');
  });

  it("without a .git folder, walks up to the squad's root", async () => {
    const root = tempDir('mcp-nogit-');
    writeFiles(root, { '.mcp.json': `{ "mcpServers": { "root-server": ${LOCAL} } }` });
    const detection = await detect({ root, cwd: path.join(root, 'sub'), home: tempDir('mcp-home-') });
    expect(detection.sources[0]!.path).toBe('.mcp.json');
    expect(answers('root-server', detection)['copilot-cli']).toBe('configured');
  });

  it("reads the user's mcp-config.json in $COPILOT_HOME when it is set, else in ~/.copilot", async () => {
    const { root, home } = repo();
    const moved = tempDir('copilot-home-');
    writeFiles(home, { '.copilot/mcp-config.json': `{ "mcpServers": { "home-server": ${LOCAL} } }` });
    writeFiles(moved, { 'mcp-config.json': `{\n  // comments are fine here\n  "mcpServers": { "moved-server": ${LOCAL}, },\n}` });

    const atHome = await detect({ root, home, env: {} });
    expect(listed(atHome)).toEqual([['~/.copilot/mcp-config.json', ['home-server']]]);

    const withEnv = await detect({ root, home, env: { COPILOT_HOME: moved } });
    expect(withEnv.warnings).toEqual([]);
    expect(listed(withEnv)).toEqual([['$COPILOT_HOME/mcp-config.json', ['moved-server']]]);
    expect(answers('moved-server', withEnv)).toEqual({ 'copilot-cli': 'configured', vscode: 'not-configured', 'cloud-agent': 'unknown' });
    expect(answers('home-server', withEnv)['copilot-cli']).toBe('not-configured');

    const relative = await detect({ root, cwd: path.dirname(moved), home, env: { COPILOT_HOME: path.basename(moved) } });
    expect(answers('moved-server', relative)['copilot-cli']).toBe('configured');
    expect(answers('moved-server', await detect({ root, home, env: { COPILOT_HOME: '  ' } }))['copilot-cli']).toBe('not-configured');
  });

  it('without a home folder, cannot say the Copilot CLI lacks a server', async () => {
    const { root } = repo({ '.mcp.json': `{ "mcpServers": { "redis": ${LOCAL} } }` });
    const detection = await detect({ root });
    expect(detection.incomplete).toEqual(['copilot-cli']);
    expect(answers('redis', detection)['copilot-cli']).toBe('configured');
    expect(answers('postgres', detection)['copilot-cli']).toBe('unknown');
  });

  it('knows the built-in servers: github in the Copilot CLI (as github-mcp-server) and in the cloud agent, playwright in the cloud agent', async () => {
    const { root, home } = repo();
    const detection = await detect({ root, home });
    expect(answers('github', detection)).toEqual({ 'copilot-cli': 'built-in', vscode: 'not-configured', 'cloud-agent': 'built-in' });
    expect(answers('GitHub', detection)['copilot-cli']).toBe('built-in');
    expect(answers('github-mcp-server', detection)).toEqual({ 'copilot-cli': 'built-in', vscode: 'not-configured', 'cloud-agent': 'unknown' });
    expect(answers('playwright', detection)).toEqual({ 'copilot-cli': 'not-configured', vscode: 'not-configured', 'cloud-agent': 'built-in' });
    expect(answers('github', undefined as unknown as McpConfigDetection)).toEqual({ 'copilot-cli': 'built-in', vscode: 'unknown', 'cloud-agent': 'built-in' });
  });

  it('does not count a repository-root .copilot/mcp-config.json or .ai-team/mcp-config.json for any host, and names them as unread', async () => {
    const { root, home } = repo({
      '.copilot/mcp-config.json': `{ "mcpServers": { "postgres": ${LOCAL} } }`,
      '.ai-team/mcp-config.json': `{ "mcpServers": { "postgres": ${LOCAL} } }`,
    });
    const detection = await detect({ root, home });
    expect(detection.sources.map((s) => s.path)).not.toContain('.copilot/mcp-config.json');
    expect(detection.sources.map((s) => s.path)).not.toContain('.ai-team/mcp-config.json');
    expect(answers('postgres', detection)).toEqual({ 'copilot-cli': 'not-configured', vscode: 'not-configured', 'cloud-agent': 'unknown' });
    expect(detection.unread.map((u) => u.path)).toEqual(['.copilot/mcp-config.json', '.ai-team/mcp-config.json']);
    expect(detection.unread[0]!.note).toContain('only in ~/.copilot (or $COPILOT_HOME)');
  });

  it("counts .copilot/mcp-config.json when it is the user's own (the repository is the home folder, or COPILOT_HOME points there)", async () => {
    const { root } = repo({ '.copilot/mcp-config.json': `{ "mcpServers": { "postgres": ${LOCAL} } }` });
    const asHome = await detect({ root, home: root });
    expect(asHome.unread).toEqual([]);
    expect(answers('postgres', asHome)['copilot-cli']).toBe('configured');
    const asEnv = await detect({ root, home: tempDir(), env: { COPILOT_HOME: path.join(root, '.copilot') } });
    expect(asEnv.unread).toEqual([]);
    expect(answers('postgres', asEnv)['copilot-cli']).toBe('configured');
  });
});

describe('detectMcpConfig: files a host cannot use', () => {
  it('a workspace file with comments, trailing commas or a byte-order mark is skipped by the Copilot CLI, which the user file is not', async () => {
    for (const text of [`{ // c\n "mcpServers": { "redis": ${LOCAL} } }`, `{ "mcpServers": { "redis": ${LOCAL}, } }`, `\uFEFF{ "mcpServers": { "redis": ${LOCAL} } }`]) {
      const { root, home } = repo({ '.mcp.json': text });
      writeFiles(home, { '.copilot/mcp-config.json': `\uFEFF{ "mcpServers": { "sentry": ${LOCAL}, } }` });
      const detection = await detect({ root, home });
      expect(detection.warnings, text).toEqual([
        {
          code: 'mcp-config-ignored',
          message: 'MCP configuration .mcp.json ignored: it has comments, trailing commas or a byte-order mark, and the Copilot CLI skips such a file: write plain JSON',
          path: '.mcp.json',
        },
      ]);
      expect(answers('redis', detection)['copilot-cli']).toBe('unknown');
      expect(answers('sentry', detection)['copilot-cli']).toBe('configured');
    }
  });

  it('accepts servers at the top level of a workspace file (no "mcpServers"), and an empty object', async () => {
    const bare = await detect(repo({ '.mcp.json': `{ "redis": ${LOCAL}, "inputs": [] }` }));
    expect(listed(bare)).toEqual([['.mcp.json', ['redis']]]);
    expect(bare.warnings).toEqual([
      {
        code: 'mcp-config-entry-skipped',
        message: 'MCP configuration .mcp.json: server "inputs" is a list, not an object of settings: it does not count as configured',
        path: '.mcp.json',
      },
    ]);
    const empty = await detect(repo({ '.mcp.json': '{}' }));
    expect(empty.warnings).toEqual([]);
    expect(answers('redis', empty)['copilot-cli']).toBe('not-configured');
  });

  it("warns about a file whose servers are missing, under the other host's key or not an object; its hosts then cannot be told", async () => {
    const cases: [string, string, string, McpHostId][] = [
      [
        '.vscode/mcp.json',
        `{ "mcpServers": { "github": ${LOCAL} } }`,
        'ignored: it lists servers under "mcpServers", but this file\'s servers go under "servers" (expected {"servers": {"<name>": {…settings}}})',
        'vscode',
      ],
      [
        '.mcp.json',
        `{ "servers": { "redis": ${LOCAL} } }`,
        'ignored: it lists servers under "servers", but this file\'s servers go under "mcpServers" (expected {"mcpServers": {"<name>": {…settings}}})',
        'copilot-cli',
      ],
      ['.mcp.json', '{ "mcpServers": [] }', 'ignored: "mcpServers" is a list, not an object of servers (expected {"mcpServers": {"<name>": {…settings}}})', 'copilot-cli'],
      ['.mcp.json', '{ "tools": 5 }', 'ignored: it has no "mcpServers" (expected {"mcpServers": {"<name>": {…settings}}})', 'copilot-cli'],
      ['.mcp.json', '[1, 2]', 'ignored: it is not a JSON object (expected {"mcpServers": {"<name>": {…settings}}})', 'copilot-cli'],
      ['.github/mcp.json', '{ "mcpServers": ', 'ignored: it is not valid JSON (line 1)', 'copilot-cli'],
    ];
    for (const [file, text, warning, host] of cases) {
      const detection = await detect(repo({ [file]: text }));
      expect(detection.warnings, `${file}: ${text}`).toEqual([{ code: 'mcp-config-ignored', message: `MCP configuration ${file} ${warning}`, path: file }]);
      expect(detection.sources.find((s) => s.path === file)).toMatchObject({ exists: true, servers: [] });
      const result = answers('redis', detection);
      expect(result[host], `${file}: ${text}`).toBe('unknown');
      const other = host === 'vscode' ? 'copilot-cli' : 'vscode';
      expect(result[other], `${file}: ${text}`).toBe('not-configured');
    }
  });

  it('skips an entry that is not an object of settings, or (Copilot CLI files) has neither command nor url: that server alone cannot be told', async () => {
    const { root, home } = repo({
      '.mcp.json': `{ "mcpServers": { "github": 5, "sentry": {}, "redis": { "url": "http://localhost" } } }`,
      '.vscode/mcp.json': '{ "servers": { "ado": {} } }',
    });
    const detection = await detect({ root, home });
    expect(detection.warnings).toEqual([
      {
        code: 'mcp-config-entry-skipped',
        message: 'MCP configuration .mcp.json: server "github" is a number, not an object of settings: it does not count as configured',
        path: '.mcp.json',
      },
      {
        code: 'mcp-config-entry-skipped',
        message: 'MCP configuration .mcp.json: server "sentry" has neither "command" nor "url": it does not count as configured',
        path: '.mcp.json',
      },
    ]);
    expect(detection.sources[0]).toMatchObject({ servers: ['redis'], skippedServers: ['github', 'sentry'] });
    expect(answers('sentry', detection)['copilot-cli']).toBe('unknown');
    expect(answers('github', detection)['copilot-cli']).toBe('built-in');
    expect(answers('postgres', detection)['copilot-cli']).toBe('not-configured');
    expect(answers('ado', detection).vscode).toBe('configured');
  });
});

describe('collectMcpRequirements', () => {
  const skills = [
    {
      name: 'db',
      mcpServers: [
        { name: 'postgres', reason: 'schema', optional: true, fallback: 'read migrations instead' },
        { name: 'postgres', optional: false },
        { name: 'ado', reason: 'work items', optional: true, fallback: 'skip linking' },
      ],
    },
    { name: 'api', mcpServers: [{ name: 'postgres', reason: 'queries', optional: false }] },
    { name: 'plain', mcpServers: [] },
  ];

  it('has one row per skill and server, sorted, required if any declaration is', () => {
    const rows = collectMcpRequirements(skills);
    expect(rows.map((r) => [r.skill, r.server, r.required, r.purpose, r.seenBy])).toEqual([
      ['api', 'postgres', true, 'queries', []],
      ['db', 'ado', false, 'work items', []],
      ['db', 'postgres', true, 'schema', []],
    ]);
    expect(rows[0]!.hosts['copilot-cli'].answer).toBe('unknown');
    expect(collectMcpRequirements([...skills].reverse())).toEqual(rows);
  });

  it('keys rows on the server name in any letter case: the first spelling, required if any declaration is', () => {
    const rows = collectMcpRequirements([
      {
        name: 'db',
        mcpServers: [
          { name: 'Postgres', reason: 'schema', optional: true, fallback: 'read migrations' },
          { name: 'postgres', optional: false },
          { name: 'POSTGRES', reason: 'ignored', optional: true },
        ],
      },
    ]);
    expect(rows.map((r) => [r.skill, r.server, r.required, r.purpose, r.fallback])).toEqual([['db', 'Postgres', true, 'schema', 'read migrations']]);
  });

  it('says which hosts have each server', async () => {
    const { root, home } = repo({ '.vscode/mcp.json': `{ "servers": { "ado": ${LOCAL} } }`, '.mcp.json': `{ "mcpServers": { "ado": ${LOCAL} } }` });
    const rows = collectMcpRequirements(
      [
        {
          name: 'db',
          mcpServers: [
            { name: 'ado', optional: false },
            { name: 'github', optional: false },
          ],
        },
      ],
      await detect({ root, home }),
    );
    expect(rows.map((r) => [r.server, r.seenBy, seenByCell(r)])).toEqual([
      ['ado', ['copilot-cli', 'vscode'], 'CLI, VS Code (cloud: ?)'],
      ['github', ['copilot-cli', 'cloud-agent'], 'CLI (built-in), cloud (built-in)'],
    ]);
    expect(describeServerHosts(rows[1]!.hosts)).toBe(
      'the Copilot CLI: built in; VS Code: not configured (create-squad does not read the VS Code user profile); the cloud agent: built in',
    );
    expect(describeServerHosts(rows[0]!.hosts)).toBe(
      "the Copilot CLI: configured (.mcp.json); VS Code: configured (.vscode/mcp.json); the cloud agent: cannot tell (create-squad cannot see the repository's Copilot settings on GitHub)",
    );
  });

  it('names how to give a server to each host that lacks it', async () => {
    const { root, home } = repo();
    const hosts = mcpServerHosts('postgres', await detect({ root, home }));
    expect(mcpSetupFixes('postgres', hosts, false)).toEqual([
      'for the Copilot CLI, create .mcp.json at the repository root with {"mcpServers": {"postgres": {…}}} (plain JSON; read once the folder is trusted), or add it to ~/.copilot/mcp-config.json for yourself',
      'for VS Code, create .vscode/mcp.json with {"servers": {"postgres": {…}}}',
    ]);
    expect(mcpSetupFixes('postgres', hosts, true)[2]).toBe('for the cloud agent, add "postgres" to the MCP configuration in the repository\'s Copilot settings on GitHub');
  });
});

describe('renderMcpBlock', () => {
  const skills = [
    {
      name: 'db',
      mcpServers: [
        { name: 'postgres', reason: 'schema', optional: false },
        { name: 'ado', reason: 'work items', optional: true, fallback: 'skip linking' },
      ],
    },
    {
      name: 'api',
      mcpServers: [
        { name: 'postgres', reason: 'queries', optional: false },
        { name: 'github', optional: false },
      ],
    },
  ];

  it('flags required servers no host has at the top, and says per row which hosts have the server', async () => {
    const { root, home } = repo({ '.vscode/mcp.json': `{ "servers": { "ado": ${LOCAL} } }` });
    const rows = collectMcpRequirements(skills, await detect({ root, home }));
    expect(missingRequiredServers(rows).map((r) => `${r.skill}/${r.server}`)).toEqual(['api/postgres', 'db/postgres']);
    const block = await renderMcpBlock(rows);
    const lines = block.split('\n');
    expect(lines[0]).toBe(
      '⚠ REQUIRED MCP SERVER NO HOST HAS: postgres (needed by api); postgres (needed by db): no MCP configuration file lists it and no host ships it. Before any work that needs it: if your tools do not include it, STOP and tell the coordinator.',
    );
    expect(block).toContain('| Skill | MCP Server | Required? | Purpose | Seen by |');
    expect(block).toContain('| api | github | Yes | - | CLI (built-in), cloud (built-in) |');
    expect(block).toContain('| db | ado | No | work items (if unavailable: "skip linking") | VS Code (cloud: ?) |');
    expect(block).toContain('| db | postgres | Yes | schema | none (cloud: ?) |');
    // The general rule stops only the work that needs a missing server (MISSING_SERVER_RULE, which member agents state too).
    expect(lines).toContain(MISSING_SERVER_RULE.required);
    expect(lines).toContain(MISSING_SERVER_RULE.optional);
    expect(block).not.toMatch(/unavailable, STOP/);
    expect(block).toContain('Servers in the VS Code user profile are not counted.');
  });

  it('renders nothing without requirements, and no flag when nothing is certain', async () => {
    expect(await renderMcpBlock([])).toBe('');
    const block = await renderMcpBlock(collectMcpRequirements(skills));
    expect(block.startsWith('MCP TOOL REQUIREMENTS:')).toBe(true);
    expect(block).toContain('| db | postgres | Yes | schema | none (CLI, VS Code, cloud: ?) |');
  });

  it('keeps table cells on one line with pipes escaped', async () => {
    const rows = collectMcpRequirements([{ name: 's', mcpServers: [{ name: 'x|y', reason: 'a | b\nc', optional: true, fallback: 'f|g' }] }]);
    const block = await renderMcpBlock(rows);
    expect(block).toContain('| s | x\\|y | No | a \\| b c (if unavailable: "f\\|g") | none (CLI, VS Code, cloud: ?) |');
  });
});
