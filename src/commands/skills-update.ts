/**
 * `create-squad skills update <name> [--agent N]`: fetch a skill again from the source `skills add`
 * recorded, and replace the installed one (backed up first) when it differs.
 */
import path from 'node:path';
import { SquadError } from '../core/base/errors.js';
import { reportProfileChanges, type ProfileChangeReport } from '../core/squad/agents/profile-sync.js';
import { readSkillSource } from '../core/skills/skill-install.js';
import { locateForUpdate, type InstalledSkill } from '../core/squad/skill-manage.js';
import { decideSkillsUpdate, type SkillsUpdatePlan } from '../core/team/skill-change-plan.js';
import { readSkillsUpdateState } from '../core/team/skill-change-state.js';
import {
  SKILL_SOURCES_PATH,
  fetchSource,
  findRecord,
  leftBehindWarnings,
  readSources,
  recordWriteFailure,
  recordedSpec,
  sourceRecord,
  type SourceRecord,
} from '../core/skills/skill-sources.js';
import { SKILL_LOCK_PATH, hashSkillFiles } from '../core/skills/skill-lock.js';
import { existsInside } from '../core/fs/fs-safe.js';
import type { Warning } from '../core/base/warnings.js';
import type { CommandContext, CommandResult } from './context.js';
import { type ChangeReport, changeReport, renderChanges, runPlan } from './pipeline.js';
import { acceptedFindings, auditBeforeLanding, type Confirm, type LandingAudit } from './skills-audit.js';
import type { SkillAudit } from '../core/skills/audit.js';

export interface SkillsUpdateOptions {
  name: string;
  agent?: string;
  /** --yes: update even when the audit finds something new to review. */
  yes?: boolean;
  dryRun: boolean;
}

export interface SkillsUpdateData extends InstalledSkill, ChangeReport {
  source: SourceRecord;
  /** The installed skill is what the source holds: nothing was (or would be) replaced. */
  unchanged: boolean;
  /** Where the replaced version went. */
  backup?: string;
  /** git: the commit installed before, and the one installed now. */
  from?: string;
  to?: string;
  /** What happened to the members' Copilot agents (.github/agents/). */
  agentProfiles: ProfileChangeReport[];
  /** What the audit found in the fetched skill (only what the installed copy did not hold needed consent). */
  audit: SkillAudit[];
}

/** The skill's record, every field checked (findRecord: a bad one is refused naming it); not-found when there is none. */
function recordFor(root: string, skill: InstalledSkill): SourceRecord {
  const record = findRecord(readSources(root), skill.destination);
  if (record) return record;
  // A squad not yet upgraded still keeps its records in .ai-team/skill-sources.json.
  const hint = existsInside(root, SKILL_SOURCES_PATH)
    ? `run "create-squad upgrade": it moves the records of ${SKILL_SOURCES_PATH} into ${SKILL_LOCK_PATH}`
    : `it was added before create-squad recorded sources, or by hand: add it again with "create-squad skills add <source> --force${skill.agent ? ` --agent ${skill.agent}` : ''}"`;
  throw new SquadError('not-found', `no source is recorded for ${skill.destination}`, { hint });
}

export async function skillsUpdate(options: SkillsUpdateOptions, ctx: CommandContext, confirm?: Confirm): Promise<CommandResult<SkillsUpdateData>> {
  const located = locateForUpdate(ctx.cwd, options.name, options.agent);
  const record = recordFor(ctx.cwd, located);
  const spec = recordedSpec(ctx.cwd, record, located.destination);
  const fetched = await fetchSource(spec, ctx.env, ctx.cwd);
  let plan: SkillsUpdatePlan;
  let warnings: Warning[] = [];
  let audited: LandingAudit;
  try {
    const source = await readSkillSource(record.source, fetched.dir, ctx.env);
    const fresh = { ...source, tree: { ...source.tree, git: spec.type === 'git' ? source.tree.git.filter((g) => g !== '.git') : source.tree.git } };
    if (fresh.report.dirName !== located.name) {
      throw new SquadError('conflict', `${record.source} now holds the skill "${fresh.report.dirName}", not "${located.name}"`, {
        hint: `add it under its new name with "create-squad skills add ${record.source}", then remove the old one; nothing was written`,
      });
    }
    const updated = { ...sourceRecord(ctx.cwd, spec, fetched, fetched.dir, hashSkillFiles(fresh.dir, fresh.tree.files)), source: record.source };
    // What the installed copy held was accepted when it landed: only what is new is asked about.
    const accepted = await acceptedFindings(located.name, path.join(ctx.cwd, located.destination));
    audited = await auditBeforeLanding('skills update', [{ name: located.name, dir: fresh.dir, tree: fresh.tree, accepted }], options, ctx, confirm);
    let planned: SkillsUpdatePlan | undefined;
    try {
      plan = await runPlan(ctx, {
        command: 'skills update',
        activity: 'updating the skill',
        dryRun: options.dryRun,
        read: () => readSkillsUpdateState(ctx.cwd, options, fresh, updated),
        decide: async (state) => (planned = await decideSkillsUpdate(state)),
      });
    } catch (error) {
      if (planned === undefined || options.dryRun) throw error;
      const { skill, install } = planned;
      const done = install.unchanged ? `${skill.name} in ${skill.destination}/ is up to date` : `updated ${skill.name} in ${skill.destination}/`;
      throw recordWriteFailure(error, done, `create-squad skills update ${skill.name}${skill.agent ? ` --agent ${skill.agent}` : ''}`) ?? error;
    }
  } finally {
    // After a good update a clone left behind is a warning; after a failure the failure is what counts.
    warnings = leftBehindWarnings(fetched.dispose());
  }
  const { skill, install } = plan;
  const data: SkillsUpdateData = {
    ...skill,
    agentProfiles: reportProfileChanges(plan.profiles),
    audit: audited.audits,
    source: plan.record,
    unchanged: install.unchanged === true,
    ...(install.backup ? { backup: install.backup } : {}),
    ...(record.commit ? { from: record.commit } : {}),
    ...(plan.record.commit ? { to: plan.record.commit } : {}),
    ...changeReport(plan, options.dryRun),
  };
  return {
    data,
    exitCode: 0,
    warnings: [...audited.warnings, ...warnings],
    render(ui) {
      const from = spec.type === 'folder' ? path.posix.normalize(record.source) : record.source;
      if (data.unchanged) {
        // Only its record may change (a git source's new commit holding the same skill).
        const outcome = plan.changes.length === 0 ? 'nothing to write' : 'its files stay as they are';
        ui.success(`Skill "${data.name}" is up to date with ${from}${data.to ? ` (${data.to.slice(0, 12)})` : ''}: ${outcome}`);
      } else {
        const commits = data.from && data.to && data.from !== data.to ? ` (${data.from.slice(0, 12)} → ${data.to.slice(0, 12)})` : '';
        ui.success(`${options.dryRun ? 'Would update' : 'Updated'} skill "${data.name}" from ${from}${commits}: ${data.destination}/`);
        if (data.backup) ui.out(`  ${options.dryRun ? 'Would back up' : 'Backed up'} the installed version (with any local edits) to ${data.backup}/`);
      }
      renderChanges(ui, plan, options.dryRun, { message: `chore(squad): update skill ${data.name}` });
    },
  };
}
