/**
 * The one table of limits. What a command takes in at the door (`teach`, `skills add`, `import`)
 * is held to the same constant as what the commands after it (`prompt`, `route`, `export`, `doctor`)
 * can use, so the two cannot disagree. docs/budgets.md ("Limits") shows the same numbers; a test
 * holds them together (test/unit/limits.test.ts). This module imports nothing.
 */

const KB = 1024;
const MB = 1024 * KB;

/** One standing rule, in UTF-8 bytes: a rule is one line; longer text is a procedure (a skill). */
export const RULE_MAX_BYTES = 2 * KB;

/** The instruction of a procedure `teach` makes a skill of: well inside what a lightweight prompt inlines. */
export const TAUGHT_PROCEDURE_MAX_BYTES = 32 * KB;

/** A charter `teach` adds a rule to: every standard prompt inlines it whole. */
export const CHARTER_MAX_BYTES = 64 * KB;

/** The team's rules file (`.ai-team/rules.md`): every prompt inlines it whole. */
export const TEAM_RULES_MAX_BYTES = 64 * KB;

/**
 * The largest squad file read whole (roster, routing, charter, history, decisions, rules, casting,
 * manifest): `prompt`, `route` and `export` refuse a larger one, so `import` refuses to write one.
 */
export const STATE_FILE_MAX_BYTES = 4 * MB;

/** Characters in the path of one file inside a skill. */
export const SKILL_PATH_MAX_CHARS = 512;

/** UTF-8 bytes in one segment of such a path: most file systems refuse longer names. */
export const SKILL_PATH_SEGMENT_MAX_BYTES = 255;

/** Files in a whole `.squad` document (every skill file, SKILL.md, charters, history parts, team files). */
export const SQUAD_MAX_FILES = 50_000;

/** Files in one skill, SKILL.md included: a skill no `.squad` file could hold is refused by `skills add`. */
export const SKILL_MAX_FILES = SQUAD_MAX_FILES;

/** Size of a `.squad` file itself. */
export const SQUAD_DOCUMENT_MAX_BYTES = 128 * MB;

/** One file of a `.squad` document once decoded (a skill file, SKILL.md); state files also keep to STATE_FILE_MAX_BYTES. */
export const SQUAD_FILE_MAX_BYTES = 8 * MB;

/** All files of a `.squad` document together, decoded. */
export const SQUAD_TOTAL_MAX_BYTES = 64 * MB;

/** JSON nesting depth of a `.squad` document (a real one needs about 8). */
export const SQUAD_MAX_DEPTH = 64;

/** How deep below a project skills folder a skill is looked for (the Copilot CLI loads `.github/skills/group/x/SKILL.md`). */
export const SKILL_NESTING_MAX_DEPTH = 8;

/** One message to the MCP server, a line of JSON-RPC: the MCP SDK's own default. */
export const MCP_MESSAGE_MAX_BYTES = 10 * MB;

/** Every limit above by name, with its unit: what docs/budgets.md lists. */
export const LIMITS = {
  RULE_MAX_BYTES: { value: RULE_MAX_BYTES, unit: 'bytes' },
  TAUGHT_PROCEDURE_MAX_BYTES: { value: TAUGHT_PROCEDURE_MAX_BYTES, unit: 'bytes' },
  CHARTER_MAX_BYTES: { value: CHARTER_MAX_BYTES, unit: 'bytes' },
  TEAM_RULES_MAX_BYTES: { value: TEAM_RULES_MAX_BYTES, unit: 'bytes' },
  STATE_FILE_MAX_BYTES: { value: STATE_FILE_MAX_BYTES, unit: 'bytes' },
  SKILL_PATH_MAX_CHARS: { value: SKILL_PATH_MAX_CHARS, unit: 'characters' },
  SKILL_PATH_SEGMENT_MAX_BYTES: { value: SKILL_PATH_SEGMENT_MAX_BYTES, unit: 'bytes' },
  SKILL_MAX_FILES: { value: SKILL_MAX_FILES, unit: 'files' },
  SQUAD_DOCUMENT_MAX_BYTES: { value: SQUAD_DOCUMENT_MAX_BYTES, unit: 'bytes' },
  SQUAD_FILE_MAX_BYTES: { value: SQUAD_FILE_MAX_BYTES, unit: 'bytes' },
  SQUAD_TOTAL_MAX_BYTES: { value: SQUAD_TOTAL_MAX_BYTES, unit: 'bytes' },
  SQUAD_MAX_FILES: { value: SQUAD_MAX_FILES, unit: 'files' },
  SQUAD_MAX_DEPTH: { value: SQUAD_MAX_DEPTH, unit: 'levels' },
  SKILL_NESTING_MAX_DEPTH: { value: SKILL_NESTING_MAX_DEPTH, unit: 'levels' },
  MCP_MESSAGE_MAX_BYTES: { value: MCP_MESSAGE_MAX_BYTES, unit: 'bytes' },
} as const satisfies Record<string, { value: number; unit: 'bytes' | 'characters' | 'files' | 'levels' }>;

/** A size against its limit in a message, exact where it matters: "2,100 bytes; … at most 2,048 bytes (2 KB)". */
export function bytesText(bytes: number): string {
  const exact = `${bytes.toLocaleString('en-US')} bytes`;
  return bytes >= KB && bytes % KB === 0 ? `${exact} (${bytes / KB >= 1024 ? `${bytes / MB} MB` : `${bytes / KB} KB`})` : exact;
}
