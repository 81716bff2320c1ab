/**
 * How a row of the command table (program.ts) becomes a commander command: its arguments, its
 * options with their parsing, the options every command has, its help text, and an action that
 * loads the command's module only when that command runs.
 */
import type { CommandContext, CommandResult } from '../commands/context.js';
import { type Command, Option } from './commander.js';
import type { Io } from './io.js';
import type { CommonOptions } from './run.js';

/** The options commander parsed, by camel-cased name (`--dry-run` → dryRun). */
export type ParsedOptions = CommonOptions & Record<string, unknown>;

/** An option as commander declares it: its flags, help line and, for some, its values and default. */
export interface OptionRow<Flags extends string = string> {
  flags: Flags;
  description: string;
  /** The only values it takes: anything else is a usage error. */
  choices?: readonly string[];
  default?: string;
}

export function option<const Flags extends string>(flags: Flags, description: string, parsing: Pick<OptionRow, 'choices' | 'default'> = {}): OptionRow<Flags> {
  return { flags, description, ...parsing };
}

/** `--dry-run`, worded for what the command would do ("would be created", "would change"). */
export function dryRunOption(wouldDo: string): OptionRow<'--dry-run'> {
  return option('--dry-run', `print what ${wouldDo}, write nothing`);
}

const CWD_OPTION = option('--cwd <dir>', 'target repository (default: the current directory)');
const JSON_OPTION = option('--json', 'print one JSON document on stdout');
/** Read by run.ts (CommonOptions.wait) for every command that takes the squad lock. */
const WAIT_OPTION = option('--wait [seconds]', 'wait for another create-squad writing here to finish (default 60 s)');

// The name an option's value has in ParsedOptions, from its flags: "-y, --yes" → yes,
// "--skills-budget <tokens>" → skillsBudget, "--no-team" → team. Rows read only what they declare.
type LongName<Flags> = Flags extends `${string}--${infer Rest}` ? (Rest extends `${infer Name} ${string}` ? Name : Rest) : never;
type Positive<Name> = Name extends `no-${infer Rest}` ? Rest : Name;
type CamelCase<Name> = Name extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : Name;
export type OptionKey<Flags extends string> = CamelCase<Positive<LongName<Flags>>> & string;

// The values of a command's operands, from how they are written: "<role>" a string, "[dir]" a
// string or undefined, "<role...>" and "[paths...]" a list (empty when none is given).
type Operand<Word> = Word extends `${string}...${string}` ? string[] : Word extends `<${string}>` ? string : string | undefined;
export type Operands<Written extends string> = Written extends '' ? [] : Written extends `${infer Word} ${infer Rest}` ? [Operand<Word>, ...Operands<Rest>] : [Operand<Written>];

/** The options a command declared, read the way create-squad reads each kind. */
export interface OptionValues<Key extends string> {
  /** A switch: true only when given. */
  flag(key: Key): boolean;
  /** A switch with a `--no-` form: true unless that form was given. */
  unlessNegated(key: Key): boolean;
  /** A value: undefined when the option was not given. */
  text(key: Key): string | undefined;
  /** A value that may not be empty: undefined when not given or given as "". */
  nonEmpty(key: Key): string | undefined;
  /** An option whose value is optional (`--mcp [hosts]`): true when given alone. */
  textOrTrue(key: Key): string | true | undefined;
  /** A variadic option (`--skill <name...>`): undefined when not given. */
  list(key: Key): string[] | undefined;
}

function optionValues(parsed: ParsedOptions): OptionValues<string> {
  const text = (key: string) => (parsed[key] === undefined ? undefined : String(parsed[key]));
  return {
    flag: (key) => parsed[key] === true,
    unlessNegated: (key) => parsed[key] !== false,
    text,
    nonEmpty: (key) => (parsed[key] ? String(parsed[key]) : undefined),
    textOrTrue: (key) => (parsed[key] === true ? true : text(key)),
    list: (key) => {
      const value = parsed[key];
      return Array.isArray(value) ? value.map(String) : undefined;
    },
  };
}

/** The fields that hold a value, for an options object whose fields are absent when not given. */
export function given<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** One run of a command, as its row's `run` sees it. */
export interface Invocation<Written extends string, Key extends string> {
  args: Operands<Written>;
  opts: OptionValues<Key>;
  ctx: CommandContext;
}

/** What a row's `check` sees: the words as typed, before the command's module loads. */
export interface Precheck {
  /** Every operand given, extra ones included (with allowExcessArguments). */
  operands: string[];
  parsed: ParsedOptions;
  program: Command;
  io: Io;
}

/** A command as the table declares it. */
export interface CommandRow<Written extends string, Flags extends string, Module> {
  name: string;
  /** Its operands as help shows them: "<member> <role...>", "[dir]"; none when absent. */
  arguments?: Written;
  /** The line in the program's help and at the top of its own. */
  summary: string;
  /** Its own options, in help order; --cwd and --json come before them, --wait after. */
  options?: readonly OptionRow<Flags>[];
  /**
   * What it writes. "squad": changes the squad, holding its lock, so it offers --wait; "file": only
   * a file the user names, no lock; false: nothing.
   */
  writes: 'squad' | 'file' | false;
  /** Whether it offers --json (default: yes). */
  json?: boolean;
  /** Text after the options in its --help. */
  help?: string;
  /** The command commander runs when the first word names no command. */
  isDefault?: boolean;
  /** Operands beyond the declared ones reach `check` instead of being a usage error. */
  allowExcessArguments?: boolean;
  /** Refusals that need neither the command's module nor its context (a usage error is thrown). */
  check?: (run: Precheck) => Promise<void>;
  /** The command's module, imported when the command runs: one command's code per run. */
  load: () => Promise<Module>;
  /** Calls the command with its options object. */
  run: (module: Module, invocation: Invocation<Written, OptionKey<Flags>>) => Promise<CommandResult>;
}

/** A command whose types are checked and then set aside, so rows of different commands share one list. */
export interface TableCommand {
  kind: 'command';
  row: CommandRow<string, string, unknown>;
}

/** A word that groups subcommands (`skills`): it runs nothing itself. */
export interface TableGroup {
  kind: 'group';
  name: string;
  summary: string;
  commands: readonly TableCommand[];
}

export type TableEntry = TableCommand | TableGroup;

export function command<const Written extends string = '', const Flags extends string = never, Module = unknown>(row: CommandRow<Written, Flags, Module>): TableCommand {
  return { kind: 'command', row: row as unknown as CommandRow<string, string, unknown> };
}

export function group(name: string, summary: string, commands: readonly TableCommand[]): TableGroup {
  return { kind: 'group', name, summary, commands };
}

/** What registering needs from the program: where commands attach, how each is configured, and how one runs. */
export interface Registration {
  program: Command;
  io: Io;
  /** exitOverride and output hooks: every command and group gets them. */
  configure: (cmd: Command) => Command;
  execute: (parsed: ParsedOptions, command: (ctx: CommandContext) => Promise<CommandResult>) => Promise<void>;
}

/** Declare every entry of the table on the program, in table order (the order help lists them in). */
export function registerCommands(entries: readonly TableEntry[], registration: Registration): void {
  for (const entry of entries) {
    if (entry.kind === 'command') {
      registerCommand(registration.program, entry.row, registration);
    } else {
      const parent = registration.configure(registration.program.command(entry.name).description(entry.summary)).helpCommand(false);
      for (const sub of entry.commands) registerCommand(parent, sub.row, registration);
    }
  }
}

function registerCommand(parent: Command, row: CommandRow<string, string, unknown>, { program, io, configure, execute }: Registration): void {
  const spec = row.arguments ? `${row.name} ${row.arguments}` : row.name;
  const cmd = configure(parent.command(spec, { isDefault: row.isDefault === true }).description(row.summary));
  const options = [CWD_OPTION, ...(row.json === false ? [] : [JSON_OPTION]), ...(row.options ?? []), ...(row.writes === 'squad' ? [WAIT_OPTION] : [])];
  for (const { flags, description, choices, default: defaultValue } of options) {
    const declared = new Option(flags, description);
    if (choices !== undefined) declared.choices(choices);
    if (defaultValue !== undefined) declared.default(defaultValue);
    cmd.addOption(declared);
  }
  if (row.help !== undefined) cmd.addHelpText('after', row.help);
  if (row.allowExcessArguments === true) cmd.allowExcessArguments(true);
  cmd.action(async (...values: unknown[]) => {
    // commander passes the declared operands (typed by the row's `arguments`), the parsed options, the command.
    const args = values.slice(0, cmd.registeredArguments.length) as Operands<string>;
    const parsed = values[cmd.registeredArguments.length] as ParsedOptions;
    await row.check?.({ operands: cmd.args, parsed, program, io });
    const module = await row.load();
    const opts = optionValues(parsed);
    await execute(parsed, (ctx) => row.run(module, { args, opts, ctx }));
  });
}
