/**
 * Text from files reaches the terminal inert: skill fields and folder names holding terminal
 * escapes, C1 controls and line breaks show as escapes, every finding stays on its line, and the
 * only control sequences on stdout and stderr are the colours the CLI adds itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, cleanupTempDirs, runCli, skillMd, tempDir, tempRepo, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

/** Screen clear, cursor home, a colour, a window title (OSC … BEL), a C1 CSI, a carriage return, a line feed. */
const HOSTILE = 'a\u001b[2J\u001b[1;1H\u001b[31mred\u001b]0;pwned\u0007\u009bb\rc\nd';
/** A folder name Linux accepts: a colour, a window title, a C1 CSI and a line break. */
const FOLDER = 'evil\u001b[31m\u001b]0;pwned\u0007\u009b\r\nfake';
/** The folder name as the terminal shows it. */
const FOLDER_SHOWN = 'evil\\u001b[31m\\u001b]0;pwned\\u0007\\u009b fake';

/** The colour sequences the CLI writes itself (bold, dim, red, green, yellow, cyan and their resets). */
const OUR_COLOURS = /\u001b\[(?:1|2|22|31|32|33|36|39)m/g;
/** A control character other than the line feed that ends a line. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** `text` as a YAML double-quoted scalar holding every control character as an escape. */
function yamlQuoted(text: string): string {
  return `"${text.replace(/[\u0000-\u001f\u007f-\u009f"\\]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

/** A SKILL.md whose name, description, version, author and MCP server are all hostile. */
function hostileSkill(name = HOSTILE): string {
  const value = yamlQuoted(HOSTILE);
  return skillMd(
    `name: ${yamlQuoted(name)}\ndescription: ${yamlQuoted(`Use when ${HOSTILE}`)}\nmetadata:\n  version: ${value}\n  author: ${value}\n` +
      `  mcp-servers:\n    - name: ${value}\n      reason: ${value}`,
  );
}

let cwd: string;

beforeAll(async () => {
  cwd = tempRepo();
  const init = await runCli(['init', '--yes'], { cwd });
  if (init.code !== 0) throw new Error(init.stderr);
  writeFiles(cwd, {
    [`.ai-team/skills/${FOLDER}/SKILL.md`]: hostileSkill(),
    [`.ai-team/agents/fenster/skills/${FOLDER}/SKILL.md`]: hostileSkill(),
    // Valid, so it reaches every listing and the prompt: only its fields are hostile.
    '.ai-team/agents/fenster/skills/hostile-fields/SKILL.md': hostileSkill('hostile-fields'),
    // Control characters written raw in the YAML, not as escapes.
    '.ai-team/skills/raw-yaml/SKILL.md': skillMd(`name: raw\u001b[2J\u009b\ndescription: raw \u001b]0;t\u0007 x\nmetadata:\n  version: 1\u001b[A`),
  });
  fs.mkdirSync(path.join(cwd, '.ai-team', 'skills', `empty${FOLDER}`));
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `args` run twice, without and with colour. Without, nothing but line feeds may be a control
 * character; with, the output must be the same text plus the CLI's own colours, so a colour
 * sequence from a file cannot pass as one of ours.
 */
async function terminalRun(args: string[]): Promise<Run> {
  const env = { HOME: tempDir('home-') };
  const plain = await runCli(args, { cwd, env });
  const coloured = await runCli(args, { cwd, env: { ...env, NO_COLOR: undefined, FORCE_COLOR: '1' } });
  for (const stream of ['stdout', 'stderr'] as const) {
    expect(plain[stream], `${args.join(' ')} ${stream}`).not.toMatch(RAW_CONTROL);
    expect(coloured[stream].replace(OUR_COLOURS, ''), `${args.join(' ')} ${stream} in colour`).toBe(plain[stream]);
  }
  expect(coloured.stdout).toMatch(OUR_COLOURS);
  return plain;
}

async function jsonRun(args: string[]): Promise<CliResult> {
  const result = await runCli([...args, '--json'], { cwd, env: { HOME: tempDir('home-') } });
  expect(result.stdout).not.toMatch(RAW_CONTROL);
  return result;
}

async function json<T>(args: string[]): Promise<T> {
  return (await jsonRun(args)).data<T>();
}

/** The lines of an output, without the empty one after its last line feed. */
function lines(text: string): string[] {
  return text === '' ? [] : text.replace(/\n$/, '').split('\n');
}

describe('text from files on the terminal', () => {
  it('skills list: one row a skill, hostile names, versions and MCP servers shown as escapes', async () => {
    for (const args of [
      ['skills', 'list'],
      ['skills', 'list', '--agent', 'fenster'],
    ]) {
      const listedRun = await jsonRun(args);
      const listed = { skills: listedRun.data<{ skills: unknown[] }>().skills, warnings: listedRun.warnings() };
      const run = await terminalRun(args);
      expect(run.code).toBe(0);
      expect(lines(run.stdout)).toHaveLength(1 + listed.skills.length + 2);
      expect(run.stdout).toContain(FOLDER_SHOWN);
      expect(run.stdout).toContain('a\\u001b[2J\\u001b[1;1H\\u001b[31mred\\u001b]0;pwned\\u0007\\u009bb c d');
      expect(lines(run.stderr)).toHaveLength(listed.warnings.length);
      for (const line of lines(run.stderr)) expect(line).toMatch(/^⚠ /);
    }
  });

  it('skills validate: each finding on its own line under its skill', async () => {
    for (const args of [
      ['skills', 'validate'],
      ['skills', 'validate', `.ai-team/skills/${FOLDER}`],
    ]) {
      const report = await json<{ skills: { errors: unknown[]; warnings: unknown[] }[]; skipped: unknown[] }>(args);
      const run = await terminalRun(args);
      expect(run.code).toBe(1);
      const findings = report.skills.reduce((n, s) => n + s.errors.length + s.warnings.length, 0);
      expect(findings).toBeGreaterThan(0);
      expect(lines(run.stdout)).toHaveLength(report.skills.length + findings + 2);
      const issueLines = lines(run.stdout).filter((line) => line.startsWith('    '));
      expect(issueLines).toHaveLength(findings);
      for (const line of issueLines) expect(line).toMatch(/^ {4}(error|warning) {2}/);
      expect(run.stdout).toContain(`✗ .ai-team/skills/${FOLDER_SHOWN}/SKILL.md`);
      expect(lines(run.stderr)).toHaveLength(report.skipped.length);
    }
  });

  it('doctor: every finding is one line and its fix the next', async () => {
    const report = await json<{ findings: unknown[] }>(['doctor']);
    const run = await terminalRun(['doctor']);
    expect(run.code).toBe(1);
    const shown = lines(run.stdout);
    expect(shown).toHaveLength(report.findings.length * 2 + 2);
    for (let i = 0; i < report.findings.length; i += 1) {
      expect(shown[2 * i]).toMatch(/^(✗ error|⚠ warning) /);
      expect(shown[2 * i + 1]).toMatch(/^ {10}fix: /);
    }
    expect(run.stdout).toContain(FOLDER_SHOWN);
  });

  it('route: names and reasons from skills stay inert', async () => {
    const run = await terminalRun(['route', 'pwned red']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('hostile-fields');
  });

  it('prompt --json: one JSON document, every control character escaped, and the prompt inside it holds the escapes', async () => {
    const args = ['prompt', 'fenster', '--mode', 'lightweight', '--skill', 'hostile-fields', '--task', 'x'];
    const result = await runCli([...args, '--json'], { cwd, env: { HOME: tempDir('home-') } });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(RAW_CONTROL);
    const { prompt } = result.data<{ prompt: string }>();
    expect(prompt).not.toMatch(RAW_CONTROL);
    expect(prompt).toContain('a\\u001b[2J\\u001b[1;1H\\u001b[31mred\\u001b]0;pwned\\u0007\\u009bb');
  });

  it('prompt: the text printed for a model holds no control character from a file (test/e2e/prompt-escapes.test.ts has every part)', async () => {
    const run = await runCli(['prompt', 'fenster', '--mode', 'lightweight', '--skill', 'hostile-fields', '--task', 'x'], { cwd, env: { HOME: tempDir('home-') } });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(RAW_CONTROL);
    expect(run.stdout).toContain('\\u009bb');
  });
});
