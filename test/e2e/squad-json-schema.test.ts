/**
 * The JSON Schema of the `.squad` format that the package ships: generated from the valibot schema
 * import checks documents with, up to date in the repository, and met by real exports — a squad
 * with every kind of skill file, and (when ../shared/data is present) the original Squad's own
 * 1.0 exports once read into the 1.1 model. The exports of its real squads after upgrade are
 * checked against the schema in original-data.test.ts, which upgrades each of them anyway.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as squadSchema from '../../src/core/portable/squad-schema.js';
import { readSquadDocument, validateSquadDocument } from '../../src/core/portable/squad-validate.js';
import { serializeSquad } from '../../src/core/portable/canonical-json.js';
// @ts-expect-error: a build script in plain JavaScript, without type declarations
import { squadJsonSchemaText } from '../../scripts/squad-json-schema.mjs';
import { cleanupTempDirs, REPO_ROOT, runCli, tempDir, tempRepo, validSkill } from '../helpers/cli.js';
import { HAS_ORIGINAL_DATA, noteMissingData, originalExport } from '../helpers/original-data.js';
import { sourceSquad } from '../helpers/portable.js';
import { SQUAD_SCHEMA_FILE, squadSchemaErrors } from '../helpers/squad-schema.js';

afterAll(cleanupTempDirs);
noteMissingData('the JSON Schema check of real original-Squad exports');

async function exportDocument(root: string): Promise<unknown> {
  const out = path.join(tempDir(), 'squad.squad');
  const result = await runCli(['export', '--out', out], { cwd: root });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(fs.readFileSync(out, 'utf8')) as unknown;
}

describe('the shipped JSON Schema of the .squad format', () => {
  it('is what the build generates from the schema import uses (run npm run build after changing squad-schema.ts)', () => {
    expect(fs.readFileSync(SQUAD_SCHEMA_FILE, 'utf8')).toBe((squadJsonSchemaText as (module: typeof squadSchema) => string)(squadSchema));
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('schema');
    expect(fs.readFileSync(path.join(REPO_ROOT, 'docs', 'squad-format.md'), 'utf8')).toContain('schema/squad-format.schema.json');
  });

  it("validates a fresh squad's export and one with every kind of skill file (text, executable, binary, nested, hidden)", async () => {
    const fresh = tempRepo();
    expect((await runCli(['init', '--yes'], { cwd: fresh })).code).toBe(0);
    expect(squadSchemaErrors(await exportDocument(fresh))).toEqual([]);
    const full = await exportDocument(await sourceSquad());
    expect(squadSchemaErrors(full)).toEqual([]);
    // What the schema and import agree to refuse.
    const bad = [
      { squad_format_version: '1.1', agents: { 'Not A Name': {} } },
      { squad_format_version: '1.1', agents: {}, team_skills: { s: { skill_md: validSkill('s'), files: { a: { content: 'x', extra: 1 } } } } },
      { squad_format_version: '1.1', agents: {}, team_skills: { s: { skill_md: validSkill('s'), files: { a: { content: 'x', mode: '777' } } } } },
      { squad_format_version: '1.1', agents: [] },
      { squad_format_version: '1.2', agents: {} },
    ];
    for (const document of bad) {
      expect(squadSchemaErrors(document), JSON.stringify(document)).not.toEqual([]);
      expect(() => validateSquadDocument(document), JSON.stringify(document)).toThrow(/invalid \.squad file/);
    }
  });

  it('keeps skills and files named constructor, prototype and __proto__ (valid names a plain schema record would drop)', () => {
    const skill = { skill_md: validSkill('constructor'), files: JSON.parse('{"__proto__": "a", "constructor": "b", "prototype": "c"}') as Record<string, string> };
    const document = { squad_format_version: '1.1', agents: { prototype: { skills: { constructor: { ...skill, skill_md: validSkill('constructor') } } } } };
    const { document: read } = validateSquadDocument(document);
    expect(Object.keys(read.agents)).toEqual(['prototype']);
    expect(Object.keys(read.agents.prototype!.skills)).toEqual(['constructor']);
    const name: string = 'constructor';
    expect(Object.keys(read.agents.prototype!.skills[name]!.files)).toEqual(['__proto__', 'constructor', 'prototype']);
    expect(squadSchemaErrors(document)).toEqual([]);
  });
});

describe.skipIf(!HAS_ORIGINAL_DATA)("the original Squad's exports", () => {
  it.each(['recipes-v02.json', 'recipes-head.json', 'head-spacename.json', 'real-v042.json.gz'])(
    "%s (format 1.0, the original Squad's, not described by the schema): read into the 1.1 model, it validates",
    (file) => {
      const exported = originalExport(file);
      const raw = JSON.parse(fs.readFileSync(exported, 'utf8')) as Record<string, unknown>;
      expect(squadSchemaErrors(raw)).not.toEqual([]); // no squad_format_version: another format
      const { format, document } = readSquadDocument(fs.readFileSync(exported), { sourceName: file });
      expect(format).toBe('1.0');
      expect(squadSchemaErrors(JSON.parse(serializeSquad(document)))).toEqual([]);
    },
  );
});
