#!/usr/bin/env node
// Build step, after tsc: bundle what the CLI runs, so starting a command resolves and compiles a
// handful of files instead of thirty-odd ES modules (a dozen milliseconds on every run).
//
// 1. The CLI shell (dist/cli/main.js and what it imports statically: the program definition,
//    output, error policy) becomes one CommonJS file, dist/cli/main.cjs. Node starts a CommonJS
//    file without initialising its ES module loader, which is most of what `--help` costs beyond
//    Node itself.
// 2. The commands (dist/commands/*.js, with the core they use) become ES modules in dist/bundle/,
//    one self-contained file per command, loaded with import() only when that command runs. (Shared
//    chunks would save disk but load a dozen files again: most of the cost this step removes.)
//    The core finds the package root from the dist/ folder in its own path, so it holds at any
//    depth of the bundle.
//    Packages (handlebars, yaml, prompts, …) stay in node_modules and load lazily as before, except
//    valibot: the schemas' library is bundled into the commands that use it, tree-shaken to the
//    functions they call (a few KB instead of the whole library on every validating command).
// The library entry (index.js) keeps using the unbundled dist/ that tsc wrote.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));
const dist = path.join(root, 'dist');
const BUNDLE_DIR = 'bundle';

// The commands the shell loads: the `import('../commands/x.js')` calls in the program definition.
const program = fs.readFileSync(path.join(dist, 'cli/program.js'), 'utf8');
const commands = [...new Set([...program.matchAll(/import\(['"]\.\.\/commands\/([\w-]+\.js)['"]\)/g)].map((m) => m[1]))].map((file) => path.join(dist, 'commands', file));
if (commands.length === 0) throw new Error('bundle-cli: found no import("../commands/…") in dist/cli/program.js');

/** Every dependency stays external (with its subpaths), except the ones bundled. */
const BUNDLED_PACKAGES = new Set(['valibot']);
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const externalPackages = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })
  .filter((name) => !BUNDLED_PACKAGES.has(name))
  .flatMap((name) => [name, `${name}/*`]);

await build({
  entryPoints: commands,
  outdir: path.join(dist, BUNDLE_DIR),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: externalPackages,
  logLevel: 'warning',
});

/** The shell's `import('../commands/x.js')` loads the bundled command instead. */
const bundledCommands = {
  name: 'bundled-commands',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\.\/commands\// }, (args) => ({
      path: args.path.replace(/^\.\.\/commands\//, `../${BUNDLE_DIR}/`),
      external: true,
    }));
  },
};

await build({
  entryPoints: [path.join(dist, 'cli/main.js')],
  outfile: path.join(dist, 'cli/main.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
  plugins: [bundledCommands],
  // Loaded lazily, as ES modules, from their place in dist/ (the bundle sits beside main.js, so
  // the relative specifiers still point at them). commander is required at run time.
  external: ['./run.js', './default-command.js', './init-questions.js', 'commander'],
  // import.meta.url (used to find the package root and to require commander) in CommonJS terms.
  define: { 'import.meta.url': '__create_squad_url' },
  banner: { js: "const __create_squad_url = require('node:url').pathToFileURL(__filename).href;" },
});
console.log(`bundled the CLI shell → dist/cli/main.cjs, the commands → dist/${BUNDLE_DIR}/`);
