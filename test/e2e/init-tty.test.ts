/**
 * `init` in a real terminal: the built CLI runs in a pseudo-terminal driven by python3's pty
 * module, answering the questions with keystrokes (arrows, space, enter, Ctrl-C).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { squadPaths } from '../../src/core/base/paths.js';
import { parseRoster } from '../../src/core/roster/roster.js';
import { BIN, cleanupTempDirs, runCliProcessAsync, tempRepo } from '../helpers/cli.js';
import { PTY_DRIVER as DRIVER, ptySkipReason as skipReason } from '../helpers/pty.js';
import { spawnAsync } from '../helpers/spawn.js';

afterAll(cleanupTempDirs);

const DOWN = '\u001b[B';
const ENTER = '\r';

/** Run the CLI in a pseudo-terminal without blocking: each test drives its own terminal, side by side. */
async function drive(cwd: string, args: string[], steps: [string, string[]][]) {
  const env: NodeJS.ProcessEnv = { ...process.env, TERM: 'xterm', NO_COLOR: '1' };
  delete env.CI;
  delete env.FORCE_COLOR;
  const result = await spawnAsync('python3', [DRIVER, JSON.stringify({ argv: [process.execPath, BIN, ...args], cwd, steps })], {
    env,
    timeout: 90_000,
    killSignal: 'SIGTERM',
  });
  return { code: result.status, output: result.stdout + result.stderr };
}

// Each test drives a terminal of its own in a repository of its own: the tests run side by side,
// sharing the machine, with room for that on a loaded one.
describe.skipIf(skipReason !== undefined)(`init in a real terminal${skipReason ? ` (${skipReason})` : ''}`, { concurrent: true, timeout: 120_000 }, () => {
  it('asks the questions and builds the squad from the answers', async () => {
    const root = tempRepo();
    const { code, output } = await drive(
      root,
      ['init', 'app'],
      [
        ['What are you building?', [`A recipe planner${ENTER}`]],
        ['Which stack?', [`TypeScript, Postgres${ENTER}`]],
        ['Who does the squad work for?', [`Ada${ENTER}`]],
        // Lead and Core Dev stay selected, Tester is deselected, Frontend Dev is selected.
        ['Which roles should the team have?', [DOWN, DOWN, ' ', DOWN, ' ', ENTER]],
        ['Other roles?', [`Release Manager${ENTER}`]],
        ['Cast member names from which universe?', [DOWN, ENTER]],
      ],
    );
    expect(code, output).toBe(0);
    expect(output).toContain("Team (Ocean's Eleven): Danny (Lead), Rusty (Core Dev), Linus (Frontend Dev), Basher (Release Manager)");
    // NO_COLOR holds for the questions too: cursor movement, but no colour codes.
    expect(output).not.toMatch(/\u001b\[\d+(?:;\d+)*m/);
    const team = fs.readFileSync(path.join(root, 'app', squadPaths.team), 'utf8');
    expect(parseRoster(team).map((m) => `${m.displayName}:${m.role}`)).toEqual([
      'Danny:Lead',
      'Rusty:Core Dev',
      'Linus:Frontend Dev',
      'Basher:Release Manager',
      'Scribe:Session Logger',
    ]);
    expect(team).toContain('- **Project:** A recipe planner');
    expect(team).toContain('- **Stack:** TypeScript, Postgres');
    expect(team).toContain('- **Owner:** Ada');
  });

  it('checks the roles typed at the question itself, and asks again', async () => {
    const root = tempRepo();
    const { code, output } = await drive(
      root,
      ['init', 'app'],
      [
        ['What are you building?', [ENTER]],
        ['Which stack?', [ENTER]],
        ['Who does the squad work for?', [ENTER]],
        ['Which roles should the team have?', [ENTER]],
        ['Other roles?', [`Scribe${ENTER}`]],
        ['Scribe is not a role to cast', ['\u007f'.repeat(6), `Designer${ENTER}`]],
        ['Cast member names from which universe?', [ENTER]],
      ],
    );
    expect(code, output).toBe(0);
    expect(output).toContain('Team (The Usual Suspects): Keaton (Lead), Fenster (Core Dev), Hockney (Tester), McManus (Designer)');
  });

  it('writes nothing when the user presses Ctrl-C', async () => {
    const root = tempRepo();
    const { code, output } = await drive(
      root,
      ['init', 'app'],
      [
        ['What are you building?', [`A recipe planner${ENTER}`]],
        ['Which stack?', ['\u0003']],
      ],
    );
    expect(code, output).toBe(130);
    expect(output).toContain('✗ init cancelled; nothing was written');
    expect(fs.existsSync(path.join(root, 'app'))).toBe(false);
    expect(fs.readdirSync(root)).toEqual(['.git']);
  });

  it('asks nothing and changes nothing when the squad is complete', async () => {
    // The complete squad `init --yes` makes (without a terminal: the run in the terminal is the second one).
    const root = tempRepo();
    const first = await runCliProcessAsync(['init', '--yes'], { cwd: root });
    expect(first.code, first.stderr).toBe(0);
    const again = await drive(root, ['init'], [['Nothing to do', []]]);
    expect(again.code, again.output).toBe(0);
    expect(again.output).not.toContain('?');
  });
});
