/**
 * Validation of a skill against the Agent Skills standard (docs/skills.md), with errors and warnings
 * exactly as the specification sorts them, and the squad extension `metadata.mcp-servers`.
 */
import * as v from 'valibot';
import { isValidName, nameProblems } from '../base/names.js';
import type { Frontmatter } from './skill.js';
import { FAST_PATH } from './frontmatter.js';
import { isMapping, quoted, shownKey } from '../base/util.js';
import { estimateTokens } from '../base/tokens.js';
import {
  MAX_COMPATIBILITY_LENGTH,
  MAX_DESCRIPTION_LENGTH,
  NO_SERVERS,
  describeType,
  fieldRules,
  mcpServerIssueCode,
  mcpServerSchema,
  skillFields,
  type SkillFields,
} from './skill-fields.js';

export { MAX_COMPATIBILITY_LENGTH, MAX_DESCRIPTION_LENGTH } from './skill-fields.js';
export const MAX_BODY_LINES = 500;
export const MAX_BODY_TOKENS = 5000;

/** Fields the Agent Skills standard defines. */
export const STANDARD_FIELDS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'] as const;

/** Platform extensions that are known and allowed without a warning. */
export const KNOWN_EXTENSION_FIELDS = ['disable-model-invocation', 'user-invocable', 'context', 'agent', 'argument-hint', 'model'] as const;

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
  /** The frontmatter, typed: what discovery, prompt and the other commands read (skill-fields.ts). */
  fields: SkillFields;
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
  if (input.body === undefined && FAST_PATH) {
    const plain = plainSkillFields(input.frontmatter, input.dirName);
    if (plain !== undefined) return { valid: true, errors: NO_ISSUES, warnings: NO_ISSUES, fields: plain };
  }
  return validateByRules(input);
}

/** validateSkill running every rule, without the shortcut for the plain frontmatter (for the test that holds the two together). */
export function validateByRules(input: ValidateSkillInput): SkillValidation {
  const errors: SkillIssue[] = [];
  const warnings: SkillIssue[] = [];
  const fm = input.frontmatter;

  checkName(fm, input.dirName, errors);
  checkRequiredDescription(fm, errors);
  checkFieldRules(fm, errors, warnings);
  checkMetadata(fm, errors, warnings);
  checkUnknownFields(fm, warnings);
  if (input.body !== undefined) checkBody(input.body, warnings);

  return { valid: errors.length === 0, errors: errors.length === 0 ? NO_ISSUES : errors, warnings: warnings.length === 0 ? NO_ISSUES : warnings, fields: skillFields(fm) };
}

/**
 * The one empty list of issues every valid skill shares: a listing keeps a record per skill, and
 * two empty arrays each add up at thousands of skills. Frozen, so a push fails loudly.
 */
export const NO_ISSUES = Object.freeze([]) as unknown as SkillIssue[];

/** The fields of the usual frontmatter, which needs no rule run: standard fields only, string values. */
const PLAIN_FIELDS: ReadonlySet<string> = new Set(STANDARD_FIELDS);
const NOT_BLANK = /\S/;

/**
 * The typed fields of a frontmatter the rules above accept with nothing to say, decided without
 * running them, or undefined when it is not that plain and the rules decide: standard fields only,
 * each a string, a valid name equal to its folder's, a description within its limit, metadata of
 * strings only (no `mcp-servers`). Nearly every skill is that plain, and a listing of thousands
 * checks each one. A differential test holds it to the full rules (test/unit/validate.test.ts).
 */
export function plainSkillFields(fm: Frontmatter, dirName: string | undefined): SkillFields | undefined {
  const { name, description, metadata } = fm;
  if (typeof name !== 'string' || !isValidName(name) || (dirName !== undefined && name !== dirName)) return undefined;
  if (typeof description !== 'string' || description.length > MAX_DESCRIPTION_LENGTH || !NOT_BLANK.test(description)) return undefined;
  for (const key in fm) {
    if (!PLAIN_FIELDS.has(key)) return undefined;
    if (typeof fm[key] !== 'string' && key !== 'metadata') return undefined;
  }
  const compatibility = fm.compatibility;
  if (typeof compatibility === 'string' && compatibility.length > MAX_COMPATIBILITY_LENGTH) return undefined;
  let version: string | undefined;
  let author: string | undefined;
  if (metadata !== undefined) {
    if (!isMapping(metadata)) return undefined;
    for (const key in metadata) {
      const value = metadata[key];
      if (typeof value !== 'string' || (STRUCTURED_METADATA_KEYS as readonly string[]).includes(key)) return undefined;
      if (key === 'version') version = value;
      else if (key === 'author') author = value;
    }
  }
  return {
    name,
    description,
    metadata: metadata ?? {},
    version,
    versionUnquoted: false,
    author,
    mcpServers: NO_SERVERS,
    disableModelInvocation: false,
  };
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

/** `description` is required: absent or null is an error here; its type and limits are its rule's. */
function checkRequiredDescription(fm: Frontmatter, errors: SkillIssue[]): void {
  if (fm.description === undefined) {
    errors.push({ code: 'description-missing', field: 'description', message: 'required field "description" is missing' });
  } else if (fm.description === null) {
    errors.push({ code: 'description-empty', field: 'description', message: '"description" is empty' });
  }
}

/** Each simple field against its rule (skill-fields.ts): the first issue, as an error or a warning. */
function checkFieldRules(fm: Frontmatter, errors: SkillIssue[], warnings: SkillIssue[]): void {
  for (const rule of fieldRules()) {
    const value = fm[rule.field];
    if (value === undefined || value === null) continue;
    const result = v.safeParse(rule.schema, value, { abortEarly: true });
    if (result.success) continue;
    const issue = result.issues[0];
    (rule.severity === 'error' ? errors : warnings).push({ code: rule.codes[issue.type] ?? `${rule.field}-invalid`, field: rule.field, message: issue.message });
  }
}

function checkMetadata(fm: Frontmatter, errors: SkillIssue[], warnings: SkillIssue[]): void {
  const metadata = fm.metadata;
  if (!isMapping(metadata)) return; // absent, or reported by its rule
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
    // The entry's shape by its schema (skill-fields.ts): every problem, each with its code.
    const result = v.safeParse(mcpServerSchema(), entry);
    for (const issue of result.issues ?? []) {
      const key = issue.path?.[0]?.key as string | undefined;
      const code = mcpServerIssueCode(key, issue.input === undefined || issue.input === null);
      errors.push({ code, field: key === undefined ? at : `${at}.${key}`, message: `${at}${issue.message}` });
    }
    if (!isMapping(entry)) return;
    const name = typeof entry.name === 'string' ? entry.name.trim() : '';
    if (name !== '' && seen.has(name)) {
      warnings.push({
        code: 'mcp-server-duplicate',
        field: `${at}.name`,
        message: `${at}: server ${quoted(entry.name as string)} is listed more than once`,
      });
    } else if (name !== '') {
      seen.add(name);
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
