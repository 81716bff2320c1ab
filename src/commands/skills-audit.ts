/**
 * `create-squad skills audit [name…]`: what installed skills hold that a reviewer should see
 * (core/skills/audit.ts, rules in audit-rules.ts), each finding with its file and line. Exit 1 when
 * a finding needs consent (high or medium), 0 when there is none or only information.
 *
 * Also the audit before a skill lands (`auditBeforeLanding`), which `skills add` and `skills update`
 * run once the skills are fetched and validated and before anything is written: findings that need
 * consent are shown, then asked about on a terminal, or taken with --yes; without a terminal and
 * without --yes the command refuses (needs-consent, exit 1) and writes nothing. A dry run shows them
 * and writes nothing either.
 */
import path from 'node:path';
import { closestMatch } from '../core/base/edit-distance.js';
import { SquadError } from '../core/base/errors.js';
import { compareCodePoints } from '../core/base/util.js';
import { warning, type Warning } from '../core/base/warnings.js';
import { requireSquad } from '../core/roster/roster.js';
import { CONSENT_SEVERITIES, type AuditSeverity } from '../core/skills/audit-rules.js';
import { auditSkillFolder } from '../core/skills/audit-read.js';
import { findingKey, findingLine, findingsNeedingConsent, type AuditFinding, type SkillAudit } from '../core/skills/audit.js';
import { discoverSkills, type DiscoveredSkill } from '../core/squad/discover.js';
import type { Tree } from '../core/fs/tree.js';
import type { CommandContext, CommandResult } from './context.js';
import { formatScope, plural } from './format.js';

/** Asks the user a yes-or-no question on the terminal (src/cli/confirm.ts); false unless they say yes. */
export type Confirm = (question: string) => Promise<boolean>;

export interface SkillsAuditOptions {
  /** Installed skills by folder name; none: every skill of the squad. */
  names: string[];
}

export interface AuditedSkill extends SkillAudit {
  scope: DiscoveredSkill['scope'];
  agent?: string;
  /** Repo-relative skill folder. */
  folder: string;
}

export interface SkillsAuditData {
  skills: AuditedSkill[];
  summary: { skills: number; needConsent: number; high: number; medium: number; info: number };
}

function countBy(findings: readonly AuditFinding[], severity: AuditSeverity): number {
  return findings.filter((finding) => finding.severity === severity).length;
}

/** The installed skills named (every match of each name: the team's and members'), or all of them. */
function skillsToAudit(ctx: CommandContext, names: readonly string[]): DiscoveredSkill[] {
  requireSquad(ctx.cwd);
  const seen = new Set<string>();
  const all = discoverSkills(ctx.cwd)
    .skills.filter((skill) => !seen.has(skill.dir) && seen.add(skill.dir))
    .sort((a, b) => compareCodePoints(a.location, b.location));
  if (names.length === 0) return all;
  return names.flatMap((given) => {
    const wanted = given.trim();
    const found = all.filter((skill) => skill.dirName === wanted || skill.dirName.toLowerCase() === wanted.toLowerCase());
    if (found.length > 0) return found;
    const close = closestMatch(
      wanted,
      all.map((skill) => skill.dirName),
    );
    throw new SquadError('not-found', `no installed skill "${wanted}"`, {
      hint: close === undefined ? '"create-squad skills list" shows the skills of the squad' : `did you mean "${close}"?`,
    });
  });
}

export async function skillsAudit(options: SkillsAuditOptions, ctx: CommandContext): Promise<CommandResult<SkillsAuditData>> {
  const targets = skillsToAudit(ctx, options.names);
  const skills: AuditedSkill[] = [];
  for (const skill of targets) {
    const audit = await auditSkillFolder(skill.dirName, skill.dir);
    skills.push({ ...audit, scope: skill.scope, ...(skill.agent === undefined ? {} : { agent: skill.agent }), folder: path.posix.dirname(skill.location) });
  }
  const findings = skills.flatMap((skill) => skill.findings);
  const needConsent = skills.filter((skill) => findingsNeedingConsent(skill).length > 0).length;
  const summary = { skills: skills.length, needConsent, high: countBy(findings, 'high'), medium: countBy(findings, 'medium'), info: countBy(findings, 'info') };
  return {
    data: { skills, summary },
    exitCode: needConsent === 0 ? 0 : 1,
    render(ui) {
      const { style } = ui;
      for (const skill of skills.filter((audited) => audited.findings.length > 0)) {
        ui.out(style.bold(skill.skill), style.dim(`  ${skill.folder} (${formatScope(skill)})`));
        for (const finding of skill.findings) {
          const mark = finding.severity === 'info' ? style.dim('·') : finding.severity === 'high' ? style.red('✗') : style.yellow('⚠');
          ui.out('  ', mark, ' ', findingLine(finding));
        }
      }
      const clear = skills.filter((skill) => skill.findings.length === 0).length;
      const informed = skills.length - clear - needConsent;
      if (skills.some((skill) => skill.findings.length > 0)) ui.out();
      const parts = [
        needConsent > 0 && `${needConsent} to review (${summary.high} high, ${summary.medium} medium)`,
        informed > 0 && `${informed} with information only`,
        `${clear} with nothing to report`,
      ].filter(Boolean);
      ui.out(`${plural(skills.length, 'skill')} audited: ${parts.join(', ')}`);
    },
  };
}

/** A skill about to land: its name, the folder read, and the walk that will be copied. */
export interface LandingSkill {
  name: string;
  dir: string;
  tree: Tree;
  /** Findings already accepted (the installed copy's, for an update), by findingKey: not asked about again. */
  accepted?: ReadonlySet<string>;
}

export interface LandingAudit {
  audits: SkillAudit[];
  /** How the findings that need consent were let through: none to ask about, --yes, the terminal's yes, or a dry run (nothing written). */
  consent: 'not-needed' | 'yes' | 'confirmed' | 'dry-run';
  /** One `audit-finding` warning per finding that needed consent, for the command's result. */
  warnings: Warning[];
}

/** The keys of the findings in the skill folder at `dir` (an update's installed copy); none when it cannot be read. */
export async function acceptedFindings(name: string, dir: string): Promise<Set<string>> {
  try {
    return new Set((await auditSkillFolder(name, dir)).findings.map(findingKey));
  } catch {
    return new Set();
  }
}

/**
 * Audit the skills about to land and get consent for what needs it (see the module comment).
 * Throws needs-consent when it is declined or cannot be asked; nothing has been written then.
 */
export async function auditBeforeLanding(
  command: 'skills add' | 'skills update',
  skills: readonly LandingSkill[],
  options: { yes?: boolean; dryRun: boolean },
  ctx: CommandContext,
  confirm: Confirm | undefined,
): Promise<LandingAudit> {
  const audits: SkillAudit[] = [];
  for (const skill of skills) audits.push(await auditSkillFolder(skill.name, skill.dir, skill.tree));
  const toAsk = audits.flatMap((audit, i) =>
    findingsNeedingConsent(audit)
      .filter((finding) => !skills[i]!.accepted?.has(findingKey(finding)))
      .map((finding) => ({ skill: audit.skill, finding })),
  );
  const warnings = toAsk.map(({ skill, finding }) => warning('audit-finding', `${skill}: ${findingLine(finding)}`));
  if (toAsk.length === 0) return { audits, consent: 'not-needed', warnings };
  if (options.yes === true) return { audits, consent: 'yes', warnings };
  if (options.dryRun) return { audits, consent: 'dry-run', warnings };
  const names = [...new Set(toAsk.map(({ skill }) => skill))];
  const what = names.map((name) => `"${name}"`).join(', ');
  const verb = command === 'skills add' ? 'install' : 'update';
  ctx.note?.(`The audit found ${plural(toAsk.length, 'thing')} to review in ${what} before it lands:`);
  for (const { skill, finding } of toAsk) ctx.note?.(`  ${names.length > 1 ? `${skill}: ` : ''}${findingLine(finding)}`);
  if (ctx.interactive && confirm !== undefined) {
    if (await confirm(`${verb === 'install' ? 'Install' : 'Update'} ${what} anyway?`)) return { audits, consent: 'confirmed', warnings };
    throw new SquadError('needs-consent', `${what} not ${verb === 'install' ? 'installed' : 'updated'}: you declined after the audit; nothing was written`, {
      hint: `read the findings above; run "create-squad ${command} … --yes" to ${verb} anyway`,
    });
  }
  throw new SquadError(
    'needs-consent',
    `${what} ${names.length > 1 ? 'hold' : 'holds'} ${plural(toAsk.length, 'finding')} of the audit that need your consent, and none could be asked for here; nothing was written`,
    {
      hint: `read the findings above (severity ${[...CONSENT_SEVERITIES].join(' or ')}); run the command again with --yes to ${verb} anyway, or on a terminal to be asked`,
    },
  );
}
