#!/usr/bin/env node
// Build step, after tsc: the JSON Schema of the `.squad` format (1.1), generated from the valibot
// schema that import checks documents with (src/core/portable/squad-schema.ts), written to
// schema/squad-format.schema.json, which the package ships. What the schema cannot say (limits,
// path rules, one file per normalised path, the casting files' inner shapes) is in
// docs/squad-format.md; import checks those too.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { toJsonSchema } from '@valibot/to-json-schema';

const root = fileURLToPath(new URL('../', import.meta.url));
export const SCHEMA_FILE = 'schema/squad-format.schema.json';

/**
 * The JSON Schema of a document, as the text written to SCHEMA_FILE, from squad-schema.ts's
 * exports (`squadDocumentSchema`, `squadSkillSchema`): the module built by tsc, or the source in tests.
 */
export function squadJsonSchemaText({ squadDocumentSchema, squadSkillSchema }) {
  const json = toJsonSchema(squadDocumentSchema(), {
    definitions: { skill: squadSkillSchema() },
    typeMode: 'input',
    // Checks written as functions (the name rules' messages, base64) have a pattern or nothing beside them.
    errorMode: 'ignore',
    // A casting file is any JSON object here; its inner shape is the casting readers' to check.
    overrideSchema: ({ valibotSchema, jsonSchema }) => (valibotSchema.type === 'custom' ? { ...jsonSchema, type: 'object' } : undefined),
  });
  const { $schema = 'http://json-schema.org/draft-07/schema#', ...rest } = json;
  return `${JSON.stringify({ $schema, ...rest }, null, 2)}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const squadSchema = await import(pathToFileURL(path.join(root, 'dist/core/portable/squad-schema.js')).href);
  fs.mkdirSync(path.join(root, path.dirname(SCHEMA_FILE)), { recursive: true });
  fs.writeFileSync(path.join(root, SCHEMA_FILE), squadJsonSchemaText(squadSchema));
  console.log(`wrote the .squad JSON Schema → ${SCHEMA_FILE}`);
}
