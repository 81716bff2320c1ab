/**
 * `init --mcp`: the squad's MCP server registered for the hosts picked, running the repository's
 * own install (refused with the fix where there is none); merged into existing configuration
 * without losing a comment or touching an entry; a file that cannot take it safely refused before
 * anything is written; the next steps name the files to commit and the Copilot CLI's trust step.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectMcpConfig } from '../../src/core/skills/mcp.js';
import { packageVersion } from '../../src/core/fs/version.js';
import { squadPaths } from '../../src/core/base/paths.js';
import { CLOUD_AGENT_TOOLS } from '../../src/core/scaffold/mcp-register.js';
import { cleanupTempDirs, hashTree, runCli, runOk, tempRepo, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

const VERSION = packageVersion();
const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

/** create-squad installed in the repository as npm leaves it: the executable it links and the package's manifest. */
function installLocally(root: string, version = VERSION): string {
  writeFiles(root, {
    'node_modules/.bin/create-squad': '#!/bin/sh\n',
    'node_modules/create-squad/package.json': `${JSON.stringify({ name: 'create-squad', version })}\n`,
  });
  return root;
}

/** What every host runs: the repository's install, never a download. */
const RUNS = ['--no-install', 'create-squad', 'mcp'];

interface McpJson {
  mcp: {
    version?: string;
    install: string;
    command: string;
    registrations: { host: string; status: string; path?: string; name: string; entry: Record<string, unknown> }[];
  };
  created: string[];
  changes: { created: string[]; replaced: string[] };
  commit: string[];
}

describe('init --mcp', () => {
  it("writes the entry for VS Code and the Copilot CLI, running the repository's install, and gives the cloud agent's to paste", async () => {
    const root = installLocally(tempRepo());
    const result = await runOk(root, ['init', '--yes', '--mcp', '--json']);
    const data = result.data<McpJson>();
    expect([data.mcp.version, data.mcp.install, data.mcp.command]).toEqual([VERSION, 'installed', 'npx --no-install create-squad mcp']);
    expect(data.mcp.registrations.map((r) => [r.host, r.status, r.path])).toEqual([
      ['copilot-cli', 'added', '.mcp.json'],
      ['vscode', 'added', '.vscode/mcp.json'],
      ['cloud-agent', 'manual', undefined],
    ]);
    expect(JSON.parse(read(root, '.vscode/mcp.json'))).toEqual({
      servers: { squad: { type: 'stdio', command: 'npx', args: ['--prefix', '${workspaceFolder}', ...RUNS, '--cwd', '${workspaceFolder}'] } },
    });
    expect(JSON.parse(read(root, '.mcp.json'))).toEqual({
      mcpServers: { squad: { type: 'local', command: 'npx', args: RUNS, tools: ['*'] } },
    });
    expect(data.mcp.registrations[2]!.entry).toEqual({ type: 'local', command: 'npx', args: RUNS, tools: [...CLOUD_AGENT_TOOLS] });
    // What each host reads, by create-squad's own table of hosts, now lists the server.
    const detection = await detectMcpConfig({ root });
    expect(detection.warnings).toEqual([]);
    expect(detection.sources.filter((s) => s.servers.includes('squad')).map((s) => s.path)).toEqual(['.mcp.json', '.vscode/mcp.json']);

    const again = await runOk(root, ['init', '--mcp']);
    expect(again.stdout).toContain('= .mcp.json: "squad" already runs create-squad mcp; left as it is');
    expect(again.stdout).toContain('paste {"mcpServers": {"squad": …}} there');
  });

  it('merges into a JSONC file with comments and trailing commas, changing nothing else', async () => {
    const root = installLocally(tempRepo());
    const original =
      '{\n  // servers I use\n  "servers": {\n    "github": { "type": "http", "url": "https://example.invalid/mcp" }, // keep this\n    /* and this */\n  },\n  "inputs": [],\n}\n';
    writeFiles(root, { '.vscode/mcp.json': original });
    await runOk(root, ['init', '--yes', '--mcp', 'vscode']);
    const merged = read(root, '.vscode/mcp.json');
    // Every line of the file is still there, in order; only the entry's lines were added.
    const lines = merged.split('\n');
    let at = 0;
    for (const line of original.split('\n')) {
      const found = lines.indexOf(line.replace(/, \/\/ keep this$/, ','), at);
      expect(found, line).toBeGreaterThanOrEqual(at);
      at = found;
    }
    expect(merged).toContain('// servers I use');
    expect(merged).toContain('// keep this');
    expect(merged).toContain('/* and this */');
    expect(merged).toContain('    "github": { "type": "http", "url": "https://example.invalid/mcp" },');
    expect(fs.existsSync(path.join(root, '.mcp.json'))).toBe(false);
    const detection = await detectMcpConfig({ root });
    expect(detection.sources.find((s) => s.path === '.vscode/mcp.json')!.servers).toEqual(['github', 'squad']);
  });

  it('never touches an existing entry: one named squad, or one that already runs create-squad mcp', async () => {
    const root = tempRepo();
    writeFiles(root, {
      '.vscode/mcp.json': '{ "servers": { "Squad": { "command": "my-own-server" } } }\n',
      '.mcp.json': '{\n  "mcpServers": {\n    "team": { "command": "npx", "args": ["--no-install", "create-squad", "mcp"] }\n  }\n}\n',
    });
    const before = hashTree(root);
    const data = (await runOk(root, ['init', '--yes', '--mcp', 'vscode,copilot-cli', '--json'])).data<McpJson>();
    expect(data.mcp.registrations.map((r) => [r.status, r.name])).toEqual([
      ['kept', 'team'],
      ['kept', 'Squad'],
    ]);
    expect(read(root, '.vscode/mcp.json')).toBe('{ "servers": { "Squad": { "command": "my-own-server" } } }\n');
    expect(read(root, '.mcp.json')).toContain('"team"');
    expect(hashTree(root)).not.toBe(before); // the squad itself was written
  });

  it('refuses a file it cannot merge safely, before anything is written, saying what to do', async () => {
    const cases: [Record<string, string | Buffer>, string][] = [
      [{ '.mcp.json': '{\n  // a comment\n  "mcpServers": {}\n}\n' }, 'reads only plain JSON'],
      [{ '.mcp.json': '{ "github": { "command": "gh-mcp" } }\n' }, 'its servers are at the top level'],
      [{ '.vscode/mcp.json': '{ "servers": [] }\n' }, '"servers" is a list, not an object'],
      [{ '.vscode/mcp.json': '{ "servers": { \n' }, 'it is not valid JSON'],
    ];
    for (const [files, message] of cases) {
      const root = tempRepo();
      writeFiles(root, files);
      const before = hashTree(root);
      const result = await runCli(['init', '--yes', '--mcp'], { cwd: root });
      expect(result.code, message).toBe(1);
      expect(result.stderr).toContain("cannot add the squad's MCP server to");
      expect(result.stderr).toContain(message);
      expect(result.stderr).toContain(' — ');
      expect(hashTree(root)).toBe(before);
      expect(fs.existsSync(path.join(root, squadPaths.root))).toBe(false);
    }
    const linked = tempRepo();
    fs.mkdirSync(path.join(linked, '.vscode'));
    fs.symlinkSync('/etc/hostname', path.join(linked, '.vscode/mcp.json'));
    const result = await runCli(['init', '--yes', '--mcp', 'vscode'], { cwd: linked });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('.vscode/mcp.json is a symlink');
  });

  it('--dry-run writes nothing; an unknown host is a usage error', async () => {
    const root = installLocally(tempRepo());
    const before = hashTree(root);
    const dry = await runOk(root, ['init', '--yes', '--mcp', 'vscode', '--dry-run']);
    expect(dry.stdout).toContain('+ .vscode/mcp.json created for VS Code'.replace('created', 'would be created'));
    expect(hashTree(root)).toBe(before);
    const bad = await runCli(['init', '--yes', '--mcp', 'emacs'], { cwd: root });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--mcp: unknown host "emacs"');
    expect(hashTree(root)).toBe(before);
  });

  it('refuses, with the fix and before anything is written, where create-squad is not installed: the entry could not start', async () => {
    const root = tempRepo();
    // A dangling link where npm puts the executable starts nothing either.
    fs.mkdirSync(path.join(root, 'node_modules/.bin'), { recursive: true });
    fs.symlinkSync('../create-squad/bin/create-squad.cjs', path.join(root, 'node_modules/.bin/create-squad'));
    writeFiles(root, { 'package.json': '{ "name": "app", "devDependencies": { "create-squad-extras": "1.0.0" } }\n' });
    const before = hashTree(root);
    for (const hosts of ['all', 'cli', 'vscode', 'cloud-agent']) {
      const result = await runCli(['init', '--yes', '--mcp', hosts], { cwd: root });
      expect(result.code, hosts).toBe(1);
      expect(result.stderr).toContain('create-squad is not installed in this repository, so the MCP server "squad" would not start');
      expect(result.stderr).toContain('npm install -D create-squad, then run init --mcp again');
      expect(hashTree(root)).toBe(before);
    }
    const json = await runCli(['init', '--yes', '--mcp', '--json'], { cwd: root });
    expect(json.error()).toMatchObject({ code: 'not-found', hint: 'npm install -D create-squad, then run init --mcp again' });
    expect(fs.existsSync(path.join(root, squadPaths.root))).toBe(false);
  });

  it('runs the install package.json asks for (npm install brings it), says so, and names the files to commit and the trust step', async () => {
    const root = tempRepo();
    writeFiles(root, { 'package.json': '{ "name": "app", "devDependencies": { "create-squad": "^0.1.0" } }\n' });
    const text = await runOk(root, ['init', '--yes', '--mcp', 'cli,vscode']);
    expect(text.stdout).toContain('MCP server (create-squad ^0.1.0 from package.json, once installed: npx --no-install create-squad mcp):');
    const steps = text.stdout.slice(text.stdout.indexOf('Next steps:'));
    expect(steps).toMatch(/^Next steps:\n {2}1\. Commit the squad: git add -A -- .*\.mcp\.json .*\.vscode\/mcp\.json/);
    expect(steps).toContain('\n     .mcp.json and .vscode/mcp.json are in this commit: a clone gets the server once its dependencies are installed\n');
    expect(steps).toContain('\n     Copilot CLI: it reads .mcp.json only in a folder you trust; say yes when copilot asks whether you trust this folder\n');
    expect(steps).toContain('\n     Run npm install first: package.json asks for create-squad, and the server runs that install\n');
    expect(steps).toContain('\n     Check that the server starts: npx --no-install create-squad doctor\n  2. In GitHub Copilot');

    // Installed, the report names the version the entries run; VS Code alone has no trust step.
    const installed = installLocally(tempRepo(), '3.1.4');
    const data = (await runOk(installed, ['init', '--yes', '--mcp', 'vscode', '--json'])).data<McpJson>();
    expect([data.mcp.version, data.mcp.install]).toEqual(['3.1.4', 'installed']);
    const vscodeOnly = await runOk(installLocally(tempRepo(), '3.1.4'), ['init', '--yes', '--mcp', 'vscode']);
    expect(vscodeOnly.stdout).toContain("MCP server (the repository's create-squad 3.1.4: npx --no-install create-squad mcp):");
    expect(vscodeOnly.stdout).toContain('     .vscode/mcp.json is in this commit');
    expect(vscodeOnly.stdout).not.toContain('Copilot CLI: it reads');
    expect(vscodeOnly.stdout).not.toContain('Run npm install first');
  });

  it('on a complete squad, reports the files it writes: never "Nothing to do", the commit hint names them, the dry run lists them', async () => {
    const squad = installLocally(tempRepo());
    await runOk(squad, ['init', '--yes']);
    writeFiles(squad, { '.mcp.json': '{\n  "mcpServers": {}\n}\n' });
    const before = hashTree(squad);
    const dry = (await runOk(squad, ['init', '--mcp', 'vscode,cli', '--dry-run', '--json'])).data<McpJson>();
    expect(hashTree(squad)).toBe(before);
    const dryText = await runOk(squad, ['init', '--mcp', 'vscode,cli', '--dry-run']);
    expect(dryText.stdout).not.toContain('Nothing to do');
    expect(dryText.stdout).toContain('Dry run: nothing was written.');

    const text = await runOk(squad, ['init', '--mcp', 'vscode,cli']);
    expect(text.stdout).not.toContain('Nothing to do');
    expect(text.stdout).toMatch(/^✓ The squad is already complete in /);
    expect(text.stdout).toContain(`  Commit it: git add -A -- .mcp.json .vscode/mcp.json && git commit -m "chore(squad): register the squad's MCP server"\n`);
    expect(text.stdout).toContain('\n    .mcp.json and .vscode/mcp.json are in this commit: a clone gets the server once its dependencies are installed\n');
    expect(text.stdout).toContain('\n    Copilot CLI: it reads .mcp.json only in a folder you trust;');

    // What the real run wrote is what its JSON would have said, and what the dry run listed.
    const copy = installLocally(tempRepo());
    await runOk(copy, ['init', '--yes']);
    writeFiles(copy, { '.mcp.json': '{\n  "mcpServers": {}\n}\n' });
    const real = (await runOk(copy, ['init', '--mcp', 'vscode,cli', '--json'])).data<McpJson>();
    expect(real.changes).toMatchObject({ created: ['.vscode/mcp.json'], replaced: ['.mcp.json'] });
    expect(real.commit).toEqual(['.mcp.json', '.vscode/mcp.json']);
    expect(real.created).toEqual([]);
    expect(dry.changes).toEqual(real.changes);
    expect(dry.commit).toEqual(real.commit);

    const again = await runOk(squad, ['init', '--mcp', 'vscode,cli']);
    expect(again.stdout).toMatch(/^✓ Nothing to do: the squad is already complete/);
    expect(again.stdout).not.toContain('git add');
  });
});
