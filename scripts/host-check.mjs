#!/usr/bin/env node
// The host-check: runs test/e2e/copilot-runtime.test.ts against the real Copilot runtime. It uses
// the install CREATE_SQUAD_COPILOT_SDK names, or installs @github/copilot and @github/copilot-sdk
// into a temporary folder first (never into this package: neither is a dependency of create-squad).
// When that install is impossible (no network, an unsupported platform), it says so and exits 0:
// the check is skipped, not failed. Run `npm run build` first.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The versions the check was written against (see the README, "Copilot hosts"). */
const PACKAGES = ['@github/copilot@1.0.102', '@github/copilot-sdk@1.0.14'];
const root = fileURLToPath(new URL('../', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function install() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'create-squad-copilot-'));
  fs.writeFileSync(path.join(dir, 'package.json'), '{"private": true}\n');
  const result = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--no-save', ...PACKAGES], { cwd: dir, stdio: 'inherit' });
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
const run = spawnSync(npm, ['exec', '--', 'vitest', 'run', 'test/e2e/copilot-runtime.test.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, CREATE_SQUAD_COPILOT_SDK: dir },
});
if (given === undefined) fs.rmSync(dir, { recursive: true, force: true });
process.exit(run.status ?? 1);
