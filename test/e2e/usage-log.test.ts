/**
 * The opt-in usage log: off by default; on by the environment variable or the setting file; what
 * the MCP tools, `prompt` and `skills test` record (names and timings, never content); and what
 * `skills stats` makes of it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { connectMcp } from '../helpers/mcp.js';
import { SKILLS_ALLOWLIST_PATH } from '../../src/core/skills/skill-scripts.js';
import { USAGE_LOG_ENV, USAGE_LOG_IGNORE_RULE, USAGE_LOG_PATH, USAGE_LOG_SETTING_PATH, summariseUsage, type UsageRecord } from '../../src/core/skills/usage-log.js';
import { cleanupTempDirs, runCli, runOk, tempDir, tempRepo, validSkill, writeFiles } from '../helpers/cli.js';
import { promptSquad } from '../helpers/prompt-squad.js';

afterAll(cleanupTempDirs);

const PDF = '.github/skills/pdf-tools';
const SECRET = 'zebra-secret-42';

function squad(): string {
  return promptSquad({
    [`${PDF}/SKILL.md`]: validSkill('pdf-tools', 'Extract text from PDF files and fill PDF forms.'),
    [`${PDF}/references/forms.md`]: `# Forms\n\n${SECRET} in the content\n`,
    [`${PDF}/scripts/echo.mjs`]: 'console.log(process.argv.slice(2).join(" "));\n',
    [`${PDF}/tests/cases/01.yaml`]: 'input:\n  command: scripts/echo.mjs hi\nexpected:\n  stdout-contains: [hi]\n',
    [SKILLS_ALLOWLIST_PATH]: JSON.stringify({ skills: { [PDF]: { scripts: 'all' } } }),
  });
}

const connect = (root: string, env: Record<string, string | undefined>): Promise<Client> => connectMcp(root, env);

async function useEverything(root: string, env: Record<string, string | undefined>): Promise<void> {
  const client = await connect(root, env);
  const calls: [string, Record<string, unknown>][] = [
    ['list_skills', { agent: 'fenster', query: `fill the PDF form ${SECRET}` }],
    ['read_skill', { name: 'pdf-tools' }],
    ['read_skill', { name: 'pdf-tools', file: 'references/forms.md' }],
    ['read_skill', { name: 'database-schema', agent: 'fenster' }],
    ['run_skill_script', { skill: 'pdf-tools', script: 'scripts/echo.mjs', arguments: [SECRET] }],
    ['test_skill', { name: 'pdf-tools' }],
    ['build_spawn_prompt', { agent: 'fenster', task: `Fix the PDF export ${SECRET}` }],
  ];
  for (const [name, args] of calls) {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(result.isError, name).toBeFalsy();
  }
  await client.close();
  const cli = await runCli(['prompt', 'fenster', '--task', `Review the schema ${SECRET}`], { cwd: root, env });
  expect(cli.code).toBe(0);
}

function logLines(root: string): Record<string, unknown>[] {
  return fs
    .readFileSync(path.join(root, USAGE_LOG_PATH), 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the usage log', () => {
  it('is off by default: nothing is written', async () => {
    const root = squad();
    await useEverything(root, {});
    expect(fs.existsSync(path.join(root, USAGE_LOG_PATH))).toBe(false);
    const stats = await runCli(['skills', 'stats'], { cwd: root });
    expect(stats.code).toBe(0);
    expect(stats.stderr).toContain(`The usage log is off: set ${USAGE_LOG_ENV}=1`);
    expect(stats.stdout).toContain('No usage recorded yet');
  });

  it(`with ${USAGE_LOG_ENV}=1 records what was listed, read, run and tested, with timings, and never a task, query, argument or content`, async () => {
    const root = squad();
    await useEverything(root, { [USAGE_LOG_ENV]: '1' });
    const text = fs.readFileSync(path.join(root, USAGE_LOG_PATH), 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('PDF form');
    const lines = logLines(root);
    expect(lines.map((l) => `${l.via} ${l.event}`)).toEqual(['mcp listed', 'mcp read', 'mcp read', 'mcp read', 'mcp run', 'mcp tested', 'mcp listed', 'cli listed']);
    for (const line of lines) {
      expect(typeof line.t).toBe('string');
      expect(typeof line.ms).toBe('number');
    }
    expect(lines[0]).toMatchObject({ agent: 'fenster', skills: ['pdf-tools'] });
    expect(lines[2]).toMatchObject({ skill: 'pdf-tools', file: 'references/forms.md' });
    expect(lines[4]).toMatchObject({ skill: 'pdf-tools', script: 'scripts/echo.mjs', exitCode: 0 });
    expect(lines[5]).toMatchObject({ skill: 'pdf-tools', cases: 1, passed: 1 });
    expect(lines[7]!.skills).toEqual(expect.arrayContaining(['pdf-tools', 'api-design']));
    expect(Object.keys(lines[4]!).sort()).toEqual(['event', 'exitCode', 'ms', 'script', 'skill', 't', 'via']);

    const stats = (await runCli(['skills', 'stats', '--json'], { cwd: root, env: { [USAGE_LOG_ENV]: '1' } })).data<{
      entries: number;
      readMost: { name: string; read: number }[];
      neverRead: string[];
      skills: { name: string; listed: number; read: number; run: number; tested: number; medianRunMs: number | null }[];
      log: { enabled: boolean; by: string; path: string };
    }>();
    expect(stats.entries).toBe(8);
    expect(stats.log).toMatchObject({ enabled: true, by: 'env', path: USAGE_LOG_PATH });
    expect(stats.readMost[0]).toEqual({ name: 'pdf-tools', read: 2 });
    expect(stats.neverRead).toContain('api-design');
    expect(stats.neverRead).not.toContain('pdf-tools');
    expect(stats.skills.find((s) => s.name === 'pdf-tools')).toMatchObject({ listed: 3, read: 2, run: 1, tested: 1 });
    expect(stats.skills.find((s) => s.name === 'pdf-tools')!.medianRunMs).toEqual(expect.any(Number));

    const text2 = await runCli(['skills', 'stats'], { cwd: root, env: { [USAGE_LOG_ENV]: '1' } });
    expect(text2.stdout).toMatch(/^8 entries from \S+ to \S+ \(\.ai-team\/usage-log\.jsonl\)/);
    expect(text2.stdout).toMatch(/pdf-tools\s+3\s+2\s+1\s+0\s+1\s+\d+ ms\s+\d+ ms/);
    expect(text2.stdout).toContain('Read most: pdf-tools (2)');
    expect(text2.stdout).toMatch(/Never read: .*api-design/);
  });

  it('is on with the setting file, and the variable set to 0 turns it off whatever the file says', async () => {
    const root = squad();
    writeFiles(root, { [USAGE_LOG_SETTING_PATH]: '{"enabled": true}\n' });
    const listed = await runCli(['prompt', 'fenster', '--task', 'x'], { cwd: root });
    expect(listed.code).toBe(0);
    expect(logLines(root)).toHaveLength(1);
    await runCli(['prompt', 'fenster', '--task', 'x'], { cwd: root, env: { [USAGE_LOG_ENV]: '0' } });
    expect(logLines(root)).toHaveLength(1);
    const stats = (await runCli(['skills', 'stats', '--json'], { cwd: root, env: { [USAGE_LOG_ENV]: 'off' } })).data<{ log: { enabled: boolean; by: string } }>();
    expect(stats.log).toMatchObject({ enabled: false, by: 'env' });
  });

  it('skips lines that are not entries, and never writes through a symlink', async () => {
    const root = squad();
    writeFiles(root, { [USAGE_LOG_PATH]: '{"t":"2026-01-01T00:00:00Z","event":"read","skill":"pdf-tools","via":"mcp","ms":4}\nnot json\n{"event":"read"}\n' });
    const stats = await runCli(['skills', 'stats', '--json'], { cwd: root });
    expect(stats.data<{ entries: number; log: { badLines: number } }>()).toMatchObject({ entries: 1, log: { badLines: 2 } });
    const text = await runCli(['skills', 'stats'], { cwd: root });
    expect(text.stderr).toContain('2 lines of .ai-team/usage-log.jsonl are not log entries and were skipped');

    const linked = squad();
    const outside = path.join(tempDir(), 'elsewhere.jsonl');
    fs.writeFileSync(outside, '');
    fs.symlinkSync(outside, path.join(linked, USAGE_LOG_PATH));
    const run = await runCli(['prompt', 'fenster', '--task', 'x'], { cwd: linked, env: { [USAGE_LOG_ENV]: '1' } });
    expect(run.code).toBe(0);
    expect(fs.readFileSync(outside, 'utf8')).toBe('');
  });

  it('init and upgrade add its ignore rule to .gitignore (appended after what is there, never twice), so git ignores the log', async () => {
    const root = tempRepo();
    writeFiles(root, { '.gitignore': 'node_modules/\n' });
    await runOk(root, ['init', '--yes']);
    const written = fs.readFileSync(path.join(root, '.gitignore'), 'utf8');
    expect(written.startsWith('node_modules/\n# create-squad: ')).toBe(true);
    expect(written.split('\n')).toContain(USAGE_LOG_IGNORE_RULE);
    writeFiles(root, { [USAGE_LOG_PATH]: '' });
    expect(spawnSync('git', ['check-ignore', '-q', USAGE_LOG_PATH], { cwd: root }).status).toBe(0);
    expect(spawnSync('git', ['check-ignore', '-q', USAGE_LOG_SETTING_PATH], { cwd: root }).status).toBe(1);
    fs.writeFileSync(path.join(root, '.gitignore'), 'node_modules/\n');
    const upgraded = (await runOk(root, ['upgrade', '--json'])).data<{ migrations: { id: string }[] }>();
    expect(upgraded.migrations.map((m) => m.id)).toEqual(['gitignore-hygiene']);
    expect(fs.readFileSync(path.join(root, '.gitignore'), 'utf8')).toContain(`\n${USAGE_LOG_IGNORE_RULE}\n`);
    await runOk(root, ['upgrade']);
    expect(fs.readFileSync(path.join(root, '.gitignore'), 'utf8').split(USAGE_LOG_IGNORE_RULE)).toHaveLength(2);
  });

  it('summariseUsage: counts per skill, medians, never read, read most, and names the squad no longer has', () => {
    const t = (n: number) => `2026-01-0${n}T00:00:00Z`;
    const records: UsageRecord[] = [
      { t: t(1), event: 'listed', skills: ['a', 'b', 'a'], via: 'mcp', ms: 1 },
      { t: t(2), event: 'read', skill: 'a', via: 'mcp', ms: 10 },
      { t: t(3), event: 'read', skill: 'a', via: 'mcp', ms: 30 },
      { t: t(4), event: 'run', skill: 'a', script: 'scripts/x.py', exitCode: 1, via: 'mcp', ms: 100 },
      { t: t(5), event: 'read', skill: 'old', via: 'mcp', ms: 5 },
    ];
    const summary = summariseUsage(records, ['a', 'b', 'c']);
    expect(summary.skills.find((s) => s.name === 'a')).toEqual({
      name: 'a',
      listed: 1,
      read: 2,
      run: 1,
      runFailed: 1,
      tested: 0,
      medianReadMs: 20,
      medianRunMs: 100,
      lastUsed: t(4),
    });
    expect(summary.neverRead).toEqual(['b', 'c']);
    expect(summary.readMost).toEqual([
      { name: 'a', read: 2 },
      { name: 'old', read: 1 },
    ]);
    expect(summary.gone).toEqual(['old']);
    expect(summary).toMatchObject({ entries: 5, since: t(1), until: t(5) });
  });
});
