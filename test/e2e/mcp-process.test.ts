/**
 * `create-squad mcp` as a real process: the built CLI over stdio with the SDK's own client, a
 * client that sends its requests and closes stdin, and the start-up bundle that must never load
 * the SDK (only the mcp command's bundle names it).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, REPO_ROOT, cleanupTempDirs, runCliProcess, tempDir, validSkill } from '../helpers/cli.js';
import { promptSquad } from '../helpers/prompt-squad.js';

afterAll(cleanupTempDirs);

const SDK = '@modelcontextprotocol/sdk';
const version = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

function processEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return { ...env, HOME: home, NO_COLOR: '1' };
}

describe('create-squad mcp over stdio', () => {
  it('serves the SDK client: initialize, tools, a call, then a clean shutdown', async () => {
    const root = promptSquad({ '.github/skills/pdf-tools/SKILL.md': validSkill('pdf-tools', 'Fill PDF forms.') });
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--cwd', root], env: processEnv(tempDir()), stderr: 'pipe' });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    expect(client.getServerVersion()).toMatchObject({ name: 'create-squad', version });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('run_skill_script');
    const result = (await client.callTool({ name: 'read_skill', arguments: { name: 'pdf-tools' } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ name: 'pdf-tools', path: 'SKILL.md' });
    const bad = (await client.callTool({ name: 'read_skill', arguments: { name: 'pdf-tools', file: '../../../etc/passwd' } })) as CallToolResult;
    expect(bad.isError).toBe(true);
    await client.close();
  });

  it('answers every request a client sent before closing stdin, writes only JSON-RPC on stdout, and exits 0', async () => {
    const root = promptSquad();
    const child = spawn(process.execPath, [BIN, 'mcp'], { cwd: root, env: processEnv(tempDir()), stdio: ['pipe', 'pipe', 'pipe'] });
    const requests = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'route', arguments: { task: 'Write tests for the checkout flow' } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_skills', arguments: { agent: 'fenster' } } },
    ];
    child.stdin.end(requests.map((r) => `${JSON.stringify(r)}\n`).join(''));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(0);
    const messages = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; result: { structuredContent?: Record<string, unknown> } })
      .sort((a, b) => a.id - b.id);
    expect(messages.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(messages[1]!.result.structuredContent).toMatchObject({ ok: true, agent: 'hockney' });
    expect(messages[2]!.result.structuredContent).toMatchObject({ agent: 'fenster' });
    expect(stderr).toContain('MCP server stopped (stdin closed)');
  });
});

describe('create-squad mcp, a hostile client', () => {
  it('answers a message over the limit and a line that is not JSON with errors, then the next request', async () => {
    const root = promptSquad();
    const child = spawn(process.execPath, [BIN, 'mcp'], { cwd: root, env: processEnv(tempDir()), stdio: ['pipe', 'pipe', 'pipe'] });
    const line = (message: unknown) => `${JSON.stringify(message)}\n`;
    child.stdin.write(
      line({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    );
    child.stdin.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    child.stdin.write(line({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'route', arguments: { task: 'x'.repeat(11 * 1024 * 1024) } } }));
    child.stdin.write('{"jsonrpc": "2.0", "id": 3,\n');
    child.stdin.end(line({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'route', arguments: { task: 'Write tests for the checkout flow' } } }));
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    const replies = stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number | null; error?: { code: number }; result?: unknown });
    expect(replies.find((r) => r.id === 2)?.error?.code).toBe(-32600);
    expect(replies.find((r) => r.id === null)?.error?.code).toBe(-32700);
    expect(replies.find((r) => r.id === 4)?.result).toBeDefined();
  });
});

describe('start-up without the SDK', () => {
  it("only the mcp command's bundle names the SDK: --version and --help never load it", () => {
    const shell = fs.readFileSync(path.join(REPO_ROOT, 'dist/cli/main.cjs'), 'utf8');
    expect(shell).not.toContain(SDK);
    expect(shell).not.toMatch(/['"]zod['"/]/);
    const bundles = fs.readdirSync(path.join(REPO_ROOT, 'dist/bundle')).filter((name) => name.endsWith('.cjs'));
    expect(bundles.length).toBeGreaterThan(10);
    const naming = bundles.filter((name) => fs.readFileSync(path.join(REPO_ROOT, 'dist/bundle', name), 'utf8').includes(SDK));
    expect(naming).toEqual(['mcp.cjs']);
    const bin = fs.readFileSync(BIN, 'utf8');
    expect(bin).not.toContain(SDK);
  });

  it('--help lists the command; mcp --help says how it is started', () => {
    const cwd = tempDir();
    expect(runCliProcess(['--help'], { cwd }).stdout).toMatch(/^\s+mcp \[options\]\s+serve the squad/m);
    const help = runCliProcess(['mcp', '--help'], { cwd });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('docs/commands.md');
  });
});
