/**
 * `init` is the default command (`npx create-squad`, `npm init squad`), so its first operand may
 * be a mistyped command rather than a folder to create.
 */
import path from 'node:path';
import type { Command } from './commander.js';
import { closestMatch } from '../core/edit-distance.js';
import { usageError } from '../core/errors.js';
import { isDirectory } from '../core/fs-safe.js';

/**
 * On the default path, a first operand that is not an existing folder and is close to a command
 * name ("uprade") is a typo, not a folder to create; several operands there are an unknown command.
 * An operand written as a path (`./doctor`, `../hire`, `apps/web`) is a folder, never a typo.
 */
export function rejectMistypedCommand(operands: string[], program: Command, cwd: string): void {
  const first = operands[0];
  if (first === undefined || isDirectory(path.resolve(cwd, first))) return;
  if (first.includes('/') || first.includes(path.sep) || first.startsWith('.')) return;
  if (first === 'help' || first === 'version') {
    throw usageError(`unknown command '${first}' (did you mean --${first}?)`, `run "${program.name()} --${first}"`);
  }
  const commands = program.commands.flatMap((c) => [c.name(), ...c.aliases()]);
  const suggestion = closestMatch(first, commands);
  if (suggestion === undefined && operands.length === 1) return;
  if (suggestion === first) {
    // "create-squad --yes init": options before the command send it down the default path.
    throw usageError(`options must come after the command: ${program.name()} ${first} [options]`, `see "${program.name()} ${first} --help"`);
  }
  throw usageError(
    `unknown command '${first}'${suggestion ? ` (did you mean ${suggestion}?)` : ''}`,
    `see "${program.name()} --help"; to create a squad in a folder named "${first}", run ${program.name()} init ${first}`,
  );
}

