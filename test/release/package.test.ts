/**
 * The package as users get it: `npm pack`, install the tarball into an empty folder, and run the
 * installed CLI there (`npx create-squad`, `npm init squad`). This needs the npm registry for the
 * package's dependencies. A release check: `npm run test:release` runs it, as `.ci/run` does after
 * `npm test` (vitest.release.config.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSkill } from '../../src/core/skills/skill.js';
import { validateSkill } from '../../src/core/skills/validate.js';
import { REPO_ROOT, cleanupTempDirs, tempDir } from '../helpers/cli.js';
import { spawnAsync } from '../helpers/spawn.js';

afterAll(cleanupTempDirs);

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/** Run a command to its end without blocking, so the tests' independent processes run side by side. */
async function run(command: string, args: string[], cwd: string, timeout = 180_000) {
  const env = { ...process.env, NO_COLOR: '1', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
  const result = await spawnAsync(command, args, { cwd, env, timeout, killSignal: 'SIGTERM' });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** A new git repository at `dir`. */
async function gitInit(dir: string): Promise<void> {
  fs.mkdirSync(dir);
  await spawnAsync('git', ['init', '-q', dir]);
}

const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string; files: string[] };

// The tests share the installed package and otherwise work in folders of their own: they run side by side.
describe('the published package', { concurrent: true, timeout: 120_000 }, () => {
  let packDir: string;
  let tarball: string;
  let packedFiles: string[];
  let app: string;

  beforeAll(async () => {
    packDir = tempDir('squad-pack-');
    const packed = await run(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', packDir], REPO_ROOT);
    expect(packed.code, packed.stderr).toBe(0);
    const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    tarball = path.join(packDir, info!.filename);
    packedFiles = info!.files.map((f) => f.path);

    app = tempDir('squad-app-');
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
    // Dependencies come from npm's cache when it has them (the registry otherwise).
    const installed = await run(NPM, ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], app);
    expect(installed.code, installed.stderr).toBe(0);
  }, 300_000);

  it('ships exactly what runs: dist, bin, templates, the coordinator, the .squad JSON Schema, README, the docs, LICENSE', () => {
    // What the tarball the other tests install holds, as npm pack listed it.
    const paths = packedFiles;
    const tops = [...new Set(paths.map((p) => p.split('/')[0]!))].sort();
    expect(tops).toEqual(['LICENSE', 'README.md', 'bin', 'dist', 'docs', 'index.js', 'package.json', 'schema', 'squad.agent.md', 'templates']);
    expect(paths).toContain('schema/squad-format.schema.json');
    expect(paths).toContain('bin/create-squad.cjs');
    expect(paths).toContain('dist/cli/main.js');
    expect(paths.some((p) => p.startsWith('dist/') && p.endsWith('.test.js'))).toBe(false);
    expect(paths.some((p) => p.startsWith('templates/skills/squad-'))).toBe(true);
  });

  it('runs init --yes and prompt from the installed package with npx', async () => {
    const repo = path.join(app, 'repo');
    await gitInit(repo);

    // The command npx runs: the installed package's bin link (one npm start-up fewer than npx).
    const version = await run(path.join(app, 'node_modules', '.bin', process.platform === 'win32' ? 'create-squad.cmd' : 'create-squad'), ['--version'], repo);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(pkg.version);

    const init = await run(NPX, ['--no-install', 'create-squad', 'init', '--yes', '--project', 'A packaged test'], repo);
    expect(init.code, init.stderr).toBe(0);
    for (const file of ['.github/agents/squad.agent.md', '.ai-team/team.md', '.ai-team/.squad-manifest.json']) {
      expect(fs.existsSync(path.join(repo, file)), file).toBe(true);
    }
    const skills = path.join(repo, '.ai-team/skills');
    for (const name of fs.readdirSync(skills)) {
      const text = fs.readFileSync(path.join(skills, name, 'SKILL.md'), 'utf8');
      expect(validateSkill({ ...parseSkill(text), dirName: name }).errors).toEqual([]);
    }

    const agents = fs.readdirSync(path.join(repo, '.ai-team/agents')).filter((a) => a !== 'scribe');
    const prompt = await run(NPX, ['--no-install', 'create-squad', 'prompt', agents[0]!, '--task', 'Plan the first milestone'], repo);
    expect(prompt.code, prompt.stderr).toBe(0);
    expect(prompt.stdout).toMatch(/^You are /);
    expect(prompt.stdout).toContain('<available_skills>');
    expect(prompt.stdout).toContain('Plan the first milestone');
  });

  it('works as `npm init squad` (the initializer form)', async () => {
    const repo = path.join(app, 'repo-init');
    await gitInit(repo);
    const result = await run(NPM, ['init', 'squad', '--', '--yes'], repo);
    expect(result.code, result.stderr).toBe(0);
    expect(fs.existsSync(path.join(repo, '.github/agents/squad.agent.md'))).toBe(true);
    expect(fs.existsSync(path.join(repo, '.ai-team/team.md'))).toBe(true);
  });

  it('exposes the library API from the package entry', async () => {
    const script = "import('create-squad').then((m) => console.log(typeof m.discoverSkills, typeof m.validateSkill, typeof m.buildSpawnPrompt))";
    const result = await run(process.execPath, ['-e', script], app);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe('function function function');
  });
});
