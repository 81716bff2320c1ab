/** The roster and the member folders agree. */
import { SCRIBE_AGENT, charterPath, historyPath, isIgnoredEntry, squadPaths, templateCopyPath } from '../../base/paths.js';
import { isValidName, slugify } from '../../base/names.js';
import { STATE_TEMPLATES } from '../../scaffold/scaffold.js';
import { factsAt, isFileFact, isFolderFact } from '../../squad/state.js';
import type { Finding } from '../catalog.js';
import type { DoctorState } from '../read.js';

/** The members the roster lists (the Scribe aside); none when team.md cannot be read. */
export function rosterMembers(state: DoctorState) {
  return state.squad.roster.filter((m) => m.name !== SCRIBE_AGENT);
}

export function checkRoster(state: DoctorState): Finding[] {
  const findings: Finding[] = [];
  const roster = rosterMembers(state);
  const team = factsAt(state, squadPaths.team);
  // Without a readable team.md (reported with the layout, or as refused) no member is in the roster: say nothing more about rows.
  const hasRoster = isFileFact(team) && team.readProblem === undefined;
  if (hasRoster && roster.length === 0) {
    findings.push({
      severity: 'warning',
      code: 'roster-empty',
      path: squadPaths.team,
      message: `${squadPaths.team} lists no members`,
      fix: 'add members with "create-squad hire <role>"',
    });
  }
  for (const member of roster) {
    if (member.noCharter) continue;
    if (!isFileFact(factsAt(state, charterPath(member.name)))) {
      findings.push({
        severity: 'error',
        code: 'charter-missing',
        path: charterPath(member.name),
        message: `${member.displayName} is in the roster but ${charterPath(member.name)} is missing`,
        fix: `create it from ${templateCopyPath(STATE_TEMPLATES.charter)}, or remove ${member.displayName}'s row from ${squadPaths.team}`,
      });
    } else if (!isFileFact(factsAt(state, historyPath(member.name)))) {
      findings.push({
        severity: 'warning',
        code: 'history-missing',
        path: historyPath(member.name),
        message: `${historyPath(member.name)} is missing: ${member.displayName} remembers nothing between sessions`,
        fix: `create it from ${templateCopyPath(STATE_TEMPLATES.history)}`,
      });
    }
  }
  for (const entry of state.squad.agentEntries) {
    const folder = `${squadPaths.agents}/${entry.name}`;
    if (isIgnoredEntry(entry.name) || isValidName(entry.name) || !isFolderFact(factsAt(state, folder))) continue;
    const suggestion = slugify(entry.name);
    findings.push({
      severity: 'warning',
      code: 'agent-folder-invalid-name',
      path: folder,
      message: `${folder}/ is not a valid agent folder name (lowercase letters a-z, digits and hyphens): no command sees this member`,
      fix: `rename it${suggestion ? ` to ${squadPaths.agents}/${suggestion}/` : ''} (lowercase a-z, 0-9 and hyphens), and point its roster row's Charter cell to the new folder`,
    });
  }
  for (const agent of hasRoster ? state.squad.agents : []) {
    if (agent.inRoster || agent.name === SCRIBE_AGENT || !isFileFact(factsAt(state, charterPath(agent.name)))) continue;
    findings.push({
      severity: 'warning',
      code: 'member-not-in-roster',
      path: charterPath(agent.name),
      message: `${agent.name} has a charter but no row in ${squadPaths.team}: the coordinator will never route to it`,
      fix: `add a roster row for ${agent.name} to ${squadPaths.team}, or move the folder out of ${squadPaths.agents}/`,
    });
  }
  return findings;
}
