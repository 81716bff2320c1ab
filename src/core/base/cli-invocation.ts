/**
 * How create-squad tells a person to run it: one rule for every hint, next step and squad file.
 *   - A hint or next step a command prints names the version printing it (`npx create-squad@<version>
 *     …`, which runs the repository's install when that is the version, else fetches exactly it), so
 *     it works whether or not the squad was made by a one-off `npx`; where the repository installs
 *     that very version, `npx --no-install create-squad …` runs it and never downloads (hintCommand;
 *     fs/version.ts cliHint reads the install). A hint sending the user to another version (one that
 *     wrote a newer squad) pins that version the same way.
 *   - Text written into the squad's files (team.md, the coordinator, the built-in skills) pins the
 *     version that wrote it, and `upgrade` refreshes the pin.
 * Never an unpinned download, never `@latest`: either would run whatever the registry holds under the
 * name (test/unit/shipped-cli-text.test.ts holds shipped text and hints to this). Only the README and
 * `--help` show the plain `npx create-squad init` of a user who has nothing yet. Imports nothing (the
 * CLI shell may bundle it).
 */

/** The executables npm links for create-squad in a repository (the second on Windows). */
export const LOCAL_BINS = ['node_modules/.bin/create-squad', 'node_modules/.bin/create-squad.cmd'] as const;

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

/**
 * The command line a printed hint gives for `args`: the repository's own install when it is
 * `version` (`installedVersion`: what the repository installs, undefined for nothing), else `version` pinned.
 */
export function hintCommand(args: string, version: string, installedVersion: string | undefined): string {
  return installedVersion === version ? localCommand(args) : squadCommand(args, version);
}

/**
 * A hook's command lines (POSIX shell, PowerShell), run at the repository's root: the repository's
 * own install, started directly, or nothing. A host runs hooks unattended on every tool call, so
 * they never download: `npx create-squad@<version>` would run whatever the registry holds under
 * that name, and npx costs about 1.7 s a call.
 */
export function hookCommands(args: string): { posix: string; powershell: string } {
  const [posixBin, windowsBin] = LOCAL_BINS;
  return {
    posix: `if [ -x ${posixBin} ]; then ${posixBin} ${args}; fi`,
    powershell: `if (Test-Path ${windowsBin}) { & ${windowsBin} ${args} }`,
  };
}
