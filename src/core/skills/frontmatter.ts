/**
 * YAML frontmatter: finding it, and parsing it with the limits a hostile file needs.
 *
 * Input hygiene: a UTF-8 BOM and CRLF line endings are accepted; alias expansion is
 * capped so a "billion laughs" document is refused instead of expanded; the frontmatter itself is
 * capped in size so a file without a closing `---` cannot make us read a 50 MB body.
 */
import { createRequire } from 'node:module';
import { SquadError } from '../base/errors.js';
import { parseSimpleYaml } from '../base/simple-yaml.js';

type YamlModule = typeof import('yaml');
let yamlModule: YamlModule | undefined;

/** The yaml library, loaded on first need: most frontmatter never needs it (see simple-yaml.ts). */
function yaml(): YamlModule {
  yamlModule ??= createRequire(import.meta.url)('yaml') as YamlModule;
  return yamlModule;
}

/**
 * The fast paths of reading a frontmatter (this module's YAML subset parser, validate.ts's shortcut
 * for the plain frontmatter) can be switched off together (CREATE_SQUAD_YAML_FAST_PATH=off) to run
 * the whole suite on the yaml library and every rule alone: both must give the same results.
 */
export const FAST_PATH = process.env.CREATE_SQUAD_YAML_FAST_PATH !== 'off';

export const FRONTMATTER_MAX_BYTES = 64 * 1024;
/** Upper bound on alias dereferences while building the JS value (yaml's own guard). */
export const YAML_MAX_ALIAS_COUNT = 100;

export type FrontmatterIssue =
  | 'not-a-file'
  | 'frontmatter-missing'
  | 'frontmatter-unclosed'
  | 'frontmatter-too-large'
  | 'frontmatter-yaml'
  | 'frontmatter-alias-limit'
  | 'frontmatter-not-mapping';

/** A SKILL.md (or other frontmatter file) that cannot be parsed. */
export class FrontmatterError extends SquadError {
  readonly issue: FrontmatterIssue;
  /** The message without the file prefix, for reports that already name the file. */
  readonly detail: string;

  constructor(issue: FrontmatterIssue, detail: string, file: string | undefined, line?: number) {
    const where = file === undefined ? '' : `${file}${line === undefined ? '' : `:${line}`}: `;
    super('skill-parse', `${where}${detail}`, {
      hint: FRONTMATTER_HINTS[issue],
      ...(file === undefined ? {} : { file }),
      ...(line === undefined ? {} : { line }),
    });
    this.name = 'FrontmatterError';
    this.issue = issue;
    this.detail = detail;
  }
}

const FRONTMATTER_HINTS: Record<FrontmatterIssue, string> = {
  'not-a-file': "SKILL.md must be a regular file; replace the FIFO, device or folder with the skill's text",
  'frontmatter-missing': 'start the file with a line "---", the YAML fields, then another "---"',
  'frontmatter-unclosed': 'close the frontmatter with a line containing only "---"',
  'frontmatter-too-large': `keep the frontmatter under ${FRONTMATTER_MAX_BYTES / 1024} KB; move long text into the body`,
  'frontmatter-yaml': 'fix the YAML syntax on that line (quote values that contain ": " or start with a special character)',
  'frontmatter-alias-limit': 'remove the YAML aliases (*name); they expand past the safety limit',
  'frontmatter-not-mapping': 'the frontmatter must be YAML "key: value" pairs, such as "name: my-skill"',
};

/** Strip a leading UTF-8 BOM and turn CRLF / lone CR line endings into LF. */
export function normalizeNewlines(text: string): string {
  const withoutBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return withoutBom.includes('\r') ? withoutBom.replace(/\r\n?/g, '\n') : withoutBom;
}

export type FrontmatterLocation =
  | { state: 'missing' }
  | { state: 'open' }
  | {
      state: 'closed';
      /** The YAML text between the delimiters. */
      yaml: string;
      /** Offset in the (normalized) text where the body starts. */
      bodyStart: number;
      /** 1-based line number of the first body line. */
      bodyLine: number;
    };

const DELIMITER = /^---[ \t]*$/;

/**
 * Find the frontmatter in normalized text. `complete` says whether `text` is the whole file or only
 * a prefix of it: in a prefix, an unterminated last line cannot yet count as the closing delimiter.
 */
export function locateFrontmatter(text: string, complete: boolean): FrontmatterLocation {
  const firstEnd = text.indexOf('\n');
  const firstLine = firstEnd === -1 ? text : text.slice(0, firstEnd);
  if (!DELIMITER.test(firstLine)) {
    // A prefix that so far reads "--" might still become "---".
    if (!complete && firstEnd === -1 && '---'.startsWith(firstLine)) return { state: 'open' };
    return { state: 'missing' };
  }
  if (firstEnd === -1) return { state: 'open' };

  let lineStart = firstEnd + 1;
  let lineNumber = 2;
  while (lineStart <= text.length) {
    const lineEnd = text.indexOf('\n', lineStart);
    const terminated = lineEnd !== -1;
    if (!terminated && !complete) return { state: 'open' };
    const line = text.slice(lineStart, terminated ? lineEnd : text.length);
    if (DELIMITER.test(line)) {
      return {
        state: 'closed',
        yaml: text.slice(firstEnd + 1, lineStart),
        bodyStart: terminated ? lineEnd + 1 : text.length,
        bodyLine: lineNumber + 1,
      };
    }
    if (!terminated) break;
    lineStart = lineEnd + 1;
    lineNumber += 1;
  }
  return { state: 'open' };
}

export interface SplitFrontmatter {
  yaml: string;
  body: string;
  bodyLine: number;
}

/**
 * The YAML of closed frontmatter, refused (frontmatter-too-large) over FRONTMATTER_MAX_BYTES: the
 * one size rule for a whole file (`splitFrontmatter`) and a file read only up to its frontmatter.
 */
export function checkedFrontmatterYaml(yaml: string, file?: string): string {
  if (Buffer.byteLength(yaml) > FRONTMATTER_MAX_BYTES) {
    throw new FrontmatterError('frontmatter-too-large', `frontmatter is larger than ${FRONTMATTER_MAX_BYTES / 1024} KB`, file, 1);
  }
  return yaml;
}

/** Split a whole file into frontmatter YAML and body. Throws FrontmatterError. */
export function splitFrontmatter(rawText: string, file?: string): SplitFrontmatter {
  const text = normalizeNewlines(rawText);
  const location = locateFrontmatter(text, true);
  if (location.state === 'missing') {
    throw new FrontmatterError('frontmatter-missing', 'no YAML frontmatter (the file must start with "---")', file, 1);
  }
  if (location.state === 'open') {
    throw new FrontmatterError('frontmatter-unclosed', 'frontmatter is not closed with "---"', file, 1);
  }
  return { yaml: checkedFrontmatterYaml(location.yaml, file), body: text.slice(location.bodyStart), bodyLine: location.bodyLine };
}

/**
 * Parse frontmatter YAML into a plain object. Empty frontmatter is an empty mapping (the validator
 * then reports the missing fields). `firstLine` is the file line of the first YAML line, so errors
 * point at the right line of the file.
 */
export function parseFrontmatterYaml(yamlText: string, file?: string, firstLine = 2): Record<string, unknown> {
  const simple = FAST_PATH ? parseSimpleYaml(yamlText) : undefined;
  if (simple !== undefined) return simple;
  const doc = yaml().parseDocument(yamlText, { prettyErrors: true, uniqueKeys: true, strict: true });
  const [firstError] = doc.errors;
  if (firstError) {
    const yamlLine = firstError.linePos?.[0]?.line;
    const line = yamlLine === undefined ? undefined : yamlLine + firstLine - 1;
    const reason = firstError.message
      .split('\n')[0]!
      .replace(/ at line \d+, column \d+:?$/, '')
      .toLowerCase();
    throw new FrontmatterError('frontmatter-yaml', `invalid YAML: ${reason}`, file, line);
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: YAML_MAX_ALIAS_COUNT });
  } catch (error) {
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      throw new FrontmatterError('frontmatter-alias-limit', 'YAML aliases expand past the safety limit (possible alias bomb); refused', file, firstLine);
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new FrontmatterError('frontmatter-yaml', `invalid YAML: ${reason}`, file, firstLine);
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    const kind = Array.isArray(value) ? 'a list' : `a ${typeof value}`;
    throw new FrontmatterError('frontmatter-not-mapping', `frontmatter must be a YAML mapping, not ${kind}`, file, firstLine);
  }
  return value as Record<string, unknown>;
}
