#!/usr/bin/env node
// Build step: bundle the CLI shell (dist/cli/main.js and what it imports statically: the program
// definition, output, error policy) into one CommonJS file, dist/cli/main.cjs. Node starts a
// CommonJS file without initialising its ES module loader and without resolving a dozen modules,
// which is most of what `--help` costs beyond Node itself. Everything a command needs stays in
// dist/ as ES modules, loaded with import() only when that command runs.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));

await build({
  entryPoints: [path.join(root, 'dist/cli/main.js')],
  outfile: path.join(root, 'dist/cli/main.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
  // Loaded lazily, as ES modules, from their place in dist/ (the bundle sits beside main.js, so
  // the relative specifiers still point at them). commander is required at run time.
  external: ['./run.js', './default-command.js', '../commands/*', 'commander'],
  // import.meta.url (used to find the package root and to require commander) in CommonJS terms.
  define: { 'import.meta.url': '__create_squad_url' },
  banner: { js: "const __create_squad_url = require('node:url').pathToFileURL(__filename).href;" },
});
console.log('bundled the CLI shell → dist/cli/main.cjs');
