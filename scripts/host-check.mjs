#!/usr/bin/env node
// The host-check: runs the tests that ask the real Copilot CLI and its runtime what they discover
// (test/e2e/copilot-runtime.test.ts, native-skills.test.ts, host-skills.test.ts, mcp-hosts.test.ts),
// and whole sessions against a scripted stand-in model (copilot-session.test.ts). It uses
// the install CREATE_SQUAD_COPILOT_SDK names, or installs @github/copilot and @github/copilot-sdk
// into a temporary folder first (never into this package: neither is a dependency of create-squad).
// It also runs skills-lock.json against the skills ecosystem's CLI (skills-lock-interop.test.ts),
// with the `skills` package CREATE_SQUAD_SKILLS_CLI names or installed the same way.
// When that install is impossible (no network, an unsupported platform), it says so and exits 0:
// the check is skipped, not failed. Run `npm run build` first.
// Then the checks against the original Squad's squad-cli 0.10 (test/e2e/original-squad-cli.test.ts):
// squad-cli needs Node 22.5 or later, so both come from npm into a temporary folder of their own
// (or CREATE_SQUAD_SQUAD_CLI names squad-cli's dist/cli-entry.js, with CREATE_SQUAD_SQUAD_CLI_NODE).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The versions the check was written against (see the README, "Copilot hosts"). */
const PACKAGES = ['@github/copilot@1.0.102', '@github/copilot-sdk@1.0.14'];
/** The skills ecosystem's CLI: 1.5.18 is its last release that runs on Node 20. */
const SKILLS_PACKAGE = 'skills@1.5.18';
const root = fileURLToPath(new URL('../', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function install(packages = PACKAGES) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'create-squad-copilot-'));
  fs.writeFileSync(path.join(dir, 'package.json'), '{"private": true}\n');
  const result = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--no-save', ...packages], { cwd: dir, stdio: 'inherit' });
  if (result.status === 0) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  return undefined;
}

const given = process.env.CREATE_SQUAD_COPILOT_SDK;
const dir = given ?? install();
if (dir === undefined) {
  console.log(`host-check skipped: ${PACKAGES.join(' and ')} could not be installed here`);
  process.exit(0);
}
const cli = path.join(dir, 'node_modules', '.bin', process.platform === 'win32' ? 'copilot.cmd' : 'copilot');
const tests = [
  'test/e2e/copilot-runtime.test.ts',
  'test/e2e/native-skills.test.ts',
  'test/e2e/host-skills.test.ts',
  'test/e2e/mcp-hosts.test.ts',
  'test/e2e/copilot-session.test.ts',
  'test/e2e/skills-lock-interop.test.ts',
];
const skillsGiven = process.env.CREATE_SQUAD_SKILLS_CLI;
const skillsDir = skillsGiven ?? install([SKILLS_PACKAGE]);
const run = spawnSync(npm, ['exec', '--', 'vitest', 'run', ...tests], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    CREATE_SQUAD_COPILOT_SDK: dir,
    ...(fs.existsSync(cli) ? { CREATE_SQUAD_COPILOT_CLI: cli } : {}),
    ...(skillsDir === undefined ? {} : { CREATE_SQUAD_SKILLS_CLI: skillsDir }),
  },
});
if (given === undefined) fs.rmSync(dir, { recursive: true, force: true });
if (skillsGiven === undefined && skillsDir !== undefined) fs.rmSync(skillsDir, { recursive: true, force: true });
if ((run.status ?? 1) !== 0) process.exit(run.status ?? 1);

/** squad-cli 0.10 and a Node it runs on, in a temporary folder; undefined when they cannot be installed here. */
function installSquadCli() {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'create-squad-squad-cli-'));
  fs.writeFileSync(path.join(folder, 'package.json'), '{"private": true}\n');
  const result = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--no-save', 'node@22', '@bradygaster/squad-cli@0.10'], { cwd: folder, stdio: 'inherit' });
  const node = path.join(folder, 'node_modules', 'node', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  const cli = path.join(folder, 'node_modules', '@bradygaster', 'squad-cli');
  if (result.status !== 0 || !fs.existsSync(node) || !fs.existsSync(cli)) {
    fs.rmSync(folder, { recursive: true, force: true });
    return undefined;
  }
  // squad-cli's own install steps (npm may hold install scripts back).
  for (const script of ['scripts/patch-esm-imports.mjs', 'scripts/patch-ink-rendering.mjs']) {
    if (fs.existsSync(path.join(cli, script))) spawnSync(node, [script], { cwd: cli, stdio: 'inherit' });
  }
  return { folder, node, entry: path.join(cli, 'dist', 'cli-entry.js') };
}

const givenSquadCli = process.env.CREATE_SQUAD_SQUAD_CLI;
const squadCli = givenSquadCli === undefined ? installSquadCli() : { folder: undefined, node: process.env.CREATE_SQUAD_SQUAD_CLI_NODE, entry: givenSquadCli };
if (squadCli === undefined) {
  console.log('host-check: the squad-cli checks skipped: node@22 and @bradygaster/squad-cli@0.10 could not be installed here');
  process.exit(0);
}
const squadCliRun = spawnSync(npm, ['exec', '--', 'vitest', 'run', 'test/e2e/original-squad-cli.test.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, CREATE_SQUAD_SQUAD_CLI: squadCli.entry, ...(squadCli.node ? { CREATE_SQUAD_SQUAD_CLI_NODE: squadCli.node } : {}) },
});
if (squadCli.folder !== undefined) fs.rmSync(squadCli.folder, { recursive: true, force: true });
process.exit(squadCliRun.status ?? 1);
