/** `create-squad skills remove <name> [--agent N]`: take a skill out, into the backups (never deleted). */
import { applyMemberProfiles, describeProfileChange, planSkillChangeProfiles, reportProfileChanges, type ProfileChangeReport } from '../core/squad/agents/profile-sync.js';
import { SKILL_FILE } from '../core/base/paths.js';
import { locateSkill, removalBackup, removeSkill, type InstalledSkill } from '../core/squad/skill-manage.js';
import type { CommandContext, CommandResult } from './context.js';
import { underSquadLock } from './pipeline.js';

export interface SkillsRemoveOptions {
  name: string;
  agent?: string;
  dryRun: boolean;
}

export interface SkillsRemoveData extends InstalledSkill {
  /** Where the skill was (or would be) moved. */
  backup: string;
  /** What happened to the members' Copilot agents (.github/agents/). */
  agentProfiles: ProfileChangeReport[];
  dryRun: boolean;
}

export async function skillsRemove(options: SkillsRemoveOptions, ctx: CommandContext): Promise<CommandResult<SkillsRemoveData>> {
  const data = await underSquadLock(ctx, 'skills remove', options.dryRun, async () => {
    const skill = locateSkill(ctx.cwd, options.name, options.agent, 'remove');
    const backup = removalBackup(skill, new Date());
    const profiles = await planSkillChangeProfiles(ctx.cwd, skill.agent, { removed: [`${skill.destination}/${SKILL_FILE}`] });
    if (!options.dryRun) {
      applyMemberProfiles(profiles);
      removeSkill(ctx.cwd, skill, backup);
    }
    return { ...skill, backup, agentProfiles: reportProfileChanges(profiles), dryRun: options.dryRun };
  });
  return {
    data,
    exitCode: 0,
    render(ui) {
      const whose = data.agent ? `${data.agent}'s skills` : 'the team skills';
      ui.success(`${options.dryRun ? 'Would remove' : 'Removed'} skill "${data.name}" from ${whose}: ${data.destination}/`);
      ui.out(`  ${options.dryRun ? 'Would move' : 'Moved'} it whole to ${data.backup}/ (move it back to restore it)`);
      for (const change of data.agentProfiles) ui.out(`  ${describeProfileChange(change, options.dryRun)}`);
      if (options.dryRun) ui.out('Dry run: nothing was written.');
    },
  };
}
