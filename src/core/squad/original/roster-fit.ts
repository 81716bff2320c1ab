/**
 * An original roster fitted to the member folders the squad holds, so that every command lists
 * each of them once and no member is made that the squad does not hold. One rule, for `upgrade`
 * (a squad moved out of `.squad/`, squad-dir-plan.ts) and `import` (a Squad 1.0 export,
 * portable/squad-validate.ts):
 *   - a row naming a folder the squad has no agent for (`.squad/agents/dallas/…`) is pointed at
 *     the one agent the roster leaves out whose charter names that member (`- **Name:** Dallas`,
 *     or the title), or the casting registry does: the folder was renamed, the member is the same;
 *     without exactly one such agent the row stays as it is (two: `ambiguous`, the caller refuses);
 *   - an agent the roster leaves out (squad-cli's `Rai`) gets a row, with the name the squad gives
 *     its folder (`displayName`) and the role its charter states, so it keeps both (a charter
 *     without a role: left out, as before).
 * Every other byte of the roster kept. Pure.
 */
import { editTableRows } from '../../base/md-table-edit.js';
import { SCRIBE_AGENT, charterPath } from '../../base/paths.js';
import type { CastEntry } from '../../roster/casting.js';
import { charterIdentity } from '../../roster/members.js';
import { insertRosterRecords, isRosterHeader, parseRoster, rosterCellText } from '../../roster/roster.js';

/** One change to the roster: the agent's folder, whether a row was pointed at it (else added), and a phrase for the user. */
export interface RosterFit {
  folder: string;
  repointed: boolean;
  /** Set for an added row: the name and role it was given. */
  added?: { name: string; role: string };
  /** Set for a repointed row: the member's name and the Charter cell it had. */
  repointedFrom?: { member: string; charter: string };
}

export interface RosterFitResult {
  text: string;
  fits: RosterFit[];
  /** A row whose member two agents both are: its name, its Charter cell, and those agents' folders. */
  ambiguous?: { member: string; charter: string; folders: string[] };
}

/**
 * `teamMd` fitted to `agents` (member folders, each with its charter's text); `registered` is the
 * casting registry's members; `displayName` the name the squad gives a folder (the folder as it
 * was before it was made a valid name: `rai` → `Rai`).
 */
export function fitRosterToAgents(
  teamMd: string,
  agents: Readonly<Record<string, { charter?: string }>>,
  registered: readonly CastEntry[],
  displayName: (folder: string) => string = (folder) => folder,
): RosterFitResult {
  const roster = parseRoster(teamMd);
  const listed = new Set(roster.map((member) => member.name));
  const unlisted = Object.keys(agents).filter((folder) => folder !== SCRIBE_AGENT && !listed.has(folder));
  const key = (name: string | undefined) => name?.trim().toLowerCase();
  // The names an agent goes by: its charter's, and the casting registry's for its folder.
  const namesOf = (folder: string) => [charterIdentity(agents[folder]?.charter ?? '').name, ...registered.filter((m) => m.folder === folder).map((m) => m.name)].map(key);
  const fits: RosterFit[] = [];
  let text = teamMd;
  const claimed = new Set<string>();
  for (const member of roster) {
    if (member.human || member.noCharter || member.name === SCRIBE_AGENT || agents[member.name] !== undefined) continue;
    const matches = unlisted.filter((folder) => !claimed.has(folder) && namesOf(folder).includes(key(member.displayName)));
    if (matches.length > 1) return { text: teamMd, fits: [], ambiguous: { member: member.displayName, charter: member.charter, folders: matches } };
    if (matches.length === 0) continue;
    const folder = matches[0]!;
    const edited = editTableRows(text, isRosterHeader, (row) =>
      rosterCellText(row.record.name ?? '') === member.displayName && row.record.charter !== undefined ? { ...row.record, charter: `\`${charterPath(folder)}\`` } : undefined,
    );
    if (edited === undefined || edited.changed.length !== 1) continue;
    claimed.add(folder);
    text = edited.text;
    fits.push({ folder, repointed: true, repointedFrom: { member: member.displayName, charter: member.charter } });
  }
  const added = unlisted.flatMap((folder) => {
    const role = claimed.has(folder) ? undefined : charterIdentity(agents[folder]?.charter ?? '').role?.trim();
    return role ? [{ folder, name: displayName(folder), role }] : [];
  });
  const withRows =
    added.length === 0
      ? undefined
      : insertRosterRecords(
          text,
          added.map((m) => ({ name: m.name, role: m.role, charter: `\`${charterPath(m.folder)}\``, status: '✅ Active' })),
        );
  if (withRows !== undefined) {
    text = withRows;
    for (const member of added) fits.push({ folder: member.folder, repointed: false, added: { name: member.name, role: member.role } });
  }
  return { text, fits };
}
