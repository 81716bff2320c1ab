/**
 * `compact` and `context`: older history entries and decisions move into archives byte for byte
 * (the archive's new runs put back where the live file's sections start give the original file
 * exactly), the inbox merges once, a second run writes nothing, the spawn prompt names the
 * archives, and the gauge's figures are the spawn prompt's own token counts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { estimateTokens } from '../../src/core/base/tokens.js';
import { COMMAND_TABLE } from '../../src/cli/program.js';
import { DEFAULT_KEEP, archiveLinkLine, decideCompaction, type CompactState } from '../../src/core/context/compaction.js';
import { decisionEntries, historySections } from '../../src/core/context/entries.js';
import { contextSettingsFrom, windowFor } from '../../src/core/context/windows.js';
import { cleanupTempDirs, initSquad, listFiles, runCli, tempDir, tempRepo, writeFiles } from '../helpers/cli.js';
import { withoutFileSystem } from '../helpers/no-fs.js';

afterAll(cleanupTempDirs);

const HISTORY = '.ai-team/agents/fenster/history.md';
const HISTORY_ARCHIVE = '.ai-team/agents/fenster/history-archive.md';
const DECISIONS = '.ai-team/decisions.md';
const DECISIONS_ARCHIVE = '.ai-team/decisions-archive.md';
const INBOX = '.ai-team/decisions/inbox';

const read = (root: string, rel: string): string => fs.readFileSync(path.join(root, rel), 'utf8');
const readOrEmpty = (root: string, rel: string): string => (fs.existsSync(path.join(root, rel)) ? read(root, rel) : '');

async function json<T>(root: string, args: string[]): Promise<T> {
  const result = await runCli([...args, '--json'], { cwd: root });
  const document = JSON.parse(result.stdout);
  if (!document.ok) throw new Error(`${args.join(' ')}: ${result.stdout}`);
  return document.data as T;
}

/** The live file without the link line compaction inserts, exactly as docs/state-layout.md states it. */
function withoutLink(live: string, link: string): string {
  const after = live.indexOf('\n');
  if (live.slice(after + 1).startsWith(`\n${link}\n`)) return live.slice(0, after + 1) + live.slice(after + 1 + link.length + 2);
  expect(live.startsWith(`${link}\n\n`), 'the link is after the title line, or first').toBe(true);
  return live.slice(link.length + 2);
}

/** The runs an archive gained, each with the section its marker names. */
function runsAdded(before: string, after: string, file: string): { section: string | undefined; text: string }[] {
  expect(after.startsWith(before), 'the archive only grows at its end').toBe(true);
  const added = after.slice(before.length);
  const marker = new RegExp(`\\n<!-- compacted from ${file.replace('.', '\\.')}(?:, section (.*?))? -->\\n`, 'g');
  const found = [...added.matchAll(marker)];
  return found.map((match, index) => ({
    section: match[1],
    text: added.slice(match.index! + match[0].length, found[index + 1]?.index ?? added.length),
  }));
}

/** A history put back: each run inserted where the live section its marker numbers ends its preamble. */
function restoredHistory(live: string, runs: readonly { section: string | undefined; text: string }[]): string {
  let text = withoutLink(live, archiveLinkLine('history'));
  for (const run of runs) {
    const [, number, heading] = /^(\d+): (.*)$/.exec(run.section ?? '')!;
    const section = historySections(text)[Number(number) - 1];
    expect(section?.heading.trim(), `the live file still has the section ${run.section}`).toBe(heading);
    text = text.slice(0, section!.preamble.end) + run.text + text.slice(section!.preamble.end);
  }
  return text;
}

function restoredDecisions(live: string, runs: readonly { text: string }[]): string {
  const link = archiveLinkLine('decisions');
  let text = withoutLink(live, link);
  for (const run of runs) {
    const head = decisionEntries(text).head.end;
    text = text.slice(0, head) + run.text + text.slice(head);
  }
  return text;
}

// A hostile history: CRLF lines, a fenced block holding what looks like headings, a context
// section of bullets, list entries before headed ones, a comment preamble, two sections of one name.
const HOSTILE_HISTORY = [
  '# Fenster — History\r\n',
  '\r\n',
  '## Project Context\r\n',
  '\r\n',
  '- **Project:** a recipe planner\r\n',
  '- **Stack:** TypeScript\r\n',
  '\r\n',
  '## Portable Knowledge\r\n',
  '\r\n',
  '<!-- What would still hold on another project. -->\r\n',
  '- prefers small pull requests\r\n',
  '- wants tests first\r\n',
  '  (even for one-line fixes)\r\n',
  '\r\n',
  'A paragraph of its own.\r\n',
  '- likes tabs\r\n',
  '\r\n',
  '## Project Learnings\r\n',
  '\r\n',
  '### 2026-01-02: the fence\r\n',
  '\r\n',
  '```md\r\n',
  '### 2026-01-03: not a heading, inside a fence\r\n',
  '---\r\n',
  '```\r\n',
  '\r\n',
  '### 2026-01-04: ünïcödé and an emoji 🧪\r\n',
  '#### a sub-heading stays inside\r\n',
  'text\r\n',
  '\r\n',
  '### 2026-01-05: third\r\n',
  'body\r\n',
  '\r\n',
  '### 2026-01-06: fourth\r\n',
  'body\r\n',
  '\r\n',
  '## Project Learnings\r\n',
  '### 2026-02-01: a second section of the same name\r\n',
  'one\r\n',
  '### 2026-02-02: its second entry\r\n',
  'two, and no line break at the end',
].join('');

const HOSTILE_DECISIONS = [
  '# Team Decisions\n',
  '\n',
  'Decisions every member follows.\n',
  '\n',
  '---\n',
  '\n',
  '### 2026-01-07: No ORM\n',
  '**By:** Ripley\n',
  '**What:** raw SQL.\n',
  '\n',
  '---\n',
  '\n',
  '# Decision: a whole merged document\n',
  '\n',
  '## Context\n',
  'Why it came up.\n',
  '\n',
  '## Decision\n',
  'What we do.\n',
  '\n',
  '---\n',
  '\n',
  '### 2026-01-15: Cursor pagination\n',
  '**By:** Dallas\n',
  '\n',
  '### 2026-01-20: Error envelope\n',
  '**By:** Ripley\n',
  '\n',
  '### 2026-02-11: Test stack\n',
  '**By:** Kane\n',
].join('');

describe('compact: older entries move into the archive byte for byte', () => {
  it('a hostile history and decisions file: the archive runs put back give the originals, and a second run writes nothing', async () => {
    const root = await initSquad();
    writeFiles(root, { [HISTORY]: HOSTILE_HISTORY, [DECISIONS]: HOSTILE_DECISIONS });

    const dry = await json<{ changes: { created: string[]; replaced: string[] }; dryRun: boolean }>(root, ['compact', '--keep', '1', '--dry-run']);
    expect(dry.dryRun).toBe(true);
    expect(dry.changes.created).toEqual([HISTORY_ARCHIVE, DECISIONS_ARCHIVE]);
    expect(read(root, HISTORY)).toBe(HOSTILE_HISTORY);
    expect(fs.existsSync(path.join(root, HISTORY_ARCHIVE))).toBe(false);

    const data = await json<{ files: { path: string; entries: number; moved: number; kept: number }[] }>(root, ['compact', '--keep', '1']);
    const history = data.files.find((f) => f.path === HISTORY)!;
    // Portable Knowledge: 2 list items, a paragraph, 1 more item; Project Learnings: 4 headed
    // entries (the fenced lines and the sub-heading are no entries); the second section: 2. One stays in each.
    expect(history).toMatchObject({ entries: 10, moved: 7, kept: 3 });
    expect(data.files.find((f) => f.path === DECISIONS)).toMatchObject({ entries: 5, moved: 4, kept: 1 });

    const liveHistory = read(root, HISTORY);
    const historyRuns = runsAdded('', read(root, HISTORY_ARCHIVE).slice(read(root, HISTORY_ARCHIVE).indexOf('\n<!--')), 'history.md');
    expect(historyRuns.map((r) => r.section)).toEqual(['2: ## Portable Knowledge', '3: ## Project Learnings', '4: ## Project Learnings']);
    expect(restoredHistory(liveHistory, historyRuns)).toBe(HOSTILE_HISTORY);
    // The unterminated last entry of the file stays, and so does the context section whole.
    expect(liveHistory.endsWith('two, and no line break at the end')).toBe(true);
    expect(liveHistory).toContain('- **Stack:** TypeScript\r\n');

    const decisionRuns = runsAdded('', read(root, DECISIONS_ARCHIVE).slice(read(root, DECISIONS_ARCHIVE).indexOf('\n<!--')), 'decisions.md');
    expect(decisionRuns).toHaveLength(1);
    expect(restoredDecisions(read(root, DECISIONS), decisionRuns)).toBe(HOSTILE_DECISIONS);
    expect(decisionRuns[0]!.text).toContain('## Context\nWhy it came up.'); // the merged document moved whole

    const before = new Map(listFiles(root).map((rel) => [rel, read(root, rel)]));
    const again = await json<{ changes: { created: string[]; replaced: string[]; removed: string[] } }>(root, ['compact', '--keep', '1']);
    expect(again.changes).toMatchObject({ created: [], replaced: [], removed: [] });
    expect(new Map(listFiles(root).map((rel) => [rel, read(root, rel)]))).toEqual(before);
  });

  it('the spawn prompt and its --json (what the MCP tool build_spawn_prompt answers) name the archives, never their content', async () => {
    const root = await initSquad();
    writeFiles(root, { [HISTORY]: HOSTILE_HISTORY, [DECISIONS]: HOSTILE_DECISIONS });
    const before = await json<{ prompt: string; archives: unknown }>(root, ['prompt', 'fenster', '--task', 'fix the login']);
    expect(before.archives).toEqual({ history: null, decisions: null });
    expect(before.prompt).not.toMatch(/Older (history|decisions)/);
    await json(root, ['compact', '--keep', '1']);
    const after = await json<{ prompt: string; archives: unknown }>(root, ['prompt', 'fenster', '--task', 'fix the login']);
    expect(after.archives).toEqual({ history: HISTORY_ARCHIVE, decisions: DECISIONS_ARCHIVE });
    expect(after.prompt).toContain(`Older history: ${HISTORY_ARCHIVE} (`);
    expect(after.prompt).toContain(`Older decisions: ${DECISIONS_ARCHIVE} (`);
    expect(after.prompt).not.toContain('No ORM'); // an archived decision's text
    const other = await json<{ archives: unknown }>(root, ['prompt', 'keaton', '--task', 'fix the login']);
    expect(other.archives).toEqual({ history: null, decisions: DECISIONS_ARCHIVE });
  });

  it("--keep's help gives the default the command uses", () => {
    const row = COMMAND_TABLE.flatMap((entry) => (entry.kind === 'command' ? [entry.row] : [])).find((r) => r.name === 'compact')!;
    expect(row.options?.find((o) => o.flags === '--keep <n>')?.description).toContain(`(default ${DEFAULT_KEEP})`);
  });

  it('one member only, or --decisions only; a bad --keep and both at once are usage errors', async () => {
    const root = await initSquad();
    writeFiles(root, { [HISTORY]: HOSTILE_HISTORY, [DECISIONS]: HOSTILE_DECISIONS });
    const member = await json<{ changes: { created: string[] } }>(root, ['compact', 'Fenster', '--keep', '1']);
    expect(member.changes.created).toEqual([HISTORY_ARCHIVE]);
    const decisions = await json<{ changes: { created: string[] } }>(root, ['compact', '--decisions', '--keep', '1']);
    expect(decisions.changes.created).toEqual([DECISIONS_ARCHIVE]);
    expect((await runCli(['compact', '--keep', 'many'], { cwd: root })).code).toBe(2);
    expect((await runCli(['compact', 'fenster', '--decisions'], { cwd: root })).code).toBe(2);
    expect((await runCli(['compact', 'nobody'], { cwd: root })).stderr).toMatch(/nobody/);
  });

  it('an archive from before (the original Squad keeps one too) only grows at its end', async () => {
    const root = await initSquad();
    const old = '# Keaton — History Archive\n\nEntries archived by hand.';
    writeFiles(root, { [HISTORY]: HOSTILE_HISTORY, [HISTORY_ARCHIVE]: old });
    await json(root, ['compact', 'fenster', '--keep', '1']);
    const archive = read(root, HISTORY_ARCHIVE);
    expect(archive.startsWith(`${old}\n\n<!-- compacted from history.md, section 2: ## Portable Knowledge -->\n`)).toBe(true);
    expect(restoredHistory(read(root, HISTORY), runsAdded(old, archive, 'history.md'))).toBe(HOSTILE_HISTORY);
  });

  it('a file that is not UTF-8 is left as it is, with a warning', async () => {
    const root = await initSquad();
    const bytes = Buffer.concat([Buffer.from('# H\n\n## Learnings\n\n### 2026-01-01: a\n\n### 2026-01-02: b\n\n'), Buffer.from([0xff, 0xfe, 0x0a])]);
    writeFiles(root, { [HISTORY]: bytes });
    const result = await runCli(['compact', 'fenster', '--keep', '0', '--json'], { cwd: root });
    const document = JSON.parse(result.stdout);
    expect(document.warnings.map((w: { code: string }) => w.code)).toEqual(['not-utf8']);
    expect(document.data.changes.created).toEqual([]);
    expect(fs.readFileSync(path.join(root, HISTORY)).equals(bytes)).toBe(true);
  });
});

describe('export carries the archives and import restores them', () => {
  it('export → import → export: the archives come back as they were, and the second export carries them the same', async () => {
    const root = await initSquad();
    writeFiles(root, { [HISTORY]: HOSTILE_HISTORY, [DECISIONS]: HOSTILE_DECISIONS });
    await json(root, ['compact', '--keep', '1']);
    const file = path.join(tempDir(), 'team.squad');
    await json(root, ['export', '--out', file]);
    const document = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(document.agents.fenster.history_archive).toBe(read(root, HISTORY_ARCHIVE));
    expect(document.team.decisions_archive_md).toBe(read(root, DECISIONS_ARCHIVE));

    const target = tempRepo();
    await json(target, ['import', file]);
    expect(read(target, HISTORY_ARCHIVE)).toBe(read(root, HISTORY_ARCHIVE));
    expect(read(target, DECISIONS_ARCHIVE)).toBe(read(root, DECISIONS_ARCHIVE));
    const again = path.join(tempDir(), 'again.squad');
    await json(target, ['export', '--out', again]);
    const second = JSON.parse(fs.readFileSync(again, 'utf8'));
    expect(second.agents.fenster.history_archive).toBe(document.agents.fenster.history_archive);
    expect(second.team.decisions_archive_md).toBe(document.team.decisions_archive_md);
    // The imported history still links to its archive once, and compacting it again moves nothing new.
    expect(read(target, HISTORY).split(archiveLinkLine('history')).length).toBe(2);
  });
});

describe('compact: the decisions inbox merges into decisions.md', () => {
  it('deduplicated by content, ordered by date then name, attributed; removed only once merged', async () => {
    const root = await initSquad();
    writeFiles(root, {
      [DECISIONS]: HOSTILE_DECISIONS,
      [`${INBOX}/lambert-lists.md`]: '### 2026-02-15: Virtualise long lists\r\n**By:** Lambert\r\n**What:** react-window over 200 rows.\r\n',
      [`${INBOX}/ripley-lists.md`]: '### 2026-02-15: Virtualise long lists\n**By:** Lambert\n**What:** react-window over 200 rows.\n\n\n',
      [`${INBOX}/copilot-directive-2026-02-14T09-12-00Z.md`]: 'Never use red or green alone to show state.\n',
      [`${INBOX}/fenster-stack.md`]: '### 2026-02-11: Test stack\n**By:** Kane\n', // already in decisions.md
      [`${INBOX}/notes.txt`]: 'not a decision file',
    });
    const data = await json<{ inbox: { merged: string[]; alreadyMerged: string[]; removed: string[] }; changes: { removed: string[] } }>(root, ['compact', '--decisions']);
    expect(data.inbox).toEqual({
      merged: ['copilot-directive-2026-02-14T09-12-00Z.md', 'lambert-lists.md', 'ripley-lists.md'],
      alreadyMerged: ['fenster-stack.md'],
      removed: ['copilot-directive-2026-02-14T09-12-00Z.md', 'fenster-stack.md', 'lambert-lists.md', 'ripley-lists.md'],
    });
    const decisions = read(root, DECISIONS);
    expect(decisions.startsWith(HOSTILE_DECISIONS)).toBe(true);
    expect(decisions.slice(HOSTILE_DECISIONS.length)).toBe(
      [
        '\n### copilot directive 2026 02 14T09 12 00Z\n\nNever use red or green alone to show state.\n\n**By:** copilot\n',
        '\n### 2026-02-15: Virtualise long lists\n**By:** Lambert\n**What:** react-window over 200 rows.\n',
      ].join(''),
    );
    expect(fs.readdirSync(path.join(root, INBOX)).sort()).toEqual(['.gitkeep', 'notes.txt']);
    const again = await json<{ changes: { replaced: string[]; removed: string[] } }>(root, ['compact', '--decisions']);
    expect(again.changes).toMatchObject({ replaced: [], removed: [] });
  });

  it('a text that is only part of a line of decisions.md is not taken as merged: it is appended, then removed', () => {
    const state: CompactState = {
      histories: [],
      decisions: { path: DECISIONS, text: '# D\n\n### 2026-01-01: installs\n\nUse pnpm for installs.\n', archivePath: DECISIONS_ARCHIVE, archiveText: undefined },
      inbox: [{ name: 'kane-pnpm.md', path: `${INBOX}/kane-pnpm.md`, text: 'Use pnpm' }],
      members: ['kane'],
      warnings: [],
    };
    const plan = withoutFileSystem(() => decideCompaction(state, { keep: 5 }));
    expect(plan.inbox).toEqual({ merged: ['kane-pnpm.md'], alreadyMerged: [], removed: ['kane-pnpm.md'] });
    expect(plan.changes[0]).toMatchObject({ kind: 'replace', content: `${state.decisions!.text}\n### kane pnpm\n\nUse pnpm\n\n**By:** kane\n` });
  });

  it('decided with the file system switched off', () => {
    const state: CompactState = {
      histories: [],
      decisions: { path: DECISIONS, text: '# D\n', archivePath: DECISIONS_ARCHIVE, archiveText: undefined },
      inbox: [{ name: 'kane-x.md', path: `${INBOX}/kane-x.md`, text: 'Use pnpm.' }],
      members: ['kane'],
      warnings: [],
    };
    const plan = withoutFileSystem(() => decideCompaction(state, { keep: 5 }));
    expect(plan.changes).toEqual([
      { kind: 'replace', path: DECISIONS, base: '# D\n', content: '# D\n\n### kane x\n\nUse pnpm.\n\n**By:** kane\n' },
      { kind: 'remove', path: `${INBOX}/kane-x.md` },
    ]);
  });
});

describe('context windows and thresholds', () => {
  const known = { default: 128000, models: { 'gpt-5': 400000, 'gpt-5.1-codex': 400000, 'claude-sonnet-4.5': 200000 } };
  it('a model by its plain name, else the longest known name it extends, else the default; the team first', () => {
    const { settings } = contextSettingsFrom(JSON.stringify({ contextWindows: { 'Claude Sonnet 4.5': 90000 } }), known);
    expect(windowFor(settings, 'gpt-5.1-codex-max')).toEqual({ tokens: 400000, source: 'known' });
    expect(windowFor(settings, 'GPT-5 (copilot)')).toEqual({ tokens: 400000, source: 'known' });
    expect(windowFor(settings, 'claude-sonnet-4.5')).toEqual({ tokens: 90000, source: 'team' });
    expect(windowFor(settings, 'gpt-50')).toEqual({ tokens: 128000, source: 'default' }); // not "gpt-5" extended
    expect(windowFor(settings, undefined)).toEqual({ tokens: 128000, source: 'default' });
  });

  it('thresholds the team sets, and what is not a setting is a warning and the default', () => {
    expect(contextSettingsFrom('{"contextThresholds": {"warn": 30, "over": 60}}', known).settings.thresholds).toEqual({ warn: 30, over: 60 });
    const wrong = contextSettingsFrom('{"contextThresholds": {"warn": 90, "over": 60}, "contextWindows": []}', known);
    expect(wrong.settings.thresholds).toEqual({ warn: 50, over: 80 });
    expect(wrong.warnings.map((w) => w.code)).toEqual(['config-invalid', 'config-invalid']);
    expect(contextSettingsFrom('not json', known).warnings.map((w) => w.message)).toEqual(['.ai-team/config.json: is not valid JSON; the defaults are used instead']);
  });
});

describe('context: each member against its window', () => {
  it("the prompt's parts are the spawn prompt's own token counts; history and decisions the files'", async () => {
    const root = await initSquad();
    writeFiles(root, { [HISTORY]: HOSTILE_HISTORY, [DECISIONS]: HOSTILE_DECISIONS, '.ai-team/rules.md': '# Rules\n\n## Standing rules\n\n- Always use tabs.\n' });
    const gauge = await json<{ members: { member: string; parts: Record<string, number>; total: number }[] }>(root, ['context']);
    const prompt = await json<{ tokens: Record<string, number> }>(root, ['prompt', 'fenster', '--task', '(the task)']);
    const fenster = gauge.members.find((m) => m.member === 'fenster')!;
    expect(fenster.parts).toMatchObject({
      charter: prompt.tokens.charter,
      standingRules: prompt.tokens.standingRules,
      skills: prompt.tokens.skills,
      mcp: prompt.tokens.mcp,
      prompt: prompt.tokens.other,
      history: estimateTokens(HOSTILE_HISTORY),
      decisions: estimateTokens(HOSTILE_DECISIONS),
    });
    expect(prompt.tokens.standingRules).toBeGreaterThan(0);
    expect(fenster.total).toBe(Object.values(fenster.parts).reduce((a, b) => a + b, 0));
  });

  it("a member's model from its agent (a list: the first), windows the team overrides in config.json, thresholds it sets", async () => {
    const root = await initSquad();
    const agent = '.github/agents/fenster.agent.md';
    writeFiles(root, { [agent]: read(root, agent).replace(/^---\n/, '---\nmodel:\n  - GPT-5 (copilot)\n  - claude-sonnet-4.5\n') });
    let gauge = await json<{ members: { member: string; model: string | null; window: { tokens: number; source: string } }[] }>(root, ['context']);
    expect(gauge.members.find((m) => m.member === 'fenster')).toMatchObject({ model: 'GPT-5 (copilot)', window: { tokens: 400000, source: 'known' } });
    expect(gauge.members.find((m) => m.member === 'keaton')).toMatchObject({ model: null, window: { tokens: 128000, source: 'default' } });

    writeFiles(root, { '.ai-team/config.json': JSON.stringify({ model: 'kept', contextWindows: { 'gpt-5': 3000, default: 2000 }, contextThresholds: { warn: 10, over: 20 } }) });
    const result = await runCli(['context', '--json'], { cwd: root });
    const document = JSON.parse(result.stdout);
    expect(document.data.members.find((m: { member: string }) => m.member === 'fenster')).toMatchObject({ window: { tokens: 3000, source: 'team' }, level: 'over' });
    expect(document.data.thresholds).toEqual({ warn: 10, over: 20 });
    expect(document.warnings.map((w: { code: string }) => w.code)).toContain('context-over-threshold');

    writeFiles(root, { '.ai-team/config.json': '{"contextWindows": {"gpt-5": -1}}' });
    gauge = JSON.parse((await runCli(['context', 'fenster', '--json'], { cwd: root })).stdout);
    expect((gauge as unknown as { warnings: { code: string }[] }).warnings.map((w) => w.code)).toEqual(['config-invalid']);
  });

  it('doctor reports a member over the threshold', async () => {
    const root = await initSquad();
    writeFiles(root, { '.ai-team/config.json': JSON.stringify({ contextWindows: { default: 1000 } }) });
    const report: { findings: { code: string; path?: string; severity: string }[] } = JSON.parse((await runCli(['doctor', '--json'], { cwd: root })).stdout).data;
    const over = report.findings.filter((f) => f.code === 'context-over-threshold');
    expect(over.map((f) => f.path).sort()).toEqual(['.ai-team/agents/fenster', '.ai-team/agents/hockney', '.ai-team/agents/keaton', '.ai-team/agents/scribe']);
    expect(over.every((f) => f.severity === 'warning')).toBe(true);
  });
});

/** A deterministic stream of words (a linear congruential generator): the same squad every run. */
function wordsFrom(seed: number): (count: number) => string {
  const words = ['cache', 'route', 'schema', 'token', 'review', 'deploy', 'retry', 'index', 'query', 'render', 'lock', 'queue', 'audit', 'budget', 'parser', 'client'];
  let state = seed;
  return (count) =>
    Array.from({ length: count }, () => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return words[state % words.length];
    }).join(' ');
}

/** A history with `entries` dated entries in each of its two learning sections, in the template's layout. */
function longHistory(name: string, entries: number, seed: number): string {
  const words = wordsFrom(seed);
  const entry = (i: number) => `### 2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}: ${words(5)}\n\n- ${words(30)}\n- ${words(25)}\n\n`;
  return [
    `# ${name} — History\n\n## Project Context\n\n- **Project:** a large generated squad\n\n## Portable Knowledge\n\n<!-- hint -->\n\n`,
    ...Array.from({ length: entries }, (_, i) => entry(i)),
    '## Project Learnings\n\n<!-- hint -->\n\n',
    ...Array.from({ length: entries }, (_, i) => entry(i + entries)),
  ].join('');
}

/** decisions.md of about `bytes`, in the template's layout: dated entries with By, What and Why. */
function longDecisions(bytes: number): string {
  const words = wordsFrom(7);
  let text =
    '# Team Decisions\n\nDecisions every member follows. Newer entries override older ones on the same topic.\n\n<!-- Scribe appends merged decisions below this line. -->\n\n';
  for (let i = 0; text.length < bytes; i += 1) {
    text += `### 2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}: ${words(6)}\n**By:** Keaton\n**What:** ${words(45)}\n**Why:** ${words(30)}\n\n`;
  }
  return text;
}

describe('a large squad: over the threshold, compacted, under it, and every byte in an archive', () => {
  it('a 300 KB decisions.md and long histories', async () => {
    const root = await initSquad();
    const members = ['fenster', 'hockney', 'keaton'];
    const originals: Record<string, string> = { [DECISIONS]: longDecisions(300 * 1024) };
    members.forEach((member, i) => {
      originals[`.ai-team/agents/${member}/history.md`] = longHistory(member, 150, 11 + i);
    });
    writeFiles(root, originals);
    expect(originals[DECISIONS]!.length).toBeGreaterThanOrEqual(300 * 1024);

    type Gauge = { members: { member: string; total: number; percent: number; level: string }[]; thresholds: { over: number } };
    const before = await json<Gauge>(root, ['context']);
    for (const member of members) expect(before.members.find((m) => m.member === member)!.level).toBe('over');
    const shownBefore = (await runCli(['context'], { cwd: root })).stdout;

    const compacted = await runCli(['compact'], { cwd: root });
    expect(compacted.code).toBe(0);
    const after = await json<Gauge>(root, ['context']);
    for (const member of members) expect(after.members.find((m) => m.member === member)!.percent).toBeLessThan(after.thresholds.over / 4);
    expect(after.members.every((m) => m.level === 'ok')).toBe(true);

    for (const member of members) {
      const live = `.ai-team/agents/${member}/history.md`;
      const archive = readOrEmpty(root, `.ai-team/agents/${member}/history-archive.md`);
      expect(restoredHistory(read(root, live), runsAdded('', archive.slice(archive.indexOf('\n<!--')), 'history.md'))).toBe(originals[live]);
    }
    const decisionsArchive = read(root, DECISIONS_ARCHIVE);
    expect(restoredDecisions(read(root, DECISIONS), runsAdded('', decisionsArchive.slice(decisionsArchive.indexOf('\n<!--')), 'decisions.md'))).toBe(originals[DECISIONS]);

    // The closing note of this work shows the two outputs: CREATE_SQUAD_CONTEXT_DEMO names where to put them.
    const demo = process.env.CREATE_SQUAD_CONTEXT_DEMO;
    if (demo) {
      const shownAfter = (await runCli(['context'], { cwd: root })).stdout;
      fs.writeFileSync(
        demo,
        `$ create-squad context   # before compact\n${shownBefore}\n$ create-squad compact\n${compacted.stdout}\n$ create-squad context   # after\n${shownAfter}`,
      );
    }
  });
});
