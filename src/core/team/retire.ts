/**
 * The read step of retire, rehire and role: everything their deciders (member-change-plan.ts
 * decideRetire and decideRehire, role-change-plan.ts decideRoleChange) look at, read once into a
 * `MemberChangeState`: team.md, routing.md, the casting files, the alumni folders, then, for the
 * member the command names, its folders, retirement records, charter, history and backed-up
 * charters, its agent's places (through `DiskFacts`), and the skills its agent is generated from.
 * `planRetire`, `planRehire` (and role-change.ts `planRoleChange`) decide from that at once.
 */
import { attempt, factsFrom } from '../base/disk-facts.js';
import { ALUMNI_DIR, agentDir, alumniDir, charterPath, historyPath, resolveIn, squadPaths } from '../base/paths.js';
import { readModelSources, type ModelSources } from '../roster/models.js';
import { readStateText } from '../fs/confined.js';
import { DiskReader } from '../fs/disk-reader.js';
import { readDirNames, readTextIfExists } from '../fs/fs-safe.js';
import { packageVersion } from '../fs/version.js';
import { readCasting } from '../roster/casting.js';
import { discoverOwnSkillsAt } from '../squad/discover.js';
import { AGENTS_DIR, memberProfilePath } from '../squad/agents/member-profile.js';
import { readSquadSkills } from '../squad/agents/profile-input.js';
import { isNamed, readTeamText, retirementRecordPath } from '../roster/members.js';
import { decideRehire, decideRetire, memberFolder, type MemberChangePlan, type MemberChangeState, type MemberCommand } from './member-change-plan.js';
import { charterOf } from './role-change-plan.js';
import { parseRoster } from '../roster/roster.js';

export type { MemberChangePlan, MemberChangeState, MemberRef } from './member-change-plan.js';

/** Read what `command` (retire, rehire or role) decides from for the member `wanted` names; no-squad when there is no squad. */
export function readMemberChangeState(root: string, command: MemberCommand, wanted: string): MemberChangeState {
  const teamText = readTeamText(root, command);
  const casting = readCasting(root);
  const alumniFolders = readDirNames(resolveIn(root, ALUMNI_DIR));
  const folder = memberFolder({ teamText, casting, alumniFolders }, wanted);
  const disk = new DiskReader(root);
  const texts = new Map<string, string | undefined>();
  const readState = (relPath: string) => texts.set(relPath, readStateText(root, relPath));
  const backupStamps = command === 'role' || command === 'model' ? readDirNames(resolveIn(root, squadPaths.backups)) : [];
  /** Ask now what the plan will ask; what reading throws (a file too large) is recorded, and the plan meets it where it asks. */
  const ask = (question: () => unknown) => {
    try {
      question();
    } catch {
      // recorded by the reader
    }
  };

  disk.names(squadPaths.agents);
  disk.names(AGENTS_DIR);
  if (folder !== undefined) {
    // The member's folder, active or retired; its retirement record there; the agent kept in it.
    for (const dir of [agentDir(folder), alumniDir(folder)]) {
      disk.exists(dir);
      disk.isDirectory(dir);
      const record = retirementRecordPath(folder, dir === alumniDir(folder));
      disk.exists(record);
      readState(record);
      const kept = `${dir}/${folder}.agent.md`;
      disk.exists(kept);
      disk.blocked(kept);
      ask(() => disk.bytes(kept));
      // rehire takes the role from the charter when nothing else records it (an original Squad's alumnus).
      if (command === 'rehire') texts.set(`${dir}/charter.md`, readQuietly(root, `${dir}/charter.md`));
    }
    const profile = memberProfilePath(folder);
    disk.blocked(profile);
    ask(() => disk.bytes(profile));
    const member = command === 'role' || command === 'model' ? parseRoster(teamText).find((m) => isNamed(m, wanted)) : undefined;
    if (member !== undefined) {
      // The charter (and the backups that may already hold it) and the history.
      const charter = charterOf(member);
      readState(charter);
      for (const stamp of backupStamps) {
        const copy = `${squadPaths.backups}/${stamp}/${charter}`;
        texts.set(copy, readTextIfExists(resolveIn(root, copy)));
      }
      readState(historyPath(folder));
    }
  }
  return {
    root,
    command,
    wanted,
    teamText,
    routingText: readStateText(root, squadPaths.routing),
    casting,
    models: memberModelSources(root, folder, texts),
    alumniFolders,
    folder,
    texts,
    backupStamps,
    disk: factsFrom(disk.record()),
    // A retired member gets no agent: retire has no skills to read.
    skills: command === 'retire' ? { error: new Error('internal error: retire reads no skills') } : attempt(() => readSquadSkills(root)),
    alumniSkills: command === 'rehire' && folder !== undefined ? attempt(() => discoverOwnSkillsAt(root, alumniDir(folder), folder)) : undefined,
    version: packageVersion(),
  };
}

/** The model sources for `folder`'s agent: its charter as read (in its folder or among the alumni), the registry and the config. */
function memberModelSources(root: string, folder: string | undefined, texts: ReadonlyMap<string, string | undefined>): ModelSources {
  const read = readModelSources(root, []);
  if (folder === undefined) return read;
  const charter =
    texts.get(charterPath(folder)) ??
    texts.get(`${alumniDir(folder)}/charter.md`) ??
    readQuietly(root, charterPath(folder)) ??
    readQuietly(root, `${alumniDir(folder)}/charter.md`);
  return { ...read, charter: (wanted) => (wanted === folder ? charter : undefined) };
}

/** A text that only informs (a charter's role): undefined when it cannot be read, never a refusal. */
function readQuietly(root: string, relPath: string): string | undefined {
  try {
    return readStateText(root, relPath);
  } catch {
    return undefined;
  }
}

/** Plan retiring `wanted` (folder or roster name). Reads only; refuses before anything is written. */
export function planRetire(root: string, wanted: string, now = new Date()): Promise<MemberChangePlan> {
  return decideRetire(readMemberChangeState(root, 'retire', wanted), { now });
}

/** Plan bringing back `wanted` (folder or roster name) from the alumni. Reads only. */
export function planRehire(root: string, wanted: string, now = new Date()): Promise<MemberChangePlan> {
  return decideRehire(readMemberChangeState(root, 'rehire', wanted), { now });
}
