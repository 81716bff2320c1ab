import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SQUAD_CLI_WORDS, hintCommand, localCommand, squadCommand } from '../../src/core/base/cli-invocation.js';
import { cliHint, packageVersion } from '../../src/core/fs/version.js';
import { originalSquadDirError, requireSquad } from '../../src/core/roster/roster.js';
import { SquadError } from '../../src/core/base/errors.js';
import { MCP_SERVER_COMMAND } from '../../src/core/scaffold/mcp-register.js';
import { REPO_ROOT, cleanupTempDirs, tempDir, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

const VERSION = packageVersion();

/** A repository where npm installed create-squad `version` (its package.json and, with `bin`, the linked executable). */
function installedRepo(version: string, bin = true): string {
  const root = tempDir('installed-');
  writeFiles(root, {
    'node_modules/create-squad/package.json': JSON.stringify({ name: 'create-squad', version }),
    ...(bin ? { 'node_modules/.bin/create-squad': '#!/usr/bin/env node\n' } : {}),
  });
  return root;
}

describe('how hints tell a person to run create-squad', () => {
  it('names the version that prints a hint, and runs the repository’s install where it is that version', () => {
    expect(squadCommand('hire <role>', '1.2.3')).toBe('npx create-squad@1.2.3 hire <role>');
    expect(localCommand('doctor')).toBe('npx --no-install create-squad doctor');
    expect(hintCommand('hire <role>', '1.2.3', undefined)).toBe('npx create-squad@1.2.3 hire <role>');
    expect(hintCommand('hire <role>', '1.2.3', '1.2.3')).toBe('npx --no-install create-squad hire <role>');
    // Another installed version would run a different program than the one that printed the hint.
    expect(hintCommand('hire <role>', '1.2.3', '1.1.0')).toBe('npx create-squad@1.2.3 hire <role>');
    // The MCP server entry init registers runs the same install.
    expect(MCP_SERVER_COMMAND.slice(0, SQUAD_CLI_WORDS.length)).toEqual([...SQUAD_CLI_WORDS]);
  });

  it('reads the repository’s install: this version with its executable runs locally; none, another version or no executable is pinned', () => {
    expect(cliHint(tempDir('bare-'), 'init')).toBe(`npx create-squad@${VERSION} init`);
    expect(cliHint(installedRepo(VERSION), 'init')).toBe('npx --no-install create-squad init');
    expect(cliHint(installedRepo('0.0.1-old'), 'init')).toBe(`npx create-squad@${VERSION} init`);
    expect(cliHint(installedRepo(VERSION, false), 'init')).toBe(`npx create-squad@${VERSION} init`);
    // A hint that sends the user to another version pins that one.
    expect(cliHint(installedRepo(VERSION), 'upgrade', '9.9.9')).toBe('npx create-squad@9.9.9 upgrade');
  });

  it('an existing squad in the original layout is told to upgrade with this version; no squad is told to init with it', () => {
    expect(originalSquadDirError('/repo').hint).toMatch(new RegExp(`^run "npx create-squad@${VERSION.replaceAll('.', '\\.')} upgrade" to move it`));
    const empty = tempDir('no-squad-');
    let caught: unknown;
    try {
      requireSquad(empty);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SquadError);
    expect((caught as SquadError).hint).toBe(`run "npx create-squad@${VERSION} init" first, or pass --cwd <dir> to point at the repository`);
    expect(() => requireSquad(installedRepo(VERSION))).toThrow(
      expect.objectContaining({ hint: 'run "npx --no-install create-squad init" first, or pass --cwd <dir> to point at the repository' }),
    );
  });

  it('no source spells a create-squad command line by hand, and none names @latest', () => {
    const sources = fs
      .readdirSync(path.join(REPO_ROOT, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts'))
      .map((name) => name.split(path.sep).join('/'));
    expect(sources.length).toBeGreaterThan(100);
    const spelled: string[] = [];
    for (const file of sources) {
      if (file === 'core/base/cli-invocation.ts') continue;
      const code = fs
        .readFileSync(path.join(REPO_ROOT, 'src', file), 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line));
      for (const line of code) {
        if (/create-squad@latest/.test(line)) spelled.push(`${file}: ${line.trim()}`);
        const run = /npx(?: --?[a-z-]+)* create-squad(@\S+)?(.?\S*)/.exec(line);
        if (run === null) continue;
        // --help shows the README's form for a user who has nothing yet: the first init, or init's new folder.
        if (file === 'cli/program.ts' && run[1] === undefined && /^( init|,| my-app)/.test(run[2]!)) continue;
        spelled.push(`${file}: ${line.trim()}`);
      }
    }
    expect(spelled).toEqual([]);
  });
});
