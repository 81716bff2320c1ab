/**
 * The members' Copilot agents: a profile that drifted from the squad (missing, stale, edited, left
 * for someone no longer on the team) and one the Copilot runtime would drop (see runtimeDropReason).
 */
import { alumniDir } from '../../base/paths.js';
import { obstacleFix } from '../../fs/obstacles.js';
import { compareVersions } from '../../fs/version.js';
import { AGENTS_DIR, memberProfilePath, profileFolder, readProfileStamp } from '../../squad/agents/member-profile.js';
import { runtimeDropReason } from '../../squad/agents/profile-check.js';
import { isShippedContent } from '../../squad/owned.js';
import { factsAt } from '../../squad/state.js';
import { PROFILE_SYNC_FIX, type Finding } from '../catalog.js';
import type { DoctorState, ProfilesRead } from '../read.js';

/** Findings about the agents of active members: missing, dropped, stale or edited. */
function checkActive(state: DoctorState, profiles: ProfilesRead): Finding[] {
  const findings: Finding[] = [];
  for (const member of profiles.members) {
    const relPath = memberProfilePath(member.folder);
    const who = `${member.displayName}${member.role ? ` (${member.role})` : ''}`;
    const obstacle = factsAt(state, relPath).writeObstacle;
    if (obstacle !== undefined) {
      findings.push({
        severity: 'warning',
        code: 'copilot-agent-blocked',
        path: relPath,
        message: `${who}'s Copilot agent cannot be written: ${obstacle}`,
        fix: obstacleFix(obstacle),
      });
      continue;
    }
    const text = profiles.texts.get(relPath);
    if (text === undefined) {
      findings.push({
        severity: 'warning',
        code: 'copilot-agent-missing',
        path: relPath,
        message: `${who} has no Copilot agent (${relPath}): the coordinator can only paste a prompt for them`,
        fix: PROFILE_SYNC_FIX,
      });
      continue;
    }
    const dropped = runtimeDropReason(text, relPath);
    if (dropped !== undefined) {
      findings.push({
        severity: 'error',
        code: 'copilot-agent-dropped',
        path: relPath,
        message: `Copilot ignores ${relPath}: ${dropped}`,
        fix: `${PROFILE_SYNC_FIX} (your version is backed up first)`,
      });
      continue;
    }
    const stamp = readProfileStamp(text);
    if (stamp !== undefined && compareVersions(stamp.version, state.version) > 0) continue;
    if (isShippedContent(Buffer.from(text), Buffer.from(profiles.expected.get(member.folder) ?? ''))) continue;
    if (stamp?.intact) {
      findings.push({ severity: 'warning', code: 'copilot-agent-stale', path: relPath, message: `${relPath} is out of step with ${who}'s role or skills`, fix: PROFILE_SYNC_FIX });
    } else {
      findings.push({
        severity: 'warning',
        code: 'copilot-agent-edited',
        path: relPath,
        message: `${relPath} ${stamp === undefined ? 'was not written by create-squad' : 'was edited'}: the next command that updates ${who} replaces it (after a backup)`,
        fix: `put what you changed in ${who}'s charter or skills, which the agent points to; then ${PROFILE_SYNC_FIX}`,
      });
    }
  }
  return findings;
}

/** Findings about agents create-squad wrote for someone no longer on the team. */
function checkInactive(state: DoctorState, profiles: ProfilesRead): Finding[] {
  const active = new Set(profiles.members.map((member) => member.folder));
  const findings: Finding[] = [];
  for (const name of profiles.names) {
    const relPath = `${AGENTS_DIR}/${name}`;
    const folder = profileFolder(relPath);
    if (folder === undefined || active.has(folder)) continue;
    const text = profiles.texts.get(relPath);
    if (text === undefined || readProfileStamp(text) === undefined) continue;
    const retired = factsAt(state, alumniDir(folder)).kind !== 'missing';
    findings.push({
      severity: 'warning',
      code: retired ? 'copilot-agent-retired' : 'copilot-agent-orphan',
      path: relPath,
      message: `${relPath} is the Copilot agent of ${folder}, who is ${retired ? 'retired' : 'not on the roster'}: Copilot still offers it`,
      fix: `${PROFILE_SYNC_FIX} (it moves the agent ${retired ? `to ${alumniDir(folder)}/` : 'to the backups'})`,
    });
  }
  return findings;
}

/** Every finding about the members' agents; none when the roster cannot be read (a finding of its own). */
export function checkMemberAgents(state: DoctorState): Finding[] {
  if (state.profiles === undefined) return [];
  return [...checkActive(state, state.profiles), ...checkInactive(state, state.profiles)];
}
