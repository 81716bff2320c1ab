/**
 * The tools a member's Copilot agent may use, by role: least privilege, `execute` (a shell) only for
 * roles whose work is running builds, tests or tools. The table is `memberTools` and each preset's
 * `tools` in `templates/team/roles.json`, the one source of it:
 *
 *   every       every member (reading, searching, loading a skill by name)
 *   {preset}    a preset role's own tools (Lead: edit; Core Dev: edit, execute; …)
 *   customRole  a role that is no preset
 *   scribe      the Scribe (it removes merged inbox files, so it needs a shell)
 *
 * Tool names are the aliases every Copilot host knows (`read`, `edit`, `search`, `execute`), plus
 * `skill`, the Copilot CLI's tool that loads a skill; a host ignores a name it does not know.
 */
import { findRolePreset, roleCatalog } from '../../roster/roles.js';

interface ToolTable {
  every: string[];
  customRole: string[];
  scribe: string[];
  /** Preset title → its own tools. */
  presets: Map<string, string[]>;
}

let table: ToolTable | undefined;

function loadTable(): ToolTable {
  if (table) return table;
  const { memberTools, roles } = roleCatalog();
  table = { ...memberTools, presets: new Map(roles.map((role) => [role.title, role.tools])) };
  return table;
}

function unique(tools: readonly string[]): string[] {
  return [...new Set(tools)];
}

/** The tools of a member with `role` (a preset's title or alias, or any other role). */
export function roleTools(role: string): string[] {
  const { every, customRole, presets } = loadTable();
  const preset = findRolePreset(role);
  return unique([...every, ...(preset ? (presets.get(preset.title) ?? []) : customRole)]);
}

/** The Scribe's tools. */
export function scribeTools(): string[] {
  const { every, scribe } = loadTable();
  return unique([...every, ...scribe]);
}

/** The tool name that gives an agent every tool of the MCP server `server`. */
export function mcpServerTools(server: string): string {
  return `${server}/*`;
}
