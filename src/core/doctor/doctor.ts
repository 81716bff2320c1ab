/**
 * `doctor`: a read-only health check of a squad. Every finding says what is wrong, where, and how
 * to fix it; errors are what breaks the squad (Copilot cannot use it as it is), warnings what
 * degrades it. The squad is read once (read.ts); each check group (checks/) is a pure function of
 * what was read; the codes and shared fixes are in one catalog (catalog.ts).
 */
import { checkMemberAgents } from './checks/agents.js';
import { checkCastingFiles, checkRegistryMembers } from './checks/casting.js';
import { checkConfinedReads, checkLayout, checkRepositoryRoot, checkStaleSquadPaths, checkStateBranch, checkTwoSquads } from './checks/layout.js';
import { checkLeftovers } from './checks/leftovers.js';
import { checkLock } from './checks/lock.js';
import { checkMcp, declaredServerCount } from './checks/mcp.js';
import { checkBuiltinPlaces, checkCoordinator, checkGitattributes, checkHooksFile, checkOwnedFiles, coordinatorStamp } from './checks/owned.js';
import { checkRoster, rosterMembers } from './checks/roster.js';
import { checkHooksInstall } from './checks/hooks.js';
import { checkLimits } from './checks/limits.js';
import { checkSkills } from './checks/skills.js';
import { checkSkillLock } from './checks/skill-lock.js';
import { checkContext } from './checks/context.js';
import type { Finding } from './catalog.js';
import { readDoctorState, type DoctorOptions, type DoctorState } from './read.js';

export type { Finding, Severity } from './catalog.js';
export type { DoctorOptions } from './read.js';

export interface DoctorReport {
  findings: Finding[];
  summary: { errors: number; warnings: number };
  checked: { skills: number; members: number; mcpServers: number };
  /** Versions: of this create-squad, and stamped in the coordinator. */
  version: { package: string; coordinator: string | undefined };
}

/** The check groups of a squad that exists, in the order their findings are reported. */
export const SQUAD_CHECKS: readonly ((state: DoctorState) => Finding[])[] = [
  checkTwoSquads,
  checkStaleSquadPaths,
  checkStateBranch,
  checkLayout,
  checkConfinedReads,
  checkRepositoryRoot,
  checkCastingFiles,
  checkGitattributes,
  checkCoordinator,
  checkOwnedFiles,
  checkHooksFile,
  checkHooksInstall,
  checkBuiltinPlaces,
  checkRoster,
  checkLimits,
  checkMemberAgents,
  checkRegistryMembers,
  checkSkills,
  checkSkillLock,
  checkMcp,
  checkContext,
  checkLeftovers,
  checkLock,
];

/**
 * Doctor's verdict on what was read: pure. Without a squad there is nothing to check: the error
 * every command that needs a squad throws (no-squad, saying to run init or, for a squad in the
 * original Squad's `.squad/`, upgrade).
 */
export function diagnose(state: DoctorState): DoctorReport {
  if (state.squad.missing) throw state.squad.missing;
  const findings = SQUAD_CHECKS.flatMap((check) => check(state));
  const checked = { skills: state.skills.discovery.skills.length, members: rosterMembers(state).length, mcpServers: declaredServerCount(state) };
  return report(state, findings, checked, coordinatorStamp(state));
}

export async function runDoctor(root: string, options: DoctorOptions = {}): Promise<DoctorReport> {
  return diagnose(await readDoctorState(root, options));
}

function report(state: DoctorState, findings: Finding[], checked: DoctorReport['checked'], stamp: string | undefined): DoctorReport {
  const order = (f: Finding) => (f.severity === 'error' ? 0 : 1);
  const sorted = findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => order(a.f) - order(b.f) || a.i - b.i)
    .map(({ f }) => f);
  return {
    findings: sorted,
    summary: {
      errors: findings.filter((f) => f.severity === 'error').length,
      warnings: findings.filter((f) => f.severity === 'warning').length,
    },
    checked,
    version: { package: state.version, coordinator: stamp },
  };
}
