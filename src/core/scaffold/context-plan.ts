/**
 * Changing the project context a squad works in (project, stack, owner), decided from what
 * project-context.ts readContextState read: team.md's lines, after a backup of team.md, and in
 * each charter the lines that still say what team.md said (a line someone changed by hand stays,
 * and is named). Histories are the members' own record of what they learned, and stay as they
 * are. team.md is written last, so a rerun after a kill finishes the change (and a backup that
 * already holds team.md is not made again). No disk access (test/unit/decide-init.test.ts).
 */
import { charterPath, squadPaths } from '../base/paths.js';
import type { Change } from '../base/plan.js';
import { foldLines } from '../base/util.js';
import { backupChange, readText } from '../roster/members.js';
import { parseRoster } from '../roster/roster.js';
import { parseProjectContext, type ProjectContext } from './scaffold-plan.js';

export type ContextField = keyof ProjectContext;
export const CONTEXT_FIELDS: readonly ContextField[] = ['project', 'stack', 'owner'];

/** How each field is labelled in team.md's Project Context and in a charter's Identity. */
const LABELS: Record<ContextField, { team: string; charter: string }> = {
  project: { team: 'Project', charter: 'Project' },
  stack: { team: 'Stack', charter: 'Stack' },
  owner: { team: 'Owner', charter: 'Works for' },
};
/** What an empty value is written as. */
export const UNSPECIFIED = '_not specified yet_';

/** What changing the context decides from, read once (project-context.ts readContextState). */
export interface ContextState {
  /** team.md's text. */
  teamText: string;
  /**
   * The texts read, by path (undefined: not a readable file there): each roster member's charter,
   * and team.md in each backup folder (a backup holding it already is not made again).
   */
  texts: ReadonlyMap<string, string | undefined>;
  /** The backup folders' names (their timestamps), sorted. */
  backupStamps: string[];
}

export interface ContextChange {
  changed: { field: ContextField; from: string; to: string }[];
  /** The changes, in order: team.md's backup, charters, team.md last. */
  changes: Change[];
  /** Where team.md was backed up. */
  backup?: string;
  /** Charters updated. */
  charters: string[];
  notes: string[];
}

function lineFor(label: string): RegExp {
  return new RegExp(`^(\\s*-\\s*\\*\\*${label}:\\*\\*[ \\t]*)(.*?)([ \\t]*\\r?)$`, 'm');
}

function shown(value: string): string {
  return value === '' ? UNSPECIFIED : foldLines(value);
}

/** `text` with the value of its `label` line set to `to` when it says `from` (or already `to`); how it went. */
function replaceValue(text: string, label: string, from: string, to: string): { text: string; state: 'changed' | 'done' | 'kept' | 'absent' } {
  const pattern = lineFor(label);
  const match = pattern.exec(text);
  if (!match) return { text, state: 'absent' };
  const value = match[2]!;
  if (value === shown(to)) return { text, state: 'done' };
  if (value !== shown(from)) return { text, state: 'kept' };
  return { text: text.replace(pattern, (_m, head: string, _v: string, tail: string) => `${head}${shown(to)}${tail}`), state: 'changed' };
}

/** The charters whose lines may say the project context: each roster member's that has one. */
export function contextCharters(teamText: string): string[] {
  const paths = parseRoster(teamText)
    .filter((member) => !member.noCharter)
    .map((member) => member.charter || charterPath(member.name));
  return [...new Set(paths)]; // a member listed twice has one charter
}

/**
 * Changing the project context of the squad read in `state` to `wanted` (the fields given),
 * decided without touching the disk. Undefined when every given field already has that value.
 */
export function decideContextChange(state: ContextState, wanted: Partial<ProjectContext>, now: Date): ContextChange | undefined {
  const { teamText } = state;
  const current = parseProjectContext(teamText);
  const changed = CONTEXT_FIELDS.filter((field) => wanted[field] !== undefined && foldLines(wanted[field]!) !== current[field]).map((field) => ({
    field,
    from: current[field],
    to: foldLines(wanted[field]!),
  }));
  if (changed.length === 0) return undefined;

  let team = teamText;
  const notes: string[] = [];
  for (const { field, from, to } of changed) {
    const result = replaceValue(team, LABELS[field].team, from, to);
    if (result.state === 'absent') notes.push(`${squadPaths.team} has no "- **${LABELS[field].team}:**" line: add it under Project Context by hand`);
    team = result.text;
  }
  const changes: Change[] = [];
  const charters: string[] = [];
  for (const relPath of contextCharters(teamText)) {
    const text = readText(state, relPath);
    if (text === undefined) continue;
    let next = text;
    for (const { field, from, to } of changed) {
      const result = replaceValue(next, LABELS[field].charter, from, to);
      if (result.state === 'kept') notes.push(`${relPath}: its "${LABELS[field].charter}" line was changed by hand; it was left as it is`);
      next = result.text;
    }
    if (next !== text) {
      changes.push({ kind: 'replace', path: relPath, content: next, base: text });
      charters.push(relPath);
    }
  }
  const backup = team === teamText ? undefined : backupChange(state, squadPaths.team, teamText, now);
  if (backup) changes.unshift(...backup.changes);
  if (team !== teamText) changes.push({ kind: 'replace', path: squadPaths.team, content: team, base: teamText });
  return { changed, changes, charters, notes, ...(backup ? { backup: backup.path } : {}) };
}
