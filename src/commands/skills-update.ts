/**
 * `create-squad skills update <name> [--agent N]`: fetch a skill again from the source `skills add`
 * recorded, and replace the installed one (backed up first) when it differs.
 */
import path from 'node:path';
import { SquadError } from '../core/base/errors.js';
import { pendingSkill } from '../core/squad/agents/profile-input.js';
import { applyMemberProfiles, describeProfileChange, planSkillChangeProfiles, reportProfileChanges, type ProfileChangeReport } from '../core/squad/agents/profile-sync.js';
import { SKILL_FILE } from '../core/base/paths.js';
import { applySkillInstall, isInstalledCopy, planSkillInstall, readSkillSource } from '../core/skills/skill-install.js';
import { locateSkill, skillHome, type InstalledSkill } from '../core/squad/skill-manage.js';
import {
  fetchSource,
  findRecord,
  hasRecord,
  leftBehindWarnings,
  readSources,
  recordSources,
  recordedSpec,
  sourceRecord,
  writeSourcesAfter,
  type SourceRecord,
} from '../core/skills/skill-sources.js';
import type { Warning } from '../core/base/warnings.js';
import type { CommandContext, CommandResult } from './context.js';
import { underSquadLock } from './pipeline.js';

export interface SkillsUpdateOptions {
  name: string;
  agent?: string;
  dryRun: boolean;
}

export interface SkillsUpdateData extends InstalledSkill {
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
  dryRun: boolean;
}

/** The skill's record, every field checked (findRecord: a bad one is refused naming it); not-found when there is none. */
function recordFor(root: string, skill: InstalledSkill): SourceRecord {
  const record = findRecord(readSources(root), skill.destination);
  if (record) return record;
  throw new SquadError('not-found', `no source is recorded for ${skill.destination}`, {
    hint: `it was added before create-squad recorded sources, or by hand: add it again with "create-squad skills add <source> --force${skill.agent ? ` --agent ${skill.agent}` : ''}"`,
  });
}

/**
 * The installed skill to update; one whose folder is missing but whose source is recorded (an update
 * killed between its backup and its swap) is installed again where it was.
 */
function installedOrRecorded(root: string, options: SkillsUpdateOptions): InstalledSkill {
  try {
    return locateSkill(root, options.name, options.agent, 'update');
  } catch (error) {
    const home = skillHome(root, options.name, options.agent);
    if (!hasRecord(readSources(root), home.destination)) throw error;
    return home;
  }
}

export async function skillsUpdate(options: SkillsUpdateOptions, ctx: CommandContext): Promise<CommandResult<SkillsUpdateData>> {
  const located = installedOrRecorded(ctx.cwd, options);
  const record = recordFor(ctx.cwd, located);
  const spec = recordedSpec(ctx.cwd, record);
  const fetched = await fetchSource(spec, ctx.env, ctx.cwd);
  let data: SkillsUpdateData;
  let warnings: Warning[] = [];
  try {
    const source = await readSkillSource(record.source, fetched.dir, ctx.env);
    const fresh = { ...source, tree: { ...source.tree, git: spec.type === 'git' ? source.tree.git.filter((g) => g !== '.git') : source.tree.git } };
    if (fresh.report.dirName !== located.name) {
      throw new SquadError('conflict', `${record.source} now holds the skill "${fresh.report.dirName}", not "${located.name}"`, {
        hint: `add it under its new name with "create-squad skills add ${record.source}", then remove the old one; nothing was written`,
      });
    }
    data = await underSquadLock(ctx, 'skills update', options.dryRun, async () => {
      const skill = installedOrRecorded(ctx.cwd, options);
      const unchanged = await isInstalledCopy(ctx.cwd, skill.destination, fresh);
      const plan = planSkillInstall(ctx.cwd, fresh, skill.destination, true, new Date(), unchanged);
      const updated = sourceRecord(ctx.cwd, spec, fetched, fetched.dir);
      const recordText = recordSources(readSources(ctx.cwd), { [skill.destination]: { ...updated, source: record.source } });
      const pending = pendingSkill(fresh.report, `${skill.destination}/${SKILL_FILE}`, skill.agent);
      const profiles = await planSkillChangeProfiles(ctx.cwd, skill.agent, { pending: [pending] });
      if (!options.dryRun) {
        applyMemberProfiles(profiles);
        applySkillInstall(ctx.cwd, fresh, plan);
        if (recordText !== undefined) {
          const done = plan.unchanged ? `${skill.name} in ${skill.destination}/ is up to date` : `updated ${skill.name} in ${skill.destination}/`;
          writeSourcesAfter(ctx.cwd, recordText, done, `create-squad skills update ${skill.name}${skill.agent ? ` --agent ${skill.agent}` : ''}`);
        }
      }
      return {
        ...skill,
        agentProfiles: reportProfileChanges(profiles),
        source: { ...updated, source: record.source },
        unchanged: plan.unchanged === true,
        ...(plan.backup ? { backup: plan.backup } : {}),
        ...(record.commit ? { from: record.commit } : {}),
        ...(updated.commit ? { to: updated.commit } : {}),
        dryRun: options.dryRun,
      };
    });
  } finally {
    // After a good update a clone left behind is a warning; after a failure the failure is what counts.
    warnings = leftBehindWarnings(fetched.dispose());
  }
  return {
    data,
    exitCode: 0,
    warnings,
    render(ui) {
      const from = spec.type === 'folder' ? path.posix.normalize(record.source) : record.source;
      if (data.unchanged) {
        ui.success(`Skill "${data.name}" is up to date with ${from}${data.to ? ` (${data.to.slice(0, 12)})` : ''}: nothing to write`);
        return;
      }
      const commits = data.from && data.to && data.from !== data.to ? ` (${data.from.slice(0, 12)} → ${data.to.slice(0, 12)})` : '';
      ui.success(`${options.dryRun ? 'Would update' : 'Updated'} skill "${data.name}" from ${from}${commits}: ${data.destination}/`);
      if (data.backup) ui.out(`  ${options.dryRun ? 'Would back up' : 'Backed up'} the installed version (with any local edits) to ${data.backup}/`);
      for (const change of data.agentProfiles) ui.out(`  ${describeProfileChange(change, options.dryRun)}`);
      if (options.dryRun) ui.out('Dry run: nothing was written.');
    },
  };
}
