#!/usr/bin/env node
// Entry point, in CommonJS so Node starts it without its ES module loader. `--version` is answered
// here before anything else loads; everything else goes to the CLI shell bundled in dist/cli/main.cjs
// (see scripts/bundle-cli.mjs), which loads each command's modules only when that command runs.
'use strict';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  // Compiled code is cached between runs: by Node itself where it can (22 and later), else by V8's
  // code cache for the CLI's own bundles (compile-cache.cjs).
  const { enableCompileCache } = require('node:module');
  if (enableCompileCache) enableCompileCache();
  else require('./compile-cache.cjs');
  // Ctrl-C: exit 130 (128 + SIGINT), as a shell reports a process the signal ended. The disk is left
  // as a kill leaves it: every write is atomic, and a squad lock left behind names this process,
  // which is gone, so the next command takes it over. A command with its own handler (mcp) stops itself.
  process.on('SIGINT', () => {
    if (process.listenerCount('SIGINT') === 1) process.exit(130);
  });
  require('../dist/cli/main.cjs')
    .main(args)
    .then((code) => {
      process.exitCode = code;
    });
}
