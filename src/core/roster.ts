/**
 * The squad's members: the roster table in `.ai-team/team.md` and the folders in
 * `.ai-team/agents/`. Reads are defensive: a missing or hand-mangled roster means fewer known
 * members, never a crash.
 *
 * Roster format (written by `init`, read here): a markdown table whose header has at least the
 * columns Name and Role, and optionally Charter and Status:
 *
 *   | Name | Role | Charter | Status |
 *   |------|------|---------|--------|
 *   | Keaton | Lead | `.ai-team/agents/keaton/charter.md` | ✅ Active |
 */
import fs from 'node:fs';
import path from 'node:path';
import { readStateText } from './confined.js';
import { SquadError } from './errors.js';
import { isDirectory, readDirNames } from './fs-safe.js';
import { tableRecords, type TableRecord } from './md-table.js';
import { isValidName, slugify } from './names.js';
import { AI_TEAM_DIR, SCRIBE_AGENT, charterPath, resolveIn, squadPaths } from './paths.js';
import { escapeRegExp } from './util.js';

export interface RosterMember {
  /** Folder name under `.ai-team/agents/`. */
  name: string;
  /** Name as shown in the roster ("Keaton"). */
  displayName: string;
  role: string;
  /** Repo-relative charter path as written in the roster (or the conventional one); '' with `noCharter`. */
  charter: string;
  /** The Charter cell says there is none, on purpose ("—", "-", "n/a"): a member without files. */
  noCharter: boolean;
  status: string;
}

export interface Agent {
  name: string;
  displayName: string;
  role: string | undefined;
  inRoster: boolean;
  hasFolder: boolean;
}

/** The folder in a charter path (`….ai-team/agents/{folder}/charter.md`), built from the layout. */
const AGENT_FROM_CHARTER = (() => {
  const [before, after] = charterPath('\0').split('\0') as [string, string];
  return new RegExp(`(?:^|/)${escapeRegExp(before)}([^/]+)${escapeRegExp(after)}$`);
})();
/** A Charter cell that says a member has no charter on purpose. */
const NO_CHARTER = /^(?:[—–-]+|n\/a|none)$/i;

/** The roster table: the first table whose header has Name and Role columns. */
export function isRosterHeader(columns: string[]): boolean {
  return columns.includes('name') && columns.includes('role');
}

/** Parse roster rows from team.md text; a second row for the same folder is left out. Pure. */
export function parseRoster(text: string): RosterMember[] {
  const table = tableRecords(text.replace(/\r\n?/g, '\n'), isRosterHeader);
  if (!table) return [];
  const members: RosterMember[] = [];
  const seen = new Set<string>();
  for (const record of table.records) {
    const member = rosterMember(record);
    if (!member || seen.has(member.name)) continue;
    seen.add(member.name);
    members.push(member);
  }
  return members;
}

/** The member a roster row (cells by lowercased column) describes; undefined for a row without a name. */
function rosterMember(record: TableRecord): RosterMember | undefined {
  const displayName = record.name ?? '';
  if (!displayName) return undefined;
  const charterCell = stripCode(record.charter ?? '');
  const noCharter = NO_CHARTER.test(charterCell);
  const fromCharter = AGENT_FROM_CHARTER.exec(charterCell)?.[1];
  const name = fromCharter && isValidName(fromCharter) ? fromCharter : slugify(displayName);
  if (!name) return undefined;
  return {
    name,
    displayName,
    role: record.role ?? '',
    charter: noCharter ? '' : charterCell || charterPath(name),
    noCharter,
    status: record.status ?? '',
  };
}

/**
 * Rows that stay at the end of the roster, below the members who do the work: the Scribe and
 * members without a charter (the original Squad's Ralph, `@copilot`). `hire` adds rows above them.
 */
export function staysLastInRoster(record: TableRecord): boolean {
  const member = rosterMember(record);
  return member !== undefined && (member.name === SCRIBE_AGENT || member.noCharter);
}

function stripCode(cell: string): string {
  return cell.replace(/^`+|`+$/g, '').trim();
}

/** Roster rows of the squad at `root`; [] when there is no roster. */
export function readRoster(root: string): RosterMember[] {
  const text = readStateText(root, squadPaths.team);
  return text === undefined ? [] : parseRoster(text);
}

/** Every member the squad knows of: roster rows first (in roster order), then unlisted folders. */
export function listAgents(root: string): Agent[] {
  const folders = new Set(readDirNames(resolveIn(root, squadPaths.agents)).filter(isValidName));
  const agents: Agent[] = [];
  const seen = new Set<string>();
  for (const member of readRoster(root)) {
    if (seen.has(member.name)) continue;
    seen.add(member.name);
    agents.push({
      name: member.name,
      displayName: member.displayName,
      role: member.role || undefined,
      inRoster: true,
      hasFolder: folders.has(member.name),
    });
  }
  for (const folder of folders) {
    if (seen.has(folder)) continue;
    agents.push({ name: folder, displayName: folder, role: undefined, inRoster: false, hasFolder: true });
  }
  return agents;
}

export function hasSquad(root: string): boolean {
  try {
    return fs.statSync(resolveIn(root, squadPaths.root)).isDirectory();
  } catch {
    return false;
  }
}

/** Throw the standard "no squad here" error unless `root` has a `.ai-team/` folder. */
export function requireSquad(root: string): void {
  if (!hasSquad(root)) {
    if (!fs.existsSync(root)) {
      throw new SquadError('NOT_FOUND', `the folder ${root} does not exist`, { hint: 'check the path given with --cwd, or run the command inside the repository' });
    }
    throw new SquadError('NO_SQUAD', `no squad found in ${root} (there is no ${squadPaths.root}/ folder)`, {
      hint: 'run "npx create-squad init" first, or pass --cwd <dir> to point at the repository',
    });
  }
}

/**
 * The `.ai-team/` folder that `dir` is (or is below), if any, with symlinks on the way resolved: a
 * squad made there would be a second squad inside the first.
 */
export function enclosingSquadDir(dir: string): string | undefined {
  let existing = path.resolve(dir);
  const below: string[] = [];
  while (!fs.existsSync(existing) && path.dirname(existing) !== existing) {
    below.unshift(path.basename(existing));
    existing = path.dirname(existing);
  }
  let real = existing;
  try {
    real = fs.realpathSync.native(existing);
  } catch {
    // unreadable: judged by its name as given
  }
  for (let current = path.join(real, ...below); ; current = path.dirname(current)) {
    if (path.basename(current) === AI_TEAM_DIR && isDirectory(current)) return current;
    if (path.dirname(current) === current) return undefined;
  }
}

/** Refuse (INVALID_INPUT) to make a squad in a folder inside another squad's `.ai-team/`. */
export function refuseInsideSquad(dir: string): void {
  const squadDir = enclosingSquadDir(dir);
  if (squadDir === undefined) return;
  throw new SquadError('INVALID_INPUT', `${dir} is inside the squad folder ${squadDir}: a squad there would be nested in that squad`, {
    hint: `run the command in the repository itself (${path.dirname(squadDir)}), or choose a folder outside ${AI_TEAM_DIR}/; nothing was written`,
  });
}

/**
 * Find a member by folder name or roster name (case-insensitive). Throws UNKNOWN_AGENT listing
 * the squad's members when there is no such member with a folder.
 */
export function requireAgent(root: string, wanted: string): Agent {
  requireSquad(root);
  const agents = listAgents(root).filter((agent) => agent.hasFolder);
  const key = wanted.trim().toLowerCase();
  const match = agents.find((agent) => agent.name === key || agent.displayName.toLowerCase() === key);
  if (match) return match;
  const known = agents.map((agent) => agent.name);
  throw new SquadError('UNKNOWN_AGENT', `no agent named "${wanted}" in this squad`, {
    hint: known.length
      ? `agents: ${known.join(', ')}`
      : `the squad has no members yet; add one with "create-squad hire <role>"`,
  });
}

