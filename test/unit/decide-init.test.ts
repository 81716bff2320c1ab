/**
 * init: read once, then decide without the disk. decideInit (and the deciders it calls for the
 * project context and the MCP server) run with node:fs switched off on what readInitState read,
 * and plan what the whole command writes: its `--json` changes and commit paths are the plan's,
 * and the files on disk afterwards hold what the plan's changes hold.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { InitData } from '../../src/commands/init.js';
import { changeReport } from '../../src/commands/pipeline.js';
import { charterPath, squadPaths } from '../../src/core/base/paths.js';
import type { Change } from '../../src/core/base/plan.js';
import { decideContextChange } from '../../src/core/scaffold/context-plan.js';
import { decideInit } from '../../src/core/scaffold/init-plan.js';
import { readInitState, readMcpRegistrationState } from '../../src/core/scaffold/init-state.js';
import { decideMcpRegistration, type LocalInstall, type McpFiles } from '../../src/core/scaffold/mcp-register.js';
import { readContextState } from '../../src/core/scaffold/project-context.js';
import { cleanupTempDirs, runOk, tempDir, tempRepo, writeFiles } from '../helpers/cli.js';
import { sharedInitSquad as initSquad } from '../helpers/shared-init.js';
import { withoutFileSystem, withoutFileSystemAsync } from '../helpers/no-fs.js';

afterAll(cleanupTempDirs);

const now = new Date('2026-01-02T03:04:05Z');
const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

/** Two copies of one repository: one to decide on, one for the whole command. */
function twins(root: string): [string, string] {
  const copy = tempDir('squad-copy-');
  fs.cpSync(root, copy, { recursive: true, verbatimSymlinks: true });
  return [root, copy];
}

/** The content a created or replaced file holds after the change (casting events carry the time of the run). */
function contentOf(change: Change): string | undefined {
  if (change.kind !== 'create' && change.kind !== 'replace' && change.kind !== 'backup') return undefined;
  return String(change.content);
}

const TIMED = new Set<string>([squadPaths.castingHistory]);

describe('decideInit', () => {
  it('plans a new squad and its MCP files with node:fs off, exactly as the whole command writes them', async () => {
    const [decided, ran] = twins(tempRepo());
    // create-squad installed in the repository, which the entries run.
    const files = { 'go.mod': 'module example.com/x\n', '.mcp.json': '{\n  "mcpServers": {}\n}\n', 'node_modules/.bin/create-squad': '#!/bin/sh\n' };
    writeFiles(decided, files);
    writeFiles(ran, files);
    const input = { scaffold: { team: true }, context: {}, mcpHosts: ['copilot-cli', 'vscode'] as const, now };
    const state = await readInitState(decided, { detectStack: true, mcpHosts: input.mcpHosts });
    await decideInit(state, input); // templates compile once per process, as in the command's own run
    const plan = await withoutFileSystemAsync(() => decideInit(state, input));

    const data = (await runOk(ran, ['init', '--yes', '--mcp', 'cli,vscode', '--json'])).data<InitData>();
    expect(changeReport(plan, false)).toEqual({ changes: data.changes, commit: data.commit, dryRun: false });
    expect(plan.notes).toEqual(data.notes);
    expect(plan.notes[0]).toBe('stack read from go.mod: Go (give another with --stack)');
    for (const change of plan.changes) {
      const path = change.kind === 'move' ? change.to : change.path;
      if (!TIMED.has(path)) expect(read(ran, path), path).toBe(contentOf(change));
    }
    // The MCP files come last, the existing one replaced over what was read.
    expect(plan.changes.slice(-2).map((c) => [c.kind, c.kind === 'move' ? c.to : c.path])).toEqual([
      ['replace', '.mcp.json'],
      ['create', '.vscode/mcp.json'],
    ]);
    expect(plan.mcp?.registrations.map((r) => r.status)).toEqual(['added', 'added']);
  });

  it('plans the context change of an existing squad after its scaffold, and nothing else when the squad is complete', async () => {
    const [decided, ran] = twins(await initSquad(['--yes', '--project', 'A shop']));
    const input = { scaffold: { team: true, project: 'A bakery' }, context: { project: 'A bakery' }, now };
    const state = await readInitState(decided, { detectStack: true });
    const plan = await withoutFileSystemAsync(() => decideInit(state, input));
    expect(plan.scaffold.files).toEqual([]);
    expect(plan.changes.map((c) => c.kind)).toEqual(['backup', 'replace', 'replace', 'replace', 'replace']);

    const data = (await runOk(ran, ['init', '--project', 'A bakery', '--json'])).data<InitData>();
    expect(data.context?.updated).toEqual(plan.changes.flatMap((c) => (c.kind === 'replace' ? [c.path] : [])));
    expect(data.changes.replaced).toEqual(changeReport(plan, false).changes.replaced);
    for (const change of plan.changes) if (change.kind === 'replace') expect(read(ran, change.path), change.path).toBe(change.content);
  });
});

describe('decideContextChange', () => {
  it('backs team.md up only when no backup holds it already (a rerun after a kill after the backup)', async () => {
    const root = await initSquad(['--yes', '--project', 'A shop']);
    const team = read(root, squadPaths.team);
    const fresh = readContextState(root, team);
    const first = withoutFileSystem(() => decideContextChange(fresh, { project: 'A bakery' }, now))!;
    expect(first.changes[0]).toMatchObject({ kind: 'backup', of: squadPaths.team, content: team });

    // The killed run wrote its backup (and nothing more): the rerun reads it and makes no second one.
    const backup = first.changes[0]!;
    writeFiles(root, { [backup.kind === 'move' ? backup.to : backup.path]: team });
    const after = readContextState(root, team);
    const rerun = withoutFileSystem(() => decideContextChange(after, { project: 'A bakery' }, new Date('2026-01-03T00:00:00Z')))!;
    expect(rerun.changes.map((c) => c.kind)).toEqual(['replace', 'replace', 'replace', 'replace']);
    expect(rerun.backup).toBe(first.backup);
  });

  it('leaves a charter line changed by hand, names it, and plans nothing when every field already holds its value', async () => {
    const root = await initSquad(['--yes', '--stack', 'Go']);
    writeFiles(root, { [charterPath('fenster')]: read(root, charterPath('fenster')).replace('- **Stack:** Go', '- **Stack:** Go, gRPC') });
    const state = readContextState(root, read(root, squadPaths.team));
    const plan = withoutFileSystem(() => decideContextChange(state, { stack: 'Rust' }, now))!;
    expect(plan.charters).toEqual([charterPath('keaton'), charterPath('hockney')]);
    expect(plan.notes).toEqual([`${charterPath('fenster')}: its "Stack" line was changed by hand; it was left as it is`]);
    expect(withoutFileSystem(() => decideContextChange(state, { stack: 'Go' }, now))).toBeUndefined();
  });
});

describe('decideMcpRegistration', () => {
  it('inserts the entry into a file with comments, keeps an existing one, and refuses what it cannot merge, all off disk', () => {
    const root = tempRepo();
    writeFiles(root, {
      '.vscode/mcp.json': '{\n  // mine\n  "servers": {\n    "github": { "type": "http", "url": "https://example.invalid/mcp" },\n  },\n}\n',
      '.mcp.json': '{ "mcpServers": { "team": { "command": "npx", "args": ["create-squad", "mcp"] } } }\n',
    });
    writeFiles(root, { 'package.json': '{ "devDependencies": { "create-squad": "^9.9.0" } }\n' });
    const state = readMcpRegistrationState(root, ['copilot-cli', 'vscode']);
    expect(state.install).toEqual({ bin: undefined, version: undefined, declared: { field: 'devDependencies', range: '^9.9.0' } });
    const plan = withoutFileSystem(() => decideMcpRegistration(state, ['copilot-cli', 'vscode', 'cloud-agent']));
    expect([plan.install, plan.version]).toEqual(['declared', '^9.9.0']);
    expect(plan.registrations.map((r) => [r.host, r.status])).toEqual([
      ['copilot-cli', 'kept'],
      ['vscode', 'added'],
      ['cloud-agent', 'manual'],
    ]);
    expect(plan.changes).toHaveLength(1);
    const [change] = plan.changes;
    expect(change).toMatchObject({ kind: 'replace', path: '.vscode/mcp.json', base: read(root, '.vscode/mcp.json') });
    expect(String(change!.kind === 'replace' ? change!.content : '')).toContain('// mine');

    const refused: McpFiles = new Map([
      ['.mcp.json', { problem: undefined, exists: true, text: { error: new Error('too large') } }],
      ['.vscode/mcp.json', { problem: '.vscode/mcp.json is a symlink', exists: true, text: { value: undefined } }],
    ]);
    const installed: LocalInstall = { bin: 'node_modules/.bin/create-squad', version: '9.9.9', declared: undefined };
    expect(() => withoutFileSystem(() => decideMcpRegistration({ files: refused, install: installed }, ['copilot-cli']))).toThrow(/\.mcp\.json: it is larger than 1 MB/);
    expect(() => withoutFileSystem(() => decideMcpRegistration({ files: refused, install: installed }, ['vscode']))).toThrow(/\.vscode\/mcp\.json is a symlink/);
    // A file the read step did not read is its bug, said loudly, never a silent read.
    expect(() => withoutFileSystem(() => decideMcpRegistration({ files: new Map(), install: installed }, ['vscode']))).toThrow(/the read step did not read \.vscode\/mcp\.json/);
  });

  it('refuses an entry that could not start: no create-squad in node_modules/.bin or package.json; an entry already there needs none', () => {
    const none: LocalInstall = { bin: undefined, version: undefined, declared: undefined };
    const empty: McpFiles = new Map([['.mcp.json', { problem: undefined, exists: false, text: { value: undefined } }]]);
    expect(() => withoutFileSystem(() => decideMcpRegistration({ files: empty, install: none }, ['copilot-cli']))).toThrow(
      'create-squad is not installed in this repository, so the MCP server "squad" would not start',
    );
    expect(() => withoutFileSystem(() => decideMcpRegistration({ files: new Map(), install: none }, ['cloud-agent']))).toThrow(/would not start/);
    const kept: McpFiles = new Map([['.mcp.json', { problem: undefined, exists: true, text: { value: '{ "mcpServers": { "squad": { "command": "my-server" } } }' } }]]);
    const plan = withoutFileSystem(() => decideMcpRegistration({ files: kept, install: none }, ['copilot-cli']));
    expect([plan.install, plan.changes, plan.registrations.map((r) => r.status)]).toEqual(['missing', [], ['kept']]);
  });
});
