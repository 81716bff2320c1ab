/**
 * What the squad needs to work in each Copilot host (issue 11): a task read from a file (no shell
 * quoting: the same on bash and PowerShell), the coordinator as `init` installs it (pinned CLI,
 * host-specific spawning), and the next steps `init` prints for each host.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_STDIN_BYTES } from '../../src/core/fs/bounded-read.js';
import { readCoordinatorStamp } from '../../src/core/squad/coordinator.js';
import { COORDINATOR_PATH } from '../../src/core/base/paths.js';
import { packageVersion } from '../../src/core/fs/version.js';
import { cleanupTempDirs, runCli, tempDir, tempRepo } from '../helpers/cli.js';
import { promptSquad } from '../helpers/prompt-squad.js';

afterAll(cleanupTempDirs);

/** A task no shell could pass inline without escaping: quotes, dollars, backticks, several lines. */
const AWKWARD_TASK = 'Fix the "checkout" test: it expects `$TOTAL` to be \'0\'.\n\nIt fails one run in ten (see CI #42).';

describe('--task-file: the task read from a file', () => {
  it('prompt and route read the task from a file relative to where they run, exactly as given inline', async () => {
    const cwd = promptSquad();
    fs.mkdirSync(path.join(cwd, 'notes'));
    fs.writeFileSync(path.join(cwd, 'notes', 'task.md'), `${AWKWARD_TASK}\n`);
    const fromFile = await runCli(['prompt', 'hockney', '--task-file', 'notes/task.md'], { cwd });
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(fromFile.stdout).toBe((await runCli(['prompt', 'hockney', '--task', AWKWARD_TASK], { cwd })).stdout);
    expect(fromFile.stdout.endsWith(`TASK:\n${AWKWARD_TASK}\n`)).toBe(true);

    // Relative to the folder the command runs in, not to --cwd.
    const elsewhere = tempDir();
    fs.writeFileSync(path.join(elsewhere, 'task.txt'), 'write the unit tests for the parser\r\n');
    const routed = await runCli(['route', '--task-file', 'task.txt', '--cwd', cwd, '--json'], { cwd: elsewhere });
    expect(routed.code, routed.stderr).toBe(0);
    expect(routed.data<{ task: string }>().task).toBe('write the unit tests for the parser');
    const absolute = await runCli(['prompt', 'hockney', '--task-file', path.join(elsewhere, 'task.txt')], { cwd });
    expect(absolute.code, absolute.stderr).toBe(0);
  });

  it('refuses a missing file, a folder, a FIFO, an empty file and a file over the stdin limit, each in one line', async () => {
    const cwd = promptSquad();
    fs.mkdirSync(path.join(cwd, 'a-folder'));
    fs.writeFileSync(path.join(cwd, 'empty.md'), ' \n\n');
    fs.writeFileSync(path.join(cwd, 'huge.md'), Buffer.alloc(MAX_STDIN_BYTES + 1, 'x'));
    const cases: [string, number, RegExp][] = [
      ['missing.md', 1, /^✗ task file not found: missing\.md — /],
      ['a-folder', 1, /^✗ the task file a-folder is a folder, not a regular file — /],
      ['empty.md', 2, /^✗ the task file empty\.md is empty/],
      ['huge.md', 1, /^✗ the task file huge\.md holds more than 1 MB — /],
    ];
    if (process.platform !== 'win32') {
      const { spawnSync } = await import('node:child_process');
      spawnSync('mkfifo', [path.join(cwd, 'fifo')]);
      // A FIFO is never opened: no writer would ever come, and the command must not hang.
      cases.push(['fifo', 1, /^✗ the task file fifo is a FIFO \(named pipe\), not a regular file — /]);
    }
    for (const [file, code, message] of cases) {
      for (const args of [
        ['prompt', 'fenster', '--task-file', file],
        ['route', '--task-file', file],
      ]) {
        const result = await runCli(args, { cwd });
        expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(code);
        expect(result.stderr).toMatch(message);
        expect(result.stderr.trim().split('\n')).toHaveLength(1);
        expect(result.stdout).toBe('');
      }
    }
  });

  it('takes the task once: inline or from a file, not both, and still needs one', async () => {
    const cwd = promptSquad();
    fs.writeFileSync(path.join(cwd, 'task.md'), 'x\n');
    for (const args of [
      ['prompt', 'fenster', '--task', 'x', '--task-file', 'task.md'],
      ['route', 'x', '--task-file', 'task.md'],
    ]) {
      const result = await runCli(args, { cwd });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^✗ give the task once: inline or --task-file, not both/);
    }
    const none = await runCli(['route'], { cwd });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^✗ missing the task/);
  });
});

describe('the coordinator init installs', () => {
  it("runs the repository's install or the exact version it was stamped with, in every npx line", async () => {
    const cwd = tempRepo();
    expect((await runCli(['init', '--yes'], { cwd })).code).toBe(0);
    const coordinator = fs.readFileSync(path.join(cwd, COORDINATOR_PATH), 'utf8');
    const version = packageVersion();
    expect(readCoordinatorStamp(coordinator)).toBe(version);
    const npxLines = coordinator.split('\n').filter((line) => /\bnpx\b/.test(line));
    expect(npxLines.length).toBeGreaterThanOrEqual(2);
    for (const line of npxLines) {
      for (const [command] of line.matchAll(/\bnpx\b[^`\n]*/g)) {
        expect(command).toMatch(new RegExp(`^npx (?:--no-install create-squad|--yes create-squad@${version.replace(/\./g, '\\.')})(?: |$)`));
      }
    }
    expect(coordinator).not.toContain('{version}');
    // The built-in skills that run the CLI are pinned the same way.
    const authoring = fs.readFileSync(path.join(cwd, '.github/skills/squad-skill-authoring/SKILL.md'), 'utf8');
    expect(authoring).toContain(`npx --yes create-squad@${version} skills`);
  });
});

describe("init's next steps", () => {
  it('say how to pick the Squad agent in VS Code, the Copilot CLI and the cloud agent', async () => {
    const cwd = tempRepo();
    const result = await runCli(['init', '--yes'], { cwd });
    expect(result.code, result.stderr).toBe(0);
    const steps = result.stdout.slice(result.stdout.indexOf('Next steps:'));
    expect(steps).toContain('  2. In GitHub Copilot, pick the "Squad" agent:\n');
    expect(steps).toMatch(/\n {5}VS Code: the agent picker\b/);
    expect(steps).toMatch(/\n {5}Copilot CLI: \/agent, or start it with: copilot --agent squad \(a running copilot loads a new agent when restarted\)\n/);
    expect(steps).toContain(`\n     Cloud agent: merge ${COORDINATOR_PATH} into the default branch first`);
    // The agent id `copilot --agent` takes is the profile's file name.
    expect(fs.existsSync(path.join(cwd, '.github/agents/squad.agent.md'))).toBe(true);
  });
});
