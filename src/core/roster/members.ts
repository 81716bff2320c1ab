/**
 * The squad's members as a whole: who is on the roster, who retired (the alumni), and the shared
 * machinery of the commands that change the team after `hire` (retire, rehire, role).
 *
 * Those commands are deterministic bookkeeping over files the coordinator also edits by hand, so
 * they follow its procedure (the squad-team-changes skill) and the rules of every writing command:
 *   - plan first (read only, every refusal before the first write), then apply in an order that
 *     makes a rerun after a kill finish the job: team.md, the record of who is active, goes last
 *     of the team's files (the member's Copilot agent, brought in step with it, follows);
 *   - a file that gets rows added or taken out is replaced only while it still holds the text the
 *     plan was made from (conflict otherwise, nothing further written);
 *   - rows taken out are kept (retirement record), text replaced that a user may have written is
 *     backed up under .ai-team/backups/ first; nothing is deleted.
 */
import path from 'node:path';
import { readCasting, type CastEntry, type CastingState } from './casting.js';
import { readStateText } from '../fs/confined.js';
import { SquadError } from '../base/errors.js';
import { existsInside, isFile, readDirEntries, readDirNames } from '../fs/fs-safe.js';
import { readTable, tableText, type TableRow, type TableSnapshot } from '../base/md-table-edit.js';
import { ALUMNI_DIR, SKILL_FILE, agentDir, agentSkillsDir, alumniDir, backupPathFor, resolveIn, squadPaths } from '../base/paths.js';
import { isRosterHeader, parseRoster, requireSquad, type RosterMember } from './roster.js';
import { foldLines } from '../base/util.js';
import type { Change } from '../base/plan.js';
import { readModelSources, resolveModel, type ModelSource, type ReasoningEffort } from './models.js';

// ---------------------------------------------------------------- a charter's own words

/** Name and role as a charter states them ("- **Name:** Keaton", or the "# Keaton — Lead" title); the original Squad's charters say both. */
export function charterIdentity(charter: string): { name?: string; role?: string } {
  const field = (label: string) => new RegExp(`^\\s*-\\s*\\*\\*${label}:\\*\\*\\s*(.+?)\\s*$`, 'm').exec(charter)?.[1];
  const title = /^#\s+(.+?)\s+[—–-]\s+(.+?)\s*$/m.exec(charter);
  const name = field('Name') ?? title?.[1];
  const role = field('Role') ?? title?.[2];
  return { ...(name ? { name } : {}), ...(role ? { role } : {}) };
}

// ---------------------------------------------------------------- reading team.md

/** team.md's text; not-found or invalid-input (with what to do) when it cannot be read. */
export function readTeamText(root: string, command: string): string {
  requireSquad(root);
  const text = readStateText(root, squadPaths.team);
  if (text !== undefined) return text;
  if (existsInside(root, squadPaths.team)) {
    throw new SquadError('invalid-input', `${squadPaths.team} is not a readable file (a folder, a dangling symlink or a special file)`, {
      hint: `restore the file from git, or remove what is at ${squadPaths.team} and run "create-squad init"; then run ${command} again`,
    });
  }
  throw new SquadError('not-found', `${squadPaths.team} is missing`, { hint: `run "create-squad init" to recreate the missing files, then run ${command} again` });
}

/** How a name the user typed is compared: trimmed, one space between words, lowercased. */
export function nameKey(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** A cell as read: a markdown link gives its text, emphasis marks and backticks are dropped. */
export function plainCell(cell: string): string {
  return cell
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^(\*\*|__|\*|_|`)(.+)\1$/, '$2')
    .trim();
}

/** Whether roster member `member` is the one `wanted` names (its folder or its roster name). */
export function isNamed(member: { name: string; displayName: string }, wanted: string): boolean {
  const key = nameKey(wanted);
  return member.name === key || nameKey(member.displayName) === key;
}

/** The roster member a row of the roster table describes, read as parseRoster reads it. */
export function rowMember(table: TableSnapshot, row: TableRow): RosterMember | undefined {
  return parseRoster(tableText(table.head, [row.line]))[0];
}

/** Whether `member` is a person or a member without files: no folder to retire, rehire or re-role. */
export function isFolderless(member: RosterMember): boolean {
  return member.noCharter || ('human' in member && member.human === true);
}

/** Whether a routing row routes to `member` alone (its Route To cell is the member's name). */
export function routesTo(row: TableRow, member: { name: string; displayName: string }): boolean {
  const cell = plainCell(row.record['route to'] ?? '');
  return cell !== '' && isNamed(member, cell);
}

// ---------------------------------------------------------------- the Alumni section of team.md

export const ALUMNI_HEADING = 'Alumni';
const ALUMNI_HEADING_LINE = new RegExp(`^ {0,3}#{1,6}[ \\t]+${ALUMNI_HEADING}[ \\t#]*$`, 'i');
const ANY_HEADING = /^ {0,3}#{1,6}[ \t]/;
const ALUMNI_ITEM = /^\s*[-*]\s+(.+?)\s+—\s+(.*)$/;

export interface AlumniLine {
  /** Index of the line in team.md. */
  index: number;
  name: string;
  /** The role it names, when it follows the "Name — Role — retired …" form. */
  role: string | undefined;
  /** The retirement date it names (YYYY-MM-DD), when it does. */
  retired: string | undefined;
}

/** The lines of team.md's Alumni section: `- Name — Role — retired YYYY-MM-DD, files in …`. */
export function alumniLines(teamText: string): AlumniLine[] {
  const lines = teamText.split('\n').map((line) => line.replace(/\r$/, ''));
  const found: AlumniLine[] = [];
  let inside = false;
  lines.forEach((line, index) => {
    if (ANY_HEADING.test(line)) {
      inside = ALUMNI_HEADING_LINE.test(line);
      return;
    }
    const item = inside ? ALUMNI_ITEM.exec(line) : null;
    if (!item) return;
    const [role, ...rest] = item[2]!.split(/\s+—\s+/);
    const retired = /\b(\d{4}-\d{2}-\d{2})\b/.exec(rest.join(' '))?.[1];
    found.push({ index, name: plainCell(item[1]!), role: rest.length > 0 ? role : undefined, retired });
  });
  return found;
}

/** The line retire writes under `## Alumni` for a member. */
export function alumniLine(member: { displayName: string; role: string; name: string }, date: string): string {
  return `- ${foldLines(member.displayName)} — ${foldLines(member.role) || 'no role'} — retired ${date}, files in ${alumniDir(member.name)}/`;
}

/** `teamText` with `line` added at the end of its Alumni section (made at the end of the file when missing). */
export function addAlumniLine(teamText: string, line: string): string {
  const eol = teamText.includes('\r\n') ? '\r\n' : '\n';
  const lines = teamText.split('\n');
  const heading = lines.findIndex((l) => ALUMNI_HEADING_LINE.test(l.replace(/\r$/, '')));
  if (heading === -1) {
    const body = teamText === '' || teamText.endsWith('\n') ? teamText : `${teamText}${eol}`;
    return `${body}${eol}## ${ALUMNI_HEADING}${eol}${eol}${line}${eol}`;
  }
  let end = heading + 1;
  while (end < lines.length && !ANY_HEADING.test(lines[end]!)) end += 1;
  // After the section's last non-empty line.
  let at = end;
  while (at > heading + 1 && lines[at - 1]!.replace(/\r$/, '').trim() === '') at -= 1;
  if (at === lines.length) {
    const body = teamText.endsWith('\n') ? teamText : `${teamText}${eol}`;
    return `${body}${line}${eol}`;
  }
  const blankAfterHeading = at === heading + 1 ? [''] : [];
  const cr = eol === '\r\n' ? '\r' : '';
  return [...lines.slice(0, at), ...blankAfterHeading.map((l) => `${l}${cr}`), `${line}${cr}`, ...lines.slice(at)].join('\n');
}

/**
 * `teamText` without the Alumni lines at `indexes`, every other byte kept; an Alumni section left
 * with nothing but blank lines goes too (with the blank line above its heading), so retire then
 * rehire gives team.md back as it was.
 */
export function removeAlumniLines(teamText: string, indexes: readonly number[]): string {
  const drop = new Set(indexes);
  const lines = teamText.split('\n');
  const blank = (i: number) => lines[i] !== undefined && lines[i]!.replace(/\r$/, '').trim() === '';
  const heading = lines.findIndex((l) => ALUMNI_HEADING_LINE.test(l.replace(/\r$/, '')));
  if (heading !== -1 && indexes.length > 0) {
    let end = heading + 1;
    while (end < lines.length && !ANY_HEADING.test(lines[end]!)) end += 1;
    const left = lines.slice(heading + 1, end).some((_, k) => !drop.has(heading + 1 + k) && !blank(heading + 1 + k));
    if (!left) {
      const last = end === lines.length && lines.at(-1) === '' ? end - 1 : end;
      for (let i = heading; i < last; i += 1) drop.add(i);
      if (heading > 0 && blank(heading - 1) && (end === lines.length || blank(heading - 2))) drop.add(heading - 1);
    }
  }
  return lines.filter((_, index) => !drop.has(index)).join('\n');
}

// ---------------------------------------------------------------- the retirement record

/** What retire keeps in the retired member's folder: the rows it took out, for rehire to put back. */
export const RETIREMENT_RECORD = 'retirement.md';

export function retirementRecordPath(folder: string, retired: boolean): string {
  return `${retired ? alumniDir(folder) : agentDir(folder)}/${RETIREMENT_RECORD}`;
}

export interface RetirementRecord {
  roster: TableSnapshot | undefined;
  routing: TableSnapshot | undefined;
}

/** The record's text: the member's roster row and routing rows, each under its table's own header. */
export function renderRetirementRecord(
  member: { displayName: string; name: string },
  date: string,
  roster: { head: [string, string]; rows: string[] },
  routing: { head: [string, string]; rows: string[] } | undefined,
): string {
  const parts = [
    `# ${foldLines(member.displayName)} — retired ${date}`,
    '',
    `create-squad retire kept here the rows ${foldLines(member.displayName)} had in team.md and routing.md; \`create-squad rehire ${member.name}\` puts them back.`,
    '',
    '## Roster',
    '',
    tableText(roster.head, roster.rows).trimEnd(),
    '',
    '## Routing',
    '',
    routing && routing.rows.length > 0 ? tableText(routing.head, routing.rows).trimEnd() : '(no routing rows)',
    '',
  ];
  return parts.join('\n');
}

export function parseRetirementRecord(text: string, isRoutingHeader: (columns: string[]) => boolean): RetirementRecord {
  const normalized = text.replace(/\r\n?/g, '\n');
  return { roster: readTable(normalized, isRosterHeader), routing: readTable(normalized, isRoutingHeader) };
}

// ---------------------------------------------------------------- listing

export type MemberState = 'active' | 'retired' | 'unlisted';

export interface MemberListing {
  /** Roster name ("Keaton"). */
  name: string;
  /** Folder under .ai-team/agents/ (or agents/_alumni/ for a retired member). */
  folder: string;
  role: string;
  /** active: on the roster; retired: in the alumni; unlisted: a member folder with no roster row. */
  state: MemberState;
  /** The roster's Status cell ("✅ Active", "📋 Silent", "👤 Human"); for a retired member "retired {date}". */
  status: string;
  /** The member's own skills (folders with a SKILL.md in its skills/ folder). */
  skills: number;
  /** A person, or a member without files (no folder, never spawned). */
  folderless: boolean;
  /** The model it runs on, first choice first ([]: the session's), its reasoning effort, and where that is recorded (models.ts). */
  model: { models: string[]; effort: ReasoningEffort | null; source: ModelSource };
}

/** Until resolved: the session's model. */
const SESSION_MODEL: MemberListing['model'] = { models: [], effort: null, source: 'session' };

/** How many skill folders (holding a SKILL.md) `relDir` has. */
function countSkills(root: string, relDir: string): number {
  return readDirEntries(resolveIn(root, relDir)).filter((entry) => entry.isDirectory() && isFile(path.join(resolveIn(root, relDir), entry.name, SKILL_FILE))).length;
}

/** Every member: the roster (in its order), folders without a roster row, then the alumni. */
export function listMembers(root: string): MemberListing[] {
  const teamText = readTeamText(root, 'members');
  const roster = parseRoster(teamText);
  const folders = readDirNames(resolveIn(root, squadPaths.agents));
  const listed: MemberListing[] = roster.map((member) => ({
    name: member.displayName,
    folder: member.name,
    role: member.role,
    state: 'active',
    status: member.status,
    skills: countSkills(root, agentSkillsDir(member.name)),
    folderless: isFolderless(member),
    model: SESSION_MODEL,
  }));
  for (const folder of folders) {
    if (roster.some((member) => member.name === folder)) continue;
    listed.push({
      name: folder,
      folder,
      role: '',
      state: 'unlisted',
      status: 'not in the roster',
      skills: countSkills(root, agentSkillsDir(folder)),
      folderless: false,
      model: SESSION_MODEL,
    });
  }
  const all = [...listed, ...listAlumni(root, teamText, roster)];
  const sources = readModelSources(
    root,
    all.filter((member) => member.state !== 'retired').map((member) => member.folder),
  );
  for (const member of all) {
    const { models, effort, source } = resolveModel(member.folder, sources);
    member.model = { models, effort: effort ?? null, source };
  }
  return all;
}

/** Retired members: the folders in agents/_alumni/, and the names the Alumni section lists. */
export function listAlumni(root: string, teamText: string, roster: readonly RosterMember[]): MemberListing[] {
  const lines = alumniLines(teamText);
  const registry = registryMembers(root);
  const alumni: MemberListing[] = [];
  const active = (folder: string) => roster.some((member) => member.name === folder);
  for (const folder of readDirNames(resolveIn(root, ALUMNI_DIR))) {
    if (active(folder)) continue;
    const entry = registry.find((m) => m.folder === folder);
    const line = lines.find((l) => nameKey(l.name) === nameKey(entry?.name ?? folder));
    alumni.push({
      name: entry?.name ?? line?.name ?? folder,
      folder,
      // An original Squad's alumnus has no Alumni line and no role in its registry: its charter says it, as rehire reads it.
      role: line?.role || entry?.role || charterIdentity(readStateText(root, `${alumniDir(folder)}/charter.md`) ?? '').role || '',
      state: 'retired',
      status: line?.retired ? `retired ${line.retired}` : 'retired',
      skills: countSkills(root, `${alumniDir(folder)}/skills`),
      folderless: false,
      model: SESSION_MODEL,
    });
  }
  for (const line of lines) {
    if (alumni.some((a) => nameKey(a.name) === nameKey(line.name)) || roster.some((m) => isNamed(m, line.name))) continue;
    const entry = registry.find((m) => nameKey(m.name) === nameKey(line.name));
    alumni.push({
      name: line.name,
      folder: entry?.folder ?? '',
      role: line.role ?? entry?.role ?? '',
      state: 'retired',
      status: line.retired ? `retired ${line.retired}` : 'retired',
      skills: 0,
      folderless: true,
      model: SESSION_MODEL,
    });
  }
  return alumni;
}

/** The casting registry's members; [] when it is missing or not valid. */
export function registryMembers(root: string): CastEntry[] {
  return registryMembersOf(readCasting(root));
}

/** registryMembers from the casting files as read. */
export function registryMembersOf(casting: CastingState): CastEntry[] {
  return casting.registry.state === 'ok' ? casting.registry.value.members : [];
}

// ---------------------------------------------------------------- dates and backups

/** The date written into alumni lines and histories (YYYY-MM-DD, UTC). */
export function isoDate(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Where a backup of `relPath` made at `now` goes. */
export function backupOf(relPath: string, now: Date): string {
  return backupPathFor(now.toISOString().replace(/[:.]/g, '-'), relPath);
}

/** The roster table of team.md and its rows; invalid-format when it has none. */
export function requireRosterTable(teamText: string, command: string): TableSnapshot {
  const table = readTable(teamText, isRosterHeader);
  if (table) return table;
  throw new SquadError('invalid-format', `${squadPaths.team} has no roster table (| Name | Role | Charter | Status |)`, {
    hint: `restore the "## Members" table in team.md, then run ${command} again; nothing was written`,
  });
}

/** Texts a read step read, by path (undefined: none there), and the backup folders' names, oldest first. */
export interface ReadTexts {
  texts: ReadonlyMap<string, string | undefined>;
  backupStamps: readonly string[];
}

/** A text the read step read; asking for one it did not read is a bug of the read step, said loudly. */
export function readText(state: Pick<ReadTexts, 'texts'>, relPath: string): string | undefined {
  if (!state.texts.has(relPath)) throw new Error(`internal error: the read step did not read ${relPath}`);
  return state.texts.get(relPath);
}

/** A backup of `relPath` that already holds `text` (made by an earlier run stopped before it replaced the file). */
function existingBackup(state: ReadTexts, relPath: string, text: string): string | undefined {
  for (const stamp of [...state.backupStamps].reverse()) {
    const candidate = `${squadPaths.backups}/${stamp}/${relPath}`;
    if (readText(state, candidate) === text) return candidate;
  }
  return undefined;
}

/** The change backing up `relPath` (holding `text`) before it is replaced, unless a backup holds it already. */
export function backupChange(state: ReadTexts, relPath: string, text: string, now: Date): { path: string; changes: Change[] } {
  const existing = existingBackup(state, relPath, text);
  if (existing !== undefined) return { path: existing, changes: [] };
  const target = backupOf(relPath, now);
  return { path: target, changes: [{ kind: 'backup', path: target, of: relPath, content: text }] };
}
