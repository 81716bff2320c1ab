/** `create-squad rehire <member>`: a retired member back on the roster and routing, from the alumni. */
import { syncMemberAgent } from '../core/squad/agents/profile-sync.js';
import { applySteps, describeSteps } from '../core/squad/members.js';
import { planRehire } from '../core/squad/retire.js';
import type { CommandContext, CommandResult } from './context.js';
import { underSquadLock } from './lock.js';
import { renderMemberChange, type MemberChangeData } from './member-change.js';

export interface RehireOptions {
  member: string;
  dryRun: boolean;
}

export async function rehire(options: RehireOptions, ctx: CommandContext): Promise<CommandResult<MemberChangeData>> {
  const plan = await underSquadLock(ctx, 'rehire', options.dryRun, async () => {
    const planned = await planRehire(ctx.cwd, options.member);
    if (!options.dryRun) applySteps(ctx.cwd, planned.steps, 'rehiring');
    return { ...planned, agentProfiles: options.dryRun ? [] : await syncMemberAgent(ctx.cwd, planned.member.folder) };
  });
  const data: MemberChangeData = {
    member: plan.member,
    done: plan.done,
    ...describeSteps(plan.steps),
    notes: plan.notes,
    agentProfiles: plan.agentProfiles,
    dryRun: options.dryRun,
  };
  const { name, role } = plan.member;
  return {
    data,
    exitCode: 0,
    render: (ui) =>
      renderMemberChange(ui, data, {
        done: `${name} is on the roster already; nothing to do`,
        headline: `${options.dryRun ? 'Would bring back' : 'Brought back'} ${name}${role ? ` as ${role}` : ''}`,
        after: `${name}'s history, charter and skills are as they were at retirement`,
      }),
  };
}
