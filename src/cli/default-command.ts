/**
 * `init` is the default command (`npx create-squad`, `npm init squad`), so what reaches it without
 * the word `init` may be a command the user expected to exist, and a run without a terminal may be
 * a script that never meant to write a squad. On that path:
 *
 *   - a first operand that names an action (a command or subcommand of this CLI, a near-typo of
 *     one, or a common verb such as `status`, `list`, `remove`, `update`) is a usage error with a
 *     suggestion, never a folder to create;
 *   - any other plain word is a new folder only where nothing claims it: outside every repository
 *     and squad (`npx create-squad my-app` in a projects folder). Inside one it is a usage error;
 *     `init <dir>` or a path (`./web`, `apps/web`) says a folder is meant;
 *   - without a terminal (a script, CI, `--json`) it writes only with `--yes`: otherwise it says
 *     how to run it, and writes nothing. `--dry-run` always runs (it writes nothing).
 */
import path from 'node:path';
import type { Command } from './commander.js';
import { closestMatch } from '../core/base/edit-distance.js';
import { usageError } from '../core/base/errors.js';
import { findGitRoot, findSquadRoot } from '../core/fs/locate.js';
import type { Io } from './io.js';
import { isInteractive } from './run.js';

/** What the user may have meant by a word that is no command here; shown as "did you mean …?". */
const ACTION_WORDS: Readonly<Record<string, string>> = {
  status: 'doctor',
  check: 'doctor',
  health: 'doctor',
  info: 'members',
  show: 'members',
  team: 'members',
  member: 'members',
  list: 'members or skills list',
  ls: 'members or skills list',
  add: 'hire or skills add',
  new: 'hire',
  create: 'init',
  setup: 'init',
  install: 'skills add',
  remove: 'retire or skills remove',
  rm: 'retire or skills remove',
  delete: 'retire or skills remove',
  del: 'retire or skills remove',
  fire: 'retire',
  uninstall: 'skills remove',
  update: 'upgrade or skills update',
  config: 'init --project, --stack or --owner',
  configure: 'init --project, --stack or --owner',
  set: 'init --project, --stack or --owner',
  context: 'init --project, --stack or --owner',
  validate: 'skills validate',
  lint: 'skills validate',
  run: 'prompt',
  spawn: 'prompt',
  ask: 'route',
};

export interface DefaultRun {
  /** The operands init received (a folder to create, or a word that is not one). */
  operands: string[];
  /** The folder the command was pointed at (`--cwd`, or where it runs). */
  start: string;
  yes: boolean;
  json: boolean;
  dryRun: boolean;
}

/**
 * Refuse (usage error, nothing written) a run of the default path that the user cannot have meant
 * as "set up a squad": see the rules at the top of this file.
 */
export function checkDefaultRun(run: DefaultRun, program: Command, io: Io): void {
  const [first] = run.operands;
  if (first !== undefined) checkOperand(first, run, program);
  if (!run.dryRun && !run.yes && !isInteractive({ json: run.json }, io)) {
    const folder = first === undefined ? '' : ` ${first}`;
    throw usageError(
      `${program.name()} without a command sets up a squad only on a terminal, where it asks first`,
      `run "${program.name()} init${folder}" to set one up with the defaults (add --yes in scripts), or see "${program.name()} --help"; nothing was written`,
    );
  }
}

function checkOperand(first: string, run: DefaultRun, program: Command): void {
  const name = program.name();
  if (isWrittenAsPath(first)) return;
  if (first === 'help' || first === 'version') {
    throw usageError(`unknown command '${first}' (did you mean --${first}?)`, `run "${name} --${first}"`);
  }
  const suggestion = suggestCommand(first, program);
  if (suggestion === first) {
    // "create-squad --yes init": options before the command send it down the default path.
    throw usageError(`options must come after the command: ${name} ${first} [options]`, `see "${name} ${first} --help"`);
  }
  const orFolder = `to set up a squad in a folder named "${first}", run ${name} init ${first}`;
  if (suggestion !== undefined || run.operands.length > 1) {
    throw usageError(`unknown command '${first}'${suggestion ? ` (did you mean ${suggestion}?)` : ''}`, `see "${name} --help"; ${orFolder}`);
  }
  const claimed = findSquadRoot(run.start) ?? findGitRoot(run.start);
  if (claimed !== undefined) {
    throw usageError(`unknown command '${first}'`, `see "${name} --help"; ${orFolder} (a plain word makes a new folder only outside a repository)`);
  }
}

/** `./web`, `../x`, `apps/web`: a path, never a command. */
function isWrittenAsPath(operand: string): boolean {
  return operand.includes('/') || operand.includes(path.sep) || operand.startsWith('.');
}

/**
 * The command a word stands for: a command, alias or subcommand of `program` ("list" → "skills
 * list"), a near-typo of one, or an action word's usual meaning here; undefined for any other word.
 * A command's own name is returned as is.
 */
export function suggestCommand(word: string, program: Command): string | undefined {
  const key = word.toLowerCase();
  if (Object.hasOwn(ACTION_WORDS, key)) return ACTION_WORDS[key];
  const commands = commandPaths(program);
  const leaf = (command: string) => command.slice(command.lastIndexOf(' ') + 1);
  const exact = commands.find((command) => leaf(command) === key);
  if (exact !== undefined) return exact.includes(' ') ? exact : word;
  // One edit for a short word ("lst"), two for a longer one ("uprade"): "api" is no typo of "add".
  const typo = closestMatch(key, commands.map(leaf), key.length <= 4 ? 1 : 2);
  return typo === undefined ? undefined : commands.find((command) => leaf(command) === typo);
}

/** Every command as typed after the program's name ("hire", "skills list"), with aliases. */
function commandPaths(command: Command, prefix = ''): string[] {
  return command.commands.flatMap((sub) => {
    const names = [sub.name(), ...sub.aliases()].map((n) => `${prefix}${n}`);
    return [...names, ...commandPaths(sub, `${prefix}${sub.name()} `)];
  });
}
