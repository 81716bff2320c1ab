import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIRST_INIT_COMMAND, SQUAD_CLI_WORDS, localCommand, squadCommand } from '../../src/core/base/cli-invocation.js';
import { packageVersion } from '../../src/core/fs/version.js';
import { originalSquadDirError, requireSquad } from '../../src/core/roster/roster.js';
import { SquadError } from '../../src/core/base/errors.js';
import { MCP_SERVER_COMMAND } from '../../src/core/scaffold/mcp-register.js';
import { cleanupTempDirs, tempDir } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

/** The files whose hints and next steps tell a person to run create-squad. */
const HINT_SOURCES = ['src/commands/init.ts', 'src/commands/import.ts', 'src/commands/skills-list.ts', 'src/core/roster/roster.ts'];

describe('how hints tell a person to run create-squad', () => {
  it('names the version that prints a hint, runs the repository’s install where it is known to be there, and keeps the README’s form for the first init', () => {
    expect(squadCommand('hire <role>', '1.2.3')).toBe('npx create-squad@1.2.3 hire <role>');
    expect(localCommand('doctor')).toBe('npx --no-install create-squad doctor');
    expect(FIRST_INIT_COMMAND).toBe('npx create-squad init');
    // The MCP server entry init registers runs the same install.
    expect(MCP_SERVER_COMMAND.slice(0, SQUAD_CLI_WORDS.length)).toEqual([...SQUAD_CLI_WORDS]);
  });

  it('an existing squad in the original layout is told to upgrade with this version; no squad is told the first init', () => {
    expect(originalSquadDirError('/repo').hint).toMatch(new RegExp(`^run "npx create-squad@${packageVersion().replaceAll('.', '\\.')} upgrade" to move it`));
    const empty = tempDir('no-squad-');
    let caught: unknown;
    try {
      requireSquad(empty);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SquadError);
    expect((caught as SquadError).hint).toBe('run "npx create-squad init" first, or pass --cwd <dir> to point at the repository');
  });

  it('no hint source spells a create-squad command line by hand', () => {
    for (const file of HINT_SOURCES) {
      const text = fs.readFileSync(path.join(import.meta.dirname, '../..', file), 'utf8');
      expect(text, file).not.toMatch(/['"`][^'"`\n]*npx (--no-install )?create-squad /);
    }
  });
});
