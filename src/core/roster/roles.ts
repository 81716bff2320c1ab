/**
 * Role presets: the roles `init` offers (Lead, Core Dev, Tester, …) with what each one handles
 * (a routing row) and owns (charter lines). The text lives in `templates/team/roles.json`; any
 * other role is allowed too, as a custom role with generic wording from the templates.
 */
import { usageError } from '../base/errors.js';
import * as v from 'valibot';
import { checkedTemplateJson } from '../fs/templates.js';
import { lazySchema, mapping } from '../base/schema.js';
import { controlCharacterProblem, quoted } from '../base/util.js';
import { SCRIBE_AGENT } from '../base/paths.js';

export const ROLES_DATA_FILE = 'team/roles.json';
/** Longest role title accepted (it appears in table cells and headings). */
export const MAX_ROLE_LENGTH = 60;

export interface RolePreset {
  title: string;
  aliases: string[];
  /** What the role handles: its routing-table row. */
  handles: string;
  /** What the role owns: its charter lines. */
  responsibilities: string[];
}

/** A list of non-empty strings. */
const texts = () => v.array(v.pipe(v.string(), v.nonEmpty()));

/**
 * `templates/team/roles.json`: the presets, the default roles, the lead, and the tools of members'
 * Copilot agents (`memberTools`, each preset's `tools`; agents/role-tools.ts reads them from here).
 */
const roleCatalogSchema = lazySchema(() =>
  mapping(
    v.object({
      schema: v.literal(1),
      defaults: v.pipe(texts(), v.nonEmpty()),
      lead: v.optional(v.string()),
      memberTools: mapping(v.object({ every: texts(), customRole: texts(), scribe: texts() })),
      roles: v.pipe(
        v.array(
          mapping(
            v.object({
              title: v.pipe(v.string(), v.nonEmpty(), v.maxLength(MAX_ROLE_LENGTH)),
              aliases: v.optional(texts(), []),
              handles: v.optional(v.string(), ''),
              tools: v.optional(texts(), []),
              responsibilities: v.optional(texts(), []),
            }),
          ),
        ),
        v.nonEmpty(),
      ),
    }),
  ),
);

export type RoleCatalog = v.InferOutput<ReturnType<typeof roleCatalogSchema>>;

let catalog: RoleCatalog | undefined;

/** The role catalog as the package ships it, checked (a broken file is a broken package). */
export function roleCatalog(): RoleCatalog {
  catalog ??= checkedTemplateJson(ROLES_DATA_FILE, roleCatalogSchema());
  return catalog;
}

/** Every preset, in catalog order. */
export function rolePresets(): RolePreset[] {
  return roleCatalog().roles;
}

/** The roles cast when none are given: Lead, Core Dev, Tester. */
export function defaultRoles(): string[] {
  return [...roleCatalog().defaults];
}

function roleKey(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The preset a role title or alias names ("qa" → Tester), case-insensitively. */
export function findRolePreset(role: string): RolePreset | undefined {
  const key = roleKey(role);
  return rolePresets().find((preset) => roleKey(preset.title) === key || preset.aliases.some((alias) => roleKey(alias) === key));
}

/** Whether `role` is the lead role of the presets (its title or an alias: "Tech Lead", "architect"). */
export function isLeadRole(role: string): boolean {
  const lead = roleCatalog().lead;
  return lead !== undefined && findRolePreset(role)?.title === lead;
}

/**
 * What to tell the user about a role as typed, when it is recorded under another name: the preset
 * it stands for ("qa" → Tester, "ML Engineer" → Data Engineer). Undefined when it is recorded as
 * typed (a preset's own title in any case, or a custom role).
 */
export function roleAliasNote(typed: string): string | undefined {
  const preset = findRolePreset(typed);
  if (!preset || roleKey(preset.title) === roleKey(typed)) return undefined;
  return `"${typed.trim().replace(/\s+/g, ' ')}" is recorded as ${preset.title}, a role create-squad knows (its routing row and charter wording come with it)`;
}

/** A role as it is recorded: the preset's title when one matches, else the text on one line. */
export function normalizeRole(role: string): string {
  return findRolePreset(role)?.title ?? role.trim().replace(/\s+/g, ' ');
}

/**
 * Check and normalize a list of roles for casting. Throws a usage error for an empty list, an
 * empty or over-long role, or the reserved Scribe role.
 */
export function checkRoles(roles: readonly string[]): string[] {
  const normalized = roles.map(normalizeRole);
  if (normalized.length === 0) {
    throw usageError('no roles given', 'name at least one role, e.g. --roles "Lead,Core Dev,Tester", or pass --no-team for infrastructure only');
  }
  for (const role of normalized) {
    if (role === '') throw usageError('the role is empty', 'give every role a name, e.g. hire "Frontend Dev" or --roles "Lead,Core Dev,Tester"');
    const control = controlCharacterProblem(role);
    if (control) throw usageError(`the role ${quoted(role)} ${control}`, 'write the role as plain text, e.g. "Frontend Dev"');
    if (role.length > MAX_ROLE_LENGTH) {
      throw usageError(`the role "${role.slice(0, 20)}…" is ${role.length} characters; the limit is ${MAX_ROLE_LENGTH}`, 'use a short role title');
    }
    if (roleKey(role) === SCRIBE_AGENT) {
      throw usageError('Scribe is not a role to cast: every squad has one already', 'leave Scribe out of the roles');
    }
  }
  return normalized;
}

export interface RoleList {
  /** The roles as recorded (see normalizeRole), in the order given. */
  roles: string[];
  /** What to tell the user: roles recorded under a preset's name, roles given more than once. */
  notes: string[];
}

/**
 * checkRoles, and what the user should hear about the list: a role typed under another name of a
 * preset ("qa" → Tester), and a role given more than once once aliases are resolved ("Lead, tech
 * lead"), which is refused (usage) unless `allowDuplicates`.
 */
export function checkRoleList(typed: readonly string[], options: { allowDuplicates?: boolean } = {}): RoleList {
  const roles = checkRoles(typed);
  const notes = [...new Set(typed.map(roleAliasNote).filter((note): note is string => note !== undefined))];
  const counts = new Map<string, number>();
  for (const role of roles) counts.set(role, (counts.get(role) ?? 0) + 1);
  const repeated = [...counts].filter(([, count]) => count > 1);
  if (repeated.length === 0) return { roles, notes };
  const said = repeated.map(([role, count]) => `${role} ${count} times`).join(', ');
  if (!options.allowDuplicates) {
    throw usageError(`the roles list ${said}`, 'name each role once (aliases count: "qa" is Tester), or pass --allow-duplicate-roles to cast several members in one role');
  }
  return { roles, notes: [...notes, ...repeated.map(([role, count]) => `${count} members are cast as ${role} (--allow-duplicate-roles)`)] };
}

/** Split a comma-separated role list ("Lead, Core Dev,Tester"), dropping empty entries. */
export function splitRoleList(text: string): string[] {
  return text
    .split(',')
    .map((role) => role.trim())
    .filter(Boolean);
}
