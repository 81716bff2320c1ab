/**
 * The shipped JSON Schema of the `.squad` format (schema/squad-format.schema.json), checked with a
 * JSON Schema validator that knows nothing of create-squad (ajv): what another tool would see.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { REPO_ROOT } from './cli.js';

export const SQUAD_SCHEMA_FILE = path.join(REPO_ROOT, 'schema', 'squad-format.schema.json');

let validate: ValidateFunction | undefined;

/** What the shipped schema says is wrong with `document` ("/agents/x: must …"); [] when it validates. */
export function squadSchemaErrors(document: unknown): string[] {
  validate ??= new Ajv({ allErrors: true, strict: true }).compile(JSON.parse(fs.readFileSync(SQUAD_SCHEMA_FILE, 'utf8')) as object);
  return validate(document) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'}: ${error.message ?? error.keyword}`);
}
