/**
 * `doctor` starts each `squad` MCP server the repository registers and completes the MCP
 * handshake: a registered command that starts passes, one that does not is a finding with the
 * fix, an entry that runs another program is never started, and what `init --mcp` registers over
 * the repository's install starts. The servers are real processes (the built CLI, a broken
 * install), so this file takes a few seconds; nothing in it is timed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnose } from '../../src/core/doctor/doctor.js';
import { readDoctorState } from '../../src/core/doctor/read.js';
import { BIN, cleanupTempDirs, initSquad, runCli, runOk, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

interface DoctorJson {
  findings: { severity: string; code: string; message: string; fix: string; path?: string }[];
}

const NOT_STARTING = 'mcp-server-not-starting';
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

// Each test works in a squad of its own, and most of their time is servers starting (real processes):
// the tests run side by side. The squad they copy is made once, before them.
describe.concurrent('doctor and the registered squad server', () => {
  beforeAll(async () => {
    await initSquad();
  });

  it("starts each registered server that runs create-squad and completes the handshake: the repository's own built CLI", async () => {
    const root = await initSquad();
    writeFiles(root, {
      '.mcp.json': json({ mcpServers: { squad: { type: 'local', command: process.execPath, args: [BIN, 'mcp'], tools: ['*'] } } }),
      '.vscode/mcp.json': json({ servers: { squad: { type: 'stdio', command: process.execPath, args: [BIN, 'mcp', '--cwd', '${workspaceFolder}'] } } }),
    });
    const state = await readDoctorState(root);
    expect(state.mcp.servers.map(({ path, hosts, name, failure }) => ({ path, hosts, name, failure }))).toEqual([
      { path: '.mcp.json', hosts: ['copilot-cli'], name: 'squad', failure: undefined },
      { path: '.vscode/mcp.json', hosts: ['vscode'], name: 'squad', failure: undefined },
    ]);
    for (const server of state.mcp.servers) expect(server.tools).toBeGreaterThan(0);
    expect(diagnose(state).findings.filter((f) => f.code === NOT_STARTING)).toEqual([]);
  });

  it('reports a registered server that does not start, with what it said and the fix; never runs a create-squad the repository brings', async () => {
    const root = await initSquad();
    writeFiles(root, {
      // A create-squad the repository brings in its node_modules/ (a cloned repository may), and a
      // path to create-squad's executable that is not there.
      'node_modules/.bin/create-squad': '#!/bin/sh\ntouch ran-by-doctor\nexit 3\n',
      '.mcp.json': json({ mcpServers: { squad: { type: 'local', command: 'node_modules/.bin/create-squad', args: ['mcp'], tools: ['*'] } } }),
      '.vscode/mcp.json': json({
        servers: { squad: { type: 'stdio', command: process.execPath, args: ['${workspaceFolder}/node_modules/create-squad/bin/create-squad.cjs', 'mcp'] } },
      }),
    });
    fs.chmodSync(path.join(root, 'node_modules/.bin/create-squad'), 0o755);
    const result = await runCli(['doctor', '--json'], { cwd: root });
    expect(result.code).toBe(0); // warnings: the squad works without the server, the coordinator falls back to the CLI
    expect(fs.existsSync(path.join(root, 'ran-by-doctor'))).toBe(false);
    const findings = result.data<DoctorJson>().findings;
    expect(findings.filter((f) => f.code === 'mcp-server-not-checked').map((f) => [f.severity, f.path, f.message])).toEqual([
      [
        'warning',
        '.mcp.json',
        'the MCP server "squad" that .mcp.json registers for the Copilot CLI was not started (node_modules/.bin/create-squad mcp): it runs node_modules/.bin/create-squad, not the create-squad running doctor; doctor never runs code a repository brings',
      ],
    ]);
    const found = findings.filter((f) => f.code === NOT_STARTING);
    expect(found.map((f) => [f.severity, f.path])).toEqual([['warning', '.vscode/mcp.json']]);
    expect(found[0]!.message).toMatch(
      /^the MCP server "squad" that \.vscode\/mcp\.json registers for VS Code does not start \(.+ \$\{workspaceFolder\}\/node_modules\/create-squad\/bin\/create-squad\.cjs mcp\): it exited \(code 1\) without answering; it said: /,
    );
    expect(found[0]!.fix).toBe(
      'install create-squad in the repository (npm install -D create-squad, or npm install when package.json lists it); if it is installed, run that command in the repository to see why it stops, or remove the entry and run "create-squad init --mcp" to register the repository\'s install',
    );

    // A program that is not there at all: said as the spawn failed.
    fs.rmSync(path.join(root, 'node_modules'), { recursive: true });
    fs.rmSync(path.join(root, '.vscode/mcp.json'));
    const missing = (await runOk(root, ['doctor', '--json'])).data<DoctorJson>().findings.filter((f) => f.code === NOT_STARTING);
    expect(missing.map((f) => f.message)).toEqual([
      'the MCP server "squad" that .mcp.json registers for the Copilot CLI does not start (node_modules/.bin/create-squad mcp): cannot run node_modules/.bin/create-squad: ENOENT',
    ]);
  });

  it('never starts an entry that runs another program, and starts nothing where none is registered', async () => {
    const root = await initSquad();
    expect((await readDoctorState(root)).mcp.servers).toEqual([]);
    writeFiles(root, {
      '.mcp.json': json({
        mcpServers: {
          // Named squad, but its own program; and programs that only mention create-squad and mcp.
          squad: { command: 'sh', args: ['-c', 'echo started > started-1'] },
          team: { command: 'sh', args: ['-c', 'echo started > started-2', 'create-squad', 'mcp'] },
          other: { command: 'npx', args: ['--package', 'some-other-package', 'create-squad', 'mcp'] },
        },
      }),
      '.vscode/mcp.json': json({ servers: { squad: { type: 'stdio', command: 'npx', args: ['--no-install', 'create-squad', 'mcp'], env: { TOKEN: '${input:token}' } } } }),
    });
    const state = await readDoctorState(root);
    expect(state.mcp.servers).toEqual([]);
    expect(fs.existsSync(path.join(root, 'started-1'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'started-2'))).toBe(false);
    expect(diagnose(state).findings.filter((f) => f.code === NOT_STARTING)).toEqual([]);
  });

  it('what init --mcp registers over the repository install starts: npx finds it, for both hosts', async () => {
    const root = await initSquad();
    // The repository's install, as npm links it: node_modules/.bin/create-squad is create-squad's executable.
    fs.mkdirSync(path.join(root, 'node_modules/.bin'), { recursive: true });
    fs.symlinkSync(BIN, path.join(root, 'node_modules/.bin/create-squad'));
    await runOk(root, ['init', '--mcp', 'cli,vscode']);
    const state = await readDoctorState(root);
    expect(state.mcp.servers.map(({ path, commandLine, failure }) => ({ path, commandLine, failure }))).toEqual([
      { path: '.mcp.json', commandLine: 'npx --no-install create-squad mcp', failure: undefined },
      { path: '.vscode/mcp.json', commandLine: 'npx --prefix ${workspaceFolder} --no-install create-squad mcp --cwd ${workspaceFolder}', failure: undefined },
    ]);
  });
});
