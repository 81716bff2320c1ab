/**
 * A hint to V8 for runs that keep most of what they read, such as a listing of thousands of skills
 * (a record per skill, alive until the prompt is printed) or a whole `.squad` document (export and
 * import hold every file until the last one is written). V8 grows its young generation as a run
 * allocates, and a growing young generation only copies those long-lived records more often: kept
 * at its starting size, reading 10,000 skills takes about a fifth less peak memory (bench/run.mjs).
 *
 * Listings set it only when they turn out to be large: loading `node:v8` costs several
 * milliseconds, more than a small squad's whole listing. A heuristic only: if V8 ignores it,
 * nothing changes.
 */
import { createRequire } from 'node:module';

/**
 * From this many entries in one skills folder on, a run counts as large. Measured (bench squads,
 * prompt): at 1,000 skills the hint only costs time (~3 ms, peak memory the same); from about 2,000
 * on it saves peak memory (2.7 MB at 2,000, 4 MB at 4,000, 17 MB at 10,000).
 */
export const MANY_SKILLS = 1500;

/**
 * Set once the hint is given. V8 refuses code it cached under other flags, so the CLI's compile
 * cache (bin/compile-cache.cjs) keeps what it compiles after the hint apart from the rest.
 */
const V8_FLAGS_CHANGED = Symbol.for('create-squad.v8-flags-changed');

let hinted = false;

export function expectManyLongLivedObjects(): void {
  if (hinted) return;
  hinted = true;
  try {
    (createRequire(import.meta.url)('node:v8') as typeof import('node:v8')).setFlagsFromString('--semi-space-growth-factor=1');
    (globalThis as Record<symbol, unknown>)[V8_FLAGS_CHANGED] = true;
  } catch {
    // not V8, or the flag is unknown: the run is only slower
  }
}

/** From this many entries in one skills folder on, a run ranks skills against a budget (as a rule). */
export const LISTS_MANY_SKILLS = 100;

/** Set once a run lists many skills; read by the CLI's compile cache (bin/compile-cache.cjs). */
const LISTED_MANY = Symbol.for('create-squad.listed-many-skills');

/**
 * Say that this run lists many skills. The CLI's compile cache holds the code of the run that
 * made it, and a squad's first runs are small; the first run that lists many skills makes it
 * again, once, with the code of ranking and budgets as well. No effect elsewhere.
 */
export function noteManySkillsListed(): void {
  (globalThis as Record<symbol, unknown>)[LISTED_MANY] = true;
}
