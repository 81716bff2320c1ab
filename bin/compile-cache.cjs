// A code cache for the CLI's own bundles on Node versions without module.enableCompileCache (Node
// 20 and 21). Compiling the CLI shell and a command's bundle is the largest part of a small run
// after Node itself; V8 can instead load the code it compiled in an earlier run (its "code cache"),
// which it checks against the source and its own version and flags, and rejects on any mismatch.
//
// Only the CLI's own code goes through it: this package's bundles under dist/, and the CommonJS
// files of the packages they load. The cache lives in the package's own folder
// (.compile-cache/, never shipped): whoever can write there can change the code anyway, so a cache
// there adds no way in, unlike a shared temporary folder. A package folder that cannot be written
// (a system-wide install) simply runs without a cache. NODE_DISABLE_COMPILE_CACHE=1 turns it off,
// as it does Node's own cache.
'use strict';

const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

const PACKAGE_ROOT = path.join(__dirname, '..');
const DIST = path.join(PACKAGE_ROOT, 'dist') + path.sep;
const CACHE_DIR = path.join(PACKAGE_ROOT, '.compile-cache');

const NODE_MODULES = `${path.sep}node_modules${path.sep}`;

/**
 * Set by src/core/base/heap.ts when a run changes a V8 flag. V8 refuses a code cache made under
 * other flags, so what a run compiles after that is cached apart ("large") from what runs with the
 * usual flags compile ("usual"): each kind of run then finds its own, instead of each replacing the
 * other's.
 */
const V8_FLAGS_CHANGED = Symbol.for('create-squad.v8-flags-changed');
const flagsKind = () => (globalThis[V8_FLAGS_CHANGED] === true ? 'large' : 'usual');

/**
 * Set by src/core/base/heap.ts when a run lists many skills. A cache holds the functions of the
 * run that made it, and a squad's first runs are small: they never rank skills against a budget.
 * So a cache is made again, once, by the first run that lists many skills (its second generation,
 * "g1"), with what that run compiled as well; without it, every later large listing compiles its
 * ranking again (about 5 ms at 1,000 skills, measured).
 */
const LISTED_MANY = Symbol.for('create-squad.listed-many-skills');
const generationOfRun = () => (globalThis[LISTED_MANY] === true ? 1 : 0);

/**
 * Which files are cached: this package's bundles, and the CommonJS files of the packages they load
 * (the handlebars runtime, porter2, yaml when a frontmatter needs it): the CLI's own code either way.
 * Named by their path below dist/ or below the last node_modules/.
 */
function cacheName(filename) {
  if (filename.startsWith(DIST)) return filename.endsWith('.cjs') ? path.relative(DIST, filename).replace(/[\\/]/g, '__') : undefined;
  const at = filename.lastIndexOf(NODE_MODULES);
  if (at === -1 || !/\.c?js$/.test(filename)) return undefined;
  return `node_modules__${filename.slice(at + NODE_MODULES.length).replace(/[\\/]/g, '__')}`;
}

/**
 * The cache file of a bundle: its name, Node's version, and the identity of this build of it (size,
 * inode, modification and change times). V8's own check compares the source's length, not its text,
 * so a rebuild that kept the length would otherwise run the code of the earlier build; hashing the
 * text would cost more than a millisecond, a stat some microseconds, and any write or copy changes
 * the change time.
 */
function cacheFileOf(filename, kind) {
  const base = `${cacheName(filename)}.${kind}`;
  const stat = fs.statSync(filename);
  const build = [stat.size, stat.ino, stat.mtimeMs, stat.ctimeMs].map((n) => Math.round(n * 1000).toString(36)).join('-');
  return { prefix: `${base}.`, file: (generation) => path.join(CACHE_DIR, `${base}.${process.version}.${build}.g${generation}.v8`) };
}

/**
 * Write the code V8 has compiled for `script` so far, atomically, and remove the caches of earlier
 * builds of the same bundle; never failing the run.
 */
function save(script, prefix, file) {
  try {
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, script.createCachedData());
    fs.renameSync(temporary, file);
    for (const name of fs.readdirSync(CACHE_DIR)) {
      if (name.startsWith(prefix) && name.endsWith('.v8') && path.join(CACHE_DIR, name) !== file) fs.rmSync(path.join(CACHE_DIR, name), { force: true });
    }
  } catch {
    // a folder that cannot be written: no cache
  }
}

function install() {
  const vm = require('node:vm');
  const compile = Module.prototype._compile;
  const pending = [];
  Module.prototype._compile = function compileWithCache(content, filename) {
    // Left to Node: a file that may call import() (a script compiled here has no loader for it) and
    // one that starts with a #! line (valid only at the very start, where the wrapper goes).
    if (cacheName(filename) === undefined || content.includes('import(') || content.startsWith('#!')) return compile.call(this, content, filename);
    const kind = flagsKind();
    const cacheFile = cacheFileOf(filename, kind);
    let cachedData;
    let generation = -1;
    for (const candidate of [1, 0]) {
      try {
        cachedData = fs.readFileSync(cacheFile.file(candidate));
        generation = candidate;
        break;
      } catch {
        // none of this generation
      }
    }
    const script = new vm.Script(Module.wrap(content), { filename, cachedData });
    // Saved at exit, so the cache holds the functions this run compiled too, not only the top level.
    if (cachedData === undefined || script.cachedDataRejected) pending.push([script, cacheFile, kind, -1]);
    else if (generation === 0) pending.push([script, cacheFile, kind, 0]);
    const wrapper = script.runInThisContext({ displayErrors: true });
    const require = Module.createRequire(filename);
    return wrapper.call(this.exports, this.exports, require, this, filename, path.dirname(filename));
  };
  process.once('exit', () => {
    // A cache is made under the flags of the moment: one compiled before the flags changed is kept
    // for a later run instead.
    // A first-generation cache is made again only by a run that listed many skills.
    const generation = generationOfRun();
    for (const [script, cacheFile, kind, loaded] of pending) {
      if (kind === flagsKind() && generation > loaded) save(script, cacheFile.prefix, cacheFile.file(generation));
    }
  });
}

const disabled = process.env.NODE_DISABLE_COMPILE_CACHE;
if (disabled === undefined || disabled === '' || disabled === '0') install();
