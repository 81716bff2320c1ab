/**
 * `expect(actual).toEqual(expected)` for large values (plans holding whole files as Buffers):
 * vitest's equality walks a Buffer as an iterable, one byte at a time, and on a plan of a squad
 * that costs seconds per comparison. Node's deep strict equality compares them as bytes; it is
 * stricter than toEqual everywhere (undefined properties, prototypes, sparseness count) but for
 * errors (toEqual also compares their cause), so where it holds and the expected value holds no
 * error, toEqual holds too. Otherwise toEqual decides, with its diff on failure.
 */
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';

/** Whether `value` holds an Error anywhere (then toEqual decides alone). */
function holdsError(value: unknown, seen = new Set<object>()): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (value instanceof Error) return true;
  if (ArrayBuffer.isView(value) || seen.has(value)) return false;
  seen.add(value);
  if (value instanceof Map) return [...value].some(([key, entry]) => holdsError(key, seen) || holdsError(entry, seen));
  if (value instanceof Set) return [...value].some((entry) => holdsError(entry, seen));
  return Reflect.ownKeys(value).some((key) => holdsError((value as Record<PropertyKey, unknown>)[key], seen));
}

/** expect(actual, message).toEqual(expected), without walking Buffers byte by byte when they are equal. */
export function expectEqual(actual: unknown, expected: unknown, message?: string): void {
  if (!holdsError(expected) && isDeepStrictEqual(actual, expected)) return;
  expect(actual, message).toEqual(expected);
}
