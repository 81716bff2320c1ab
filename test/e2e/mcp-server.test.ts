/**
 * The MCP server in-process: the SDK's own client over its in-memory transport, against a squad on
 * disk. Every tool, the resources, schema errors, confinement of reads and script runs, the
 * allowlist, and the limits on a script that hangs or floods its output.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { connectMcp } from '../helpers/mcp.js';
import type { SquadServerOptions } from '../../src/commands/mcp/server.js';
import { LOCK_FILE } from '../../src/core/fs/lock.js';
import { SKILLS_ALLOWLIST_PATH } from '../../src/core/skills/skill-scripts.js';
import { type CliResult, cleanupTempDirs, hashTree, runCli, tempDir, validSkill, writeFiles } from '../helpers/cli.js';
import { promptSquad } from '../helpers/prompt-squad.js';

afterAll(cleanupTempDirs);

const PDF = '.github/skills/pdf-tools';

const SCRIPTS: Record<string, string> = {
  [`${PDF}/scripts/echo.mjs`]: 'console.log(JSON.stringify({ args: process.argv.slice(2), cwd: process.cwd() }));\n',
  [`${PDF}/scripts/fail.mjs`]: "process.stderr.write('no such form\\n');\nprocess.exit(3);\n",
  [`${PDF}/scripts/hang.mjs`]: [
    "import { spawn } from 'node:child_process';",
    // The child appends a beat to the file every 100 ms for as long as it lives (its pid would be its namespace's).
    "const beat = \"setInterval(() => require('node:fs').appendFileSync(process.argv[1], '.'), 100)\";",
    "spawn(process.execPath, ['-e', beat, process.argv[2]], { stdio: 'ignore' });",
    'setInterval(() => {}, 1000);',
    '',
  ].join('\n'),
  [`${PDF}/scripts/flood.mjs`]: [
    "const block = Buffer.alloc(1024 * 1024, 'a');",
    'let left = 100;',
    "const write = () => { while (left > 0) { left -= 1; if (!process.stdout.write(block)) return process.stdout.once('drain', write); } };",
    'write();',
    '',
  ].join('\n'),
  [`${PDF}/scripts/run.bat`]: '@echo off\r\necho %1\r\n',
};

/** The prompt squad plus a team skill with references, assets and scripts. */
function mcpSquad(extra: Record<string, string | Buffer> = {}): string {
  return promptSquad({
    [`${PDF}/SKILL.md`]: validSkill('pdf-tools', 'Extract text from PDF files and fill PDF forms. Use when working with PDF documents.'),
    [`${PDF}/references/forms.md`]: '# Filling forms\n\nUse the field names from the form.\n',
    [`${PDF}/references/big.txt`]: `${'é'.repeat(200 * 1024)}\n`,
    [`${PDF}/assets/logo.png`]: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0xff]),
    ...SCRIPTS,
    ...extra,
  });
}

function allowAll(root: string, folder = PDF): void {
  writeFiles(root, { [SKILLS_ALLOWLIST_PATH]: JSON.stringify({ skills: { [folder]: { scripts: 'all' } } }) });
}

/** A client connected to a server for the squad at `root`, run with HOME at `home`. */
const connect = (root: string, home: string, options: SquadServerOptions = {}): Promise<Client> => connectMcp(root, { HOME: home }, options);

let sharedSquad: Promise<{ root: string; home: string; client: Client }> | undefined;

/** One squad and client for the tests that only read: the squad is set up once. */
function shared(): Promise<{ root: string; home: string; client: Client }> {
  sharedSquad ??= (async () => {
    const root = mcpSquad();
    const home = tempDir();
    return { root, home, client: await connect(root, home) };
  })();
  return sharedSquad;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function text(result: CallToolResult): string {
  const [first] = result.content;
  return first?.type === 'text' ? first.text : '';
}

function structured<T = Record<string, unknown>>(result: CallToolResult): T {
  expect(result.isError, text(result)).toBeFalsy();
  return result.structuredContent as T;
}

/** What a tool answers for a CLI run's --json envelope: its ok, its data and its warnings, without the envelope. */
function asTool(run: CliResult): Record<string, unknown> {
  const envelope = run.envelope();
  return { ok: envelope.ok, ...run.data(), warnings: envelope.warnings };
}

function failure(result: CallToolResult): string {
  expect(result.isError).toBe(true);
  return text(result);
}

// Every test reads the shared squad only, or works in a squad and client of its own: the tests run side
// by side, so the waits (a lock held, a script's time limit) overlap with the rest.
describe.concurrent('the MCP server: discovery', () => {
  it('offers every tool with an input and an output schema', async () => {
    const { client } = await shared();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['build_spawn_prompt', 'list_skills', 'read_skill', 'route', 'run_skill_script', 'teach', 'test_skill', 'validate_skill']);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.description, tool.name).toBeTruthy();
    }
    expect(client.getInstructions()).toContain('list_skills');
    await expect(client.ping()).resolves.toEqual({});
  });

  it("list_skills: the skills every member sees, or one member's, with scope, location and MCP needs", async () => {
    const { client } = await shared();
    type Listed = { skills: { name: string; scope: string; location: string; agent?: string; mcpServers: { name: string }[]; valid: boolean }[]; total: number };
    const team = structured<Listed>(await call(client, 'list_skills', {}));
    const names = team.skills.map((s) => s.name);
    expect(names).toContain('pdf-tools');
    expect(names).not.toContain('react-component-patterns');
    expect(team.skills.find((s) => s.name === 'pdf-tools')).toMatchObject({ scope: 'team', location: `${PDF}/SKILL.md`, valid: true });
    expect(team.skills.find((s) => s.name === 'database-schema')!.mcpServers.map((m) => m.name)).toContain('postgres');

    const fenster = structured<Listed>(await call(client, 'list_skills', { agent: 'Fenster' }));
    expect(fenster.skills.find((s) => s.name === 'api-design')).toMatchObject({ scope: 'agent', agent: 'fenster' });
    expect(fenster.skills.map((s) => s.name)).toContain('react-component-patterns');
    expect(fenster.total).toBe(fenster.skills.length);
  });

  it('list_skills with a query: only matching skills, best first, with their score and matched words', async () => {
    const { client } = await shared();
    const found = structured<{ skills: { name: string; score: number; matched: string[] }[]; total: number }>(
      await call(client, 'list_skills', { agent: 'fenster', query: 'fill in the PDF form the customer sent' }),
    );
    expect(found.skills[0]).toMatchObject({ name: 'pdf-tools' });
    expect(found.skills[0]!.matched).toEqual(expect.arrayContaining(['pdf']));
    expect(found.skills.length).toBeLessThan(found.total);
    const scores = found.skills.map((s) => s.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('an unknown member is a tool error with the fix, and the server goes on answering', async () => {
    const { client } = await shared();
    const message = failure(await call(client, 'list_skills', { agent: 'mcmanus' }));
    expect(message).toMatch(/^unknown-agent: /);
    expect(message).toContain('How to fix:');
    expect(structured(await call(client, 'list_skills', {}))).toHaveProperty('skills');
  });
});

describe.concurrent('the MCP server: read_skill', () => {
  it('returns SKILL.md with the list of its references, scripts and assets', async () => {
    const { client } = await shared();
    const result = await call(client, 'read_skill', { name: 'pdf-tools' });
    const skill = structured<{ content: string; path: string; files: { path: string; bytes: number }[] }>(result);
    expect(skill.path).toBe('SKILL.md');
    expect(skill.content).toContain('name: pdf-tools');
    expect(skill.files.map((f) => f.path)).toEqual([
      'references/big.txt',
      'references/forms.md',
      'scripts/echo.mjs',
      'scripts/fail.mjs',
      'scripts/flood.mjs',
      'scripts/hang.mjs',
      'scripts/run.bat',
      'assets/logo.png',
    ]);
    expect(text(result)).toContain('- references/forms.md');
  });

  it('reads one file on request: text as it is, binary as base64, a large file cut at a character boundary', async () => {
    const { client } = await shared();
    const forms = structured<{ content: string; encoding: string; truncated: boolean }>(await call(client, 'read_skill', { name: 'pdf-tools', file: 'references/forms.md' }));
    expect(forms).toMatchObject({ encoding: 'utf8', truncated: false, content: '# Filling forms\n\nUse the field names from the form.\n' });

    const logo = structured<{ content: string; encoding: string }>(await call(client, 'read_skill', { name: 'pdf-tools', file: 'assets/logo.png' }));
    expect(logo.encoding).toBe('base64');
    expect(Buffer.from(logo.content, 'base64')).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0xff]));

    const big = structured<{ content: string; bytes: number; truncated: boolean; encoding: string }>(
      await call(client, 'read_skill', { name: 'pdf-tools', file: 'references/big.txt' }),
    );
    expect(big).toMatchObject({ truncated: true, encoding: 'utf8', bytes: 400 * 1024 + 1 });
    expect(big.content).toMatch(/^é+$/);
    expect(Buffer.byteLength(big.content)).toBeLessThanOrEqual(256 * 1024);
  });

  it('never reads outside the skill folder: "..", absolute paths, symlinks out, other folders', async () => {
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'TOKEN=hunter2\n');
    const root = mcpSquad();
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, PDF, 'references', 'secret.md'));
    fs.symlinkSync(outside, path.join(root, PDF, 'references', 'elsewhere'));
    const client = await connect(root, tempDir());
    const read = (file: string) => call(client, 'read_skill', { name: 'pdf-tools', file });

    expect(failure(await read('../api-design/SKILL.md'))).toMatch(/^unsafe-path: .*contains "\.\."/);
    expect(failure(await read('references/../../../../etc/passwd'))).toMatch(/^unsafe-path: /);
    expect(failure(await read('/etc/passwd'))).toMatch(/^unsafe-path: .*absolute/);
    expect(failure(await read('references/secret.md'))).toMatch(/^unsafe-path: .*outside the skill folder/);
    expect(failure(await read('references/elsewhere/secret.txt'))).toMatch(/^unsafe-path: .*outside the skill folder/);
    expect(failure(await read('SKILL.md'))).toMatch(/^invalid-input: .*not under references\/, scripts\/, assets\//);
    expect(failure(await read('references/missing.md'))).toMatch(/^not-found: /);
    expect(failure(await read('references'))).toMatch(/^invalid-input: references is a folder/);

    const listing = structured<{ files: { path: string }[]; filesRefused: { path: string; reason: string }[] }>(await call(client, 'read_skill', { name: 'pdf-tools' }));
    expect(listing.files.map((f) => f.path)).not.toContain('references/secret.md');
    expect(listing.filesRefused.map((r) => r.path).sort()).toEqual(['references/elsewhere', 'references/secret.md']);
  });

  it('a skill that does not exist, or that only one member has, says where to look', async () => {
    const { client } = await shared();
    expect(failure(await call(client, 'read_skill', { name: 'pdf-tool' }))).toContain('did you mean "pdf-tools"?');
    expect(failure(await call(client, 'read_skill', { name: 'flaky-tests' }))).toContain('it is hockney\'s own skill: pass agent "hockney"');
    expect(structured<{ name: string }>(await call(client, 'read_skill', { name: 'flaky-tests', agent: 'hockney' })).name).toBe('flaky-tests');
  });

  it('bad arguments are schema errors returned as tool errors, never a crash', async () => {
    const { client } = await shared();
    expect(failure(await call(client, 'read_skill', { name: 42 }))).toContain('Input validation error');
    expect(failure(await call(client, 'read_skill', {}))).toContain('Input validation error');
    expect(failure(await call(client, 'run_skill_script', { skill: 'pdf-tools', script: 'echo.mjs', arguments: 'not a list' }))).toContain('Input validation error');
    expect(failure(await call(client, 'no_such_tool', {}))).toContain('not found');
    expect(structured(await call(client, 'read_skill', { name: 'pdf-tools' }))).toHaveProperty('content');
  });
});

describe.concurrent('the MCP server: the squad commands as tools', () => {
  it('build_spawn_prompt gives exactly what "create-squad prompt" prints, and its --json document', async () => {
    const { root, home, client } = await shared();
    const task = 'Add pagination to the orders endpoint.';
    const cli = await runCli(['prompt', 'fenster', '--task', task], { cwd: root, env: { HOME: home } });
    const cliJson = await runCli(['prompt', 'fenster', '--task', task, '--json'], { cwd: root, env: { HOME: home } });
    const result = await call(client, 'build_spawn_prompt', { agent: 'fenster', task });
    expect(text(result)).toBe(cli.stdout);
    expect(structured(result)).toEqual(asTool(cliJson));

    const light = await call(client, 'build_spawn_prompt', { agent: 'fenster', task: 'Fix the React re-render loop.', mode: 'lightweight', skills: ['react-component-patterns'] });
    const cliLight = await runCli(['prompt', 'fenster', '--mode', 'lightweight', '--skill', 'react-component-patterns', '--task', 'Fix the React re-render loop.'], {
      cwd: root,
      env: { HOME: home },
    });
    expect(text(light)).toBe(cliLight.stdout);

    const bounded = await call(client, 'build_spawn_prompt', { agent: 'fenster', task, skillsBudget: 50 });
    const cliBounded = await runCli(['prompt', 'fenster', '--skills-budget', '50', '--task', task, '--json'], { cwd: root, env: { HOME: home } });
    expect(structured(bounded)).toEqual(asTool(cliBounded));
    expect(failure(await call(client, 'build_spawn_prompt', { agent: 'fenster', task, skillsBudget: 50, allSkills: true }))).toMatch(/^usage: .*contradict/);
  });

  it('build_spawn_prompt refuses a human or unknown member as prompt does, and "-" is no way to read stdin', async () => {
    const { client } = await shared();
    expect(failure(await call(client, 'build_spawn_prompt', { agent: 'nobody', task: 'x' }))).toMatch(/^unknown-agent: /);
    expect(failure(await call(client, 'build_spawn_prompt', { agent: 'fenster', task: '-' }))).toMatch(/^usage: .*give the task itself/);
    expect(failure(await call(client, 'build_spawn_prompt', { agent: 'fenster', task: 'x', mode: 'heavy' }))).toContain('Input validation error');
  });

  it('route answers what "route --json" prints', async () => {
    const { root, client } = await shared();
    const task = 'Write end-to-end tests for the checkout flow';
    const cli = await runCli(['route', task, '--json'], { cwd: root });
    expect(structured(await call(client, 'route', { task }))).toEqual(asTool(cli));
    const labelled = await runCli(['route', task, '--label', 'squad:keaton', '--json'], { cwd: root });
    expect(labelled.data<{ agent: string }>().agent).toBe('keaton');
    expect(structured(await call(client, 'route', { task, labels: ['squad:keaton'] }))).toEqual(asTool(labelled));
  });

  it('teach writes the skill under the squad lock, as the command does; dry runs write nothing', async () => {
    const root = mcpSquad();
    const client = await connect(root, tempDir());
    const before = hashTree(root);
    const dry = structured<{ dryRun: boolean; path: string }>(
      await call(client, 'teach', { agent: 'fenster', instruction: 'Always use Tailwind CSS for styling', kind: 'skill', dryRun: true }),
    );
    expect(dry.dryRun).toBe(true);
    expect(hashTree(root)).toBe(before);

    const taught = structured<{ ok: boolean; name: string; scope: string; path: string }>(
      await call(client, 'teach', { agent: 'fenster', instruction: 'Always use Tailwind CSS for styling', kind: 'skill' }),
    );
    expect(taught).toMatchObject({ ok: true, scope: 'agent', path: dry.path });
    expect(fs.existsSync(path.join(root, taught.path))).toBe(true);
    expect(fs.existsSync(path.join(root, '.create-squad.lock'))).toBe(false);
    const seen = structured<{ skills: { name: string }[] }>(await call(client, 'list_skills', { agent: 'fenster' }));
    expect(seen.skills.map((s) => s.name)).toContain(taught.name);

    const team = structured<{ scope: string }>(await call(client, 'teach', { team: true, instruction: 'Squash-merge every pull request', name: 'merge-policy' }));
    expect(team.scope).toBe('team');
    const rule = structured<{ kind: string; rule: string; path: string }>(await call(client, 'teach', { agent: 'fenster', instruction: 'Never commit to main' }));
    expect(rule).toMatchObject({ ok: true, kind: 'rule', rule: 'Never commit to main.', path: '.ai-team/agents/fenster/charter.md' });
    expect(failure(await call(client, 'teach', { instruction: 'Be nice' }))).toMatch(/^usage: missing the member to teach/);
    expect(failure(await call(client, 'teach', { agent: 'fenster', team: true, instruction: 'Be nice' }))).toMatch(/^usage: /);
  });

  it('teach waits a little for the lock another create-squad holds, then writes', async () => {
    const root = mcpSquad();
    const client = await connect(root, tempDir());
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      const lock = path.join(root, LOCK_FILE);
      fs.writeFileSync(lock, JSON.stringify({ pid: holder.pid, host: os.hostname(), command: 'hire', started: new Date().toISOString() }));
      setTimeout(() => fs.rmSync(lock), 800);
      const taught = await call(client, 'teach', { agent: 'fenster', instruction: 'Prefer CSS grid for layouts' });
      expect(taught.isError, text(taught)).toBeFalsy();
    } finally {
      holder.kill();
    }
  });

  it('teach calls made together all land (they take the lock one after another)', async () => {
    const root = mcpSquad();
    const client = await connect(root, tempDir());
    const rules = ['Prefer small pull requests', 'Name branches after the issue', 'Write the changelog entry first'];
    const results = await Promise.all(rules.map((instruction) => call(client, 'teach', { team: true, instruction })));
    for (const result of results) expect(result.isError, text(result)).toBeFalsy();
  });

  it('validate_skill checks one skill, a path in the repository, or every skill; never a path outside', async () => {
    const { root, client } = await shared();
    const one = structured<{ ok: boolean; summary: { checked: number } }>(await call(client, 'validate_skill', { name: 'pdf-tools' }));
    expect(one).toMatchObject({ ok: true, summary: { checked: 1 } });
    const broken = structured<{ ok: boolean; skills: { valid: boolean }[] }>(await call(client, 'validate_skill', { path: '.ai-team/skills/broken' }));
    expect(broken.ok).toBe(false);
    expect(broken.skills[0]!.valid).toBe(false);
    const all = await call(client, 'validate_skill', {});
    const cli = await runCli(['skills', 'validate', '--json'], { cwd: root });
    expect(structured(all)).toEqual(asTool(cli));
    expect(failure(await call(client, 'validate_skill', { path: '../../etc' }))).toMatch(/^unsafe-path: /);
    expect(failure(await call(client, 'validate_skill', { path: '/etc' }))).toMatch(/^unsafe-path: /);
  });

  it('test_skill runs a skill\'s cases as "skills test --json" does: allowed scripts only, each case reported', async () => {
    const root = mcpSquad({
      [`${PDF}/tests/cases/01-echo.yaml`]: 'name: echoes\ninput:\n  command: scripts/echo.mjs "a b"\nexpected:\n  stdout-contains: [\'"a b"\']\n',
      [`${PDF}/tests/cases/02-fail.yaml`]: 'name: fails\ninput:\n  command: scripts/fail.mjs\nexpected:\n  exit-code: 0\n',
    });
    const client = await connect(root, tempDir());
    type Tested = { ok: boolean; skills: { name: string; cases: { name: string; status: string; failures: string[] }[] }[]; summary: Record<string, number> };
    const refused = structured<Tested>(await call(client, 'test_skill', { name: 'pdf-tools' }));
    expect(refused.ok).toBe(false);
    expect(refused.skills[0]!.cases.map((c) => c.status)).toEqual(['refused', 'refused']);
    allowAll(root);
    const tested = structured<Tested>(await call(client, 'test_skill', { name: 'pdf-tools' }));
    expect(tested.skills[0]!.cases.map((c) => [c.name, c.status])).toEqual([
      ['echoes', 'passed'],
      ['fails', 'failed'],
    ]);
    expect(tested.summary).toMatchObject({ cases: 2, passed: 1, failed: 1 });
    const cli = await runCli(['skills', 'test', 'pdf-tools', '--json'], { cwd: root });
    expect(cli.data<Tested>().summary).toEqual(tested.summary);
    expect(structured<Tested>(await call(client, 'test_skill', { name: 'pdf-tools', case: 'echoes' })).ok).toBe(true);
    expect(failure(await call(client, 'test_skill', { name: 'route-tools' }))).toMatch(/^not-found: no skill "route-tools"/);
    expect(failure(await call(client, 'test_skill', { name: 'database-schema' }))).toContain('has no tests');
  });

  it('the roster and each charter are resources', async () => {
    const { root, client } = await shared();
    const roster = await client.readResource({ uri: 'squad://roster' });
    expect(roster.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: fs.readFileSync(path.join(root, '.ai-team/team.md'), 'utf8') });
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['squad://roster', 'squad://charters/fenster', 'squad://charters/hockney']));
    const charter = await client.readResource({ uri: 'squad://charters/fenster' });
    expect(charter.contents[0]).toMatchObject({ text: expect.stringContaining('# Fenster') });
    await expect(client.readResource({ uri: 'squad://charters/nobody' })).rejects.toThrow(/unknown-agent/);
  });
});

describe.concurrent('the MCP server: run_skill_script', () => {
  it('is off by default: a script runs only once the allowlist names it, and the refusal says how', async () => {
    const root = mcpSquad();
    const client = await connect(root, tempDir());
    const refused = failure(await call(client, 'run_skill_script', { skill: 'pdf-tools', script: 'scripts/echo.mjs' }));
    expect(refused).toMatch(/^not-allowed: not running scripts\/echo.mjs of skill "pdf-tools": running scripts is off/);
    expect(refused).toContain(`${SKILLS_ALLOWLIST_PATH} with {"skills":{"${PDF}":{"scripts":["scripts/echo.mjs"]}}}`);

    writeFiles(root, { [SKILLS_ALLOWLIST_PATH]: JSON.stringify({ skills: { [PDF]: { scripts: ['scripts/fail.mjs'] } } }) });
    expect(failure(await call(client, 'run_skill_script', { skill: 'pdf-tools', script: 'echo.mjs' }))).toContain('allows other scripts');

    writeFiles(root, { [SKILLS_ALLOWLIST_PATH]: JSON.stringify({ skills: { [PDF]: { scripts: ['echo.mjs'] } } }) });
    const ran = structured<{ exitCode: number; stdout: string }>(await call(client, 'run_skill_script', { skill: 'pdf-tools', script: 'scripts/echo.mjs' }));
    expect(ran.exitCode).toBe(0);
  });

  it('passes arguments as they are, with no shell, in the repository folder', async () => {
    const root = mcpSquad();
    allowAll(root);
    const client = await connect(root, tempDir());
    const args = ['$(touch pwned)', '; touch pwned2', '`id`', 'a b', '"quoted"', '*', ''];
    const result = await call(client, 'run_skill_script', { skill: 'pdf-tools', script: 'echo.mjs', arguments: args });
    const ran = structured<{ exitCode: number; stdout: string; script: string; skillFolder: string }>(result);
    expect(ran).toMatchObject({ exitCode: 0, script: 'scripts/echo.mjs', skillFolder: PDF });
    expect(JSON.parse(ran.stdout)).toEqual({ args, cwd: root });
    expect(fs.existsSync(path.join(root, 'pwned'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'pwned2'))).toBe(false);
    expect(text(result)).toContain(`${PDF}/scripts/echo.mjs exited with code 0`);
  });

  it('a script that fails is a failed call that still carries its exit code and output', async () => {
    const root = mcpSquad();
    allowAll(root);
    const client = await connect(root, tempDir());
    const result = await call(client, 'run_skill_script', { skill: 'pdf-tools', script: 'fail.mjs' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ exitCode: 3, stderr: 'no such form\n', timedOut: false });
  });

  it('a script that hangs is killed at the time limit, with what it started', async ({ expect }) => {
    const root = mcpSquad();
    allowAll(root);
    // Room for a loaded machine to start the script (and its child) before the limit kills it.
    const client = await connect(root, tempDir(), { scriptLimits: { timeoutMs: 3000 } });
    const beats = path.join(tempDir(), 'grandchild.beats');
    const result = await call(client, 'run_skill_script', { skill: 'pdf-tools', script: 'hang.mjs', arguments: [beats] });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGKILL' });
    expect(text(result)).toContain('was killed at the time limit');
    // The grandchild ran, and beats no more: two looks half a second apart see the same file.
    let last = -1;
    const stopped = () => {
      const size = fs.statSync(beats).size;
      const same = size === last;
      last = size;
      return same;
    };
    await expect.poll(stopped, { timeout: 5000, interval: 500 }).toBe(true);
  });

  it('a script printing 100 MB is cut at the output limit; the bytes are counted, not kept', async () => {
    const root = mcpSquad();
    allowAll(root);
    const client = await connect(root, tempDir());
    const ran = structured<{ exitCode: number; stdout: string; stdoutBytes: number; stdoutTruncated: boolean }>(
      await call(client, 'run_skill_script', { skill: 'pdf-tools', script: 'flood.mjs' }),
    );
    expect(ran).toMatchObject({ exitCode: 0, stdoutBytes: 100 * 1024 * 1024, stdoutTruncated: true });
    expect(ran.stdout.length).toBe(1024 * 1024);
  });

  it("runs only files inside the skill's own scripts/ folder, whatever the allowlist says", async () => {
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, 'evil.mjs'), "import fs from 'node:fs'; fs.writeFileSync(process.argv[2], 'ran');\n");
    const root = mcpSquad({
      '.github/skills/linked/SKILL.md': validSkill('linked', 'A skill whose scripts folder is borrowed.'),
    });
    fs.symlinkSync(path.join(outside, 'evil.mjs'), path.join(root, PDF, 'scripts', 'evil.mjs'));
    fs.symlinkSync(path.join(root, PDF, 'scripts'), path.join(root, '.github/skills/linked/scripts'));
    writeFiles(root, { [SKILLS_ALLOWLIST_PATH]: JSON.stringify({ skills: { [PDF]: { scripts: 'all' }, '.github/skills/linked': { scripts: 'all' } } }) });
    const client = await connect(root, tempDir());
    const marker = path.join(tempDir(), 'marker');
    const run = (skill: string, script: string) => call(client, 'run_skill_script', { skill, script, arguments: [marker] });

    expect(failure(await run('pdf-tools', '../references/forms.md'))).toMatch(/^unsafe-path: .*contains "\.\."/);
    expect(failure(await run('pdf-tools', '../../api-design/scripts/x.mjs'))).toMatch(/^unsafe-path: /);
    expect(failure(await run('pdf-tools', path.join(outside, 'evil.mjs')))).toMatch(/^unsafe-path: .*absolute/);
    expect(failure(await run('pdf-tools', 'evil.mjs'))).toMatch(/^unsafe-path: .*leads outside the skill's scripts\/ folder/);
    expect(failure(await run('linked', 'echo.mjs'))).toMatch(/^unsafe-path: .*scripts\/ folder is a link that leads out of the skill folder/);
    expect(failure(await run('pdf-tools', 'missing.mjs'))).toMatch(/^not-found: /);
    expect(failure(await run('pdf-tools', 'run.bat'))).toMatch(/^unsafe-path: .*cmd\.exe/);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('never runs a skill that lies outside the repository, even one the allowlist names', async () => {
    const outside = tempDir();
    writeFiles(outside, {
      'far/SKILL.md': validSkill('far', 'A skill from elsewhere.'),
      'far/scripts/echo.mjs': SCRIPTS[`${PDF}/scripts/echo.mjs`]!,
    });
    const root = mcpSquad();
    fs.symlinkSync(path.join(outside, 'far'), path.join(root, '.github/skills/far'));
    allowAll(root, '.github/skills/far');
    const client = await connect(root, tempDir());
    expect(failure(await call(client, 'run_skill_script', { skill: 'far', script: 'echo.mjs' }))).toMatch(/^not-found: no skill "far"/);
    expect((await call(client, 'list_skills', {})).structuredContent).toMatchObject({
      warnings: expect.arrayContaining([expect.objectContaining({ code: 'skill-outside', message: expect.stringContaining('outside the repository') })]),
    });
  });

  it('a broken allowlist allows nothing and says what is wrong', async () => {
    const root = mcpSquad();
    const client = await connect(root, tempDir());
    const run = () => call(client, 'run_skill_script', { skill: 'pdf-tools', script: 'echo.mjs' });
    writeFiles(root, { [SKILLS_ALLOWLIST_PATH]: '{"skills": {' });
    expect(failure(await run())).toMatch(/^invalid-format: .*not valid JSON/);
    writeFiles(root, { [SKILLS_ALLOWLIST_PATH]: JSON.stringify({ skills: { [PDF]: { scripts: true } } }) });
    expect(failure(await run())).toMatch(/^invalid-format: .*must be a list of script paths or "all"/);
    writeFiles(root, { [SKILLS_ALLOWLIST_PATH]: JSON.stringify({ skills: { '../elsewhere': { scripts: 'all' } } }) });
    expect(failure(await run())).toMatch(/^invalid-format: .*not a repository path/);
  });
});
