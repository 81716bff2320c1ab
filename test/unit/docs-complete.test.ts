/**
 * The docs ship and are complete: every command of the table (src/cli/program.ts) has its section
 * in docs/commands.md, with its arguments, each option it declares, its --json data, what it
 * writes and its exit codes; every docs/ file the sources point a user at exists and is in the
 * package; and the markdown check `npm run lint` runs (scripts/check-markdown.mjs) finds the
 * tables that do not render, and none in the docs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import type { TableCommand } from '../../src/cli/command-table.js';
import { COMMAND_TABLE } from '../../src/cli/program.js';
import { REPO_ROOT, cleanupTempDirs, tempDir } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

interface Heading {
  level: number;
  text: string;
  /** Index of the heading's line. */
  line: number;
}

/** The markdown headings of `lines`, leaving out what looks like one inside a fenced code block. */
function headings(lines: readonly string[]): Heading[] {
  const found: Heading[] = [];
  let fence: string | undefined;
  lines.forEach((line, index) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
      return;
    }
    if (marker !== undefined) {
      fence = marker;
      return;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) found.push({ level: heading[1]!.length, text: heading[2]!, line: index });
  });
  return found;
}

/** A heading's words as a reader sees them: code spans unwrapped, lowercase. */
function plain(text: string): string {
  return text.replace(/`/g, '').trim().toLowerCase();
}

const COMMANDS_DOC = path.join(REPO_ROOT, 'docs/commands.md');
const commandsLines = fs.readFileSync(COMMANDS_DOC, 'utf8').split('\n');
const commandsHeadings = headings(commandsLines);

/** The section of docs/commands.md whose heading names `words` in a code span (`skills list [--agent <name>]`). */
function sectionOf(words: string): { heading: string; text: string } | undefined {
  const at = commandsHeadings.findIndex((heading) => [...heading.text.matchAll(/`([^`]+)`/g)].some(([, code]) => code === words || code!.startsWith(`${words} `)));
  if (at === -1) return undefined;
  const heading = commandsHeadings[at]!;
  const end = commandsHeadings.slice(at + 1).find((next) => next.level <= heading.level)?.line ?? commandsLines.length;
  return { heading: heading.text, text: commandsLines.slice(heading.line, end).join('\n') };
}

/** Every command of the table with the words that run it ("hire", "skills list"). */
const TABLE_COMMANDS: { words: string; row: TableCommand['row'] }[] = COMMAND_TABLE.flatMap((entry) =>
  entry.kind === 'command' ? [{ words: entry.row.name, row: entry.row }] : entry.commands.map((command) => ({ words: `${entry.name} ${command.row.name}`, row: command.row })),
);

/** An option's long flag as a reader types it: "-y, --yes" → --yes, "--skill <name...>" → --skill, "--no-team" → --no-team. */
function longFlag(flags: string): string {
  return /--[\w-]+/.exec(flags)![0];
}

/** The operand names of "<member> <role...>": member, role. */
function operandNames(written: string | undefined): string[] {
  return (written ?? '')
    .split(' ')
    .filter(Boolean)
    .map((word) => word.replace(/[<>[\].…]/g, ''));
}

describe('docs/commands.md has a section for every command of the table', () => {
  it('covers the whole table (the loop below is not empty)', () => {
    expect(TABLE_COMMANDS.map((c) => c.words)).toEqual(expect.arrayContaining(['init', 'members', 'retire', 'rehire', 'role', 'skills remove', 'skills update', 'mcp', 'export']));
  });

  for (const { words, row } of TABLE_COMMANDS) {
    describe(words, () => {
      const section = sectionOf(words);

      it('has a heading naming it, with its operands', () => {
        expect(section, `docs/commands.md has no heading with \`${words} …\``).toBeDefined();
        for (const operand of operandNames(row.arguments)) expect(section!.heading, `the heading of ${words} names <${operand}>`).toContain(operand);
      });

      it('names every option the table declares for it, and --json unless it has none', () => {
        const flags = (row.options ?? []).map((option) => longFlag(option.flags));
        if (row.json !== false) flags.push('--json');
        const missing = flags.filter((flag) => !new RegExp(`${flag}(?![\\w-])`).test(section?.text ?? ''));
        expect(missing, `options of ${words} that its section never names`).toEqual([]);
      });

      it('says what it writes and what --json data holds', () => {
        const text = section?.text ?? '';
        if (row.writes === 'squad') {
          // Every writing command's data carries its plan: the changes and the paths to commit.
          expect(text, `${words}: the section names the changes field`).toMatch(/`[^`]*\bchanges\b[^`]*`/);
          expect(text, `${words}: the section names the commit field`).toMatch(/`[^`]*\bcommit\b[^`]*`/);
        } else if (row.writes === false) {
          expect(text, `${words}: the section says it writes nothing`).toMatch(/writes nothing|nothing is written|reads only|without changing anything/i);
        }
        if (row.json !== false) expect(text, `${words}: the section lists its --json data`).toMatch(/`--json`[^.]*(?:data|`\{)|--json` data/);
      });

      it('gives its exit codes', () => {
        expect(section?.text ?? '', `${words}: the section says when it exits non-zero`).toMatch(/\bexit\s+codes?\b|\bexits? \d|\(exit \d/i);
      });
    });
  }
});

// A pointer at the docs in a source's text: `docs/skills.md, "Skill tests"`, `"Skill tests" in docs/skills.md`,
// `docs/budgets.md ("Limits")`, or the file alone.
const POINTER = /(?:"([^"\n]+)" in )?docs\/([\w.-]+\.md)(?:,? \(?"([^"\n]+)"\)?)?/g;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('what the sources point a user at in docs/ ships with the package', () => {
  const pointers = sourceFiles(path.join(REPO_ROOT, 'src')).flatMap((file) =>
    [...fs.readFileSync(file, 'utf8').matchAll(POINTER)].map(([, before, doc, after]) => ({ from: path.relative(REPO_ROOT, file), doc: `docs/${doc}`, section: before ?? after })),
  );
  const shipped: string[] = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).files;

  it('finds the pointers of the help text and the hints', () => {
    expect(pointers).toContainEqual({ from: path.join('src', 'cli', 'program.ts'), doc: 'docs/skills.md', section: 'Skill tests' });
    expect(pointers.some((p) => p.from === path.join('src', 'cli', 'program.ts') && p.doc === 'docs/commands.md')).toBe(true);
  });

  it('every docs file named exists and is in the package ("files" of package.json)', () => {
    for (const { from, doc } of pointers) {
      expect(fs.existsSync(path.join(REPO_ROOT, doc)), `${from} points at ${doc}`).toBe(true);
      expect(
        shipped.some((entry) => doc === entry || doc.startsWith(`${entry.replace(/\/$/, '')}/`)),
        `${doc} (named in ${from}) is in the package`,
      ).toBe(true);
    }
  });

  it('every section named is a heading of that file', () => {
    for (const { from, doc, section } of pointers) {
      if (section === undefined) continue;
      const titles = headings(fs.readFileSync(path.join(REPO_ROOT, doc), 'utf8').split('\n')).map((heading) => plain(heading.text));
      const wanted = section.toLowerCase();
      expect(
        titles.some((title) => title === wanted || title.startsWith(`${wanted} `)),
        `${from} points at "${section}" in ${doc}`,
      ).toBe(true);
    }
  });
});

interface MarkdownFinding {
  line: number;
  message: string;
}
interface MarkdownCheck {
  checkMarkdown(text: string): MarkdownFinding[];
  checkAnchors(file: string, text: string, readFile?: (target: string) => string): MarkdownFinding[];
  headingAnchor(heading: string): string;
  defaultFiles(root: string): string[];
}

// The script is plain JavaScript that `npm run lint` runs with node; imported here by its URL.
const markdownCheck = (): Promise<MarkdownCheck> => import(pathToFileURL(path.join(REPO_ROOT, 'scripts/check-markdown.mjs')).href);

describe('the markdown check of npm run lint (scripts/check-markdown.mjs)', () => {
  it('is part of npm run lint', () => {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
    expect(scripts.lint).toContain('node scripts/check-markdown.mjs');
  });

  it('finds nothing in docs/*.md and README.md, and reads all of them', async () => {
    const { checkMarkdown, checkAnchors, defaultFiles } = await markdownCheck();
    const files = defaultFiles(REPO_ROOT);
    expect(files).toEqual(expect.arrayContaining(['README.md', path.join('docs', 'commands.md'), path.join('docs', 'hosts.md'), path.join('docs', 'overview.md')]));
    const findings = files.flatMap((file) => {
      const text = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
      return [...checkMarkdown(text), ...checkAnchors(path.join(REPO_ROOT, file), text)].map((f) => `${file}:${f.line}: ${f.message}`);
    });
    expect(findings).toEqual([]);
  });

  it('accepts well-formed tables: pipes at the ends or not, an escaped pipe, in a list item', async () => {
    const { checkMarkdown } = await markdownCheck();
    const text = [
      'Intro.',
      '',
      '| Flag | Means |',
      '|:---|---:|',
      '| `a \\| b` | either |',
      '',
      'Host | Reads',
      '--- | ---',
      'cli | .mcp.json',
      '',
      '- item',
      '',
      '  | x | y |',
      '  |---|---|',
      '  | 1 | 2 |',
      '',
    ].join('\n');
    expect(checkMarkdown(text)).toEqual([]);
  });

  it('finds a delimiter row shorter than its header: GitHub shows the lines as text', async () => {
    const { checkMarkdown } = await markdownCheck();
    const text = ['# Hosts', '', '| | VS Code | CLI | Cloud |', '|---|---|', '| Pick | picker | /agent | issue |', ''].join('\n');
    expect(checkMarkdown(text)).toEqual([{ line: 3, message: 'table header has 4 cells but its delimiter row has 2: it does not render as a table' }]);
  });

  it('finds a row with more cells than its header (an unescaped pipe inside code)', async () => {
    const { checkMarkdown } = await markdownCheck();
    const text = ['', '| Option | Value |', '|---|---|', '| `--mode` | `standard|lightweight` |', '| `--all` | on |', ''].join('\n');
    expect(checkMarkdown(text)).toEqual([{ line: 4, message: expect.stringMatching(/^table row has 3 cells, its header 2/) }]);
  });

  it('finds a paragraph glued under a table (it becomes a one-cell row) and a table glued under a paragraph', async () => {
    const { checkMarkdown } = await markdownCheck();
    const text = ['The servers:', '| Name | Host |', '|---|---|', '| github | all |', 'Every host starts them.', '', 'After.'].join('\n');
    expect(checkMarkdown(text)).toEqual([
      { line: 2, message: 'table is not preceded by a blank line: it may render as part of the paragraph above' },
      { line: 5, message: expect.stringMatching(/^table row has 1 cells, its header 2/) },
    ]);
  });

  it('leaves fenced code alone, whatever it holds', async () => {
    const { checkMarkdown } = await markdownCheck();
    const text = ['```', 'NAME | ROLE | STATUS', '---|---', 'Keaton | Lead', '```', '', '~~~~md', '| a |', '|---|---|', '~~~~', ''].join('\n');
    expect(checkMarkdown(text)).toEqual([]);
  });

  it("names a heading's anchor as GitHub does", async () => {
    const { headingAnchor } = await markdownCheck();
    expect(headingAnchor('`retire <member> [--dry-run] [--json]`')).toBe('retire-member---dry-run---json');
    expect(headingAnchor('`skills add <source> [--skill <name…> | --all]`')).toBe('skills-add-source---skill-name----all');
    expect(headingAnchor('Errors, exit codes and output')).toBe('errors-exit-codes-and-output');
  });

  it('finds a link to a heading that does not exist, here or in another file, and leaves code and other links alone', async () => {
    const { checkAnchors } = await markdownCheck();
    const other: Record<string, string> = { [path.resolve('docs', 'commands.md')]: '# Commands\n\n## `init [dir]`\n\n## Notes\n\n## Notes\n' };
    const read = (target: string) => {
      const text = other[target];
      if (text === undefined) throw new Error('ENOENT');
      return text;
    };
    const text = [
      '# Guide',
      '',
      '## Setup',
      'See [setup](#setup), [init](commands.md#init-dir), [the second notes](commands.md#notes-1), [the web](https://example.com/#top).',
      'Broken: [old](#set-up) and [renamed](commands.md#init) and [gone](missing.md#x).',
      '```',
      '[in code](#nowhere)',
      '```',
    ].join('\n');
    expect(checkAnchors(path.resolve('docs', 'guide.md'), text, read)).toEqual([
      { line: 5, message: 'link to #set-up: no heading has that anchor' },
      { line: 5, message: 'link to commands.md#init: no heading has that anchor' },
      { line: 5, message: 'link to missing.md: no such file' },
    ]);
  });

  it('fails the lint run with file and line when a file has a finding', () => {
    const dir = tempDir('check-markdown-');
    fs.writeFileSync(path.join(dir, 'bad.md'), ['', '| a | b |', '|---|', ''].join('\n'));
    const run = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts/check-markdown.mjs'), 'bad.md'], { cwd: dir, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('bad.md:2: table header has 2 cells but its delimiter row has 1: it does not render as a table\nmarkdown check: 1 finding in 1 files\n');
  });
});
