/**
 * What the shipped text says about the CLI agrees with the CLI. Every `create-squad …` command line
 * in the coordinator (`squad.agent.md`), the templates (built-in skills, team files, prompts), the
 * README and docs/ is parsed by the real command definitions (the commander program `buildProgram`
 * builds from COMMAND_TABLE, with each command's action replaced by a recorder): the command exists,
 * every flag exists for it, its operands fit. Synopsis lines (`[--flag <value>]`, `a | b`,
 * `(x | y)`) are expanded into the command lines they stand for. Then the rules the text states
 * that the code decides: the coordinator's CLI reference covers every command it and its built-in
 * skills run, the skill precedence (discovery's order), where `hire` puts new rows, and that no
 * shipped text or next step runs an unpinned `npx create-squad`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { type Command, CommanderError } from '../../src/cli/commander.js';
import type { TableCommand } from '../../src/cli/command-table.js';
import type { Io } from '../../src/cli/io.js';
import { COMMAND_TABLE, PROGRAM_NAME, buildProgram } from '../../src/cli/program.js';
import { createUi } from '../../src/cli/ui.js';
import { PACKAGE_BUILTIN_SKILLS_DIR, PACKAGE_COORDINATOR_SOURCE, SKILL_FILE, agentSkillsDir } from '../../src/core/base/paths.js';
import { packageVersion } from '../../src/core/fs/version.js';
import { isRosterHeader } from '../../src/core/roster/roster.js';
import { isRoutingHeader } from '../../src/core/scaffold/scaffold.js';
import { SCOPE_PRECEDENCE, type SkillScope, discoverSkills } from '../../src/core/squad/discover.js';
import { REPO_ROOT, cleanupTempDirs, initSquad, runCli, runOk, tempDir, validSkill, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

// ---------------------------------------------------------------------------------------------
// The shipped text

interface ShippedText {
  /** Repository-relative path. */
  source: string;
  text: string;
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => (entry.isFile() ? [path.join(entry.parentPath, entry.name)] : []));
}

/** A template as its reader sees it: handlebars comments (notes for maintainers) are not rendered. */
function readShipped(file: string): ShippedText {
  const text = fs.readFileSync(file, 'utf8');
  return { source: path.relative(REPO_ROOT, file).split(path.sep).join('/'), text: file.endsWith('.hbs') ? text.replace(/\{\{!--[\s\S]*?--\}\}/g, '') : text };
}

const TEMPLATES_DIR = path.join(REPO_ROOT, 'templates');
const coordinator = readShipped(PACKAGE_COORDINATOR_SOURCE);
const templates = filesUnder(TEMPLATES_DIR)
  .filter((file) => /\.(md|hbs|json)$/.test(file))
  .sort()
  .map(readShipped);
const docs = fs
  .readdirSync(path.join(REPO_ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .sort()
  .map((name) => readShipped(path.join(REPO_ROOT, 'docs', name)));
const readme = readShipped(path.join(REPO_ROOT, 'README.md'));
const SHIPPED: readonly ShippedText[] = [coordinator, ...templates, readme, ...docs];

/** The coordinator and the built-in skills (with their references): what the coordinator acts on. */
const COORDINATOR_AND_SKILLS: readonly ShippedText[] = [coordinator, ...templates.filter((t) => t.source.startsWith('templates/skills/'))];

// ---------------------------------------------------------------------------------------------
// Finding command lines

const FENCED_BLOCK = /^[ \t]*(`{3,}|~{3,})[^\n]*\n([\s\S]*?)^[ \t]*\1[ \t]*$/gm;

/**
 * Where a reader takes a text as a command: each line of a fenced block (a trailing ` \` joins the
 * next), each inline code span, and each double-quoted phrase of the prose (`run "create-squad
 * upgrade"`, as the CLI's own hints write it).
 */
function commandSegments(text: string): string[] {
  const blocks = [...text.matchAll(FENCED_BLOCK)].flatMap((match) => match[2]!.replace(/[ \t]*\\\n[ \t]*/g, ' ').split('\n'));
  const prose = text.replace(FENCED_BLOCK, '');
  const spans = [...prose.matchAll(/(`+)([^`]+?)\1(?!`)/g)].map((match) => match[2]!.replace(/\s*\n\s*/g, ' '));
  const quoted = [...prose.replace(/(`+)[^`]+?\1(?!`)/g, '').matchAll(/"([^"\n]+)"/g)].map((match) => match[1]!);
  return [...blocks, ...spans, ...quoted];
}

/**
 * A command line: the program name, run directly or through `npx [flags]`, at the start of a
 * segment (after a `$ ` prompt, or after `&&` or `;` in a shell line). The program named inside a
 * sentence (`upgrade create-squad to 1.2.0`, `what create-squad replaced`) runs nothing.
 */
const COMMAND_START = new RegExp(`^\\s*(?:\\$\\s+)?(?:(npx(?: --?[a-z-]+)*) )?${PROGRAM_NAME}(?:@(\\S+?))?(?=\\s|$)`);

interface CommandLine {
  source: string;
  /** The line from the program name on. */
  line: string;
  /** What follows the program name (and its `@version`). */
  rest: string;
  /** The npx words before the program name, when it is run through npx. */
  npx?: string;
  /** The `@…` after the program name. */
  pinned?: string;
}

/**
 * Every command line in a text, up to the end of its segment or a `#` comment. A program name
 * followed by nothing or by `…` names the CLI; it runs nothing.
 */
function commandLines({ source, text }: ShippedText): CommandLine[] {
  const found: CommandLine[] = [];
  for (const piece of commandSegments(text).flatMap((segment) => segment.split(/\s(?:&&|\|\||;)\s/))) {
    const match = COMMAND_START.exec(piece);
    if (!match) continue;
    const rest = piece
      .slice(match[0].length)
      .replace(/(^|\s)#\s.*$/, '')
      .trim();
    if (rest === '' || /^(…|\.\.\.)/.test(rest)) continue;
    found.push({
      source,
      line: `${PROGRAM_NAME}${match[2] ? `@${match[2]}` : ''} ${rest}`,
      rest,
      ...(match[1] ? { npx: match[1] } : {}),
      ...(match[2] ? { pinned: match[2] } : {}),
    });
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Synopsis lines: the command lines they stand for

type Token = { kind: 'word'; text: string; quoted?: true } | { kind: 'open'; bracket: '[' | '(' } | { kind: 'close'; bracket: ']' | ')' } | { kind: 'or' };

/**
 * Shell-like words (quotes grouped and removed), with the synopsis syntax apart: `[` `]` `(` `)`
 * around words and a free-standing `|`. A `<placeholder>` with spaces is one word; a word with a
 * bracket inside (`owner/repo[/path]`) keeps it.
 */
function tokenize(rest: string): Token[] {
  const tokens: Token[] = [];
  const words = rest.match(/"[^"]*"|'[^']*'|<[^<>]*>[^\s"'[\]()]*|[^\s"']+(?:"[^"]*"[^\s"']*)*/g) ?? [];
  for (const raw of words) {
    if (/^["']/.test(raw)) {
      tokens.push({ kind: 'word', text: raw.slice(1, -1), quoted: true });
      continue;
    }
    let word = raw;
    const closes: Token[] = [];
    while (/^[[(]/.test(word)) {
      tokens.push({ kind: 'open', bracket: word[0] as '[' | '(' });
      word = word.slice(1);
    }
    // A closing bracket ends a group unless it closes one opened inside the word.
    while (/[\])]$/.test(word) && count(word, word.endsWith(']') ? '[' : '(') < count(word, word.at(-1)!)) {
      closes.unshift({ kind: 'close', bracket: word.at(-1) as ']' | ')' });
      word = word.slice(0, -1);
    }
    if (word === '|') tokens.push({ kind: 'or' });
    else if (word !== '') tokens.push({ kind: 'word', text: word });
    tokens.push(...closes);
  }
  return tokens;
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

/** A synopsis as a tree: a sequence of words and groups; a group is optional (`[…]`) or a choice (`(…)`), each of alternatives. */
type Item = { kind: 'word'; text: string } | { kind: 'group'; optional: boolean; alternatives: Item[][] };

function parseSynopsis(tokens: Token[]): Item[][] {
  let at = 0;
  const alternatives = (closing?: ']' | ')'): Item[][] => {
    const alts: Item[][] = [[]];
    while (at < tokens.length) {
      const token = tokens[at++]!;
      if (token.kind === 'close') {
        if (token.bracket !== closing) throw new Error(`unbalanced "${token.bracket}"`);
        return alts;
      }
      if (token.kind === 'or') alts.push([]);
      else if (token.kind === 'open') alts.at(-1)!.push({ kind: 'group', optional: token.bracket === '[', alternatives: alternatives(token.bracket === '[' ? ']' : ')') });
      else alts.at(-1)!.push(wordItem(token.text));
    }
    if (closing !== undefined) throw new Error(`"${closing}" missing`);
    return alts;
  };
  return alternatives();
}

/** A word whose alternatives are written without spaces (`standard|lightweight`) is a choice; a `<placeholder|with bar>` is one word. */
function wordItem(text: string): Item {
  if (!text.includes('|') || /[<>{}]/.test(text)) return { kind: 'word', text };
  return { kind: 'group', optional: false, alternatives: text.split('|').map((alt) => [{ kind: 'word', text: alt }]) };
}

/**
 * The command lines a synopsis stands for, without trying every combination: the shortest (every
 * optional part left out, the first of each choice), the longest (every optional part in), and each
 * alternative of each group on its own.
 */
function expand(alternatives: Item[][]): string[][] {
  return alternatives.flatMap(expandSequence);
}

function expandSequence(items: Item[]): string[][] {
  const choices = items.map((item): string[][] => (item.kind === 'word' ? [[item.text]] : [...(item.optional ? [[]] : []), ...expand(item.alternatives)]));
  const shortest = choices.map((options) => options[0]!);
  const longest = choices.map((options, i) => (items[i]!.kind === 'group' && (items[i] as { optional: boolean }).optional ? (options[1] ?? options[0]!) : options[0]!));
  const lines = [shortest.flat(), longest.flat()];
  choices.forEach((options, i) => {
    for (const option of options) lines.push(shortest.flatMap((chosen, j) => (j === i ? option : chosen)));
  });
  const unique = new Map(lines.map((line) => [JSON.stringify(line), line]));
  return [...unique.values()];
}

// ---------------------------------------------------------------------------------------------
// Parsing with the real program

class NullStream extends Writable {
  override _write(_chunk: unknown, _encoding: string, done: () => void): void {
    done();
  }
}

/** Outside every repository: where the default command takes a plain word for a new folder. */
const OUTSIDE = fs.realpathSync(os.tmpdir());

function tableRow(commandPath: string): TableCommand['row'] | undefined {
  for (const entry of COMMAND_TABLE) {
    if (entry.kind === 'command' && entry.row.name === commandPath) return entry.row;
    if (entry.kind === 'group') for (const sub of entry.commands) if (`${entry.name} ${sub.row.name}` === commandPath) return sub.row;
  }
  return undefined;
}

function commandPathOf(cmd: Command): string {
  const names: string[] = [];
  for (let current: Command | null = cmd; current?.parent; current = current.parent) names.unshift(current.name());
  return names.join(' ');
}

interface Parsed {
  /** The command the words run ("skills list"); undefined when they only show help or the version. */
  command?: string;
  /** Why the CLI refuses the words, as it says it. */
  error?: string;
}

/**
 * Parse `words` (what follows the program name) with the program `create-squad` runs, every
 * action replaced by one that checks the operands as the command's own row does and runs nothing.
 */
async function parseWithProgram(words: readonly string[]): Promise<Parsed> {
  const ui = createUi({ stdout: new NullStream(), stderr: new NullStream(), env: {} });
  const sink: { message?: string } = {};
  const io: Io = { cwd: OUTSIDE, env: {}, stdinIsTTY: false, stdoutIsTTY: false, readStdin: async () => '' };
  const program = buildProgram(packageVersion(), ui, sink, io);
  const result: Parsed = {};
  const replaceActions = (cmd: Command): void => {
    for (const sub of cmd.commands) {
      if (sub.commands.length > 0) {
        replaceActions(sub);
        continue;
      }
      sub.action(async () => {
        const commandPath = commandPathOf(sub);
        result.command = commandPath;
        const declared = sub.registeredArguments;
        const variadic = declared.at(-1)?.variadic === true;
        if (!variadic && sub.args.length > declared.length) throw new CommanderError(2, 'excess', `too many arguments for '${commandPath}': ${sub.args.join(' ')}`);
        // The row's own refusals (init without the word init: a command-like word is not a folder),
        // as for a user who confirms: a line in a text is run on a terminal or with --yes.
        await tableRow(commandPath)?.check?.({ operands: sub.args, parsed: { ...sub.opts(), yes: true }, program, io });
      });
    }
  };
  replaceActions(program);
  try {
    await program.parseAsync([...words], { from: 'user' });
  } catch (error) {
    // `--help` and `--version` run nothing; a group without its subcommand (help shown as an error) is refused.
    if (error instanceof CommanderError && ['commander.helpDisplayed', 'commander.version'].includes(error.code)) return {};
    return { ...result, error: sink.message ?? (error as Error).message };
  }
  return result;
}

interface LineCheck {
  line: CommandLine;
  /** Every command the line runs (one per expansion that parses). */
  commands: Set<string>;
  /** Each refused expansion with the CLI's reason. */
  refused: string[];
}

/** Every command's words ("init", "skills list") and every group's ("skills"). */
const COMMAND_PATHS = new Set(
  COMMAND_TABLE.flatMap((entry) => (entry.kind === 'command' ? [entry.row.name] : [entry.name, ...entry.commands.map((sub) => `${entry.name} ${sub.row.name}`)])),
);

async function checkLine(line: CommandLine): Promise<LineCheck> {
  const check: LineCheck = { line, commands: new Set(), refused: [] };
  // A title (`create-squad bench — a benchmark's heading`) runs nothing.
  if (/^\S+ — /.test(line.rest)) return check;
  let tokens: Token[];
  let expansions: string[][];
  try {
    tokens = tokenize(line.rest);
    const last = tokens.at(-1);
    if (last?.kind === 'word' && !last.quoted && /^(…|\.\.\.)$/.test(last.text)) tokens.pop();
    expansions = expand(parseSynopsis(tokens));
  } catch (error) {
    check.refused.push(`unreadable synopsis: ${(error as Error).message}`);
    return check;
  }
  const words = tokens.flatMap((token) => (token.kind === 'word' ? [token.text] : []));
  // A command named, not run: `create-squad prompt` renders the prompt.
  if (words.length === tokens.length && COMMAND_PATHS.has(words.join(' '))) {
    check.commands.add(words.join(' '));
    return check;
  }
  for (const expansion of expansions) {
    const parsed = await parseWithProgram(expansion);
    if (parsed.command) check.commands.add(parsed.command);
    if (parsed.error) check.refused.push(`${expansion.join(' ')} → ${parsed.error}`);
  }
  return check;
}

async function checkAll(texts: readonly ShippedText[]): Promise<LineCheck[]> {
  const checks: LineCheck[] = [];
  for (const text of texts) for (const line of commandLines(text)) checks.push(await checkLine(line));
  return checks;
}

const refusals = (checks: readonly LineCheck[]): string[] => checks.flatMap((c) => c.refused.map((why) => `${c.line.source}: ${c.line.line}\n    ${why}`));

// ---------------------------------------------------------------------------------------------

describe('every create-squad command line in shipped text runs with the real command definitions', () => {
  it('the coordinator, the templates, the README and docs/ run only commands, flags and operands the CLI takes', async () => {
    const checks = await checkAll(SHIPPED);
    expect(refusals(checks)).toEqual([]);
    // Each kind of text holds command lines, so a change in how they are found cannot pass unnoticed.
    for (const prefix of ['squad.agent.md', 'templates/skills/', 'templates/squad/', 'README.md', 'docs/']) {
      expect(checks.filter((c) => c.line.source.startsWith(prefix) && c.commands.size > 0).length, prefix).toBeGreaterThan(0);
    }
  });

  it('refuses a hostile text: an unknown command, a flag of another command, a missing or an extra operand, a bad choice', async () => {
    const hostile = [
      '`create-squad hier "DevOps"`',
      '`create-squad members --name x`',
      '`create-squad skills add --agent fenster`',
      '`create-squad retire keaton fenster`',
      '`create-squad prompt fenster --mode heavy --task "x"`',
      '```\ncreate-squad route ("<task>" | --task-files <path>)\n```',
      'Run "create-squad upgrade --force" when stuck.',
    ].join('\n\n');
    const checks = await checkAll([{ source: 'hostile.md', text: hostile }]);
    expect(checks.map((c) => c.refused.length > 0)).toEqual(hostile.split('\n\n').map(() => true));
    expect(refusals(checks).join('\n')).toMatch(/unknown option '--task-files'/);
  });

  it('takes synopsis lines apart and names without running them', async () => {
    const text = [
      '`create-squad teach (<agent> "<instruction>" | --team "<instruction>") [--rule | --skill]`',
      '`create-squad prompt` renders the prompt; `create-squad@{version} skills …` for the rest',
      '```\n$ npx --no-install create-squad init --yes # defaults\ncreate-squad bench — a title, not a command\n```',
      'a sentence: upgrade create-squad to 1.2.0; `chore(squad): upgrade create-squad to x.y.z`',
    ].join('\n\n');
    const checks = await checkAll([{ source: 'synopsis.md', text }]);
    expect(refusals(checks)).toEqual([]);
    // Fenced blocks first, then code spans, then quoted phrases.
    expect(checks.map((c) => [...c.commands])).toEqual([['init'], [], ['teach'], ['prompt'], ['skills']]);
  });
});

// ---------------------------------------------------------------------------------------------
// The coordinator's CLI reference

const REFERENCE_HEADING = '## CLI reference';

/** The lines of the coordinator's CLI reference: `create-squad` followed by each line of its block. */
function referenceLines(): CommandLine[] {
  const section = coordinator.text.slice(coordinator.text.indexOf(REFERENCE_HEADING)).split(/\n## /)[0]!;
  const block = [...section.matchAll(FENCED_BLOCK)][0]?.[2] ?? '';
  return block
    .split('\n')
    .map((line) => line.replace(/(^|\s)#\s.*$/, '').trim())
    .filter((line) => line !== '')
    .map((rest) => ({ source: `squad.agent.md (${REFERENCE_HEADING})`, line: `${PROGRAM_NAME} ${rest}`, rest }));
}

/** Every command that runs something ("init", "skills list"), in table order. */
const LEAF_COMMANDS = COMMAND_TABLE.flatMap((entry) => (entry.kind === 'command' ? [entry.row.name] : entry.commands.map((sub) => `${entry.name} ${sub.row.name}`)));

describe("the coordinator's CLI reference", () => {
  it('lists every command of the CLI, once, in the order of its help, each line as the CLI takes it', async () => {
    const checks: LineCheck[] = [];
    for (const line of referenceLines()) checks.push(await checkLine(line));
    expect(refusals(checks)).toEqual([]);
    expect(checks.map((c) => [...c.commands].join(' | '))).toEqual(LEAF_COMMANDS);
  });

  it('covers every command the coordinator and its built-in skills run', async () => {
    const listed = new Set(LEAF_COMMANDS);
    const used = (await checkAll(COORDINATOR_AND_SKILLS)).flatMap((c) => [...c.commands].map((command) => `${c.line.source}: ${command}`));
    expect(used.length).toBeGreaterThan(40);
    expect(used.filter((entry) => !listed.has(entry.slice(entry.indexOf(': ') + 2)) && !COMMAND_PATHS.has(entry.slice(entry.indexOf(': ') + 2)))).toEqual([]);
    const reference = new Set((await Promise.all(referenceLines().map(checkLine))).flatMap((c) => [...c.commands]));
    const leaves = used.map((entry) => entry.slice(entry.indexOf(': ') + 2)).filter((command) => listed.has(command));
    expect(leaves.filter((command) => !reference.has(command))).toEqual([]);
  });

  it('states the options every command shares as the table declares them', () => {
    const ui = createUi({ stdout: new NullStream(), stderr: new NullStream(), env: {} });
    const program = buildProgram(packageVersion(), ui, {}, { cwd: OUTSIDE, env: {}, stdinIsTTY: false, stdoutIsTTY: false, readStdin: async () => '' });
    const leaves: Command[] = program.commands.flatMap((cmd) => (cmd.commands.length > 0 ? cmd.commands : [cmd]));
    const having = (flag: string) => leaves.filter((cmd) => cmd.options.some((o) => o.long === flag)).map(commandPathOf);
    const writing = LEAF_COMMANDS.filter((command) => tableRow(command)!.writes !== false);
    expect(having('--cwd')).toEqual(LEAF_COMMANDS);
    expect(LEAF_COMMANDS.filter((command) => !having('--json').includes(command))).toEqual(['mcp']);
    expect(having('--dry-run')).toEqual(writing);
    const section = coordinator.text.slice(coordinator.text.indexOf(REFERENCE_HEADING));
    expect(section).toContain('Every command takes `--cwd <dir>` and `--help`, every one but `mcp` takes `--json`, and every one that writes takes `--dry-run`');
  });
});

// ---------------------------------------------------------------------------------------------
// Skill precedence

/**
 * The places a skill can come from, lowest precedence first, as discovery ranks them: the scopes
 * of SCOPE_PRECEDENCE, with the team scope's folders in the order discovery lets them override one
 * another (found by asking discovery, not by restating its loop).
 */
function precedenceFromCode(): { rank: string; pattern: RegExp }[] {
  const root = tempDir();
  const name = 'clash';
  const teamDirs = ['.ai-team/skills', '.agents/skills', '.claude/skills', '.github/skills'];
  writeFiles(root, Object.fromEntries(teamDirs.map((dir) => [`${dir}/${name}/${SKILL_FILE}`, validSkill(name)])));
  const teamOrder: string[] = [];
  for (let left = teamDirs.length; left > 0; left -= 1) {
    const winner = discoverSkills(root).skills.find((skill) => skill.dirName === name)!;
    const dir = winner.location.slice(0, -`/${name}/${SKILL_FILE}`.length);
    teamOrder.unshift(dir);
    fs.rmSync(path.join(root, dir, name), { recursive: true });
  }
  const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const byScope: Record<SkillScope, { rank: string; pattern: RegExp }[]> = {
    // A built-in named where it is installed (`.github/skills/squad-*`) is still a built-in.
    builtin: [{ rank: 'built-in', pattern: /\bbuilt-ins?\b|(?:\.github|\.ai-team)\/skills\/squad-/gi }],
    team: teamOrder.map((dir) => {
      // `.agents/` and `.claude/` hold nothing but skills, so their short form names them too.
      const short = dir.startsWith('.github') || dir.startsWith('.ai-team') ? '' : `|${escapeRegExp(dir.split('/')[0]!)}\\/(?![\\w{])`;
      return { rank: dir, pattern: new RegExp(`${escapeRegExp(dir)}(?!\\/squad-)(?![\\w-])${short}`, 'g') };
    }),
    agent: [{ rank: 'agent', pattern: new RegExp(`${escapeRegExp(agentSkillsDir('{x}')).replace('\\{x\\}', '\\{[a-z]+\\}')}|\\bagent skills?\\b|member's own skills?`, 'gi') }],
  };
  return SCOPE_PRECEDENCE.flatMap((scope) => byScope[scope]);
}

/** Sentences, list items and table rows: the units a precedence is stated in. */
function statements(text: string): string[] {
  const units: string[] = [];
  for (const block of text.replace(FENCED_BLOCK, '').split(/\n\s*\n/)) {
    const items = block.split(/\n(?=\s*(?:[-*|] |\d+\. ))/);
    for (const item of items) units.push(...item.replace(/\s*\n\s*/g, ' ').split(/(?<=[.!?])\s+(?=[A-Z`*(])/));
  }
  return units;
}

const PRECEDENCE_WORDS = /\bwins?\b|overrid|precedence|name clash|gives? way|lowest first|highest first/i;

describe('the skill precedence is stated in one order everywhere: the order discovery applies, lowest first', () => {
  const ranks = precedenceFromCode();

  /** The ranks a statement names, in the order it first names them. */
  function namedRanks(statement: string): number[] {
    const firsts = ranks.map(({ pattern }, rank) => ({ rank, at: Math.min(...[...statement.matchAll(pattern)].map((m) => m.index)) }));
    return firsts
      .filter(({ at }) => Number.isFinite(at))
      .sort((a, b) => a.at - b.at)
      .map(({ rank }) => rank);
  }

  it('discovery ranks built-in, then .ai-team/skills, .claude, .agents, .github, then a member’s own', () => {
    expect(ranks.map((r) => r.rank)).toEqual(['built-in', '.ai-team/skills', '.claude/skills', '.agents/skills', '.github/skills', 'agent']);
  });

  it('every statement of it in shipped text names the places lowest first', () => {
    const stated: string[] = [];
    const wrong: string[] = [];
    for (const { source, text } of SHIPPED) {
      for (const statement of statements(text)) {
        const named = namedRanks(statement);
        if (named.length < 2 || !PRECEDENCE_WORDS.test(statement)) continue;
        stated.push(source);
        if (named.some((rank, i) => i > 0 && rank < named[i - 1]!)) wrong.push(`${source}: ${statement}`);
      }
    }
    expect(wrong).toEqual([]);
    // The statements the coordinator acts on are among those checked.
    expect(stated).toEqual(expect.arrayContaining(['squad.agent.md', 'templates/skills/squad-manual-spawn/SKILL.md']));
  });

  it('catches a statement in another order', () => {
    const hostile = 'On a name clash the later folder wins: `.ai-team/skills/`, `.github/skills/`, `.agents/skills/`, `.claude/skills/`.';
    const named = namedRanks(statements(hostile)[0]!);
    expect(named.some((rank, i) => i > 0 && rank < named[i - 1]!)).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// Where hire puts new rows

describe('squad-team-changes says where hire puts new roster and routing rows', () => {
  it('above Scribe’s row, which stays last, as a real hire does', async () => {
    const root = await initSquad();
    await runOk(root, ['hire', 'DevOps', '--name', 'Kobayashi']);
    const rowsOf = (file: string, isHeader: (columns: string[]) => boolean): string[] => {
      const lines = fs.readFileSync(path.join(root, '.ai-team', file), 'utf8').split('\n');
      const header = lines.findIndex((line) =>
        isHeader(
          line
            .split('|')
            .slice(1, -1)
            .map((cell) => cell.trim().toLowerCase()),
        ),
      );
      const rows: string[] = [];
      for (let i = header + 2; lines[i]?.startsWith('|'); i += 1) rows.push(lines[i]!);
      return rows;
    };
    for (const rows of [rowsOf('team.md', isRosterHeader), rowsOf('routing.md', isRoutingHeader)]) {
      expect(rows.at(-1)).toMatch(/\| Scribe \|/);
      expect(rows.at(-2)).toMatch(/\| Kobayashi \|/);
    }
    const skill = fs.readFileSync(path.join(PACKAGE_BUILTIN_SKILLS_DIR, 'squad-team-changes', SKILL_FILE), 'utf8').replace(/\s+/g, ' ');
    expect(skill).toContain("New rows go above Scribe's row, which stays last in both tables, as `hire` adds them.");
    expect(skill).toContain("each just above Scribe's row");
    expect(skill).not.toMatch(/after Scribe's|at the end of the (Members|Routing) [Tt]able/);
  });
});

// ---------------------------------------------------------------------------------------------
// Pinned command lines (base/cli-invocation.ts: the one rule)

/** The placeholder the install (coordinator.ts pinCliVersion) or the renderer (team.md's `{{version}}`) sets to the version writing the file. */
const VERSION_PLACEHOLDER = /^\{\{?version\}\}?$/;

/**
 * What is wrong with how a command line runs create-squad through npx in `text`, or undefined:
 * `@latest` (whatever the registry holds) anywhere; in text written into a squad (`intoSquad`), a
 * version that is not the placeholder, no version at all, or `--no-install` outside the paragraph
 * that defines the CLI as the repository's install else the pinned version (which fails where a
 * one-off npx made the squad); elsewhere (README, docs), no version except for the first `init` of
 * a user who has nothing yet.
 */
async function npxProblem(line: CommandLine, text: string, intoSquad: boolean): Promise<string | undefined> {
  if (line.npx === undefined) return undefined;
  if (line.pinned === 'latest') return '@latest runs whatever the registry holds';
  if (intoSquad) {
    if (/--no-install\b/.test(line.npx)) {
      const at = text.indexOf(`${line.npx} ${PROGRAM_NAME} ${line.rest}`);
      const paragraph = at < 0 ? '' : text.slice(text.lastIndexOf('\n\n', at) + 1, (text.indexOf('\n\n', at) + 1 || text.length + 1) - 1);
      return /create-squad@\{version\}/.test(paragraph) ? undefined : '--no-install fails where no install is there: give the pinned form';
    }
    if (line.pinned === undefined) return 'unpinned: runs whatever the registry holds';
    return VERSION_PLACEHOLDER.test(line.pinned) ? undefined : `pinned to ${line.pinned}, not to the version writing the file`;
  }
  if (line.pinned !== undefined || /--no-install\b/.test(line.npx)) return undefined;
  return (await checkLine(line)).commands.has('init') ? undefined : 'unpinned: runs whatever the registry holds';
}

async function npxProblems(texts: readonly ShippedText[], intoSquad: boolean): Promise<string[]> {
  const problems: string[] = [];
  for (const text of texts) {
    for (const line of commandLines(text)) {
      const problem = await npxProblem(line, text.text, intoSquad);
      if (problem !== undefined) problems.push(`${line.source}: ${line.npx} ${line.line} (${problem})`);
    }
  }
  return problems;
}

describe('no shipped text or hint runs an unpinned npx create-squad, or @latest', () => {
  it('the coordinator and every template pin the version that writes them; the README and docs pin all but the first init', async () => {
    expect(await npxProblems([coordinator, ...templates], true)).toEqual([]);
    expect(await npxProblems([readme, ...docs], false)).toEqual([]);
    // The coordinator's own detection is the one place the repository's install is tried first.
    expect(commandLines(coordinator).filter((line) => line.npx?.includes('--no-install')).length).toBeGreaterThan(0);
  });

  it('catches hostile lines: @latest, unpinned, --no-install without the pinned fallback, a version written by hand', async () => {
    const intoSquad = [
      'Hire with `npx create-squad@latest hire <role>`.',
      'Hire with `npx create-squad hire <role>`.',
      'Hire with `npx --no-install create-squad hire <role>`.',
      'Hire with `npx create-squad@0.0.9 hire <role>`.',
      'Run `npx --no-install create-squad doctor`, or else `npx --yes create-squad@{version} doctor`.',
    ].join('\n\n');
    expect((await npxProblems([{ source: 'squad.md', text: intoSquad }], true)).map((problem) => problem.replace(/^.*\((.*)\)$/, '$1'))).toEqual([
      '@latest runs whatever the registry holds',
      'unpinned: runs whatever the registry holds',
      '--no-install fails where no install is there: give the pinned form',
      'pinned to 0.0.9, not to the version writing the file',
    ]);
    const docsText = '```\n$ npx create-squad init\n$ npx create-squad my-app\n$ npx create-squad upgrade\n$ npx create-squad@0.1.0 upgrade\n$ npx create-squad@latest init\n```';
    expect(await npxProblems([{ source: 'docs.md', text: docsText }], false)).toEqual([
      'docs.md: npx create-squad upgrade (unpinned: runs whatever the registry holds)',
      'docs.md: npx create-squad@latest init (@latest runs whatever the registry holds)',
    ]);
  });

  it('team.md, as init writes it, tells the user to hire with the version that wrote it', async () => {
    const root = await initSquad();
    const team = fs.readFileSync(path.join(root, '.ai-team', 'team.md'), 'utf8');
    expect(commandLines({ source: 'team.md', text: team })).toEqual([expect.objectContaining({ npx: 'npx', pinned: packageVersion(), rest: 'hire <role>' })]);
  });

  it("export's next step names the version that wrote the file", async () => {
    const root = await initSquad();
    const result = await runOk(root, ['export', '--out', 'team.squad']);
    const [next] = commandLines({ source: 'export', text: `"${/Import it in another repository with: (.*)/.exec(result.stdout)![1]}"` });
    expect(next).toEqual(expect.objectContaining({ npx: 'npx', pinned: packageVersion(), rest: 'import team.squad' }));
    expect((await checkLine(next!)).refused).toEqual([]);
  });

  it("init's, import's and the spawn prompt's next steps run where the user is: this version pinned, or the repository's install of it", async () => {
    const pinned = (args: string) => `npx create-squad@${packageVersion()} ${args}`;
    const local = (args: string) => `npx --no-install create-squad ${args}`;
    const source = await initSquad();
    await runOk(source, ['export', '--out', 'team.squad']);
    const squadFile = path.join(source, 'team.squad');
    const installed = () => {
      const root = tempDir();
      writeFiles(root, {
        'node_modules/create-squad/package.json': JSON.stringify({ name: 'create-squad', version: packageVersion() }),
        'node_modules/.bin/create-squad': '#!/usr/bin/env node\n',
      });
      return root;
    };
    const stepOf = (stdout: string, step: RegExp) => step.exec(stdout)?.[1];
    const hire = /Add members first with: (.*)/;
    const validate = /3\. Check the imported skills: (.*)/;
    expect(stepOf((await runOk(tempDir(), ['init', '--yes', '--no-team'])).stdout, hire)).toBe(pinned('hire <role>'));
    expect(stepOf((await runOk(installed(), ['init', '--yes', '--no-team'])).stdout, hire)).toBe(local('hire <role>'));
    const context = /for this repository run\n\s+(.*?) {2}\(it updates/;
    const importedBare = (await runOk(tempDir(), ['import', squadFile])).stdout;
    expect(stepOf(importedBare, validate)).toBe(pinned('skills validate'));
    expect(stepOf(importedBare, context)).toMatch(new RegExp(`^${pinned('init --project').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `));
    const importedLocal = (await runOk(installed(), ['import', squadFile])).stdout;
    expect(stepOf(importedLocal, validate)).toBe(local('skills validate'));
    expect(stepOf(importedLocal, context)).toMatch(/^npx --no-install create-squad init --project /);
    // The spawn prompt's pointer to the skills it leaves out, in a squad without and with the install.
    const listAll = /To see them all, run `([^`]*)`/;
    const withSkills = async (root: string) => {
      writeFiles(root, { '.github/skills/api-style/SKILL.md': validSkill('api-style'), '.github/skills/sql-style/SKILL.md': validSkill('sql-style') });
      return (await runOk(root, ['prompt', 'fenster', '--task', 'x', '--skills-budget', '300'])).stdout;
    };
    expect(stepOf(await withSkills(await initSquad()), listAll)).toBe(pinned('skills list --agent fenster'));
    // A budget that lists none still says how to see them.
    const none = await runOk(await initSquad(), ['prompt', 'fenster', '--task', 'x', '--skills-budget', '1']);
    expect(none.stdout).toMatch(/^SKILLS: \d+ skills are not listed here: none fits this task within the skills budget\./m);
    expect(stepOf(none.stdout, listAll)).toBe(pinned('skills list --agent fenster'));
    const localSquad = installed();
    fs.cpSync(await initSquad(), localSquad, { recursive: true });
    expect(stepOf(await withSkills(localSquad), listAll)).toBe(local('skills list --agent fenster'));
    for (const line of [`"npx create-squad@${packageVersion()} hire <role>"`, '"npx --no-install create-squad hire <role>"']) {
      const [parsed] = commandLines({ source: 'init', text: line });
      expect((await checkLine(parsed!)).refused).toEqual([]);
    }
  });
});

describe("upgrade pins team.md's hint on hiring to the version upgrading", () => {
  it('rewrites the hint in each form create-squad wrote it, and not a byte of the team’s own text', async () => {
    const root = await initSquad();
    const teamPath = path.join(root, '.ai-team', 'team.md');
    const written = fs.readFileSync(teamPath, 'utf8');
    const current = `\`npx create-squad@${packageVersion()} hire <role>\``;
    expect(written).toContain(`Add a member with ${current} (the name comes from the casting`);
    // An earlier version's squad, edited by the team: the hint through --no-install (with its note); below, pinned to an old version and unpinned.
    const older = `${written.replace(`${current} (the name`, "`npx --no-install create-squad hire <role>` (the repository's own install; the name")}\nOur note: hire with \`npx create-squad@0.0.9 hire <role>\` or \`npx create-squad hire <role>\`.\n`;
    expect(older).toContain("(the repository's own install; the name comes from");
    fs.writeFileSync(teamPath, older);
    const upgraded = (await runOk(root, ['upgrade', '--json'])).data<{ migrations: { id: string; paths: string[] }[] }>();
    expect(upgraded.migrations).toEqual([expect.objectContaining({ id: 'team-hire-hint', paths: ['.ai-team/team.md'] })]);
    expect(fs.readFileSync(teamPath, 'utf8')).toBe(`${written}\nOur note: hire with ${current} or ${current}.\n`);
    // Pinned already: nothing to do.
    expect((await runOk(root, ['upgrade', '--json'])).data<{ migrations: unknown[] }>().migrations).toEqual([]);
  });

  it('leaves a team.md it cannot write (a link) as it is, and upgrades the rest', async () => {
    const root = await initSquad();
    const teamPath = path.join(root, '.ai-team', 'team.md');
    // A link inside the repository, which the roster reads through and create-squad never writes.
    const elsewhere = path.join(root, 'docs', 'team.md');
    fs.mkdirSync(path.dirname(elsewhere));
    fs.writeFileSync(elsewhere, fs.readFileSync(teamPath, 'utf8').replace(/create-squad@\S+ hire/, 'create-squad hire'));
    fs.rmSync(teamPath);
    fs.symlinkSync(path.join('..', 'docs', 'team.md'), teamPath);
    const before = fs.readFileSync(elsewhere, 'utf8');
    const upgraded = await runCli(['upgrade', '--json'], { cwd: root });
    expect(upgraded.code, upgraded.stdout).toBe(0);
    expect(upgraded.data<{ migrations: { id: string }[] }>().migrations.map((m) => m.id)).not.toContain('team-hire-hint');
    expect(fs.readFileSync(elsewhere, 'utf8')).toBe(before);
  });
});
