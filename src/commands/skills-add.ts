/**
 * `create-squad skills add <dir> [--agent N] [--force] [--dry-run]`: install a standard skill
 * folder into the team scope or one agent's scope, after validating it.
 */
import path from 'node:path';
import { requireAgent, requireSquad } from '../core/roster.js';
import { applySkillInstall, planSkillInstall, readSkillSource, skillDestination } from '../core/skill-install.js';
import type { SkillIssue } from '../core/validate.js';
import type { CommandContext, CommandResult } from './context.js';
import { underSquadLock } from './lock.js';
import { plural } from './format.js';

export interface SkillsAddOptions {
  source: string;
  agent?: string;
  force: boolean;
  dryRun: boolean;
}

export interface SkillsAddData {
  name: string;
  scope: 'team' | 'agent';
  agent?: string;
  destination: string;
  files: string[];
  backup?: string;
  skipped: string[];
  /** `.git` folders and files in the source, not copied. */
  git: string[];
  warnings: SkillIssue[];
  dryRun: boolean;
}

export async function skillsAdd(options: SkillsAddOptions, ctx: CommandContext): Promise<CommandResult<SkillsAddData>> {
  requireSquad(ctx.cwd);
  const source = await readSkillSource(options.source, path.resolve(ctx.invocationDir, options.source), ctx.env);
  const name = source.report.dirName;
  const { agent, plan } = await underSquadLock(ctx, 'skills add', options.dryRun, async () => {
    const member = options.agent === undefined ? undefined : requireAgent(ctx.cwd, options.agent);
    const destination = skillDestination(name, member?.name, 'rename the skill (its folder and its name field), or add it to one agent with --agent');
    const planned = planSkillInstall(ctx.cwd, source, destination, options.force);
    if (!options.dryRun) applySkillInstall(ctx.cwd, source, planned);
    return { agent: member, plan: planned };
  });

  const data: SkillsAddData = {
    name,
    scope: agent ? 'agent' : 'team',
    ...(agent ? { agent: agent.name } : {}),
    destination: plan.destination,
    files: plan.files,
    ...(plan.backup ? { backup: plan.backup } : {}),
    skipped: plan.skipped,
    git: plan.git,
    warnings: source.report.warnings,
    dryRun: options.dryRun,
  };
  return {
    data,
    exitCode: 0,
    render(ui) {
      const who = agent ? `${agent.displayName}'s skills` : 'the team skills';
      const verb = options.dryRun ? 'Would add' : 'Added';
      ui.success(`${verb} skill "${name}" to ${who}: ${plan.destination}/ (${plural(plan.files.length, 'file')})`);
      if (plan.backup) ui.out(`  ${options.dryRun ? 'Would back up' : 'Backed up'} the previous version to ${plan.backup}/`);
      for (const file of plan.skipped) ui.warn(`${file} is a symlink or special file; not copied`);
      for (const entry of plan.git) ui.warn(`${entry} is git's own data; not copied`);
      for (const warning of source.report.warnings) ui.warn(`${name}: ${warning.message}`);
      if (options.dryRun) ui.out('Dry run: nothing was written.');
    },
  };
}
