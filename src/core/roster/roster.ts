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
 *
 * The original Squad's roster is read the same way: its `## Coordinator` table (the coordinator is
 * no member) is passed over for the tables of the `## Members` section; a name may be a Markdown
 * link (`[Keaton](…)`); a row whose Status says 👤 Human is a human member, who is listed (and
 * can be routed to for a decision) but has no folder and is never spawned. Other sections (Issue
 * Source, Project Board, …) are left as they are.
 */
import { didYouMean } from '../base/edit-distance.js';
import fs from 'node:fs';
import path from 'node:path';
import { readStateText } from '../fs/confined.js';
import { SquadError } from '../base/errors.js';
import { isDirectory, readDirNames } from '../fs/fs-safe.js';
import { findTables, insertTableRecords, locatedRecords, splitTableRow, type TableContext, type TableLocation, type TableRecord } from '../base/md-table.js';
import { isValidName, slugify } from '../base/names.js';
import { AI_TEAM_DIR, ORIGINAL_SQUAD_DIR, SCRIBE_AGENT, charterPath, resolveIn, squadPaths } from '../base/paths.js';
import { escapeRegExp } from '../base/util.js';
import { cliHint } from '../fs/version.js';

export interface RosterMember {
  /** Folder name under `.ai-team/agents/`. */
  name: string;
  /** Name as shown in the roster ("Keaton"). */
  displayName: string;
  role: string;
  /** Repo-relative charter path as written in the roster (or the conventional one); '' with `noCharter`. */
  charter: string;
  /** The Charter cell says there is none, on purpose ("—", "-", "n/a"), or a human: a member without files. */
  noCharter: boolean;
  status: string;
  /** A person on the team (Status 👤 Human): listed and routable for a decision, never spawned, no folder. */
  human: boolean;
  /** A member who runs on their own in the background (Status 🔄 Monitor or 📋 Silent: the original Squad's Ralph, the Scribe): never routed a task. */
  background: boolean;
}

export interface Agent {
  name: string;
  displayName: string;
  role: string | undefined;
  inRoster: boolean;
  hasFolder: boolean;
  /** A human member (see RosterMember.human); absent means no. */
  human?: boolean;
  /** Works in the background on their own (see RosterMember.background); absent means no. */
  background?: boolean;
}

/**
 * The folder in a charter path (`….ai-team/agents/{folder}/charter.md`), built from the layout; the
 * original Squad's `.squad/agents/{folder}/charter.md` too.
 */
const AGENT_FROM_CHARTER = (() => {
  const [before, after] = charterPath('\0').split('\0') as [string, string];
  const squadDirs = [AI_TEAM_DIR, ORIGINAL_SQUAD_DIR].map(escapeRegExp).join('|');
  return new RegExp(`(?:^|/)(?:${squadDirs})${escapeRegExp(before.slice(AI_TEAM_DIR.length))}([^/]+)${escapeRegExp(after)}$`);
})();
/** A Charter cell that says a member has no charter on purpose. */
const NO_CHARTER = /^(?:[—–-]+|n\/a|none)$/i;
/** A Status cell that says the member is a person (the original Squad writes "👤 Human"). */
const HUMAN_STATUS = /👤|\bhuman\b/i;
/** A Status cell that says the member works in the background on their own (the original Squad writes "🔄 Monitor", "📋 Silent"). */
const BACKGROUND_STATUS = /🔄|📋|\b(?:monitor|silent)\b/i;
/** A section whose tables describe the coordinator, not members (the original Squad's `## Coordinator`). */
const COORDINATOR_SECTION = /\bcoordinator\b/i;

/**
 * A roster table: a header with Name and Role columns, outside a Coordinator section. Without a
 * context (a header alone) only the columns are checked.
 */
export function isRosterHeader(columns: string[], context?: TableContext): boolean {
  return columns.includes('name') && columns.includes('role') && !COORDINATOR_SECTION.test(context?.heading ?? '');
}

/**
 * The roster's tables in team.md's lines: the first roster table and the roster tables after it in
 * the same section (the original Squad lists `@copilot` in a table of its own under Members).
 */
export function rosterTables(lines: readonly string[]): TableLocation[] {
  const tables = findTables(lines, isRosterHeader);
  const first = tables[0];
  return first === undefined ? [] : tables.filter((table) => table.headingLine === first.headingLine);
}

/** Parse roster rows from team.md text; a second row for the same folder is left out. Pure. */
export function parseRoster(text: string): RosterMember[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const members: RosterMember[] = [];
  const seen = new Set<string>();
  for (const table of rosterTables(lines)) {
    for (const record of locatedRecords(lines, table)) {
      const member = rosterMember(record);
      if (!member || seen.has(member.name)) continue;
      seen.add(member.name);
      members.push(member);
    }
  }
  return members;
}

/**
 * `text` (team.md) with `records` added to the roster's first table, above its closing rows (see
 * staysLastInRoster); every existing byte kept. Undefined when team.md has no roster table.
 */
export function insertRosterRecords(text: string, records: readonly TableRecord[]): string | undefined {
  return insertTableRecords(text, isRosterHeader, records, staysLastInRoster);
}

/**
 * team.md with each roster row's Charter cell that names a charter in the original Squad's
 * `.squad/` folder, or in a folder that is no valid name, pointed at the member's charter in
 * `.ai-team/` (`.squad/agents/Rai/charter.md` → `.ai-team/agents/rai/charter.md`); every other
 * byte kept.
 */
export function retargetRosterCharters(text: string): string {
  const lines = text.split('\n');
  const bare = lines.map((line) => line.replace(/\r$/, ''));
  for (const table of rosterTables(bare)) {
    const column = table.columns.indexOf('charter');
    if (column === -1) continue;
    for (let i = table.firstRow; i < table.end; i += 1) {
      const cell = stripCode(splitTableRow(bare[i]!)?.[column] ?? '');
      const named = AGENT_FROM_CHARTER.exec(cell)?.[1];
      const folder = folderFromCharter(cell);
      if (named === undefined || folder === undefined) continue;
      if (named === folder && !cell.startsWith(`${ORIGINAL_SQUAD_DIR}/`) && !cell.includes(`/${ORIGINAL_SQUAD_DIR}/`)) continue;
      lines[i] = lines[i]!.replace(cell, charterPath(folder));
    }
  }
  return lines.join('\n');
}

/** A name cell as shown: a Markdown link (`[Keaton](…)`) gives its text, emphasis marks are dropped. */
export function rosterCellText(cell: string): string {
  return cell
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^(\*\*|__|\*|_)(.+)\1$/, '$2')
    .trim();
}

/** The folder a charter path names, made a valid folder name; undefined when the path names none. */
function folderFromCharter(charterCell: string): string | undefined {
  const folder = AGENT_FROM_CHARTER.exec(charterCell)?.[1];
  if (folder === undefined) return undefined;
  return isValidName(folder) ? folder : slugify(folder) || undefined;
}

/** The member a roster row (cells by lowercased column) describes; undefined for a row without a name. */
function rosterMember(record: TableRecord): RosterMember | undefined {
  const displayName = rosterCellText(record.name ?? '');
  if (!displayName) return undefined;
  const charterCell = stripCode(record.charter ?? '');
  const status = record.status ?? '';
  const human = HUMAN_STATUS.test(status);
  const noCharter = human || NO_CHARTER.test(charterCell);
  const name = folderFromCharter(charterCell) ?? slugify(displayName);
  if (!name) return undefined;
  return {
    name,
    displayName,
    role: record.role ?? '',
    charter: noCharter ? '' : charterCell || charterPath(name),
    noCharter,
    status,
    human,
    background: BACKGROUND_STATUS.test(status),
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
  return agentsOf(readRoster(root), readDirNames(resolveIn(root, squadPaths.agents)));
}

/** listAgents from what was read: the roster and the names in `.ai-team/agents/`. */
export function agentsOf(roster: readonly RosterMember[], folderNames: readonly string[]): Agent[] {
  const folders = new Set(folderNames.filter(isValidName));
  const agents: Agent[] = [];
  const seen = new Set<string>();
  for (const member of roster) {
    if (seen.has(member.name)) continue;
    seen.add(member.name);
    agents.push({
      name: member.name,
      displayName: member.displayName,
      role: member.role || undefined,
      inRoster: true,
      hasFolder: folders.has(member.name),
      human: member.human,
      background: member.background,
    });
  }
  for (const folder of folders) {
    if (seen.has(folder)) continue;
    agents.push({ name: folder, displayName: folder, role: undefined, inRoster: false, hasFolder: true, human: false });
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

/** Whether `root` has the folder where the original Squad (v0.5 and later) keeps a squad, `.squad/`. */
export function hasOriginalSquadDir(root: string): boolean {
  return isDirectory(resolveIn(root, ORIGINAL_SQUAD_DIR));
}

/**
 * The error for a squad the original Squad keeps in `.squad/`, in a repository without `.ai-team/`:
 * every command says what to do (upgrade moves it), never to run init (a second, empty team).
 */
export function originalSquadDirError(root: string): SquadError {
  const sdkConfig = SDK_CONFIG_FILES.find((file) => fs.existsSync(path.join(root, file)));
  if (sdkConfig !== undefined) return sdkModeError(sdkConfig);
  return new SquadError(
    'no-squad',
    `the squad in ${root} is in ${ORIGINAL_SQUAD_DIR}/, where the original Squad (v0.5 and later) keeps it; create-squad reads a squad in ${AI_TEAM_DIR}/`,
    {
      hint: `run "${cliHint(root, 'upgrade')}" to move it to ${AI_TEAM_DIR}/ (--dry-run shows how; every file the team wrote is kept, and the ones it changes are backed up); do not run init, which would start a second, empty team`,
    },
  );
}

/** squad-cli's SDK config files at the repository root (`squad init --sdk`): squad-cli's build writes `.squad/` from them. */
export const SDK_CONFIG_FILES = ['squad.config.ts', 'squad.config.js'];

/**
 * A squad in `.squad/` defined by squad-cli's SDK config: its build writes `.squad/` from the
 * config again, so a squad moved to `.ai-team/` would come back beside it as a second team.
 */
export function sdkModeError(config: string): SquadError {
  return new SquadError(
    'conflict',
    `this squad is defined by ${config} (squad-cli's SDK mode): squad-cli's build writes ${ORIGINAL_SQUAD_DIR}/ from it, so moving the squad to ${AI_TEAM_DIR}/ would leave two teams`,
    {
      hint: `choose one: keep squad-cli (leave the squad as it is), or make ${ORIGINAL_SQUAD_DIR}/ the source with "squad migrate --to markdown" (it sets ${config} aside as ${config}.bak) and run "create-squad upgrade" again; nothing was written`,
    },
  );
}

/** Throw the standard "no squad here" error unless `root` has a `.ai-team/` folder. */
export function requireSquad(root: string): void {
  if (!hasSquad(root)) {
    if (!fs.existsSync(root)) {
      throw new SquadError('not-found', `the folder ${root} does not exist`, { hint: 'check the path given with --cwd, or run the command inside the repository' });
    }
    if (hasOriginalSquadDir(root)) throw originalSquadDirError(root);
    throw new SquadError('no-squad', `no squad found in ${root} (there is no ${squadPaths.root}/ folder)`, {
      hint: `run "${cliHint(root, 'init')}" first, or pass --cwd <dir> to point at the repository`,
    });
  }
}

/**
 * Refuse to make a squad in `.ai-team/` beside one the original Squad keeps in `.squad/` (init,
 * import): that would be a second team, and the first would stay invisible to create-squad.
 */
export function refuseBesideOriginalSquad(root: string): void {
  if (!hasSquad(root) && hasOriginalSquadDir(root)) throw originalSquadDirError(root);
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

/** Refuse (invalid-input) to make a squad in a folder inside another squad's `.ai-team/`. */
export function refuseInsideSquad(dir: string): void {
  const squadDir = enclosingSquadDir(dir);
  if (squadDir === undefined) return;
  throw new SquadError('invalid-input', `${dir} is inside the squad folder ${squadDir}: a squad there would be nested in that squad`, {
    hint: `run the command in the repository itself (${path.dirname(squadDir)}), or choose a folder outside ${AI_TEAM_DIR}/; nothing was written`,
  });
}

/**
 * Find a member by folder name or roster name (case-insensitive). Throws unknown-agent listing
 * the squad's members when there is no such member with a folder.
 */
export function requireAgent(root: string, wanted: string): Agent {
  requireSquad(root);
  return agentNamed(listAgents(root), wanted);
}

/** requireAgent from the squad's agents as read (listAgents): the one `wanted` names, or why there is none. */
export function agentNamed(everyone: readonly Agent[], wanted: string): Agent {
  const agents = everyone.filter((agent) => agent.hasFolder && !agent.human);
  const key = wanted.trim().toLowerCase();
  const named = (agent: Agent) => agent.name === key || agent.displayName.toLowerCase() === key;
  const match = agents.find(named);
  if (match) return match;
  const human = everyone.find((agent) => agent.human && named(agent));
  if (human) {
    throw new SquadError('invalid-input', `${human.displayName} is a human member of this squad${human.role ? ` (${human.role})` : ''}: humans are never spawned`, {
      hint: `ask ${human.displayName} directly; agents: ${agents.map((agent) => agent.name).join(', ') || '(none)'}`,
    });
  }
  const known = agents.map((agent) => agent.name);
  const near = didYouMean(
    wanted,
    agents.flatMap((agent) => [agent.name, agent.displayName]),
  );
  throw new SquadError('unknown-agent', `no agent named "${wanted}" in this squad${near}`, {
    hint: known.length ? `agents: ${known.join(', ')}` : `the squad has no members yet; add one with "create-squad hire <role>"`,
  });
}
