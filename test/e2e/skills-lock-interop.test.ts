/**
 * skills-lock.json against the skills ecosystem's own CLI (the `skills` package from npm), offline:
 * a local bare repository as the source (file://). Its `add` writes a lock create-squad reads (same
 * hash, the skill unchanged); a lock create-squad writes is restored by its `experimental_install`.
 * Runs when CREATE_SQUAD_SKILLS_CLI names a folder where the package is installed (never a
 * dependency: scripts/host-check.mjs installs it into a temporary folder); skipped otherwise.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { SkillsCheckData } from '../../src/commands/skills-check.js';
import { type CliResult, cleanupTempDirs, hashTree, initSquad, runCli, runOk, tempDir, validSkill, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

/** The data of a `--json` run that ran (exit 0 or 1 with a report, not an error). */
function reportOf<T extends object>(result: CliResult): T {
  const envelope = result.envelope<T>();
  if (!('data' in envelope)) throw new Error(`not a report: ${JSON.stringify(envelope)}`);
  return envelope.data;
}

const INSTALL = process.env.CREATE_SQUAD_SKILLS_CLI;
const CLI = INSTALL === undefined ? undefined : path.join(INSTALL, 'node_modules', 'skills', 'bin', 'cli.mjs');
const available = CLI !== undefined && fs.existsSync(CLI);
if (!available) console.log('skills-lock-interop.test: skipped (set CREATE_SQUAD_SKILLS_CLI to a folder where the skills package from npm is installed)');

const LOCK = 'skills-lock.json';
type Lock = { version: number; skills: Record<string, Record<string, unknown>> };
const lockOf = (root: string) => JSON.parse(fs.readFileSync(path.join(root, LOCK), 'utf8')) as Lock;

function git(cwd: string, ...args: string[]): void {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
}

/** The ecosystem's CLI run in `cwd`, without telemetry, prompts or the user's home. */
function skillsCli(cwd: string, ...args: string[]): void {
  const home = tempDir('squad-interop-home-');
  const result = spawnSync(process.execPath, [CLI!, ...args], {
    cwd,
    encoding: 'utf8',
    input: '',
    env: { ...process.env, HOME: home, DO_NOT_TRACK: '1', DISABLE_TELEMETRY: '1', CI: '1' },
    timeout: 120_000,
  });
  if (result.status !== 0) throw new Error(`skills ${args.join(' ')}: ${result.stdout}\n${result.stderr}`);
}

/** A bare repository holding skills/review (SKILL.md and a reference), as a file:// URL. */
function reviewRepository(): string {
  const base = tempDir('squad-interop-git-');
  const work = path.join(base, 'work');
  writeFiles(work, { 'skills/review/SKILL.md': validSkill('review'), 'skills/review/references/checklist.md': '# Checklist\n\n- tests\n' });
  git(work, 'init', '-q', '-b', 'main');
  git(work, 'add', '-A');
  git(work, '-c', 'user.email=test@example.com', '-c', 'user.name=Test', 'commit', '-qm', 'review');
  git(base, 'clone', '-q', '--bare', work, path.join(base, 'review.git'));
  return pathToFileURL(path.join(base, 'review.git')).href;
}

describe.skipIf(!available)('skills-lock.json with the skills CLI', () => {
  it("reads the lock its add writes, and its restore installs from create-squad's lock", async () => {
    const url = reviewRepository();

    // Theirs, then ours: the same hash for the same skill.
    const theirs = await initSquad(['--yes']);
    skillsCli(theirs, 'add', url, '--skill', 'review', '-y', '-a', 'github-copilot');
    const written = lockOf(theirs).skills.review!;
    expect(written).toMatchObject({ source: url, sourceType: 'git', skillPath: 'skills/review/SKILL.md' });
    const checked = reportOf<SkillsCheckData>(await runCli(['skills', 'check', '--json'], { cwd: theirs }));
    expect(checked.skills).toEqual([expect.objectContaining({ name: 'review', folder: '.agents/skills/review', state: 'unchanged', installed: { state: 'unchanged' } })]);

    const ours = await initSquad(['--yes']);
    await runOk(ours, ['skills', 'add', url, '--skill', 'review']);
    await runOk(ours, ['skills', 'add', url, '--skill', 'review', '--agent', 'fenster']);
    const recorded = lockOf(ours);
    expect(recorded.skills.review!.computedHash).toBe(written.computedHash);

    // Their restore, from our lock alone, in a fresh checkout: the team skill lands in .agents/skills/.
    const fresh = tempDir('squad-interop-restore-');
    git(fresh, 'init', '-q');
    fs.copyFileSync(path.join(ours, LOCK), path.join(fresh, LOCK));
    skillsCli(fresh, 'experimental_install');
    expect(hashTree(path.join(fresh, '.agents/skills/review'))).toBe(hashTree(path.join(ours, '.github/skills/review')));
    // Their rewrite keeps the member's entry and create-squad's fields in it as they were.
    expect(lockOf(fresh).skills['fenster/review']).toEqual(recorded.skills['fenster/review']);
  });
});
