#!/usr/bin/env node
// Entry point, in CommonJS so Node starts it without its ES module loader. `--version` is answered
// here before anything else loads; everything else goes to the CLI shell bundled in dist/cli/main.cjs
// (see scripts/bundle-cli.mjs), which loads each command's modules only when that command runs.
'use strict';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  // Node 22+ can cache compiled code between runs; on Node 20 this is a no-op.
  require('node:module').enableCompileCache?.();
  // A reader that went away (`create-squad … | head`) ends the run quietly.
  process.stdout.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  });
  require('../dist/cli/main.cjs')
    .main(args)
    .then((code) => {
      process.exitCode = code;
    });
}
