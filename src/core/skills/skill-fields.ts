/**
 * The frontmatter fields create-squad uses, declared once as valibot schemas: the type each field
 * must have, with the message and issue code when it has not. validate.ts reports the issues from
 * them; the same run gives the one typed value (SkillFields) that discovery, prompt, skills list
 * and import read, holding exactly the fields that passed (a field validation reports is absent
 * here, never guessed at).
 */
import * as v from 'valibot';
import { lazySchema, mapping } from '../base/schema.js';
import { isMapping, quoted } from '../base/util.js';

export const MAX_DESCRIPTION_LENGTH = 1024;
export const MAX_COMPATIBILITY_LENGTH = 500;

/** An MCP server a skill declares in `metadata.mcp-servers` (the squad extension). */
export interface McpServerRequirement {
  name: string;
  reason?: string;
  optional: boolean;
  fallback?: string;
}

/** A skill's frontmatter, typed: what create-squad reads from it. */
export interface SkillFields {
  /** `name`, when it is a string (validation checks the name rules). */
  name: string | undefined;
  description: string | undefined;
  /** `metadata` when it is a mapping, else {}. */
  metadata: Record<string, unknown>;
  /** `metadata.version`; the common unquoted number form (`version: 1.0`) as YAML read it. */
  version: string | undefined;
  /** `metadata.version` was written unquoted: YAML made it a number, which may not read as written (1.10 as 1.1). */
  versionUnquoted: boolean;
  /** `metadata.author`, when it is a string. */
  author: string | undefined;
  /** The well-formed entries of `metadata.mcp-servers`; validation reports the others as errors. */
  mcpServers: McpServerRequirement[];
  disableModelInvocation: boolean;
}

/** How a YAML value is described in messages. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `the string ${quoted(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value} ${String(value)}`;
}

const got = (text: string) => (issue: v.BaseIssue<unknown>) => `${text}, got ${describeType(issue.input)}`;

export type Severity = 'error' | 'warning';

/** A top-level field: its schema (absent or null is always fine), how bad a wrong value is, and the issue code by valibot issue type. */
export interface FieldRule {
  field: string;
  severity: Severity;
  schema: v.GenericSchema;
  codes: Record<string, string>;
}

/**
 * The simple fields: each one's type, limits and messages. `description` is required (its missing
 * and empty cases are the validator's, which names them with their own codes).
 */
export const fieldRules = lazySchema((): FieldRule[] => [
  {
    field: 'description',
    severity: 'error',
    schema: v.pipe(
      v.string(got('"description" must be a string')),
      v.check((text) => text.trim() !== '', '"description" is empty'),
      v.maxLength(MAX_DESCRIPTION_LENGTH, (issue) => `"description" is ${(issue.input as string).length} characters; the limit is ${MAX_DESCRIPTION_LENGTH}`),
    ),
    codes: { string: 'description-not-string', check: 'description-empty', max_length: 'description-too-long' },
  },
  {
    field: 'compatibility',
    severity: 'error',
    schema: v.pipe(
      v.string(got(`"compatibility" must be a string of at most ${MAX_COMPATIBILITY_LENGTH} characters`)),
      v.maxLength(MAX_COMPATIBILITY_LENGTH, (issue) => `"compatibility" is ${(issue.input as string).length} characters; the limit is ${MAX_COMPATIBILITY_LENGTH}`),
    ),
    codes: { string: 'compatibility-not-string', max_length: 'compatibility-too-long' },
  },
  {
    field: 'metadata',
    severity: 'error',
    schema: v.custom<Record<string, unknown>>(isMapping, got('"metadata" must be a mapping of keys to values')),
    codes: { custom: 'metadata-not-mapping' },
  },
  { field: 'license', severity: 'warning', schema: v.string(got('"license" should be a string')), codes: { string: 'license-not-string' } },
  { field: 'allowed-tools', severity: 'warning', schema: v.string(got('"allowed-tools" should be a string')), codes: { string: 'allowed-tools-not-string' } },
  {
    field: 'disable-model-invocation',
    severity: 'warning',
    schema: v.boolean(got('"disable-model-invocation" should be true or false')),
    codes: { boolean: 'disable-model-invocation-not-boolean' },
  },
]);

/** The fields of one `metadata.mcp-servers` entry, with the code of each one's issue. */
const MCP_SERVER_CODES: Record<string, string> = {
  name: 'mcp-server-name-invalid',
  reason: 'mcp-server-field-type',
  optional: 'mcp-server-field-type',
  fallback: 'mcp-server-field-type',
};

/**
 * One `metadata.mcp-servers` entry: `{name, reason?, optional?, fallback?}`. Messages are relative to
 * the entry (the validator puts `metadata.mcp-servers[i]` before them).
 */
export const mcpServerSchema = lazySchema(() =>
  mapping(
    v.object(
      {
        name: v.pipe(
          v.string((issue) => (issue.input === null ? ' has no "name"' : got('.name must be a non-empty string')(issue))),
          v.check((name) => name.trim() !== '', got('.name must be a non-empty string')),
          v.transform((name) => name.trim()),
        ),
        reason: v.nullish(v.string(got('.reason must be a string'))),
        fallback: v.nullish(v.string(got('.fallback must be a string'))),
        optional: v.nullish(v.boolean(got('.optional must be true or false')), false),
      },
      (issue) => {
        const key = issue.path?.[issue.path.length - 1]?.key;
        if (key === 'name') return ' has no "name"';
        return ` must be a mapping with at least "name", got ${describeType(issue.input)}`;
      },
    ),
  ),
);

/** The code of an mcp-servers entry issue: by the field it is about (`undefined`: the entry itself). */
export function mcpServerIssueCode(field: string | undefined, missing: boolean): string {
  if (field === undefined) return 'mcp-server-not-mapping';
  if (field === 'name' && missing) return 'mcp-server-name-missing';
  return MCP_SERVER_CODES[field] ?? 'mcp-server-field-type';
}

/** An mcp-servers entry as the typed value holds it, or undefined when it is malformed. */
export function mcpServerRequirement(entry: unknown): McpServerRequirement | undefined {
  const parsed = v.safeParse(mcpServerSchema(), entry, { abortEarly: true });
  if (!parsed.success) return undefined;
  const { name, reason, optional, fallback } = parsed.output;
  return { name, optional, ...(typeof reason === 'string' ? { reason } : {}), ...(typeof fallback === 'string' ? { fallback } : {}) };
}

/** A value of a simple field when it passes its rule, else undefined. */
function ruleValue(frontmatter: Record<string, unknown>, field: string): unknown {
  const value = frontmatter[field];
  if (value === undefined || value === null) return undefined;
  const rule = fieldRules().find((candidate) => candidate.field === field);
  return rule === undefined || v.is(rule.schema, value) ? value : undefined;
}

/** The one empty server list the skills without any share (frozen: a listing keeps thousands). */
export const NO_SERVERS = Object.freeze([]) as unknown as McpServerRequirement[];

/**
 * The typed value of `frontmatter`: the fields create-squad reads, each one only when it has the
 * type its rule requires. validateSkill returns it with its issues; use this where no issues are
 * wanted (a skill whose version upgrade compares, the author import checks).
 */
export function skillFields(frontmatter: Record<string, unknown>): SkillFields {
  const metadata = (ruleValue(frontmatter, 'metadata') as Record<string, unknown> | undefined) ?? {};
  const version = metadata.version;
  const servers = Array.isArray(metadata['mcp-servers']) ? metadata['mcp-servers'] : [];
  return {
    name: typeof frontmatter.name === 'string' ? frontmatter.name : undefined,
    description: typeof frontmatter.description === 'string' ? frontmatter.description : undefined,
    metadata,
    version: typeof version === 'string' ? version : typeof version === 'number' && Number.isFinite(version) ? String(version) : undefined,
    versionUnquoted: typeof version === 'number',
    author: typeof metadata.author === 'string' ? metadata.author : undefined,
    mcpServers: servers.length === 0 ? NO_SERVERS : servers.map(mcpServerRequirement).filter((server): server is McpServerRequirement => server !== undefined),
    disableModelInvocation: frontmatter['disable-model-invocation'] === true,
  };
}
