/** Every skill of the squad: discovery's warnings, the validator's errors and warnings, the original Squad's style. */
import path from 'node:path';
import type { DiscoveredSkill } from '../../squad/discover.js';
import { convertOriginalSkill } from '../../squad/original/skills.js';
import { markCoordinatorOnly } from '../../squad/original/stale-paths.js';
import type { Finding } from '../catalog.js';
import type { DoctorState } from '../read.js';

/** Issues of a skill in the original Squad's style that upgrade's conversion takes away. */
const ORIGINAL_STYLE_CODES = /^(?:frontmatter-missing|name-.*|description-missing|description-empty|field-unknown)$/;

/** Discovery's codes for a skill, or a skills folder, that is a link leading outside the repository. */
const LINKED_OUT: ReadonlySet<string> = new Set(['skill-outside', 'skill-file-outside']);
/** Discovery's codes for what takes the team's skills from a host: errors, as a link out is. */
const HIDES_SKILLS: ReadonlySet<string> = new Set([...LINKED_OUT, 'skills-folder-is-skill']);

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

/** One of squad-cli's coordinator-only procedures not marked so (squad/original/stale-paths.ts): offered to every member until upgrade marks it. */
function coordinatorOnlyFinding(state: DoctorState, skill: DiscoveredSkill): Finding | undefined {
  const text = state.skills.originalText.get(skill.location);
  if (text === undefined || markCoordinatorOnly(skill.location, text) === undefined) return undefined;
  return {
    severity: 'warning',
    code: 'skill-coordinator-only',
    path: skill.location,
    message: `skill ${path.posix.dirname(skill.location)} is one of squad-cli's coordinator-only procedures (it carries squad-cli's allowedTools): every member and Copilot host is offered it`,
    fix: 'run "create-squad upgrade": it marks it disable-model-invocation: true and moves squad-cli\'s fields under metadata (its old SKILL.md is backed up), or delete it if you no longer use squad-cli',
  };
}

export function checkSkills(state: DoctorState): Finding[] {
  const findings: Finding[] = [];
  const { discovery, full } = state.skills;
  for (const warning of discovery.warnings) {
    if (warning.code === 'skill-invalid') continue; // reported per error below
    findings.push({
      // A skill linked out of the repository is an error: create-squad never reads it, but the Copilot CLI still loads it.
      severity: HIDES_SKILLS.has(warning.code) ? 'error' : 'warning',
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
    const coordinatorOnly = coordinatorOnlyFinding(state, skill);
    if (coordinatorOnly) findings.push(coordinatorOnly);
    // What upgrade converts is said once, by those findings; the rest is reported as usual.
    const shown = (issue: { code: string }) => (!original || !ORIGINAL_STYLE_CODES.test(issue.code)) && (!coordinatorOnly || issue.code !== 'field-unknown');
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
