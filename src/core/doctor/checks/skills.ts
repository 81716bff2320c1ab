/** Every skill of the squad: discovery's warnings, the validator's errors and warnings, the original Squad's style. */
import path from 'node:path';
import type { DiscoveredSkill } from '../../squad/discover.js';
import { convertOriginalSkill } from '../../squad/original/skills.js';
import type { Finding } from '../catalog.js';
import type { DoctorState } from '../read.js';

/** Issues of a skill in the original Squad's style that upgrade's conversion takes away. */
const ORIGINAL_STYLE_CODES = /^(?:frontmatter-missing|name-.*|description-missing|description-empty|field-unknown)$/;

/** Discovery's codes for a skill, or a skills folder, that is a link leading outside the repository. */
const LINKED_OUT: ReadonlySet<string> = new Set(['skill-outside', 'skill-file-outside']);

/**
 * A skill in the original Squad's style, in a folder upgrade converts: one finding naming what the
 * conversion changes (an error when the skill cannot be used as it is), with upgrade as the fix.
 */
function originalStyleFinding(state: DoctorState, skill: DiscoveredSkill): Finding | undefined {
  if (!state.skills.originalText.has(skill.location)) return undefined;
  const text = state.skills.originalText.get(skill.location);
  const converted = text === undefined ? undefined : convertOriginalSkill(text, skill.dirName);
  if (converted === undefined) return undefined;
  return {
    severity: skill.valid ? 'warning' : 'error',
    code: 'skill-original-style',
    path: skill.location,
    message: `skill ${path.posix.dirname(skill.location)} is in the original Squad's style${skill.valid ? '' : ', so prompts leave it out'}: ${converted.changes.join('; ')}`,
    fix: 'run "create-squad upgrade": it makes the skill standard (its old SKILL.md is backed up), or edit it by hand (see the skill squad-skill-authoring)',
  };
}

export function checkSkills(state: DoctorState): Finding[] {
  const findings: Finding[] = [];
  const { discovery, full } = state.skills;
  for (const warning of discovery.warnings) {
    if (warning.code === 'skill-invalid') continue; // reported per error below
    findings.push({
      // A skill linked out of the repository is an error: create-squad never reads it, but Copilot may still load it.
      severity: LINKED_OUT.has(warning.code) ? 'error' : 'warning',
      code: warning.code,
      path: warning.path,
      message: warning.message,
      fix:
        warning.fix ??
        (warning.code === 'skill-overridden'
          ? 'intended? then nothing to do; otherwise rename one of the two skills'
          : 'give the folder a SKILL.md (see the skill squad-skill-authoring), or move it out of the skills folder'),
    });
  }
  for (const skill of discovery.skills) {
    const report = full.get(skill.location)!;
    const dir = path.posix.dirname(skill.location);
    const original = originalStyleFinding(state, skill);
    if (original) findings.push(original);
    // What upgrade converts is said once, by that finding; the rest is reported as usual.
    const shown = (issue: { code: string }) => !original || !ORIGINAL_STYLE_CODES.test(issue.code);
    for (const issue of report.errors.filter(shown)) {
      findings.push({
        severity: 'error',
        code: `skill-${issue.code}`,
        path: skill.location,
        message: `skill ${dir}: ${issue.message}${issue.line === undefined ? '' : ` (line ${issue.line})`}`,
        fix: `edit ${skill.location}; "create-squad skills validate ${dir}" re-checks it`,
      });
    }
    for (const issue of report.warnings.filter(shown)) {
      findings.push({
        severity: 'warning',
        code: `skill-${issue.code}`,
        path: skill.location,
        message: `skill ${dir}: ${issue.message}`,
        fix: `edit ${skill.location} (see the skill squad-skill-authoring)`,
      });
    }
  }
  return findings;
}
