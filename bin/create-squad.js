#!/usr/bin/env node
// Entry point. `--version` is answered here, before anything else loads, so it costs no more than
// starting Node; everything else goes to the CLI in dist/.
import { readFileSync } from 'node:fs';
import module from 'node:module';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else {
  // Node 22+ can cache compiled code between runs; on Node 20 this is a no-op.
  module.enableCompileCache?.();
  const { main } = await import('../dist/cli/main.js');
  process.exitCode = await main(args);
}
