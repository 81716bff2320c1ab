import { afterAll, describe, expect, it } from 'vitest';
import {
  collectMcpRequirements,
  detectMcpConfig,
  mcpServerStatus,
  missingRequiredServers,
  renderMcpBlock,
  type McpConfigDetection,
} from '../../src/core/mcp.js';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

const CHECKED = ['.vscode/mcp.json', '.mcp.json', '.copilot/mcp-config.json', '.ai-team/mcp-config.json', '~/.copilot/mcp-config.json'];

describe('detectMcpConfig', () => {
  it('checks every location; none present means nothing is known', async () => {
    const detection = await detectMcpConfig(tempDir(), tempDir());
    expect(detection.sources.map((s) => s.path)).toEqual(CHECKED);
    expect(detection.sources.every((s) => !s.exists && s.servers.length === 0)).toBe(true);
    expect(detection.warnings).toEqual([]);
    expect(mcpServerStatus('postgres', detection)).toEqual({ configured: 'unknown', configuredIn: [] });
  });

  it('reads each file with its own key, JSONC included', async () => {
    const root = tempDir();
    const home = tempDir();
    writeFiles(root, {
      '.vscode/mcp.json': '{\n  // comment\n  "servers": { "github": {}, /* block */ "Postgres": {}, },\n  "inputs": [],\n}\n',
      '.mcp.json': '{ "mcpServers": { "filesystem": { "command": "x" } } }',
      '.copilot/mcp-config.json': '\uFEFF{ "mcpServers": { "playwright": {} } }',
      '.ai-team/mcp-config.json': '{ "servers": ["azure-devops", { "name": "sentry" }] }',
    });
    writeFiles(home, { '.copilot/mcp-config.json': '{ "mcpServers": { "github": {} } }' });
    const detection = await detectMcpConfig(root, home);
    expect(detection.warnings).toEqual([]);
    expect(detection.sources.map((s) => [s.path, s.servers])).toEqual([
      ['.vscode/mcp.json', ['Postgres', 'github']],
      ['.mcp.json', ['filesystem']],
      ['.copilot/mcp-config.json', ['playwright']],
      ['.ai-team/mcp-config.json', ['azure-devops', 'sentry']],
      ['~/.copilot/mcp-config.json', ['github']],
    ]);
    expect(mcpServerStatus('github', detection)).toEqual({
      configured: 'yes',
      configuredIn: ['.vscode/mcp.json', '~/.copilot/mcp-config.json'],
    });
    expect(mcpServerStatus('postgres', detection).configured).toBe('yes');
    expect(mcpServerStatus('redis', detection)).toEqual({ configured: 'no', configuredIn: [] });
  });

  it('turns malformed files into warnings, and then never claims "no"', async () => {
    const root = tempDir();
    writeFiles(root, {
      '.vscode/mcp.json': '{ "servers": { "github": {} ',
      '.mcp.json': '[1, 2]',
      '.copilot/mcp-config.json': '{ "mcpServers": 42 }',
      '.ai-team/mcp-config.json': '{ "mcpServers": { "filesystem": {} } }',
    });
    const detection = await detectMcpConfig(root, undefined);
    expect(detection.sources.map((s) => s.path)).toEqual(CHECKED.slice(0, 4));
    expect(detection.warnings).toEqual([
      'MCP configuration .vscode/mcp.json ignored: it is not valid JSON (line 1)',
      'MCP configuration .mcp.json ignored: it is not a JSON object (expected {"mcpServers": {"<name>": {…settings}}})',
      'MCP configuration .copilot/mcp-config.json ignored: "mcpServers" is a number, not an object of servers (expected {"mcpServers": {"<name>": {…settings}}})',
    ]);
    expect(mcpServerStatus('filesystem', detection).configured).toBe('yes');
    expect(mcpServerStatus('github', detection).configured).toBe('unknown');
  });

  it('says "no" only when files exist, were read, and none lists the server', async () => {
    const root = tempDir();
    writeFiles(root, { '.mcp.json': '{ "mcpServers": {} }', '.vscode/mcp.json': '{ "servers": {}, "inputs": [] }' });
    const detection = await detectMcpConfig(root, undefined);
    expect(detection.warnings).toEqual([]);
    expect(mcpServerStatus('postgres', detection).configured).toBe('no');
  });

  it('warns about a file whose servers are missing, under the other kind of file\'s key, or not an object; then says "unknown"', async () => {
    const cases: [string, string, string][] = [
      ['.vscode/mcp.json', '{ "mcpServers": { "github": {} } }', 'ignored: it lists servers under "mcpServers", but this file\'s servers go under "servers" (expected {"servers": {"<name>": {…settings}}})'],
      ['.mcp.json', '{ "servers": { "github": {} } }', 'ignored: it lists servers under "servers", but this file\'s servers go under "mcpServers" (expected {"mcpServers": {"<name>": {…settings}}})'],
      ['.mcp.json', '{ "mcpServers": [] }', 'ignored: "mcpServers" is a list, not an object of servers (expected {"mcpServers": {"<name>": {…settings}}})'],
      ['.copilot/mcp-config.json', '{ "mcpServers": ["github"] }', 'ignored: "mcpServers" is a list, not an object of servers (expected {"mcpServers": {"<name>": {…settings}}})'],
      ['.mcp.json', '{}', 'ignored: it has no "mcpServers" (expected {"mcpServers": {"<name>": {…settings}}})'],
      ['.ai-team/mcp-config.json', '{ "tools": [] }', 'ignored: it has no "mcpServers" or "servers" (expected {"mcpServers": {"<name>": {…settings}}}, or a list of names)'],
      ['.ai-team/mcp-config.json', '{ "servers": "github" }', 'ignored: "servers" is a string, not an object or a list of servers (expected {"mcpServers": {"<name>": {…settings}}}, or a list of names)'],
    ];
    for (const [file, text, warning] of cases) {
      const root = tempDir();
      writeFiles(root, { [file]: text, ...(file === '.mcp.json' ? {} : { '.mcp.json': '{ "mcpServers": { "other": {} } }' }) });
      const detection = await detectMcpConfig(root, undefined);
      expect(detection.warnings, `${file}: ${text}`).toEqual([`MCP configuration ${file} ${warning}`]);
      expect(detection.sources.find((s) => s.path === file)).toMatchObject({ exists: true, servers: [] });
      expect(mcpServerStatus('github', detection).configured, `${file}: ${text}`).toBe('unknown');
    }
  });

  it('does not count a server whose entry is not an object of settings (a warning), and then says "unknown" for the rest', async () => {
    const root = tempDir();
    writeFiles(root, {
      '.mcp.json': '{ "mcpServers": { "github": 5, "postgres": null, "filesystem": {} } }',
      '.ai-team/mcp-config.json': '{ "servers": ["sentry", 7, { "nom": "x" }] }',
    });
    const detection = await detectMcpConfig(root, undefined);
    expect(detection.warnings).toEqual([
      'MCP configuration .mcp.json: server "github" is a number, not an object of settings: it does not count as configured',
      'MCP configuration .mcp.json: server "postgres" is null, not an object of settings: it does not count as configured',
      'MCP configuration .ai-team/mcp-config.json: entry 2 of "servers" is a number, neither a name nor {"name": …}: ignored',
      'MCP configuration .ai-team/mcp-config.json: entry 3 of "servers" is an object, neither a name nor {"name": …}: ignored',
    ]);
    expect(detection.sources.find((s) => s.path === '.mcp.json')?.servers).toEqual(['filesystem']);
    expect(mcpServerStatus('filesystem', detection).configured).toBe('yes');
    expect(mcpServerStatus('sentry', detection).configured).toBe('yes');
    expect(mcpServerStatus('github', detection)).toEqual({ configured: 'unknown', configuredIn: [] });
    expect(mcpServerStatus('redis', detection).configured).toBe('unknown');
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
    expect(rows.map((r) => [r.skill, r.server, r.required, r.purpose, r.configured])).toEqual([
      ['api', 'postgres', true, 'queries', 'unknown'],
      ['db', 'ado', false, 'work items', 'unknown'],
      ['db', 'postgres', true, 'schema', 'unknown'],
    ]);
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

  it('flags required servers no checked file lists at the top of the block, without claiming they are certainly missing', async () => {
    const detection: McpConfigDetection = {
      sources: [
        { path: '.vscode/mcp.json', exists: true, servers: ['ado'] },
        { path: '.mcp.json', exists: false, servers: [] },
      ],
      warnings: [],
    };
    const rows = collectMcpRequirements(skills, detection);
    expect(missingRequiredServers(rows).map((r) => `${r.skill}/${r.server}`)).toEqual(['api/postgres', 'db/postgres']);
    const block = await renderMcpBlock(rows, detection);
    const lines = block.split('\n');
    expect(lines[0]).toMatch(/^⚠ REQUIRED MCP SERVER NOT IN THE CONFIGURATION FILES: postgres \(needed by api\); postgres \(needed by db\): /);
    expect(lines[0]).toContain('not listed in any MCP configuration file checked (checked: .vscode/mcp.json, .mcp.json; found: .vscode/mcp.json)');
    expect(lines[0]).toContain("VS Code user settings or profiles and from the coding agent's repository settings");
    expect(lines[0]).toContain('if your tools do not include it, STOP and tell the coordinator.');
    expect(block).not.toMatch(/NOT CONFIGURED|certainly/);
    expect(block).toContain('| Skill | MCP Server | Required? | Purpose | Configured? |');
    expect(block).toContain('| db | ado | No | work items (if unavailable: "skip linking") | yes |');
    expect(block).toContain('| db | postgres | Yes | schema | no |');
    expect(block).toContain('If a required server is unavailable, STOP and tell the coordinator');
    expect(block).toContain('If an optional server is unavailable, proceed without it');
  });

  it('renders nothing without requirements, and no flag when nothing is certain', async () => {
    expect(await renderMcpBlock([])).toBe('');
    const block = await renderMcpBlock(collectMcpRequirements(skills));
    expect(block.startsWith('MCP TOOL REQUIREMENTS:')).toBe(true);
  });

  it('keeps table cells on one line with pipes escaped', async () => {
    const rows = collectMcpRequirements([
      { name: 's', mcpServers: [{ name: 'x|y', reason: 'a | b\nc', optional: true, fallback: 'f|g' }] },
    ]);
    const block = await renderMcpBlock(rows);
    expect(block).toContain('| s | x\\|y | No | a \\| b c (if unavailable: "f\\|g") | unknown |');
  });
});
