/** Small helpers shared across the core. */

/** A YAML/JSON mapping: a non-null, non-array object. */
export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Locale-independent string order, so output is the same on every machine. */
export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
