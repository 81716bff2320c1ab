/** The text of a `.squad` file: canonical JSON, so the same squad always gives the same bytes. */
import type { SquadDocument } from './squad-format.js';
import { compareCodePoints } from '../base/util.js';

/**
 * JSON with every object's keys sorted by code point (also integer-like keys, which a plain
 * JSON.stringify would put first), two-space indent: the same squad always gives the same text.
 * Objects in `verbatim` (and everything inside them) keep their own key order.
 */
export function canonicalJson(value: unknown, verbatim: ReadonlySet<object> = new Set()): string {
  const out: string[] = [];
  const write = (current: unknown, pad: string, keepOrder = false): void => {
    if (current === null || typeof current !== 'object') {
      out.push(JSON.stringify(current) ?? 'null');
      return;
    }
    const inner = `${pad}  `;
    if (Array.isArray(current)) {
      if (current.length === 0) {
        out.push('[]');
        return;
      }
      out.push('[\n');
      current.forEach((item, index) => {
        out.push(inner);
        write(item, inner, keepOrder);
        out.push(index < current.length - 1 ? ',\n' : '\n');
      });
      out.push(`${pad}]`);
      return;
    }
    const record = current as Record<string, unknown>;
    const ordered = keepOrder || verbatim.has(record);
    const keys = Object.keys(record).filter((key) => record[key] !== undefined);
    if (!ordered) keys.sort(compareCodePoints);
    if (keys.length === 0) {
      out.push('{}');
      return;
    }
    out.push('{\n');
    keys.forEach((key, index) => {
      out.push(inner, JSON.stringify(key), ': ');
      write(record[key], inner, ordered);
      out.push(index < keys.length - 1 ? ',\n' : '\n');
    });
    out.push(`${pad}}`);
  };
  write(value, '');
  return out.join('');
}

/**
 * The text of a .squad file: keys sorted, except inside the casting files, which keep their own
 * key order (import writes them back as JSON with a two-space indent).
 */
export function serializeSquad(document: SquadDocument): string {
  const casting = [document.casting.policy, document.casting.registry, document.casting.history].filter((value): value is Record<string, unknown> => value !== undefined);
  return `${canonicalJson(document, new Set(casting))}\n`;
}
