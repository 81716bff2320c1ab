/**
 * Rendering the handlebars files under `templates/`. Handlebars is loaded on first use, so
 * commands that render nothing never pay for it.
 *
 * Templates produce markdown and YAML, not HTML, so nothing is HTML-escaped. Helpers:
 *   {{json value}}   a JSON literal; for strings this is also a valid double-quoted YAML scalar,
 *                    so frontmatter built from user text can never break its YAML.
 *   {{cell value}}   a value safe inside a markdown table cell (pipes escaped, one line).
 *   {{oneLine value}} a value with line breaks folded into spaces.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { HelperDelegate, TemplateDelegate } from 'handlebars';
import { SquadError } from './errors.js';
import { PACKAGE_TEMPLATES_DIR } from './paths.js';

type Handlebars = typeof import('handlebars');

let engine: Handlebars | undefined;
const compiled = new Map<string, TemplateDelegate>();

const helpers: Record<string, HelperDelegate> = {
  json: (value: unknown) => JSON.stringify(value ?? ''),
  oneLine: (value: unknown) => oneLine(value),
  cell: (value: unknown) => oneLine(value).replace(/\|/g, '\\|'),
  eq: (a: unknown, b: unknown) => a === b,
};

function oneLine(value: unknown): string {
  return String(value ?? '').replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

async function loadEngine(): Promise<Handlebars> {
  if (!engine) {
    const mod = (await import('handlebars')) as unknown as { default?: Handlebars } & Handlebars;
    const instance = (mod.default ?? mod).create();
    for (const [name, helper] of Object.entries(helpers)) instance.registerHelper(name, helper);
    engine = instance as Handlebars;
  }
  return engine;
}

/** Absolute path of a file under the package's templates/ folder. */
export function templatePath(relPath: string): string {
  return path.join(PACKAGE_TEMPLATES_DIR, ...relPath.split('/'));
}

/** Parse a JSON data file shipped under the package's templates/ folder. */
export function readTemplateJson(relPath: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(templatePath(relPath), 'utf8')) as unknown;
  } catch (error) {
    throw new SquadError('NOT_FOUND', `data file templates/${relPath} is missing or broken in the create-squad package`, {
      hint: 'reinstall create-squad; the package is incomplete',
      cause: error,
    });
  }
}

/** Render `templates/{relPath}` with `data`. */
export async function renderTemplate(relPath: string, data: object): Promise<string> {
  let template = compiled.get(relPath);
  if (!template) {
    const hbs = await loadEngine();
    let source: string;
    try {
      source = fs.readFileSync(templatePath(relPath), 'utf8');
    } catch (error) {
      throw new SquadError('NOT_FOUND', `template ${relPath} is missing from the create-squad package`, {
        hint: 'reinstall create-squad; the package is incomplete',
        cause: error,
      });
    }
    template = hbs.compile(source, { noEscape: true, strict: false });
    compiled.set(relPath, template);
  }
  return template(data);
}
