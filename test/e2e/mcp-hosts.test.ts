/**
 * MCP servers per Copilot host, end to end: `doctor` says which host has a required server and
 * how to give it to the others, and names files no host reads. With CREATE_SQUAD_COPILOT_CLI set
 * to a `copilot` executable (the real Copilot CLI, installed outside this repository), the last
 * test checks that `copilot mcp list --json` finds the same servers create-squad reports for it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/doctor/catalog.js';
import { detectMcpConfig, mcpServerHosts } from '../../src/core/skills/mcp.js';
import { cleanupTempDirs, runCli, skillMd, tempDir, tempRepo, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

const LOCAL = '{ "type": "local", "command": "x", "args": [] }';
const NEEDS = skillMd(
  'name: db\ndescription: Databases.\nmetadata:\n  mcp-servers:\n    - name: postgres\n      reason: schema\n    - name: github\n    - name: sentry\n      optional: true',
);

let pristine: string;

beforeAll(async () => {
  pristine = tempRepo();
  const init = await runCli(['init', '--yes', '--project', 'MCP hosts'], { cwd: pristine });
  if (init.code !== 0) throw new Error(init.stderr);
});

function squad(files: Record<string, string> = {}): string {
  const dir = tempDir('squad-mcp-');
  fs.cpSync(pristine, dir, { recursive: true });
  writeFiles(dir, files);
  return dir;
}

async function mcpFindings(cwd: string, env: Record<string, string | undefined> = {}): Promise<Finding[]> {
  const result = await runCli(['doctor', '--json'], { cwd, env: { HOME: tempDir('home-'), COPILOT_HOME: undefined, ...env } });
  return result.data<{ findings: Finding[] }>().findings.filter((f) => f.code.startsWith('mcp-'));
}

describe('doctor: MCP servers per host', () => {
  it('a required server no host has: one finding whose fix names what to create for each host', async () => {
    const findings = await mcpFindings(squad({ '.ai-team/skills/db/SKILL.md': NEEDS }));
    // github is built into the Copilot CLI and the cloud agent, but VS Code lacks it.
    expect(findings.map((f) => f.code)).toEqual(['mcp-host-missing', 'mcp-not-configured']);
    const [github, postgres] = findings;
    expect(postgres!.message).toBe(
      'skill db requires the MCP server "postgres" (schema), which no Copilot host has, as far as create-squad can tell: the Copilot CLI: not configured; VS Code: not configured (create-squad does not read the VS Code user profile); the cloud agent: cannot tell (create-squad cannot see the repository\'s Copilot settings on GitHub)',
    );
    expect(postgres!.fix).toContain('for the Copilot CLI, create .mcp.json at the repository root with {"mcpServers": {"postgres": {…}}}');
    expect(postgres!.fix).toContain('for VS Code, create .vscode/mcp.json with {"servers": {"postgres": {…}}}');
    expect(postgres!.fix).toContain('for the cloud agent, add "postgres" to the MCP configuration in the repository\'s Copilot settings on GitHub');
    expect(github!.message).toContain('the Copilot CLI: built in; VS Code: not configured');
    expect(github!.fix).toBe('for VS Code, create .vscode/mcp.json with {"servers": {"github": {…}}}');
  });

  it('a required server only VS Code has: the fix is for the Copilot CLI', async () => {
    const findings = await mcpFindings(squad({ '.ai-team/skills/db/SKILL.md': NEEDS, '.vscode/mcp.json': `{ "servers": { "postgres": ${LOCAL}, "github": ${LOCAL} } }` }));
    expect(findings.map((f) => f.code)).toEqual(['mcp-host-missing']);
    expect(findings[0]!.message).toContain('the Copilot CLI: not configured; VS Code: configured (.vscode/mcp.json)');
    expect(findings[0]!.fix).toMatch(/^for the Copilot CLI, create \.mcp\.json/);
    expect(findings[0]!.fix).not.toContain('VS Code');
  });

  it("nothing to say when the Copilot CLI and VS Code both have every required server (github through the CLI's built-in)", async () => {
    const dir = squad({
      '.ai-team/skills/db/SKILL.md': NEEDS,
      '.github/mcp.json': `{ "mcpServers": { "postgres": ${LOCAL} } }`,
      '.vscode/mcp.json': `{ "servers": { "postgres": ${LOCAL}, "github": ${LOCAL} } }`,
    });
    expect(await mcpFindings(dir)).toEqual([]);
  });

  it("reads the user's file in COPILOT_HOME from the command's environment", async () => {
    const copilotHome = tempDir('copilot-home-');
    writeFiles(copilotHome, { 'mcp-config.json': `{ "mcpServers": { "postgres": ${LOCAL} } }` });
    const dir = squad({ '.ai-team/skills/db/SKILL.md': NEEDS, '.vscode/mcp.json': `{ "servers": { "postgres": ${LOCAL}, "github": ${LOCAL} } }` });
    expect(await mcpFindings(dir, { COPILOT_HOME: copilotHome })).toEqual([]);
  });

  it('a repository-root .copilot/mcp-config.json counts for no host, and is named even when no skill needs a server', async () => {
    const bare = await mcpFindings(squad({ '.copilot/mcp-config.json': `{ "mcpServers": { "postgres": ${LOCAL} } }` }));
    expect(bare).toEqual([
      {
        severity: 'warning',
        code: 'mcp-config-unread',
        path: '.copilot/mcp-config.json',
        message:
          '.copilot/mcp-config.json is not MCP configuration for any Copilot host: the Copilot CLI reads mcp-config.json only in ~/.copilot (or $COPILOT_HOME), not in a repository',
        fix: 'move the servers it lists to .mcp.json at the repository root (the Copilot CLI; "mcpServers") or .vscode/mcp.json (VS Code; "servers"), then delete it',
      },
    ]);
    const needed = await mcpFindings(
      squad({
        '.ai-team/skills/db/SKILL.md': NEEDS,
        '.copilot/mcp-config.json': `{ "mcpServers": { "postgres": ${LOCAL} } }`,
        '.vscode/mcp.json': `{ "servers": { "github": ${LOCAL} } }`,
      }),
    );
    expect(needed.map((f) => f.code)).toEqual(['mcp-config-unread', 'mcp-not-configured']);
  });
});

const COPILOT = process.env.CREATE_SQUAD_COPILOT_CLI;

describe('against the real Copilot CLI', () => {
  it.skipIf(!COPILOT)('copilot mcp list --json finds the servers create-squad says the Copilot CLI has', async () => {
    const repo = tempRepo();
    const server = (name: string) => `{ "mcpServers": { "${name}": ${LOCAL} } }`;
    writeFiles(repo, {
      '.mcp.json': server('root-server'),
      '.github/mcp.json': server('shadowed-server'),
      'packages/.github/mcp.json': server('packages-server'),
      'packages/app/.mcp.json': server('app-server'),
      'packages/other/.mcp.json': server('sibling-server'),
      '.copilot/mcp-config.json': server('repo-copilot-server'),
      '.vscode/mcp.json': `{ "servers": { "vscode-server": ${LOCAL} } }`,
    });
    const home = tempDir('home-');
    const copilotHome = tempDir('copilot-home-');
    writeFiles(copilotHome, { 'mcp-config.json': server('user-server'), 'config.json': JSON.stringify({ trustedFolders: [repo] }) });
    const cwd = path.join(repo, 'packages', 'app');
    const env = { ...process.env, HOME: home, COPILOT_HOME: copilotHome };
    const listed = spawnSync(COPILOT!, ['mcp', 'list', '--json'], { cwd, env, encoding: 'utf8' });
    expect(listed.status, listed.stderr).toBe(0);
    const host = Object.keys((JSON.parse(listed.stdout) as { mcpServers: Record<string, unknown> }).mcpServers).sort();

    const detection = await detectMcpConfig({ root: repo, cwd, home, env: { COPILOT_HOME: copilotHome } });
    const names = ['root-server', 'shadowed-server', 'packages-server', 'app-server', 'sibling-server', 'repo-copilot-server', 'vscode-server', 'user-server'];
    const ours = names.filter((name) => mcpServerHosts(name, detection)['copilot-cli'].answer === 'configured').sort();
    expect(host).toEqual(ours);
    expect(ours).toEqual(['app-server', 'packages-server', 'root-server', 'user-server']);
  });
});
