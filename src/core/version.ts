/** The installed create-squad version, read once from the package's package.json. */
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from './paths.js';

let cached: string | undefined;

export function packageVersion(): string {
  cached ??= (JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  return cached;
}

/**
 * Order two dotted version strings ("0.1.0", "1.0", "2.10.1-beta.1"): numeric segments compared
 * one by one as numbers (a missing segment counts as 0, so "1.0" equals "1.0.0"); on a tie, a
 * pre-release ("-beta.1") comes before the release. A version that is missing or does not start
 * with a number sorts before every parsable one. Returns a negative number, 0 or a positive number.
 */
export function compareVersions(a: string | undefined, b: string | undefined): number {
  const pa = parseVersion(a);
  const pb = parseVersion(b);
  if (!pa || !pb) return (pa ? 1 : 0) - (pb ? 1 : 0);
  for (let i = 0; i < Math.max(pa.numbers.length, pb.numbers.length); i += 1) {
    const diff = (pa.numbers[i] ?? 0) - (pb.numbers[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  if (pa.pre === pb.pre) return 0;
  if (pa.pre === undefined) return 1;
  if (pb.pre === undefined) return -1;
  return pa.pre < pb.pre ? -1 : 1;
}

const VERSION_PATTERN = /^v?(\d+(?:\.\d+)*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]*)?$/;

function parseVersion(text: string | undefined): { numbers: number[]; pre: string | undefined } | undefined {
  const match = text === undefined ? null : VERSION_PATTERN.exec(text.trim());
  if (!match) return undefined;
  return { numbers: match[1]!.split('.').map(Number), pre: match[2] };
}
