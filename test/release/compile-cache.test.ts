/**
 * The code cache of the CLI's bundles on Node versions without module.enableCompileCache
 * (bin/compile-cache.cjs), on a copy of the built package so the repository's own cache is not
 * touched: it is written, used, keyed by build, survives garbage, and can be turned off.
 * A release check (`npm run test:release`, which `.ci/run` runs after `npm test`): it checks the
 * built package's start-up on older Node, some thirty CLI processes, and no command's behaviour.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, cleanupTempDirs, tempDir, tempRepo } from '../helpers/cli.js';
import { LISTS_MANY_SKILLS, MANY_SKILLS } from '../../src/core/base/heap.js';

afterAll(cleanupTempDirs);

const nodeCachesItself = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
if (nodeCachesItself) console.log('compile-cache tests skipped: this Node caches compiled code itself (module.enableCompileCache)');

let pkg: string;
let cacheDir: string;

function run(args: string[], cwd: string, env: Record<string, string> = {}): { code: number; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [path.join(pkg, 'bin', 'create-squad.cjs'), ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', NODE_DISABLE_COMPILE_CACHE: '', ...env },
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

let squadTemplate: string | undefined;

/**
 * A fresh copy of the squad `init --yes` makes: init runs once, through the copied package, the
 * first time a test needs a squad, and the tests that need more get copies of that one.
 */
function squad(): string {
  if (squadTemplate === undefined) {
    const template = tempRepo();
    expect(run(['init', '--yes'], template).code).toBe(0);
    squadTemplate = template;
  }
  const dir = tempDir('squad-repo-');
  fs.cpSync(squadTemplate, dir, { recursive: true, verbatimSymlinks: true });
  return dir;
}

const cacheFiles = (): string[] => (fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir).sort() : []);

/** A spawn prompt for the squad's member fenster in `cwd`, which must succeed. */
const prompt = (cwd: string): void => expect(run(['prompt', 'fenster', '--task', 'Add pagination'], cwd).code).toBe(0);

/** `count` team skills (skill-0000, skill-0001, …) in the squad at `root`, described by `description`. */
function writeSkills(root: string, count: number, description: (index: number) => string): void {
  for (let i = 0; i < count; i += 1) {
    const name = `skill-${String(i).padStart(4, '0')}`;
    fs.mkdirSync(path.join(root, '.github', 'skills', name), { recursive: true });
    fs.writeFileSync(path.join(root, '.github', 'skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description(i)}\n---\n# ${name}\n`);
  }
}

describe.skipIf(nodeCachesItself)('compile cache (Node without enableCompileCache)', () => {
  beforeAll(() => {
    pkg = tempDir('squad-pkg-');
    for (const part of ['bin', 'dist']) fs.cpSync(path.join(REPO_ROOT, part), path.join(pkg, part), { recursive: true });
    for (const file of ['package.json', 'squad.agent.md']) fs.copyFileSync(path.join(REPO_ROOT, file), path.join(pkg, file));
    for (const part of ['templates', 'node_modules']) fs.symlinkSync(path.join(REPO_ROOT, part), path.join(pkg, part));
    cacheDir = path.join(pkg, '.compile-cache');
  });

  it('is written by a first run, then used as it is: same output, files untouched', () => {
    const cwd = tempRepo();
    const first = run(['--help'], cwd);
    expect(first.code).toBe(0);
    const files = cacheFiles();
    expect(files.some((name) => name.startsWith('cli__main.cjs.'))).toBe(true);
    const written = new Map(files.map((name) => [name, fs.statSync(path.join(cacheDir, name)).mtimeMs]));
    const second = run(['--help'], cwd);
    expect(second).toEqual(first);
    expect(cacheFiles()).toEqual(files);
    for (const [name, mtime] of written) expect(fs.statSync(path.join(cacheDir, name)).mtimeMs).toBe(mtime);
  });

  it('caches a command bundle and the packages it loads, and keeps commands working from the cache', () => {
    const cwd = squad();
    const first = run(['prompt', 'fenster', '--task', 'Add pagination to the orders API'], cwd);
    expect(first.code).toBe(0);
    expect(cacheFiles().some((name) => name.startsWith('bundle__prompt.cjs.'))).toBe(true);
    // The packages the bundle loads are the CLI's code too: the handlebars runtime renders the prompt.
    expect(cacheFiles().some((name) => name.startsWith('node_modules__handlebars__'))).toBe(true);
    expect(run(['prompt', 'fenster', '--task', 'Add pagination to the orders API'], cwd)).toEqual(first);
  });

  it('a rebuilt bundle gets a new cache entry and the old one is removed', () => {
    const cwd = tempRepo();
    run(['--help'], cwd);
    const before = cacheFiles().filter((name) => name.startsWith('cli__main.cjs.'));
    expect(before).toHaveLength(1);
    // The same bytes written again: a new build as far as any tool can tell (its change time moves).
    const shell = path.join(pkg, 'dist', 'cli', 'main.cjs');
    const text = fs.readFileSync(shell);
    fs.rmSync(shell);
    fs.writeFileSync(shell, text);
    expect(run(['--help'], cwd).code).toBe(0);
    const after = cacheFiles().filter((name) => name.startsWith('cli__main.cjs.'));
    expect(after).toHaveLength(1);
    expect(after).not.toEqual(before);
  });

  it('garbage in a cache file is rejected by V8 and replaced; the run is unaffected', () => {
    const cwd = tempRepo();
    const expected = run(['--help'], cwd);
    const [entry] = cacheFiles().filter((name) => name.startsWith('cli__main.cjs.'));
    fs.writeFileSync(path.join(cacheDir, entry!), 'not a code cache');
    expect(run(['--help'], cwd)).toEqual(expected);
    expect(fs.readFileSync(path.join(cacheDir, entry!), 'utf8')).not.toBe('not a code cache');
  });

  it('NODE_DISABLE_COMPILE_CACHE=1 writes no cache; a folder that cannot be written only means no cache', () => {
    const cwd = tempRepo();
    fs.rmSync(cacheDir, { recursive: true, force: true });
    expect(run(['--help'], cwd, { NODE_DISABLE_COMPILE_CACHE: '1' }).code).toBe(0);
    expect(fs.existsSync(cacheDir)).toBe(false);
    // A file where the folder would be: nothing can be written, and the command still works.
    fs.writeFileSync(cacheDir, '');
    const result = run(['--help'], cwd);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(fs.statSync(cacheDir).isFile()).toBe(true);
    fs.rmSync(cacheDir);
  });

  it('runs that change a V8 flag (large listings) keep their own cache: neither kind of run replaces the other', () => {
    const small = squad();
    const large = squad();
    // Enough skills in one folder for discovery to give V8 its hint (src/core/base/heap.ts).
    writeSkills(large, MANY_SKILLS, (i) => `Conventions for topic ${i}.`);
    prompt(small);
    prompt(large);
    const written = () => new Map(cacheFiles().map((name) => [name, fs.statSync(path.join(cacheDir, name)).mtimeMs]));
    const before = written();
    expect([...before.keys()].some((name) => name.includes('.large.'))).toBe(true);
    for (const cwd of [small, large, small, large]) prompt(cwd);
    expect(written()).toEqual(before);
  });

  it("a small run's cache is made again, once, by the first run that lists many skills (with the ranking's code)", () => {
    const small = squad();
    const many = squad();
    writeSkills(many, LISTS_MANY_SKILLS, (i) => `Conventions for area ${i}: ${'naming and reviews. '.repeat(8)}`);
    const promptCache = () => cacheFiles().filter((name) => name.startsWith('bundle__prompt.cjs.usual.'));
    prompt(small);
    const [first] = promptCache();
    expect(first).toMatch(/\.g0\.v8$/);
    const firstSize = fs.statSync(path.join(cacheDir, first!)).size;
    prompt(many);
    const [again] = promptCache();
    expect(promptCache()).toHaveLength(1);
    expect(again).toMatch(/\.g1\.v8$/);
    // The second generation holds more compiled code, and is not made again by any later run.
    expect(fs.statSync(path.join(cacheDir, again!)).size).toBeGreaterThan(firstSize);
    const written = fs.statSync(path.join(cacheDir, again!)).mtimeMs;
    for (const cwd of [many, small, many]) prompt(cwd);
    expect(promptCache()).toEqual([again]);
    expect(fs.statSync(path.join(cacheDir, again!)).mtimeMs).toBe(written);
  });

  it('a package file that calls import() is compiled by Node as usual, so its import() still works', () => {
    const dir = tempDir();
    const dependency = path.join(dir, 'node_modules', 'dynamic', 'index.js');
    fs.mkdirSync(path.dirname(dependency), { recursive: true });
    fs.writeFileSync(dependency, "module.exports = () => import('node:path').then((m) => typeof m.join);\n");
    const script = `require(${JSON.stringify(path.join(pkg, 'bin', 'compile-cache.cjs'))}); require(${JSON.stringify(dependency)})().then((t) => console.log(t));`;
    const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: '' } });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('function');
    expect(cacheFiles().some((name) => name.includes('dynamic'))).toBe(false);
  });

  it('a package file that starts with a #! line is compiled by Node as usual', () => {
    const dir = tempDir();
    const dependency = path.join(dir, 'node_modules', 'hashbang', 'cli.js');
    fs.mkdirSync(path.dirname(dependency), { recursive: true });
    fs.writeFileSync(dependency, '#!/usr/bin/env node\nmodule.exports = 42;\n');
    const script = `require(${JSON.stringify(path.join(pkg, 'bin', 'compile-cache.cjs'))}); console.log(require(${JSON.stringify(dependency)}));`;
    const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: '' } });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('42');
  });
});
