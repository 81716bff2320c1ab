/**
 * `.ai-team/.squad-manifest.json`: what create-squad installed, so later runs can tell a file the
 * user edited (its hash differs from the recorded one) from one nobody touched.
 *
 *   { "schema": 1, "version": "0.1.0", "files": { "<repo-relative path>": "<sha256 hex>" } }
 *
 * Only squad-owned files are recorded (coordinator, .ai-team-templates/, built-in skills). The
 * manifest carries no timestamp, so writing the same state twice gives the same bytes.
 */
import { readStateText } from '../fs/confined.js';
import { squadPaths } from '../base/paths.js';
import { compareCodePoints, isMapping } from '../base/util.js';

export const MANIFEST_SCHEMA = 1;

export interface Manifest {
  schema: number;
  /** create-squad version that last wrote the squad-owned files. */
  version: string;
  /** sha256 (hex) of each squad-owned file as create-squad wrote it. */
  files: Record<string, string>;
}

export type ManifestRead = { state: 'missing' } | { state: 'invalid'; reason: string } | { state: 'ok'; manifest: Manifest };

export function parseManifest(text: string): ManifestRead {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { state: 'invalid', reason: `not valid JSON (${(error as Error).message})` };
  }
  if (!isMapping(value)) return { state: 'invalid', reason: 'not a JSON object' };
  if (typeof value.version !== 'string') return { state: 'invalid', reason: '"version" is not a string' };
  if (!isMapping(value.files)) return { state: 'invalid', reason: '"files" is not an object' };
  const files: Record<string, string> = {};
  for (const [path, hash] of Object.entries(value.files)) {
    if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash)) {
      return { state: 'invalid', reason: `the hash of ${path} is not a sha256 hex string` };
    }
    files[path] = hash;
  }
  return {
    state: 'ok',
    manifest: { schema: typeof value.schema === 'number' ? value.schema : MANIFEST_SCHEMA, version: value.version, files },
  };
}

export function readManifest(root: string): ManifestRead {
  const text = readStateText(root, squadPaths.manifest);
  return text === undefined ? { state: 'missing' } : parseManifest(text);
}

/** Stable serialization: sorted paths, two-space indent, trailing newline. */
export function serializeManifest(manifest: Manifest): string {
  const files = Object.fromEntries(Object.entries(manifest.files).sort(([a], [b]) => compareCodePoints(a, b)));
  return `${JSON.stringify({ schema: MANIFEST_SCHEMA, version: manifest.version, files }, null, 2)}\n`;
}
