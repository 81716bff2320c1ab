/**
 * Reading a `.squad` file's JSON safely: UTF-8 within the size limit, nesting within the depth
 * limit, no key twice in one object (JSON.parse would keep the last one silently).
 */
import { isUtf8 } from 'node:buffer';
import { SQUAD_LIMITS, SquadFormatError, entryPath, oneLine, type SquadLimits } from './squad-format.js';
import { formatBytes } from '../base/util.js';

/** A problem the pre-parse scan found: `where` names the entry (undefined: the document). */
export interface JsonStructureProblem {
  where: string | undefined;
  detail: string;
}

interface ScanFrame {
  /** Its key in the parent object, or its index in the parent list; undefined for the document. */
  name: string | number | undefined;
  /** The keys seen so far (objects only). */
  keys: Set<string> | undefined;
  /** The index of the current item (lists only). */
  index: number;
}

function framePath(frames: readonly ScanFrame[]): string {
  let where = '';
  for (const frame of frames) if (frame.name !== undefined) where = entryPath(where, frame.name);
  return where;
}

/**
 * What JSON.parse would not say about `text`: nesting deeper than `maxDepth` (JSON.parse can
 * overflow the stack on pathological nesting), or a key that appears twice in one object
 * (JSON.parse silently keeps the last one). A linear scan that jumps over strings; undefined when
 * neither is found. Malformed JSON is left for JSON.parse to report.
 */
export function jsonStructureProblem(text: string, maxDepth: number): JsonStructureProblem | undefined {
  const frames: ScanFrame[] = [];
  let expectKey = false;
  let lastKey: string | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Jump to the closing quote: one not preceded by an odd number of backslashes.
      let from = i + 1;
      let quote: number;
      for (;;) {
        quote = text.indexOf('"', from);
        if (quote === -1) return undefined; // unterminated string: JSON.parse reports it
        let backslashes = 0;
        for (let k = quote - 1; k > i && text.charCodeAt(k) === 0x5c; k -= 1) backslashes += 1;
        if (backslashes % 2 === 0) break;
        from = quote + 1;
      }
      const top = frames[frames.length - 1];
      if (expectKey && top?.keys) {
        let key = text.slice(i + 1, quote);
        if (key.includes('\\')) {
          try {
            key = JSON.parse(text.slice(i, quote + 1)) as string;
          } catch {
            return undefined; // a bad escape: JSON.parse reports it
          }
        }
        if (top.keys.has(key)) {
          return { where: framePath(frames) || undefined, detail: `the key ${oneLine(JSON.stringify(key), 80)} appears twice (each entry must be named once)` };
        }
        top.keys.add(key);
        lastKey = key;
        expectKey = false;
      }
      i = quote;
    } else if (c === 0x7b || c === 0x5b) {
      if (frames.length >= maxDepth) return { where: undefined, detail: `the JSON nests deeper than ${maxDepth} levels (at character ${i + 1})` };
      const top = frames[frames.length - 1];
      const name = top === undefined ? undefined : top.keys ? lastKey : top.index;
      frames.push({ name, keys: c === 0x7b ? new Set() : undefined, index: 0 });
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      frames.pop();
      expectKey = false;
    } else if (c === 0x2c) {
      const top = frames[frames.length - 1];
      if (top?.keys) expectKey = true;
      else if (top) top.index += 1;
    }
  }
  return undefined;
}

/** Parse JSON text with the nesting limit. Throws SquadFormatError (not JSON, truncated, too deep, a key twice). */
export function parseJsonText(text: string, maxDepth: number = SQUAD_LIMITS.depth): unknown {
  const structure = jsonStructureProblem(text, maxDepth);
  if (structure) throw new SquadFormatError(structure.where, structure.detail);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (error instanceof RangeError) throw new SquadFormatError(undefined, `the JSON nests too deeply to read (${oneLine(error.message)})`);
    const message = error instanceof Error ? error.message : String(error);
    // Cut short: the parser ran into the end of the text (V8 says so, or reports that position).
    const position = /at position (\d+)/.exec(message)?.[1];
    const truncated = /end of (JSON )?input/i.test(message) || (position !== undefined && Number(position) >= text.trimEnd().length);
    throw new SquadFormatError(undefined, `not valid JSON${truncated ? ', or cut short' : ''} (${oneLine(message)})`);
  }
}

/** Decode the bytes of a .squad file: UTF-8 (a BOM is allowed), within the size limit. */
export function squadText(data: Uint8Array, limits: SquadLimits = SQUAD_LIMITS): string {
  if (data.length > limits.documentBytes) {
    throw new SquadFormatError(undefined, `the file is ${formatBytes(data.length)}; the limit is ${formatBytes(limits.documentBytes)}`);
  }
  if (!isUtf8(data)) throw new SquadFormatError(undefined, 'not UTF-8 text (a .squad file is JSON)');
  const text = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
