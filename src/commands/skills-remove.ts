/** `create-squad skills remove <name> [--agent N]`: take a skill out, into the backups (never deleted). */
import { reportProfileChanges, type ProfileChangeReport } from '../core/squad/agents/profile-sync.js';
import type { InstalledSkill } from '../core/squad/skill-manage.js';
import { SKILL_LOCK_PATH } from '../core/skills/skill-lock.js';
import { decideSkillsRemove } from '../core/team/skill-change-plan.js';
import { readSkillsRemoveState } from '../core/team/skill-change-state.js';
import type { CommandContext, CommandResult } from './context.js';
import { type ChangeReport, changeReport, renderChanges, runPlan } from './pipeline.js';

export interface SkillsRemoveOptions {
  name: string;
  agent?: string;
  dryRun: boolean;
}

export interface SkillsRemoveData extends InstalledSkill, ChangeReport {
  /** Where the skill was (or would be) moved. */
  backup: string;
  /** Whether its source record was dropped from skills-lock.json (so `skills update` does not bring it back). */
  sourceForgotten: boolean;
  /** What happened to the members' Copilot agents (.github/agents/). */
  agentProfiles: ProfileChangeReport[];
}

export async function skillsRemove(options: SkillsRemoveOptions, ctx: CommandContext): Promise<CommandResult<SkillsRemoveData>> {
  const plan = await runPlan(ctx, {
    command: 'skills remove',
    activity: 'removing the skill',
    dryRun: options.dryRun,
    read: () => readSkillsRemoveState(ctx.cwd, options),
    decide: decideSkillsRemove,
  });
  const data: SkillsRemoveData = {
    ...plan.skill,
    backup: plan.backup,
    sourceForgotten: plan.forgotten,
    agentProfiles: reportProfileChanges(plan.profiles),
    ...changeReport(plan, options.dryRun),
  };
  return {
    data,
    exitCode: 0,
    render(ui) {
      const whose = data.agent ? `${data.agent}'s skills` : 'the team skills';
      ui.success(`${options.dryRun ? 'Would remove' : 'Removed'} skill "${data.name}" from ${whose}: ${data.destination}/`);
      ui.out(`  ${options.dryRun ? 'Would move' : 'Moved'} it whole to ${data.backup}/ (move it back to restore it)`);
      if (data.sourceForgotten)
        ui.out(`  ${options.dryRun ? 'Would forget' : 'Forgot'} its source in ${SKILL_LOCK_PATH} ("skills update" will not bring it back; "skills add" records it again)`);
      renderChanges(ui, plan, options.dryRun, { message: `chore(squad): remove skill ${data.name}` });
    },
  };
}
