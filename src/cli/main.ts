/**
 * CLI entry: parse, run, and apply the error policy.
 *
 * - A SquadError prints one line, "✗ what went wrong — how to fix it", and exits 1 (2 for usage).
 * - Anything else is a bug: one line too, and the stack only when DEBUG is set.
 * - With --json, the error is also printed on stdout as the envelope {"schemaVersion": 1, "ok": false, "error": {...}, "warnings": []}.
 */
import { CommanderError } from './commander.js';
import { SquadError, isSquadError } from '../core/base/errors.js';
import { errorEnvelope } from './envelope.js';
import { packageVersion } from '../core/fs/version.js';
import { processIo, type Io } from './io.js';
import { PROGRAM_NAME, buildProgram, type UsageErrorSink } from './program.js';
import { createUi, type Ui } from './ui.js';

/**
 * Run the CLI once and return its exit code. Everything it takes from the process comes through
 * `io` and everything it prints goes through `ui`, so it can run in-process (tests, embedders);
 * the executable (bin/) passes the real process and sets the exit code.
 */
export async function main(argv: string[] = process.argv.slice(2), ui?: Ui, io: Io = processIo()): Promise<number> {
  const out = ui ?? createUi({ stdout: io.stdout ?? process.stdout, stderr: io.stderr ?? process.stderr, env: io.env });
  const sink: UsageErrorSink = {};
  const program = buildProgram(packageVersion(), out, sink, io);
  try {
    await program.parseAsync(aliases(argv), { from: 'user' });
    return sink.exitCode ?? 0;
  } catch (error) {
    return reportError(error, argv, out, sink, io.env);
  }
}

/**
 * Spellings commander does not know: `-V` alone is `--version`; `help` is `--help`, and
 * `help <command…>` is that command's `--help`.
 */
function aliases(argv: string[]): string[] {
  if (argv.length === 1 && argv[0] === '-V') return ['--version'];
  if (argv[0] === 'help') return [...argv.slice(1).filter((arg) => !arg.startsWith('-')), '--help'];
  return argv;
}

/** How to fix a usage error commander found: quote what belongs together, else see the help. */
function usageHint(sink: UsageErrorSink, argv: string[]): string {
  const command = sink.command ?? PROGRAM_NAME;
  if (sink.message?.startsWith('too many arguments')) {
    const words = command.split(' ').slice(1);
    const operands = argv.filter((arg) => !arg.startsWith('-') && !words.includes(arg));
    const expected = Number(/Expected (\d+) argument/.exec(sink.message)?.[1] ?? 1);
    if (operands.length > expected && expected >= 1) {
      const kept = operands.slice(0, expected - 1);
      const quoted = `"${operands.slice(expected - 1).join(' ')}"`;
      return `quote a name or text of several words: ${[command, ...kept, quoted].join(' ')}`;
    }
  }
  return `see "${command} --help"`;
}

function reportError(error: unknown, argv: string[], ui: Ui, sink: UsageErrorSink, env: NodeJS.ProcessEnv): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
    if (!sink.message) return 2; // help was shown because a subcommand is missing
    const squadError = new SquadError('usage', sink.message, { hint: usageHint(sink, argv) });
    return printSquadError(squadError, argv, ui, env);
  }
  if (isSquadError(error)) return printSquadError(error, argv, ui, env);

  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
  const debug = isDebug(env);
  ui.error(`unexpected error: ${message}${debug ? '' : ' — this is a bug; run again with DEBUG=1 for details and report it'}`);
  if (debug && error instanceof Error && error.stack) noteLines(ui, error.stack);
  if (wantsJson(argv)) {
    ui.json(errorEnvelope({ code: 'internal', message }));
  }
  return 1;
}

function printSquadError(error: SquadError, argv: string[], ui: Ui, env: NodeJS.ProcessEnv): number {
  ui.error(error.hint ? `${error.message} — ${error.hint}` : error.message);
  if (isDebug(env) && error.stack) noteLines(ui, error.stack);
  if (wantsJson(argv)) ui.json(errorEnvelope(error.toJSON()));
  return error.exitCode;
}

/** A stack trace on stderr, one note a line (a note is one line). */
function noteLines(ui: Ui, text: string): void {
  for (const line of text.split('\n')) ui.note(line);
}

function wantsJson(argv: string[]): boolean {
  return argv.includes('--json');
}

function isDebug(env: NodeJS.ProcessEnv): boolean {
  const debug = env.DEBUG;
  return debug !== undefined && debug !== '' && debug !== '0' && debug !== 'false';
}
