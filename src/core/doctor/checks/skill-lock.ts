/** The project lock (skills-lock.json): unreadable, healed from a git conflict, skills modified since they were locked or gone. */
import { installedState } from '../../skills/skill-check.js';
import { SKILL_LOCK_PATH } from '../../skills/skill-lock.js';
import type { Finding } from '../catalog.js';
import type { DoctorState } from '../read.js';

export function checkSkillLock(state: DoctorState): Finding[] {
  const { skillLock } = state;
  const findings: Finding[] = [];
  if (skillLock.problem !== undefined) {
    findings.push({
      severity: 'warning',
      code: 'skill-lock-invalid',
      path: SKILL_LOCK_PATH,
      message: `${SKILL_LOCK_PATH} ${skillLock.problem}: "skills update" and "skills check" cannot use it`,
      fix: 'correct it (keep one side of a conflict), or remove it and add the skills again with "create-squad skills add <source> --force"',
    });
    return findings;
  }
  if (skillLock.healed) {
    findings.push({
      severity: 'warning',
      code: 'skill-lock-conflict',
      path: SKILL_LOCK_PATH,
      message: `${SKILL_LOCK_PATH} holds git conflict markers; create-squad reads both sides joined`,
      fix: 'run any "create-squad skills add", "update" or "remove" (it writes the lock clean), or remove the markers by hand',
    });
  }
  for (const skill of skillLock.skills) {
    const installed = installedState(skill);
    const shown = skill.agent === undefined ? `the team skill ${skill.name}` : `${skill.agent}'s skill ${skill.name}`;
    const update = `"create-squad skills update ${skill.name}${skill.agent === undefined ? '' : ` --agent ${skill.agent}`}"`;
    if (installed.state === 'modified') {
      const files = [...installed.changed, ...installed.added.map((file) => `${file} (added)`), ...installed.removed.map((file) => `${file} (gone)`)];
      findings.push({
        severity: 'warning',
        code: 'skill-lock-modified',
        path: skill.folder!,
        message: `${shown} differs from what ${SKILL_LOCK_PATH} records${files.length > 0 ? `: ${files.join(', ')}` : ''}`,
        fix: `keep the edits by adding the skill again from where they live (its lock entry is then written anew), or restore it from its source with ${update} (the edited copy is backed up)`,
      });
    } else if (installed.state === 'not-installed') {
      findings.push({
        severity: 'warning',
        code: 'skill-lock-not-installed',
        path: SKILL_LOCK_PATH,
        message: `${SKILL_LOCK_PATH} records ${shown}, which is not installed`,
        fix: `install it again with "create-squad skills add <source>", or drop its entry "${skill.key}" from ${SKILL_LOCK_PATH}`,
      });
    }
  }
  return findings;
}
