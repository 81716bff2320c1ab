/**
 * The command table (src/cli/program.ts) as commander runs it: the words and flags of a command
 * line become the options object its command module is called with, one module loaded per run,
 * and every row becomes exactly one command with its help.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Command } from '../../src/cli/commander.js';
import { type TableCommand, type TableEntry, registerCommands } from '../../src/cli/command-table.js';
import type { Io } from '../../src/cli/io.js';
import { COMMAND_TABLE } from '../../src/cli/program.js';
import type { CommandContext } from '../../src/commands/context.js';
import { REPO_ROOT, cleanupTempDirs, runCli, tempDir } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

/** Every command of the table with the words that run it ("hire", "skills list"). */
function tableCommands(entries: readonly TableEntry[] = COMMAND_TABLE): { words: string; command: TableCommand }[] {
  return entries.flatMap((entry) =>
    entry.kind === 'command' ? [{ words: entry.row.name, command: entry }] : entry.commands.map((command) => ({ words: `${entry.name} ${command.row.name}`, command })),
  );
}

/** Stands for the context a command receives: the recorded calls show it as "ctx". */
const CONTEXT = { json: false } as CommandContext;

interface Run {
  /** The command modules loaded, by the words of their command. */
  loaded: string[];
  /** The exported function called, and its arguments ("ctx" for the context, "function" for init's questions). */
  call?: { name: string; args: unknown[] };
  /** What commander parsed, as run.ts receives it (--cwd, --json, --wait, …). */
  parsed?: Record<string, unknown>;
  /** commander's code when it stopped the run (help shown, a usage error). */
  stopped?: string;
}

/**
 * Run a command line through the table with each command's module replaced by one that records
 * the call it gets: commander's parsing and the table's mapping, no command's code.
 */
async function runTable(argv: string[]): Promise<Run> {
  const run: Run = { loaded: [] };
  const recorder = new Proxy(
    {},
    {
      // `then` stays undefined: the module is awaited.
      get: (_, name) =>
        typeof name !== 'string' || name === 'then'
          ? undefined
          : async (...args: unknown[]) => {
              run.call = { name, args: args.map((arg) => (arg === CONTEXT ? 'ctx' : typeof arg === 'function' ? 'function' : arg)) };
              return { data: {}, exitCode: 0, render: () => {} };
            },
    },
  );
  const recording = (command: TableCommand, words: string): TableCommand => ({
    kind: 'command',
    row: {
      ...command.row,
      load: async () => {
        run.loaded.push(words);
        return recorder;
      },
    },
  });
  const table: TableEntry[] = COMMAND_TABLE.map((entry) =>
    entry.kind === 'command' ? recording(entry, entry.row.name) : { ...entry, commands: entry.commands.map((command) => recording(command, `${entry.name} ${command.row.name}`)) },
  );
  const program = new Command('create-squad');
  const io: Io = { cwd: tempDir('command-table-'), env: {}, stdinIsTTY: false, stdoutIsTTY: false, readStdin: async () => '' };
  registerCommands(table, {
    program,
    io,
    configure: (cmd) => cmd.exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} }),
    execute: async (parsed, command) => {
      run.parsed = { ...parsed };
      await command(CONTEXT);
    },
  });
  program.exitOverride();
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    run.stopped = (error as { code?: string }).code;
  }
  return run;
}

/** The call a command line makes: the module's function and its options object, exactly. */
async function callOf(argv: string[]): Promise<{ name: string; args: unknown[] }> {
  const run = await runTable(argv);
  expect(run.stopped, argv.join(' ')).toBeUndefined();
  expect(run.loaded, argv.join(' ')).toEqual([argv[0] === 'skills' ? `skills ${argv[1]}` : argv[0]]);
  return run.call!;
}

describe('the command table maps a command line to the options object of its command', () => {
  it('init: every option, values given or not', async () => {
    expect(await callOf(['init', '--yes'])).toStrictEqual({ name: 'init', args: [{ team: true, here: false, dryRun: false }, 'ctx', 'function'] });
    const full = ['init', 'web', '--roles', 'Lead,Tester', '--universe', 'Alien', '--project', 'a planner', '--stack', 'Go', '--owner', 'Ana'];
    expect(await callOf([...full, '--no-team', '--here', '--allow-duplicate-roles', '--mcp', '--dry-run'])).toStrictEqual({
      name: 'init',
      args: [
        {
          dir: 'web',
          roles: 'Lead,Tester',
          universe: 'Alien',
          project: 'a planner',
          stack: 'Go',
          owner: 'Ana',
          allowDuplicateRoles: true,
          mcp: true,
          team: false,
          here: true,
          dryRun: true,
        },
        'ctx',
        'function',
      ],
    });
    expect((await callOf(['init', '--mcp', 'vscode,copilot-cli'])).args[0]).toStrictEqual({ mcp: 'vscode,copilot-cli', team: true, here: false, dryRun: false });
  });

  it('the team commands: hire, members, retire, rehire, role', async () => {
    expect(await callOf(['hire', 'Tester'])).toStrictEqual({ name: 'hire', args: [{ role: 'Tester', dryRun: false }, 'ctx'] });
    expect(await callOf(['hire', 'Tester', '--name', 'Verbal', '--dry-run'])).toStrictEqual({ name: 'hire', args: [{ role: 'Tester', name: 'Verbal', dryRun: true }, 'ctx'] });
    expect(await callOf(['members'])).toStrictEqual({ name: 'members', args: ['ctx'] });
    expect(await callOf(['retire', 'fenster', '--dry-run'])).toStrictEqual({ name: 'retire', args: [{ member: 'fenster', dryRun: true }, 'ctx'] });
    expect(await callOf(['rehire', 'fenster'])).toStrictEqual({ name: 'rehire', args: [{ member: 'fenster', dryRun: false }, 'ctx'] });
    // A role of several words, unquoted, is one role.
    expect(await callOf(['role', 'fenster', 'Frontend', 'Dev'])).toStrictEqual({ name: 'role', args: [{ member: 'fenster', role: 'Frontend Dev', dryRun: false }, 'ctx'] });
  });

  it('the skills commands', async () => {
    expect(await callOf(['skills', 'list'])).toStrictEqual({ name: 'skillsList', args: [{}, 'ctx'] });
    expect(await callOf(['skills', 'list', '--agent', 'keaton'])).toStrictEqual({ name: 'skillsList', args: [{ agent: 'keaton' }, 'ctx'] });
    // An empty agent name is no agent: the team's view, as before the table.
    expect(await callOf(['skills', 'list', '--agent', ''])).toStrictEqual({ name: 'skillsList', args: [{}, 'ctx'] });
    expect(await callOf(['skills', 'validate'])).toStrictEqual({ name: 'skillsValidate', args: [{ paths: [], strict: false }, 'ctx'] });
    expect(await callOf(['skills', 'validate', 'a', 'b', '--strict'])).toStrictEqual({ name: 'skillsValidate', args: [{ paths: ['a', 'b'], strict: true }, 'ctx'] });
    expect(await callOf(['skills', 'test'])).toStrictEqual({ name: 'skillsTest', args: [{}, 'ctx'] });
    expect(await callOf(['skills', 'test', 'lint', '--agent', 'keaton', '--case', 'empty'])).toStrictEqual({
      name: 'skillsTest',
      args: [{ name: 'lint', agent: 'keaton', case: 'empty' }, 'ctx'],
    });
    expect(await callOf(['skills', 'stats'])).toStrictEqual({ name: 'skillsStats', args: ['ctx'] });
    expect(await callOf(['skills', 'add', './mine'])).toStrictEqual({
      name: 'skillsAdd',
      args: [{ source: './mine', all: false, force: false, yes: false, dryRun: false }, 'ctx', 'function'],
    });
    const add = ['skills', 'add', 'github:o/r', '--skill', 'a', 'b', '--all', '--ref', 'v1', '--path', 'skills', '--agent', 'keaton', '--force', '--yes', '--dry-run'];
    expect(await callOf(add)).toStrictEqual({
      name: 'skillsAdd',
      args: [{ source: 'github:o/r', agent: 'keaton', skills: ['a', 'b'], ref: 'v1', path: 'skills', all: true, force: true, yes: true, dryRun: true }, 'ctx', 'function'],
    });
    expect(await callOf(['skills', 'remove', 'lint', '--agent', 'keaton', '--dry-run'])).toStrictEqual({
      name: 'skillsRemove',
      args: [{ name: 'lint', agent: 'keaton', dryRun: true }, 'ctx'],
    });
    expect(await callOf(['skills', 'update', 'lint'])).toStrictEqual({ name: 'skillsUpdate', args: [{ name: 'lint', yes: false, dryRun: false }, 'ctx', 'function'] });
    expect(await callOf(['skills', 'update', 'lint', '-y'])).toStrictEqual({ name: 'skillsUpdate', args: [{ name: 'lint', yes: true, dryRun: false }, 'ctx', 'function'] });
    expect(await callOf(['skills', 'audit'])).toStrictEqual({ name: 'skillsAudit', args: [{ names: [] }, 'ctx'] });
    expect(await callOf(['skills', 'audit', 'lint', 'sql-style'])).toStrictEqual({ name: 'skillsAudit', args: [{ names: ['lint', 'sql-style'] }, 'ctx'] });
  });

  it('teach, prompt and route', async () => {
    expect(await callOf(['teach', 'fenster', 'use tabs'])).toStrictEqual({
      name: 'teach',
      args: [{ args: ['fenster', 'use tabs'], team: false, rule: false, skill: false, dryRun: false }, 'ctx'],
    });
    expect(await callOf(['teach', '--team', 'use pnpm', '--rule', '--name', 'pnpm', '--dry-run'])).toStrictEqual({
      name: 'teach',
      args: [{ args: ['use pnpm'], team: true, rule: true, skill: false, name: 'pnpm', dryRun: true }, 'ctx'],
    });
    // prompt and route receive their task fields even when absent (undefined), as their options types say.
    expect(await callOf(['prompt', 'fenster', '--task', 'add login'])).toStrictEqual({
      name: 'prompt',
      args: [{ agent: 'fenster', task: 'add login', taskFile: undefined, mode: 'standard', skills: [], skillsBudget: undefined, allSkills: false }, 'ctx'],
    });
    const prompt = ['prompt', 'fenster', '--task-file', 'task.md', '--mode', 'lightweight', '--skill', 'a', 'b', '--skills-budget', '500', '--all-skills'];
    expect(await callOf(prompt)).toStrictEqual({
      name: 'prompt',
      args: [{ agent: 'fenster', task: undefined, taskFile: 'task.md', mode: 'lightweight', skills: ['a', 'b'], skillsBudget: '500', allSkills: true }, 'ctx'],
    });
    expect(await callOf(['route', 'fix the login page'])).toStrictEqual({ name: 'route', args: [{ task: 'fix the login page', taskFile: undefined, labels: [] }, 'ctx'] });
    expect(await callOf(['route', '--task-file', 'task.md'])).toStrictEqual({ name: 'route', args: [{ task: undefined, taskFile: 'task.md', labels: [] }, 'ctx'] });
    expect(await callOf(['route', 'fix it', '--label', 'squad:baer', 'bug'])).toStrictEqual({
      name: 'route',
      args: [{ task: 'fix it', taskFile: undefined, labels: ['squad:baer', 'bug'] }, 'ctx'],
    });
  });

  it('upgrade, export, import, doctor, mcp', async () => {
    expect(await callOf(['upgrade', '--dry-run'])).toStrictEqual({ name: 'upgrade', args: [{ dryRun: true, fromStateBranch: false }, 'ctx'] });
    expect(await callOf(['upgrade', '--from-state-branch'])).toStrictEqual({ name: 'upgrade', args: [{ dryRun: false, fromStateBranch: true }, 'ctx'] });
    expect(await callOf(['export'])).toStrictEqual({ name: 'exportCommand', args: [{ history: true, keepPrivate: false, force: false, dryRun: false }, 'ctx'] });
    expect(await callOf(['export', '--out', 'team.squad', '--no-history', '--keep-private', '--force', '--dry-run'])).toStrictEqual({
      name: 'exportCommand',
      args: [{ out: 'team.squad', history: false, keepPrivate: true, force: true, dryRun: true }, 'ctx'],
    });
    expect(await callOf(['export', '--format', 'squad-cli'])).toStrictEqual({
      name: 'exportCommand',
      args: [{ format: 'squad-cli', history: true, keepPrivate: false, force: false, dryRun: false }, 'ctx'],
    });
    expect(await callOf(['import', 'team.squad', '--force'])).toStrictEqual({ name: 'importCommand', args: [{ file: 'team.squad', force: true, dryRun: false }, 'ctx'] });
    expect(await callOf(['doctor'])).toStrictEqual({ name: 'doctor', args: ['ctx'] });
    expect(await callOf(['mcp'])).toStrictEqual({ name: 'mcp', args: ['ctx'] });
  });

  it('hands --cwd, --json and --wait to the runner, not to the command', async () => {
    const run = await runTable(['hire', 'Tester', '--cwd', 'app', '--json', '--wait', '5']);
    expect(run.parsed).toMatchObject({ cwd: 'app', json: true, wait: '5' });
    expect(run.call).toStrictEqual({ name: 'hire', args: [{ role: 'Tester', dryRun: false }, 'ctx'] });
    expect((await runTable(['upgrade', '--wait'])).parsed).toMatchObject({ wait: true });
  });

  it('loads no command module for help or a usage error', async () => {
    for (const argv of [
      ['hire', '--help'],
      ['skills', 'add'],
      ['prompt', 'fenster', '--mode', 'heavy'],
      ['export', '--wait'],
    ]) {
      const run = await runTable(argv);
      expect(run.stopped, argv.join(' ')).toMatch(/^commander\./);
      expect(run.loaded, argv.join(' ')).toEqual([]);
    }
  });
});

/** The names a help text lists under "Commands:". */
function commandsListed(help: string): string[] {
  const section = help.split('Commands:\n')[1]!.split('\n\n')[0]!;
  return [...section.matchAll(/^ {2}(\S+)/gm)].map((match) => match[1]!);
}

describe('the table is the list of commands', () => {
  it('names each command once, and the CLI offers exactly those', async () => {
    const words = tableCommands().map(({ words }) => words);
    expect(new Set(words).size).toBe(words.length);
    const help = await runCli(['--help'], { cwd: tempDir('command-table-') });
    const listed = commandsListed(help.stdout);
    const groups = COMMAND_TABLE.filter((entry) => entry.kind === 'group').map((entry) => entry.name);
    expect(listed).toEqual(COMMAND_TABLE.map((entry) => (entry.kind === 'command' ? entry.row.name : entry.name)));
    for (const group of groups) {
      const groupHelp = await runCli([group, '--help'], { cwd: tempDir('command-table-') });
      const subcommands = commandsListed(groupHelp.stdout).map((name) => `${group} ${name}`);
      expect(subcommands).toEqual(words.filter((word) => word.startsWith(`${group} `)));
    }
  });

  it('gives each command its help: usage, summary, its options, --cwd, --json unless it has none, --wait exactly when it writes the squad', async () => {
    const cwd = tempDir('command-table-');
    for (const { words, command } of tableCommands()) {
      const { row } = command;
      const result = await runCli([...words.split(' '), '--help'], { cwd });
      expect(result.code, words).toBe(0);
      expect(result.stdout.split('\n')[0], words).toBe(`Usage: create-squad ${words} [options]${row.arguments ? ` ${row.arguments}` : ''}`);
      expect(result.stdout.replace(/\s+/g, ' '), words).toContain(row.summary);
      const options = result.stdout.split('Options:\n')[1]!.split('\n\n')[0]!;
      const flags = [...options.matchAll(/^ {2}((?:-\w, )?--?[\w-]+(?: [<[][^\s>\]]+[>\]])?)/gm)].map((match) => match[1]);
      const own = (row.options ?? []).map((option) => option.flags);
      const expected = ['--cwd <dir>', ...(row.json === false ? [] : ['--json']), ...own, ...(row.writes === 'squad' ? ['--wait [seconds]'] : []), '-h, --help'];
      expect(flags, words).toEqual(expected);
    }
  });

  it('writes each command module as one literal import in program.ts, where the CLI bundler looks for them', () => {
    // scripts/bundle-cli.mjs bundles the commands it finds as import('../commands/<name>.js') in
    // dist/cli/program.js: a computed import would leave a command out of the package.
    const source = fs.readFileSync(path.join(REPO_ROOT, 'src', 'cli', 'program.ts'), 'utf8');
    const imported = [...source.matchAll(/import\(['"]\.\.\/commands\/([\w-]+)\.js['"]\)/g)].map((match) => match[1]!);
    expect(imported).toHaveLength(tableCommands().length);
    expect(new Set(imported).size).toBe(imported.length);
    for (const name of imported) expect(fs.existsSync(path.join(REPO_ROOT, 'src', 'commands', `${name}.ts`)), name).toBe(true);
  });
});
