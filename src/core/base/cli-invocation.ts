/**
 * How the messages of create-squad tell a person to run it: one rule for every hint and next step.
 * A hint names the version that printed it (`npx create-squad@<version> …`): it runs the
 * repository's install when that is the version, else fetches exactly it, and works whether or not
 * the squad was made by a one-off `npx`. Where the repository's install is known to be there (the
 * MCP server `init --mcp` registers over it), `--no-install` runs it and never downloads. Before the
 * first `init` the README's form stays. Imports nothing (the CLI shell may bundle it).
 */

/** The words that run the repository's own create-squad, never a download. */
export const SQUAD_CLI_WORDS = ['npx', '--no-install', 'create-squad'] as const;

/** A create-squad command line for a hint, pinned to the version printing it: `squadCommand('hire <role>', '0.1.0')`. */
export function squadCommand(args: string, version: string): string {
  return `npx create-squad@${version} ${args}`;
}

/** A command line run by the repository's own install (known to be there). */
export function localCommand(args: string): string {
  return `${SQUAD_CLI_WORDS.join(' ')} ${args}`;
}

/** The first `init`, where no squad (and maybe no install) exists yet: the README's form. */
export const FIRST_INIT_COMMAND = 'npx create-squad init';
