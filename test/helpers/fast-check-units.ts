/**
 * fast-check's `binary` string unit (any code point but a lone surrogate), generated exactly as
 * `fc.string({ unit: 'binary' })` generates it, with a value-to-index mapping of its own. fast-check's
 * own unit finds a value's index through a map of all 1.1 million code points, built the first time
 * a string arbitrary of it is made (about 2.5 s of CPU per test worker); this one computes it.
 */
import fc from 'fast-check';

/** The code points below the surrogates; those above them follow, shifted down by the surrogates' 2,048. */
const BELOW_SURROGATES = 0xd800;
const SURROGATES = 0x800;
const CODE_POINTS = 0x110000 - SURROGATES;

function codePointOf(index: number): string {
  return String.fromCodePoint(index < BELOW_SURROGATES ? index : index + SURROGATES);
}

/** The index of a one-code-point string; throws for anything else, as fast-check's unmappers do. */
function indexOf(value: unknown): number {
  if (typeof value !== 'string') throw new Error('not a string');
  const code = value.codePointAt(0);
  if (code === undefined || String.fromCodePoint(code) !== value || (code >= BELOW_SURROGATES && code < BELOW_SURROGATES + SURROGATES))
    throw new Error(`not one code point: ${JSON.stringify(value)}`);
  return code < BELOW_SURROGATES ? code : code - SURROGATES;
}

/** One code point of the `binary` unit, drawn as fast-check draws it (`nat` over the code points in order). */
export const binaryUnit: fc.Arbitrary<string> = fc.nat({ max: CODE_POINTS - 1 }).map(codePointOf, indexOf);
