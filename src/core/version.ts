/** The installed create-squad version, read once from the package's package.json. */
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from './paths.js';

let cached: string | undefined;

export function packageVersion(): string {
  cached ??= (JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  return cached;
}
