#!/usr/bin/env node
// Build step, after tsc: bundle what the CLI runs, so starting a command compiles a handful of
// CommonJS files instead of resolving and linking thirty-odd ES modules.
//
// 1. The CLI shell (dist/cli/main.js and what it imports: the program definition, output, error
//    policy, and — behind their lazy import() calls — the runner, init's questions and the default
//    command's check) becomes one CommonJS file, dist/cli/main.cjs. Node starts a CommonJS file
//    without initialising its ES module loader, which costs more than a command's own work on a
//    small squad. commander is bundled in, with its `node:child_process` (used only for executable
//    subcommands, which create-squad has none of) loaded on first use instead of at start.
// 2. The commands (dist/commands/*.js, with the core they use) become one self-contained CommonJS
//    file each, dist/bundle/<command>.cjs, required only when that command runs; their lazy
//    import() calls of packages become lazy require() calls (the MCP SDK and zod, which only
//    `mcp` loads, ship CommonJS builds too). Shared chunks would save disk but load a dozen files
//    again.
//    The core finds the package root from the dist/ folder in its own path, so it holds at any
//    depth of the bundle.
//    Packages (handlebars, yaml, prompts, …) stay in node_modules and load lazily as before, except
//    valibot: the schemas' library is bundled into the commands that use it, tree-shaken to the
//    functions they call.
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
const commands = [...new Set([...program.matchAll(/import\(['"]\.\.\/commands\/([\w-]+)\.js['"]\)/g)].map((m) => m[1]))];
if (commands.length === 0) throw new Error('bundle-cli: found no import("../commands/…") in dist/cli/program.js');

/** Every dependency stays external (with its subpaths), except the ones bundled. */
const BUNDLED_PACKAGES = new Set(['valibot', 'commander']);
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const externalPackages = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })
  .filter((name) => !BUNDLED_PACKAGES.has(name))
  .flatMap((name) => [name, `${name}/*`]);

/**
 * A default import of a Node built-in (`import fs from 'node:fs'`) in a CommonJS bundle: esbuild's
 * interop (__toESM) copies every export of the module onto a new object, a hundred-odd getters for
 * node:fs, at each of the dozens of places the source imports it. `builtinModule` hands out an
 * object that delegates to the module instead (the default export is the module itself, as Node
 * gives it): nothing copied. See useBuiltinInterop below.
 */
const BUILTIN_INTEROP = 'const __create_squad_builtin = (m) => Object.create(m, { default: { value: m, enumerable: true } });';

/** import.meta.url (used to find the package root and to require packages) in CommonJS terms. */
const commonJsMeta = {
  define: { 'import.meta.url': '__create_squad_url' },
  banner: { js: `const __create_squad_url = require('node:url').pathToFileURL(__filename).href;\n${BUILTIN_INTEROP}` },
  // import() of a package or of a bundled command becomes a lazy require(): no ES module loader.
  supported: { 'dynamic-import': false },
};

const entry = (name) => path.join(dist, 'commands', `${name}.js`);
// Whitespace and syntax minified, names kept (stack traces stay readable): less to read and parse
// at every start.
const shared = { bundle: true, platform: 'node', target: 'node20', external: externalPackages, logLevel: 'warning', minifyWhitespace: true, minifySyntax: true };

await build({
  ...shared,
  ...commonJsMeta,
  entryPoints: commands.map(entry),
  outdir: path.join(dist, BUNDLE_DIR),
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
});

/**
 * Parts of the shell only some runs need (init's questions on a terminal, the check before a bare
 * run writes a squad, the yes-or-no question after a skill's audit): bundled on their own, required when needed, so the shell stays small to
 * compile for every other run.
 */
const LAZY_SHELL_PARTS = ['init-questions', 'default-command', 'confirm'];
await build({
  ...shared,
  ...commonJsMeta,
  entryPoints: LAZY_SHELL_PARTS.map((name) => path.join(dist, 'cli', `${name}.js`)),
  outdir: path.join(dist, 'cli'),
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
});

/**
 * The shell's `import('../commands/x.js')` loads the bundled command instead, and its lazy parts
 * their own bundles; commander's `node:child_process` becomes a module that requires it on first use.
 */
const shellPlugin = {
  name: 'create-squad-shell',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\.\/commands\// }, (args) => {
      const name = args.path.replace(/^\.\.\/commands\/([\w-]+)\.js$/, '$1');
      return { path: `../${BUNDLE_DIR}/${name}.cjs`, external: true };
    });
    pluginBuild.onResolve({ filter: /^\.\/[\w-]+\.js$/ }, (args) => {
      const name = args.path.slice(2, -3);
      return LAZY_SHELL_PARTS.includes(name) ? { path: `./${name}.cjs`, external: true } : undefined;
    });
    pluginBuild.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'lazy-builtin' } : undefined,
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: `let m; module.exports = new Proxy({}, { get: (_, key) => (m ??= require('node:${args.path}'))[key] });`,
      loader: 'js',
    }));
  },
};

await build({
  ...shared,
  ...commonJsMeta,
  entryPoints: [path.join(dist, 'cli/main.js')],
  outfile: path.join(dist, 'cli/main.cjs'),
  format: 'cjs',
  plugins: [shellPlugin],
});
/** Every bundle written above: its built-ins' interop delegates instead of copying (BUILTIN_INTEROP). */
function useBuiltinInterop(file) {
  const text = fs.readFileSync(file, 'utf8');
  const rewritten = text.replace(/__toESM\(require\("(node:[\w/]+)"\),\s*1\)/g, '__create_squad_builtin(require("$1"))');
  if (rewritten !== text) fs.writeFileSync(file, rewritten);
}
const bundles = [
  ...fs.readdirSync(path.join(dist, BUNDLE_DIR)).map((name) => path.join(dist, BUNDLE_DIR, name)),
  ...[...LAZY_SHELL_PARTS, 'main'].map((name) => path.join(dist, 'cli', `${name}.cjs`)),
];
for (const file of bundles.filter((name) => name.endsWith('.cjs'))) useBuiltinInterop(file);

console.log(`bundled the CLI shell → dist/cli/main.cjs, the commands → dist/${BUNDLE_DIR}/`);
