/**
 * Validation of a skill against the Agent Skills standard (docs/skills.md), with errors and warnings
 * exactly as the specification sorts them, and the squad extension `metadata.mcp-servers`.
 */
import { nameProblems } from '../base/names.js';
import type { Frontmatter } from './skill.js';
import { isMapping, quoted, shownKey } from '../base/util.js';
import { estimateTokens } from '../base/tokens.js';

export const MAX_DESCRIPTION_LENGTH = 1024;
export const MAX_COMPATIBILITY_LENGTH = 500;
export const MAX_BODY_LINES = 500;
export const MAX_BODY_TOKENS = 5000;

/** Fields the Agent Skills standard defines. */
export const STANDARD_FIELDS = [
  'name',
  'description',
  'license',
  'compatibility',
  'metadata',
  'allowed-tools',
] as const;

/** Platform extensions that are known and allowed without a warning. */
export const KNOWN_EXTENSION_FIELDS = [
  'disable-model-invocation',
  'user-invocable',
  'context',
  'agent',
  'argument-hint',
  'model',
] as const;

/** The squad extension: metadata keys whose values may be structured rather than strings. */
export const STRUCTURED_METADATA_KEYS = ['mcp-servers'] as const;

const MCP_SERVER_FIELDS = ['name', 'reason', 'optional', 'fallback'];

export interface SkillIssue {
  code: string;
  message: string;
  /** The frontmatter field the issue is about, dotted for nested fields. */
  field?: string;
  line?: number;
}

export interface SkillValidation {
  valid: boolean;
  errors: SkillIssue[];
  warnings: SkillIssue[];
}

export interface ValidateSkillInput {
  frontmatter: Frontmatter;
  /** The body, when it was read; body limits are only checked when it is given. */
  body?: string;
  /** Name of the folder holding SKILL.md; `name` must equal it. */
  dirName?: string;
}

/** Check one skill. Pure: no I/O. */
export function validateSkill(input: ValidateSkillInput): SkillValidation {
  const errors: SkillIssue[] = [];
  const warnings: SkillIssue[] = [];
  const fm = input.frontmatter;

  checkName(fm, input.dirName, errors);
  checkDescription(fm, errors);
  checkCompatibility(fm, errors);
  checkMetadata(fm, errors, warnings);
  checkOptionalTypes(fm, warnings);
  checkUnknownFields(fm, warnings);
  if (input.body !== undefined) checkBody(input.body, warnings);

  return { valid: errors.length === 0, errors, warnings };
}

function checkName(fm: Frontmatter, dirName: string | undefined, errors: SkillIssue[]): void {
  if (!('name' in fm) || fm.name === undefined) {
    errors.push({ code: 'name-missing', field: 'name', message: 'required field "name" is missing' });
    return;
  }
  if (fm.name === null) {
    errors.push({ code: 'name-empty', field: 'name', message: '"name" is empty' });
    return;
  }
  if (typeof fm.name !== 'string') {
    errors.push({
      code: 'name-not-string',
      field: 'name',
      message: `"name" must be a string, got ${describeType(fm.name)}`,
    });
    return;
  }
  for (const problem of nameProblems(fm.name, 'name')) {
    errors.push({ code: problem.code, field: 'name', message: problem.message });
  }
  if (dirName !== undefined && fm.name !== dirName) {
    errors.push({
      code: 'name-folder-mismatch',
      field: 'name',
      message: `name ${quoted(fm.name)} does not match its folder ${quoted(dirName)}`,
    });
  }
}

function checkDescription(fm: Frontmatter, errors: SkillIssue[]): void {
  const description = fm.description;
  if (description === undefined) {
    errors.push({
      code: 'description-missing',
      field: 'description',
      message: 'required field "description" is missing',
    });
  } else if (description === null) {
    errors.push({ code: 'description-empty', field: 'description', message: '"description" is empty' });
  } else if (typeof description !== 'string') {
    errors.push({
      code: 'description-not-string',
      field: 'description',
      message: `"description" must be a string, got ${describeType(description)}`,
    });
  } else if (description.trim() === '') {
    errors.push({ code: 'description-empty', field: 'description', message: '"description" is empty' });
  } else if (description.length > MAX_DESCRIPTION_LENGTH) {
    errors.push({
      code: 'description-too-long',
      field: 'description',
      message: `"description" is ${description.length} characters; the limit is ${MAX_DESCRIPTION_LENGTH}`,
    });
  }
}

function checkCompatibility(fm: Frontmatter, errors: SkillIssue[]): void {
  if (!('compatibility' in fm) || fm.compatibility === null) return;
  const value = fm.compatibility;
  if (typeof value !== 'string') {
    errors.push({
      code: 'compatibility-not-string',
      field: 'compatibility',
      message: `"compatibility" must be a string of at most ${MAX_COMPATIBILITY_LENGTH} characters, got ${describeType(value)}`,
    });
  } else if (value.length > MAX_COMPATIBILITY_LENGTH) {
    errors.push({
      code: 'compatibility-too-long',
      field: 'compatibility',
      message: `"compatibility" is ${value.length} characters; the limit is ${MAX_COMPATIBILITY_LENGTH}`,
    });
  }
}

function checkMetadata(fm: Frontmatter, errors: SkillIssue[], warnings: SkillIssue[]): void {
  if (!('metadata' in fm) || fm.metadata === null) return;
  const metadata = fm.metadata;
  if (!isMapping(metadata)) {
    errors.push({
      code: 'metadata-not-mapping',
      field: 'metadata',
      message: `"metadata" must be a mapping of keys to values, got ${describeType(metadata)}`,
    });
    return;
  }
  for (const [key, value] of Object.entries(metadata)) {
    if ((STRUCTURED_METADATA_KEYS as readonly string[]).includes(key)) continue;
    if (key === 'version' && typeof value === 'number') {
      // The text is gone: YAML read `version: 1.10` as the number 1.1, so say that, not the number alone.
      warnings.push({
        code: 'metadata-value-not-string',
        field: 'metadata.version',
        message: `metadata.version is written unquoted; YAML reads it as the number ${String(value)} — quote the version, e.g. version: "1.10" (unquoted, 1.10 reads as 1.1)`,
      });
    } else if (typeof value !== 'string') {
      const scalar = value === null || typeof value !== 'object';
      warnings.push({
        code: 'metadata-value-not-string',
        field: `metadata.${key}`,
        message: `metadata.${shownKey(key)} is ${describeType(value)}; the standard expects string values${scalar ? ' (put the value in quotes in the YAML)' : ''}`,
      });
    }
  }
  if ('mcp-servers' in metadata) checkMcpServers(metadata['mcp-servers'], errors, warnings);
}

function checkMcpServers(list: unknown, errors: SkillIssue[], warnings: SkillIssue[]): void {
  const field = 'metadata.mcp-servers';
  if (list === null) return;
  if (!Array.isArray(list)) {
    errors.push({
      code: 'mcp-servers-not-list',
      field,
      message: `${field} must be a list of {name, reason, optional, fallback}, got ${describeType(list)}`,
    });
    return;
  }
  const seen = new Set<string>();
  list.forEach((entry, index) => {
    const at = `${field}[${index}]`;
    if (!isMapping(entry)) {
      errors.push({
        code: 'mcp-server-not-mapping',
        field: at,
        message: `${at} must be a mapping with at least "name", got ${describeType(entry)}`,
      });
      return;
    }
    if (entry.name === undefined || entry.name === null) {
      errors.push({ code: 'mcp-server-name-missing', field: `${at}.name`, message: `${at} has no "name"` });
    } else if (typeof entry.name !== 'string' || entry.name.trim() === '') {
      errors.push({
        code: 'mcp-server-name-invalid',
        field: `${at}.name`,
        message: `${at}.name must be a non-empty string, got ${describeType(entry.name)}`,
      });
    } else if (seen.has(entry.name.trim())) {
      warnings.push({
        code: 'mcp-server-duplicate',
        field: `${at}.name`,
        message: `${at}: server ${quoted(entry.name)} is listed more than once`,
      });
    } else {
      seen.add(entry.name.trim());
    }
    for (const key of ['reason', 'fallback']) {
      if (key in entry && entry[key] !== null && typeof entry[key] !== 'string') {
        errors.push({
          code: 'mcp-server-field-type',
          field: `${at}.${key}`,
          message: `${at}.${key} must be a string, got ${describeType(entry[key])}`,
        });
      }
    }
    if ('optional' in entry && entry.optional !== null && typeof entry.optional !== 'boolean') {
      errors.push({
        code: 'mcp-server-field-type',
        field: `${at}.optional`,
        message: `${at}.optional must be true or false, got ${describeType(entry.optional)}`,
      });
    }
    for (const key of Object.keys(entry)) {
      if (!MCP_SERVER_FIELDS.includes(key)) {
        warnings.push({
          code: 'mcp-server-unknown-field',
          field: `${at}.${key}`,
          message: `${at} has unknown field ${quoted(key)} (known: ${MCP_SERVER_FIELDS.join(', ')})`,
        });
      }
    }
  });
}

function checkOptionalTypes(fm: Frontmatter, warnings: SkillIssue[]): void {
  for (const key of ['license', 'allowed-tools']) {
    if (key in fm && fm[key] !== null && typeof fm[key] !== 'string') {
      warnings.push({
        code: `${key}-not-string`,
        field: key,
        message: `${quoted(key)} should be a string, got ${describeType(fm[key])}`,
      });
    }
  }
  const dmi = fm['disable-model-invocation'];
  if (dmi !== undefined && dmi !== null && typeof dmi !== 'boolean') {
    warnings.push({
      code: 'disable-model-invocation-not-boolean',
      field: 'disable-model-invocation',
      message: `"disable-model-invocation" should be true or false, got ${describeType(dmi)}`,
    });
  }
}

const KNOWN_FIELDS: ReadonlySet<string> = new Set<string>([...STANDARD_FIELDS, ...KNOWN_EXTENSION_FIELDS]);

function checkUnknownFields(fm: Frontmatter, warnings: SkillIssue[]): void {
  for (const key of Object.keys(fm)) {
    if (!KNOWN_FIELDS.has(key)) {
      warnings.push({
        code: 'field-unknown',
        field: key,
        message: `field ${quoted(key)} is not part of the Agent Skills standard (move custom data under "metadata")`,
      });
    }
  }
}

function checkBody(body: string, warnings: SkillIssue[]): void {
  const lines = body === '' ? 0 : body.split('\n').length - (body.endsWith('\n') ? 1 : 0);
  if (lines > MAX_BODY_LINES) {
    warnings.push({
      code: 'body-too-long',
      message: `body is ${lines} lines; keep SKILL.md under ${MAX_BODY_LINES} lines and move details into references/`,
    });
  }
  const tokens = estimateTokens(body);
  if (tokens > MAX_BODY_TOKENS) {
    warnings.push({
      code: 'body-too-many-tokens',
      message: `body is about ${tokens} tokens; keep it under ~${MAX_BODY_TOKENS} and move details into references/`,
    });
  }
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `the string ${quoted(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value} ${String(value)}`;
}

