/**
 * A hint to V8 for runs that keep most of what they read (a listing of thousands of skills, a whole
 * `.squad` document): a young generation kept at its starting size copies those long-lived records
 * less often. Given only once a listing turns out large, since loading `node:v8` costs more than a
 * small listing; measurements in docs/budgets.md ("Tuning notes"). If V8 ignores it, nothing changes.
 */
import { createRequire } from 'node:module';

/** From this many entries in one skills folder on, a run counts as large (where the hint starts to pay: docs/budgets.md). */
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
