/** The installed create-squad version, read once from the package's package.json. */
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../base/paths.js';
import { hintCommand } from '../base/cli-invocation.js';
import { isMapping } from '../base/util.js';

let cached: string | undefined;

export function packageVersion(): string {
  cached ??= (JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  return cached;
}

/**
 * Order two dotted version strings ("0.1.0", "1.0", "2.10.1-beta.1"): numeric segments compared
 * one by one as numbers (a missing segment counts as 0, so "1.0" equals "1.0.0"); on a tie, SemVer
 * pre-release precedence: a release comes after its pre-releases, and pre-releases compare by their
 * dot-separated identifiers (see comparePrerelease). Build metadata ("+sha") is ignored. A version
 * that is missing or does not start with a number sorts before every parsable one. Returns a
 * negative number, 0 or a positive number.
 */
export function compareVersions(a: string | undefined, b: string | undefined): number {
  const pa = parseVersion(a);
  const pb = parseVersion(b);
  if (!pa || !pb) return (pa ? 1 : 0) - (pb ? 1 : 0);
  for (let i = 0; i < Math.max(pa.numbers.length, pb.numbers.length); i += 1) {
    const diff = (pa.numbers[i] ?? 0) - (pb.numbers[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  if (pa.pre === undefined || pb.pre === undefined) return (pa.pre === undefined ? 1 : 0) - (pb.pre === undefined ? 1 : 0);
  return comparePrerelease(pa.pre, pb.pre);
}

const NUMERIC_IDENTIFIER = /^\d+$/;

/**
 * SemVer §11 precedence of two pre-release tags ("beta.9" < "beta.10" < "rc.1"): identifiers are
 * compared left to right; numeric ones as numbers, others by ASCII order; a numeric identifier
 * comes before an alphanumeric one; when all shared identifiers are equal, the shorter tag first.
 */
function comparePrerelease(a: string, b: string): number {
  const ia = a.split('.');
  const ib = b.split('.');
  for (let i = 0; i < Math.min(ia.length, ib.length); i += 1) {
    const x = ia[i]!;
    const y = ib[i]!;
    if (x === y) continue;
    const xNumeric = NUMERIC_IDENTIFIER.test(x);
    const yNumeric = NUMERIC_IDENTIFIER.test(y);
    if (xNumeric && yNumeric) {
      const diff = BigInt(x) - BigInt(y);
      if (diff !== 0n) return diff < 0n ? -1 : 1;
      continue; // "01" and "1": the same number
    }
    if (xNumeric !== yNumeric) return xNumeric ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return Math.sign(ia.length - ib.length);
}

const VERSION_PATTERN = /^v?(\d+(?:\.\d+)*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]*)?$/;

function parseVersion(text: string | undefined): { numbers: number[]; pre: string | undefined } | undefined {
  const match = text === undefined ? null : VERSION_PATTERN.exec(text.trim());
  if (!match) return undefined;
  return { numbers: match[1]!.split('.').map(Number), pre: match[2] };
}

import { LOCAL_BINS } from '../base/cli-invocation.js';

export { LOCAL_BINS };

/** create-squad installed in the repository at `root`: the executable npm linked, and the installed version (each undefined when not there). */
export function readRepositoryInstall(root: string): { bin: string | undefined; version: string | undefined } {
  // existsSync follows links: a dangling .bin link, which cannot start, counts as none.
  const bin = LOCAL_BINS.find((relPath) => fs.existsSync(path.join(root, ...relPath.split('/'))));
  let version: string | undefined;
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'create-squad', 'package.json'), 'utf8')) as unknown;
    if (isMapping(manifest) && typeof manifest.version === 'string') version = manifest.version;
  } catch {
    // no install, or one npm did not finish: none
  }
  return { bin, version };
}

/**
 * The command line a hint printed in the repository at `root` gives for `args` (base/cli-invocation.ts
 * hintCommand): the repository's own install when it is `version` and can start, else `version`
 * pinned. `version` is the one printing the hint unless the hint sends the user to another.
 */
export function cliHint(root: string, args: string, version = packageVersion()): string {
  return hintCommand(args, version, startableInstallVersion(root));
}

/** The version of the create-squad the repository at `root` installs, when npx can start it there (its executable is linked); else undefined. */
export function startableInstallVersion(root: string): string | undefined {
  const install = readRepositoryInstall(root);
  return install.bin === undefined ? undefined : install.version;
}
