/**
 * Rendering the handlebars files under `templates/`. Handlebars is loaded on first use, so
 * commands that render nothing never pay for it; templates precompiled at build time need only its
 * small runtime (see scripts/precompile-templates.mjs).
 *
 * Templates produce markdown and YAML, not HTML, so nothing is HTML-escaped. Helpers:
 *   {{json value}}   a JSON literal; for strings this is also a valid double-quoted YAML scalar,
 *                    so frontmatter built from user text can never break its YAML.
 *   {{cell value}}   a value safe inside a markdown table cell (pipes escaped, one line).
 *   {{oneLine value}} a value with line breaks (any kind: util.ts foldLines) folded into spaces.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { HelperDelegate, TemplateDelegate } from 'handlebars';
import { SquadError } from '../base/errors.js';
import { PACKAGE_ROOT, PACKAGE_TEMPLATES_DIR, RUNNING_FROM_BUILD } from '../base/paths.js';
import { foldLines } from '../base/util.js';
import { parseWith, problemWhere } from '../base/schema.js';
import type { GenericSchema, InferOutput } from 'valibot';

type Handlebars = typeof import('handlebars');
type TemplateSpec = Parameters<Handlebars['template']>[0];
interface Precompiled {
  source: string;
  spec: TemplateSpec;
}

const compiled = new Map<string, TemplateDelegate>();

/** The helpers every template may use (see the header). */
export const TEMPLATE_HELPERS: Readonly<Record<string, HelperDelegate>> = {
  json: (value: unknown) => JSON.stringify(value ?? ''),
  oneLine: (value: unknown) => foldLines(String(value ?? '')),
  cell: (value: unknown) => foldLines(String(value ?? '')).replace(/\|/g, '\\|'),
};

/**
 * How every template is compiled: at build time (scripts/precompile-templates.mjs imports this from
 * dist/) and at run time for a template changed since the build. Markdown and YAML, not HTML: no
 * escaping.
 */
export const COMPILE_OPTIONS = { noEscape: true, strict: false } as const;

/**
 * A private handlebars instance with our helpers: the full package (compiler included), or only
 * its runtime. Both are CommonJS and loaded with require; the runtime from its single-file build,
 * which loads in a fraction of the time of its module tree (this is on the path of every prompt).
 */
async function instance(which: 'handlebars' | 'handlebars/dist/handlebars.runtime.min.js'): Promise<Handlebars> {
  const hbs = (createRequire(import.meta.url)(which) as Handlebars).create();
  for (const [name, helper] of Object.entries(TEMPLATE_HELPERS)) hbs.registerHelper(name, helper);
  return hbs as Handlebars;
}

let compiler: Promise<Handlebars> | undefined;
let runtime: Promise<Handlebars> | undefined;
let precompiled: Promise<Record<string, Precompiled>> | undefined;

/**
 * Templates precompiled at build time (dist/templates.precompiled.cjs, CommonJS so the bundled
 * commands require it without Node's ES module loader); {} when running from source.
 */
function loadPrecompiled(): Promise<Record<string, Precompiled>> {
  precompiled ??= Promise.resolve().then(() => {
    if (!RUNNING_FROM_BUILD) return {};
    try {
      return (createRequire(import.meta.url)(path.join(PACKAGE_ROOT, 'dist', 'templates.precompiled.cjs')) as { templates: Record<string, Precompiled> }).templates;
    } catch {
      return {};
    }
  });
  return precompiled;
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
    throw new SquadError('not-found', `data file templates/${relPath} is missing or broken in the create-squad package`, {
      hint: 'reinstall create-squad; the package is incomplete',
      cause: error,
    });
  }
}

/**
 * A JSON data file of the package, checked against its schema: a file that does not match is a
 * broken package, said with the entry and what is wrong.
 */
export function checkedTemplateJson<S extends GenericSchema>(relPath: string, schema: S): InferOutput<S> {
  const parsed = parseWith(schema, readTemplateJson(relPath));
  if ('value' in parsed) return parsed.value;
  const where = problemWhere(parsed.problem);
  throw new SquadError('not-found', `data file templates/${relPath} is broken in the create-squad package: ${where ? `${where}: ` : ''}${parsed.problem.message}`, {
    hint: 'reinstall create-squad; the package is incomplete',
  });
}

/** Render `templates/{relPath}` with `data`. */
export async function renderTemplate(relPath: string, data: object): Promise<string> {
  let template = compiled.get(relPath);
  if (!template) {
    let source: string;
    try {
      source = fs.readFileSync(templatePath(relPath), 'utf8');
    } catch (error) {
      throw new SquadError('not-found', `template ${relPath} is missing from the create-squad package`, {
        hint: 'reinstall create-squad; the package is incomplete',
        cause: error,
      });
    }
    const built = (await loadPrecompiled())[relPath];
    if (built && built.source === source) {
      template = (await (runtime ??= instance('handlebars/dist/handlebars.runtime.min.js'))).template(built.spec);
    } else {
      // Running from source, or the file changed since the build: compile it now.
      template = (await (compiler ??= instance('handlebars'))).compile(source, COMPILE_OPTIONS);
    }
    compiled.set(relPath, template);
  }
  return template(data);
}
