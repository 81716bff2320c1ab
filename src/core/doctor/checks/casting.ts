/** The casting files: readable, of the right shape down to each registry member, and in step with the roster. */
import { SCRIBE_AGENT, agentDir, alumniDir, squadPaths } from '../../base/paths.js';
import { controlCharacterProblem, foldLines, hasWord, isMapping, quoted } from '../../base/util.js';
import { parseRoster } from '../../roster/roster.js';
import { registryEntryProblem } from '../../roster/casting.js';
import { factsAt, isFolderFact } from '../../squad/state.js';
import type { Finding } from '../catalog.js';
import type { DoctorState } from '../read.js';

export function checkCastingFiles(state: DoctorState): Finding[] {
  const { casting } = state.squad;
  const files = [
    [squadPaths.castingPolicy, casting.policy],
    [squadPaths.castingRegistry, casting.registry],
    [squadPaths.castingHistory, casting.history],
  ] as const;
  const findings: Finding[] = [];
  for (const [file, read] of files) {
    if (read.state !== 'invalid') continue;
    findings.push({
      severity: 'error',
      code: 'casting-invalid',
      path: file,
      message: `${file} is not valid: ${read.reason}`,
      fix: 'repair the JSON by hand (the skill squad-casting shows its shape), or restore it from git',
    });
  }
  if (casting.registry.state === 'ok') findings.push(...checkRegistryEntries(casting.registry.raw));
  return findings;
}

/** Registry `members` entries that commands skip without a word (so their names could be cast again). */
function checkRegistryEntries(raw: Record<string, unknown>): Finding[] {
  if (!Array.isArray(raw.members)) return []; // the original Squad's `agents` map alone: read as it is
  return raw.members.flatMap((entry: unknown, index): Finding[] => {
    const problem = registryEntryProblem(entry);
    if (problem === undefined) return [];
    return [
      {
        severity: 'error',
        code: 'casting-member-invalid',
        path: squadPaths.castingRegistry,
        message: `${squadPaths.castingRegistry}: member ${index + 1} is not valid (${problem}): every command ignores it, so its name is not reserved`,
        fix: `repair it by hand, as {"name": "Keaton", "folder": "keaton", "role": "Lead", "universe": "The Usual Suspects"} (universe null for a name chosen by hand), or remove it`,
      },
    ];
  });
}

/** A name from a file as a message shows it: as it is, or quoted when it holds a line break or a control character. */
function asWritten(text: string): string {
  return controlCharacterProblem(text) === undefined && foldLines(text) === text ? text : quoted(text);
}

/**
 * Casting registry members with neither a roster row nor a folder: what a hire killed after writing
 * the registry leaves. Not reported: the Scribe; retired members (folder in agents/_alumni/, or
 * named in team.md, as its Alumni list does); members the roster lists under any name (a row
 * without a charter included); an old name a rename left behind (a casting event "renamed from" it).
 */
export function checkRegistryMembers(state: DoctorState): Finding[] {
  const { casting, teamText } = state.squad;
  if (casting.registry.state !== 'ok' || teamText === undefined) return [];
  const { members, legacy } = casting.registry.value;
  // An original registry's `"status": "retired"` entry is an alumnus: no row and no folder is right for it.
  const retired = new Set(casting.registry.value.retired ?? []);
  const roster = parseRoster(teamText);
  const notes = casting.history.state === 'ok' ? casting.history.value.events.map((e) => (isMapping(e) && typeof e.note === 'string' ? e.note : '')) : [];
  const lastOwn = members.filter((m) => !legacy.includes(m.folder)).at(-1);
  const findings: Finding[] = [];
  for (const member of members) {
    const known =
      member.folder === SCRIBE_AGENT ||
      retired.has(member.folder) ||
      roster.some((row) => row.name === member.folder || row.displayName.toLowerCase() === member.name.toLowerCase()) ||
      isFolderFact(factsAt(state, agentDir(member.folder))) ||
      isFolderFact(factsAt(state, alumniDir(member.folder))) ||
      hasWord(teamText, member.name) ||
      notes.some((note) => hasWord(note, `renamed from ${member.name}`));
    if (known) continue;
    const role = member.role.trim();
    const name = asWritten(member.name);
    // hire finishes an interrupted hire only when it is the registry's last entry (and the role matches).
    const resumable = member === lastOwn && role !== '';
    findings.push({
      severity: 'warning',
      code: 'casting-member-unfinished',
      path: squadPaths.castingRegistry,
      message: `${name}${role ? ` (${asWritten(role)})` : ''} is in ${squadPaths.castingRegistry} but has no row in ${squadPaths.team} and no folder ${agentDir(member.folder)}/: a hire that was interrupted`,
      fix: resumable
        ? `run create-squad hire ${quoted(role)} again to finish it (same name), or remove ${name}'s entry from ${squadPaths.castingRegistry}`
        : `remove ${name}'s entry from ${squadPaths.castingRegistry}, then hire again if you still want the member ("create-squad hire" finishes an interrupted hire only while it is the registry's last entry)`,
    });
  }
  return findings;
}
