/** What create-squad owns: `.gitattributes` lines, the coordinator, the shipped files and the manifest. */
import path from 'node:path';
import { COORDINATOR_PATH, nativeTeamSkillDir, squadPaths } from '../../base/paths.js';
import { NEVER_WRITTEN, obstacleFix } from '../../fs/obstacles.js';
import { compareVersions } from '../../fs/version.js';
import { squadCommand } from '../../base/cli-invocation.js';
import { parseFrontmatterYaml, splitFrontmatter } from '../../skills/frontmatter.js';
import { COPILOT_PROMPT_LIMIT, coordinatorBodyLength, readCoordinatorStamp } from '../../squad/coordinator.js';
import { factsAt, isFileFact } from '../../squad/state.js';
import { UPGRADE_FIX, type Finding } from '../catalog.js';
import type { DoctorState } from '../read.js';

export function checkGitattributes(state: DoctorState): Finding[] {
  const missing = state.gitattributesMissing.filter((line) => !line.startsWith('#'));
  if (missing.length === 0) return [];
  return [
    {
      severity: 'warning',
      code: 'gitattributes-union',
      path: squadPaths.gitattributes,
      message: `${squadPaths.gitattributes} lacks the merge=union line${missing.length === 1 ? '' : 's'} for ${missing.map((l) => l.split(' ')[0]).join(', ')}: parallel branches will conflict on append-only files`,
      fix: 'run "create-squad upgrade" (it appends the missing lines and changes nothing else)',
    },
  ];
}

/** Squad-owned files upgrade cannot write (a symlink, a folder, a file where a folder goes), by path, with what stands in the way. */
export function blockedOwnedFiles(state: DoctorState): Map<string, string> {
  const blocked = new Map<string, string>();
  for (const file of state.owned) {
    const reason = factsAt(state, file.path).writeObstacle;
    if (reason !== undefined) blocked.set(file.path, reason);
  }
  return blocked;
}

/** The coordinator's version stamp, when it has one. */
export function coordinatorStamp(state: DoctorState): string | undefined {
  return state.coordinatorText === undefined ? undefined : readCoordinatorStamp(state.coordinatorText);
}

/**
 * The coordinator. When upgrade cannot write it (`blocked`), its version is reported with that
 * obstacle, and fixes that say "upgrade" say to clear it first.
 */
export function checkCoordinator(state: DoctorState): Finding[] {
  const blocked = blockedOwnedFiles(state).get(COORDINATOR_PATH);
  const upgradeFix = blocked === undefined ? UPGRADE_FIX : obstacleFix(blocked);
  const text = state.coordinatorText;
  if (text === undefined) {
    return [
      {
        severity: 'error',
        code: 'coordinator-missing',
        path: COORDINATOR_PATH,
        message: `the coordinator ${COORDINATOR_PATH} is missing: Copilot has no Squad agent`,
        fix: upgradeFix,
      },
    ];
  }
  const findings: Finding[] = [];
  try {
    const fm = parseFrontmatterYaml(splitFrontmatter(text, COORDINATOR_PATH).yaml, COORDINATOR_PATH);
    if (typeof fm.description !== 'string' || fm.description.trim() === '') {
      findings.push({
        severity: 'error',
        code: 'coordinator-frontmatter',
        path: COORDINATOR_PATH,
        message: `${COORDINATOR_PATH} has no "description" in its frontmatter (Copilot requires one)`,
        fix: upgradeFix,
      });
    }
  } catch (error) {
    findings.push({ severity: 'error', code: 'coordinator-frontmatter', path: COORDINATOR_PATH, message: `${COORDINATOR_PATH}: ${(error as Error).message}`, fix: upgradeFix });
  }
  const length = coordinatorBodyLength(text);
  if (length > COPILOT_PROMPT_LIMIT) {
    findings.push({
      severity: 'error',
      code: 'coordinator-too-large',
      path: COORDINATOR_PATH,
      message: `the coordinator prompt is ${length} characters; Copilot accepts at most ${COPILOT_PROMPT_LIMIT} for a custom agent`,
      fix: 'move rarely needed procedures out of it into skills, or run "create-squad upgrade" to restore the shipped one (your version is backed up)',
    });
  }
  const stamp = readCoordinatorStamp(text);
  const current = state.version;
  if (stamp !== undefined && compareVersions(stamp, current) > 0) {
    findings.push({
      severity: 'warning',
      code: 'coordinator-newer',
      path: COORDINATOR_PATH,
      message: `the coordinator is from create-squad ${stamp}, newer than this ${current}`,
      fix: `run the commands that write with create-squad ${stamp} or newer: "${squadCommand('<command>', stamp)}"`,
    });
  } else if (blocked !== undefined) {
    // An old or missing stamp is reported with the obstacle (checkOwnedFiles): upgrade cannot restamp it until it is cleared.
  } else if (stamp === undefined) {
    findings.push({
      severity: 'warning',
      code: 'coordinator-unstamped',
      path: COORDINATOR_PATH,
      message: `${COORDINATOR_PATH} has no create-squad version stamp (set up by hand or by the original Squad)`,
      fix: UPGRADE_FIX,
    });
  } else if (compareVersions(stamp, current) < 0) {
    findings.push({
      severity: 'warning',
      code: 'coordinator-outdated',
      path: COORDINATOR_PATH,
      message: `the coordinator is from create-squad ${stamp}; this is ${current}`,
      fix: UPGRADE_FIX,
    });
  }
  return findings;
}

/**
 * Squad-owned files upgrade cannot write (one finding per obstacle); files create-squad ships but
 * the squad lacks; the manifest's state.
 */
export function checkOwnedFiles(state: DoctorState): Finding[] {
  const findings: Finding[] = [];
  const blocked = blockedOwnedFiles(state);
  const stamp = coordinatorStamp(state);
  const byReason = new Map<string, string[]>();
  for (const [file, reason] of blocked) byReason.set(reason, [...(byReason.get(reason) ?? []), file]);
  for (const [reason, files] of byReason) {
    const current = state.version;
    const version =
      files.includes(COORDINATOR_PATH) && compareVersions(stamp, current) < 0
        ? `, so the coordinator stays ${stamp === undefined ? 'without a create-squad stamp' : `at create-squad ${stamp}`} (this is ${current})`
        : '';
    const what = files.length > 1 ? `${files.length} files create-squad owns there (${files[0]}, …)` : reason.startsWith(`${files[0]} `) ? 'it' : files[0];
    findings.push({
      severity: 'warning',
      code: 'owned-blocked',
      path: files[0]!,
      message: `${reason}: "create-squad upgrade" cannot write ${what} (${NEVER_WRITTEN})${version}`,
      fix: obstacleFix(reason),
    });
  }
  const missing = state.owned.filter((file) => file.kind !== 'coordinator' && !blocked.has(file.path) && !isFileFact(factsAt(state, file.path)));
  const groups = new Map<string, number>();
  for (const file of missing) {
    const group = file.skillDir ?? path.posix.dirname(file.path);
    groups.set(group, (groups.get(group) ?? 0) + 1);
  }
  for (const [group, count] of groups) {
    findings.push({
      severity: 'warning',
      code: 'owned-missing',
      path: group,
      message: `${group}/ lacks ${count} file${count === 1 ? '' : 's'} create-squad ships`,
      fix: UPGRADE_FIX,
    });
  }
  const { manifest } = state.squad;
  if (manifest.state === 'missing') {
    findings.push({
      severity: 'warning',
      code: 'manifest-missing',
      path: squadPaths.manifest,
      message: `${squadPaths.manifest} is missing: upgrades cannot tell your edits from untouched files`,
      fix: `${UPGRADE_FIX} (it adopts the squad and records what it installed)`,
    });
  } else if (manifest.state === 'invalid') {
    findings.push({
      severity: 'warning',
      code: 'manifest-invalid',
      path: squadPaths.manifest,
      message: `${squadPaths.manifest} is not valid: ${manifest.reason}`,
      fix: `restore it from git, or delete it and ${UPGRADE_FIX}`,
    });
  }
  return findings;
}

/**
 * Member-facing built-in skills still in `.ai-team/skills/`, where Copilot does not find them: the
 * fix is the upgrade that moves them, or first clearing what keeps it from moving one.
 */
export function checkBuiltinPlaces(state: DoctorState): Finding[] {
  return state.builtinsLeftBehind.map(({ name, dir, taken, movable }) => ({
    severity: 'warning' as const,
    code: 'builtin-old-place',
    path: dir,
    message: `the built-in skill ${name} is in ${dir}/, where Copilot does not find it (member-facing built-ins belong in ${nativeTeamSkillDir(name)}/)`,
    fix: movable
      ? `run "create-squad upgrade": it moves the folder whole to ${nativeTeamSkillDir(name)}/ (your changes in it travel along)`
      : taken !== undefined
        ? `rename or move ${taken}/ (a skill of yours with that name, which create-squad never writes over), then run "create-squad upgrade"`
        : `replace ${dir} with the real folder, then run "create-squad upgrade"`,
  }));
}

/**
 * The squad's hooks file as create-squad writes it: one a host cannot read leaves every session
 * without the coordinator's guard and the members' spawn prompts; an edited one may too.
 */
export function checkHooksFile(state: DoctorState): Finding[] {
  const shipped = state.owned.find((file) => file.kind === 'hooks');
  if (shipped === undefined || state.hooksText === undefined) return [];
  const fix = `${UPGRADE_FIX}: it backs the file up and writes create-squad's`;
  try {
    JSON.parse(state.hooksText);
  } catch {
    return [
      {
        severity: 'error',
        code: 'hooks-invalid',
        path: shipped.path,
        message: `${shipped.path} is not JSON: Copilot cannot read the squad's hooks, so the coordinator may do members' work and members start without their charters`,
        fix,
      },
    ];
  }
  if (state.hooksText === shipped.content.toString('utf8')) return [];
  return [
    {
      severity: 'warning',
      code: 'hooks-edited',
      path: shipped.path,
      message: `${shipped.path} is not the one create-squad ${state.version} writes: the coordinator's guard and the members' spawn prompts may not run as documented`,
      fix,
    },
  ];
}
