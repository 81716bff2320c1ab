/**
 * The portable squad format (docs/squad-format.md): a `.squad` file is one JSON document, format "1.1".
 *
 *   { "squad_format_version": "1.1", "exported_at": ISO-8601, "exported_by": "create-squad@x.y.z",
 *     "source": { "project": "…" },
 *     "team": { "team_md", "routing_md", "ceremonies_md", "rules_md" },
 *     "casting": { "policy", "registry", "history" },                  (the JSON of the casting files)
 *     "agents": { "<name>": { "charter", "history": { "portable", "project" }, "skills": { "<skill>": SKILL } } },
 *     "team_skills": { "<skill>": SKILL } }
 *   SKILL = { "skill_md", "references": FILES, "scripts": FILES, "assets": FILES, "files": FILES }
 *   FILES = { "<relative/path>": "utf-8 text" | { "content", "encoding": "utf8"|"base64", "mode": "644"|"755" } }
 *
 * `references`, `scripts` and `assets` hold the files under those folders of the skill (paths
 * relative to that folder); `files` holds every other file except SKILL.md (paths relative to the
 * skill folder). A file is a plain string when it is valid UTF-8 and not executable; otherwise an
 * object: UTF-8 text as is, anything else base64, and its mode. Decoding gives back the exact bytes.
 *
 * The original Squad's export (`version: "1.0"`: `agents.{name}.charter`, `agents.{name}.history`
 * as one string, `skills` as an array of SKILL.md texts; squad-cli adds `team_md`, `routing_md` and
 * `decisions_md`) is read too, and converted to this model: its alumni folder (`agents._alumni`)
 * is no member, an agent folder that is no valid name (`Rai`, `lead architect`) gets one (the
 * name as written stays its display name), a skill with no frontmatter is given one.
 *
 * Everything is checked before anything is written (squad-validate.ts): format version, types,
 * names, paths, sizes, the shape of the casting files, duplicate keys (squad-json.ts), control
 * characters in one-line fields. The first problem is thrown as a SquadFormatError naming the entry, e.g.
 *   agents.fenster.skills.api-design.references["../x"]: the path contains ".."
 *
 * This module holds the model (version, limits, types, the error and how entries are named); the
 * format's other parts each have their own module in this folder (see its README).
 */
import { SquadError } from '../base/errors.js';
import { entryPath } from '../base/schema.js';
import { SKILL_RESOURCE_DIRS, squadPaths } from '../base/paths.js';
import { SQUAD_CONFIG_PATH } from '../roster/models.js';
import {
  SKILL_PATH_MAX_CHARS,
  SKILL_PATH_SEGMENT_MAX_BYTES,
  SQUAD_DOCUMENT_MAX_BYTES,
  SQUAD_FILE_MAX_BYTES,
  SQUAD_MAX_DEPTH,
  SQUAD_MAX_FILES,
  SQUAD_TOTAL_MAX_BYTES,
} from '../base/limits.js';

export const SQUAD_FORMAT_VERSION = '1.1';
/** The original Squad's export format, read (never written). */
export const LEGACY_FORMAT_VERSION = '1.0';
export { DEFAULT_EXPORT_FILE } from '../base/paths.js';

export interface SquadLimits {
  /** Size of the .squad file itself. */
  documentBytes: number;
  /** One file once decoded: a skill file, SKILL.md, a charter, a history part, team.md. */
  fileBytes: number;
  /** All of them together, decoded. */
  totalBytes: number;
  /** How many files (every skill file, SKILL.md, charters, history parts, team files). */
  fileCount: number;
  /** JSON nesting depth (objects and arrays). A real .squad file needs about 8. */
  depth: number;
  /** Characters in one file path inside a skill. */
  pathLength: number;
  /** Bytes (UTF-8) in one segment of such a path: most file systems refuse longer names. */
  segmentBytes: number;
}

/** The limits import and export enforce: the numbers of base/limits.ts (docs/budgets.md lists them). */
export const SQUAD_LIMITS: Readonly<SquadLimits> = Object.freeze({
  documentBytes: SQUAD_DOCUMENT_MAX_BYTES,
  fileBytes: SQUAD_FILE_MAX_BYTES,
  totalBytes: SQUAD_TOTAL_MAX_BYTES,
  fileCount: SQUAD_MAX_FILES,
  depth: SQUAD_MAX_DEPTH,
  pathLength: SKILL_PATH_MAX_CHARS,
  segmentBytes: SKILL_PATH_SEGMENT_MAX_BYTES,
});

export type FileMode = '644' | '755';
export type FileEncoding = 'utf8' | 'base64';
export interface FileObject {
  content: string;
  encoding: FileEncoding;
  mode: FileMode;
}
export type FileEntry = string | FileObject;
export type SquadFiles = Record<string, FileEntry>;

/** The folders of a skill that have their own bucket, plus `files` for everything else. */
export type SkillBucket = (typeof SKILL_RESOURCE_DIRS)[number] | 'files';
export const SKILL_BUCKETS: readonly SkillBucket[] = [...SKILL_RESOURCE_DIRS, 'files'];

export interface SquadSkill {
  skill_md: string;
  references: SquadFiles;
  scripts: SquadFiles;
  assets: SquadFiles;
  files: SquadFiles;
  /** Where the skill was added from: its entry in `skills-lock.json` (or, from an older create-squad, its record of `.ai-team/skill-sources.json`), as it is (`skills update` fetches from it). */
  source?: Record<string, unknown>;
}

export interface SquadHistory {
  portable: string;
  project: string;
}

export interface SquadAgent {
  charter?: string;
  history?: SquadHistory;
  /** Its history-archive.md (older entries `compact` moved), as it is. */
  history_archive?: string;
  skills: Record<string, SquadSkill>;
}

/** The files of `team`, by key: where each one lives in a squad. */
export const TEAM_FILES = {
  team_md: squadPaths.team,
  routing_md: squadPaths.routing,
  ceremonies_md: squadPaths.ceremonies,
  rules_md: squadPaths.rules,
  decisions_md: squadPaths.decisions,
  decisions_archive_md: squadPaths.decisionsArchive,
  config_json: SQUAD_CONFIG_PATH,
} as const;
/** The files of `casting`, by key. */
export const CASTING_FILES = { policy: squadPaths.castingPolicy, registry: squadPaths.castingRegistry, history: squadPaths.castingHistory } as const;
export type TeamFileKey = keyof typeof TEAM_FILES;
export type CastingFileKey = keyof typeof CASTING_FILES;

export type SquadTeam = Partial<Record<TeamFileKey, string>>;
export type SquadCasting = Partial<Record<CastingFileKey, Record<string, unknown>>>;

/** Key/path pairs of a files table, typed. */
export function fileTable<K extends string>(table: Readonly<Record<K, string>>): [K, string][] {
  return Object.entries(table) as [K, string][];
}

export interface SquadDocument {
  squad_format_version: typeof SQUAD_FORMAT_VERSION;
  exported_at: string;
  exported_by: string;
  source: { project: string };
  team: SquadTeam;
  casting: SquadCasting;
  agents: Record<string, SquadAgent>;
  team_skills: Record<string, SquadSkill>;
  /** The decisions inbox (`.ai-team/decisions/inbox/`): each file's text by its name; absent when empty. */
  decisions_inbox?: Record<string, string>;
}

/**
 * What reading a Squad 1.0 file changed in its skills (`skills[i]` names the entry): names the
 * original Squad allowed but the name rules do not, normalised (`problem`: why the SKILL.md kept
 * its old `name` line), and skills whose name could not be normalised, left out.
 */
export interface LegacySkillChanges {
  renamed: { where: string; from: string; to: string; reason: string; problem?: string }[];
  skipped: { where: string; name: string; reason: string }[];
}

/** What reading a Squad 1.0 file changed or left out besides skill names. */
export interface OriginalExportChanges {
  /** Agent folders given a valid name; `from` (the folder as the file names it) stays the display name. */
  renamedAgents: { from: string; to: string }[];
  /** Entries of `agents` that are no member: the alumni folder, and other folders starting with `_` or `.`. */
  skippedAgents: { name: string; reason: string }[];
  /** Skills without frontmatter (or without a name), given one: each change in a short phrase. */
  convertedSkills: { where: string; name: string; changes: string[] }[];
  /** The squad's decisions.md, when the file has it (squad-cli's `decisions_md`). */
  decisions?: string;
  /** What was done to its roster so that every member the file holds is listed once (fitRosterToAgents): the agent's folder, a row pointed at it (`repointed`) or added, in one phrase. */
  rosterFits?: { folder: string; repointed: boolean; note: string }[];
  /** The texts whose `.squad/` paths were pointed at `.ai-team/` (an export of a squad that lived in `.squad/`): where each is in the file, and how many paths. */
  stalePaths?: { where: string; paths: number }[];
}

export interface ValidatedSquad {
  /** The format the file was in; the document is always the 1.1 model. */
  format: typeof SQUAD_FORMAT_VERSION | typeof LEGACY_FORMAT_VERSION;
  document: SquadDocument;
  /** A Squad 1.0 file only. */
  legacySkills?: LegacySkillChanges;
  /** A Squad 1.0 file only. */
  original?: OriginalExportChanges;
}

/** A problem in a .squad document: `where` names the entry, `detail` says what is wrong. */
export class SquadFormatError extends SquadError {
  readonly where: string | undefined;
  readonly detail: string;

  constructor(where: string | undefined, detail: string) {
    super('invalid-format', `invalid .squad file: ${where === undefined ? '' : `${where}: `}${detail}`, {
      hint: 'nothing was written; fix the file, or export the squad again with "create-squad export"',
    });
    this.name = 'SquadFormatError';
    this.where = where;
    this.detail = detail;
  }
}

/** How an entry is named in messages (one rule for the document and every schema). */
export { entryPath };

/** `text` on one line, cut to `max` characters: how a value from the file is quoted in a message. */
export function oneLine(text: string, max = 160): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
