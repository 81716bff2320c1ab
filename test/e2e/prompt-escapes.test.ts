/**
 * A spawn prompt is read by a model and shown in a terminal: nothing a repository's files hold can
 * repaint that terminal, write its clipboard or hide text from the person reviewing the prompt.
 * Every part from files (the roster's name and role, the charter, the standing rules, a skill's
 * description, body and MCP server) is hostile here: a screen clear, an OSC 52 clipboard write, a
 * right-to-left override and a NUL each show as their \u escape, in the text output, in the values
 * of --json and in the MCP tool's answer, while accents, scripts and emoji pass byte for byte.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { connectMcp } from '../helpers/mcp.js';
import { cleanupTempDirs, runCli, skillMd, tempDir } from '../helpers/cli.js';
import { PROMPT_TEAM_MD, promptSquad } from '../helpers/prompt-squad.js';

afterAll(cleanupTempDirs);

/** "put this on the clipboard", base64, as a terminal's OSC 52 sequence takes it. */
const CLIPBOARD_TEXT = Buffer.from('put this on the clipboard').toString('base64');
/** A screen clear, an OSC 52 clipboard write ended by BEL, a right-to-left override, a NUL. */
const PAYLOAD = `\u001b[2J\u001b]52;c;${CLIPBOARD_TEXT}\u0007\u202e\u0000`;
/** The payload as the prompt shows it. */
const SHOWN = `\\u001b[2J\\u001b]52;c;${CLIPBOARD_TEXT}\\u0007\\u202e\\u0000`;
/** Text that must pass unchanged: accents, CJK, a right-to-left script, emoji ZWJ sequences, a subdivision flag, Persian with a ZWNJ, a keycap. */
const LEGIT = 'Café naïve, 日本語, עברית, 👨‍👩‍👧 👩🏽‍💻 ❤️‍🔥 🏳️‍🌈, 🏴󠁧󠁢󠁳󠁣󠁴󠁿, می‌خواهم, 1️⃣';

/** Any character the prompt must never carry raw (the zero width joiner of LEGIT's emoji is allowed). */
const RAW_HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/;

/** `text` as a YAML double-quoted scalar, every control and bidi character written as an escape. */
function yamlQuoted(text: string): string {
  return `"${text.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e"\\]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

const TASK = 'Format the release notes.';

function hostileSquad(): string {
  return promptSquad({
    '.ai-team/team.md': PROMPT_TEAM_MD.replace('| Fenster | Core Dev |', `| Fen${PAYLOAD}ster | Core Dev ${PAYLOAD} |`),
    '.ai-team/agents/fenster/charter.md': `# Fenster\n\nCharter ${PAYLOAD} ${LEGIT}\n\tA tab stays a tab.\n\n## Standing rules\n\n- Member rule ${PAYLOAD} ${LEGIT}\n`,
    '.ai-team/rules.md': `# Team standing rules\n\n## Standing rules\n\n- Team rule ${PAYLOAD}\n`,
    '.ai-team/agents/fenster/skills/notes-format/SKILL.md': skillMd(
      [
        'name: notes-format',
        `description: ${yamlQuoted(`Use when formatting release notes ${PAYLOAD} ${LEGIT}`)}`,
        'metadata:',
        '  mcp-servers:',
        `    - name: ${yamlQuoted(`srv${PAYLOAD}`)}`,
        '      reason: notes',
      ].join('\n'),
      `# Notes\n\nBody ${PAYLOAD} ${LEGIT}\n`,
    ),
  });
}

interface PromptData {
  prompt: string;
  skills: { name: string; description: string }[];
  mcp: { server: string }[];
  standingRules: { team: string[]; member: string[] };
}

/** Every string in `value`, however deep. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(strings);
  return [];
}

describe('prompt: text from files cannot act on the terminal or hide from its reader', () => {
  const root = hostileSquad();
  const env = { HOME: tempDir('home-') };

  it('standard: name, role, charter, standing rules, skill description and MCP server show their escapes; other text is byte-identical', async () => {
    const result = await runCli(['prompt', 'fenster', '--task', TASK], { cwd: root, env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(RAW_HIDDEN);
    expect(result.stdout).toContain(`You are Fen${SHOWN}ster, the Core Dev ${SHOWN} on this project.`);
    expect(result.stdout).toContain(`\nCharter ${SHOWN} ${LEGIT}\n\tA tab stays a tab.\n`);
    expect(result.stdout).toContain(`\n- Member rule ${SHOWN} ${LEGIT}\n`);
    expect(result.stdout).toContain(`\n- Team rule ${SHOWN}\n`);
    expect(result.stdout).toContain(`<description>Use when formatting release notes ${SHOWN} ${LEGIT}</description>`);
    expect(result.stdout).toContain(`| notes-format | srv${SHOWN} | Yes |`);
    expect(Buffer.from(result.stdout).includes(Buffer.from(LEGIT))).toBe(true);
  });

  it('lightweight with --skill: the inlined body and the standing rules show their escapes', async () => {
    const result = await runCli(['prompt', 'fenster', '--mode', 'lightweight', '--skill', 'notes-format', '--task', TASK], { cwd: root, env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('=== SKILL notes-format');
    expect(result.stdout).not.toMatch(RAW_HIDDEN);
    expect(result.stdout).toContain(`\nBody ${SHOWN} ${LEGIT}\n`);
    expect(result.stdout).toContain(`\n- Team rule ${SHOWN}\n- Member rule ${SHOWN} ${LEGIT}\n`);
    expect(result.stdout).toContain(`You are Fen${SHOWN}ster`);
    expect(result.stdout).toContain(`| notes-format | srv${SHOWN} | Yes |`);
  });

  it('--json: the prompt and every value beside it hold the escapes, not the characters (JSON leaves bidi raw)', async () => {
    for (const mode of [[], ['--mode', 'lightweight', '--skill', 'notes-format']]) {
      const text = await runCli(['prompt', 'fenster', ...mode, '--task', TASK], { cwd: root, env });
      const result = await runCli(['prompt', 'fenster', ...mode, '--task', TASK, '--json'], { cwd: root, env });
      expect(result.code, result.stderr).toBe(0);
      const data = result.data<PromptData>();
      for (const value of strings(data)) expect(value).not.toMatch(RAW_HIDDEN);
      expect(text.stdout).toBe(data.prompt.endsWith('\n') ? data.prompt : `${data.prompt}\n`);
      expect(data.standingRules).toEqual({ team: [`Team rule ${SHOWN}`], member: [`Member rule ${SHOWN} ${LEGIT}`] });
      expect(data.mcp.map((row) => row.server)).toContain(`srv${SHOWN}`);
      expect(data.skills.find((s) => s.name === 'notes-format')!.description).toBe(`Use when formatting release notes ${SHOWN} ${LEGIT}`);
    }
  });

  it('the MCP tool build_spawn_prompt answers the same escaped prompt', async () => {
    const client = await connectMcp(root, env);
    try {
      const cli = await runCli(['prompt', 'fenster', '--task', TASK], { cwd: root, env });
      const result = (await client.callTool({ name: 'build_spawn_prompt', arguments: { agent: 'fenster', task: TASK } })) as CallToolResult;
      const [first] = result.content;
      const text = first?.type === 'text' ? first.text : '';
      expect(text).toBe(cli.stdout);
      expect(text).not.toMatch(RAW_HIDDEN);
      expect(text).toContain(`Charter ${SHOWN} ${LEGIT}`);
      for (const value of strings((result.structuredContent as { prompt: unknown }).prompt)) expect(value).not.toMatch(RAW_HIDDEN);
    } finally {
      await client.close();
    }
  });
});
