/** `create-squad role <member> <role…>`: give a member another role (roster, routing, charter, casting). */
import { syncMemberAgent } from '../core/squad/agents/profile-sync.js';
import { applySteps, describeSteps } from '../core/squad/members.js';
import { planRoleChange } from '../core/squad/role-change.js';
import type { CommandContext, CommandResult } from './context.js';
import { underSquadLock } from './lock.js';
import { renderMemberChange, type MemberChangeData } from './member-change.js';

export interface RoleOptions {
  member: string;
  /** The role, as typed (words joined by spaces). */
  role: string;
  dryRun: boolean;
}

export interface RoleData extends MemberChangeData {
  from: string;
  backup?: string;
}

export async function role(options: RoleOptions, ctx: CommandContext): Promise<CommandResult<RoleData>> {
  const plan = await underSquadLock(ctx, 'role', options.dryRun, async () => {
    const planned = await planRoleChange(ctx.cwd, options.member, options.role);
    if (!options.dryRun) applySteps(ctx.cwd, planned.steps, 'changing the role');
    return { ...planned, agentProfiles: options.dryRun ? [] : await syncMemberAgent(ctx.cwd, planned.member.folder) };
  });
  const data: RoleData = {
    member: plan.member,
    from: plan.from,
    done: plan.done,
    ...describeSteps(plan.steps),
    ...(plan.backup ? { backup: plan.backup } : {}),
    notes: plan.notes,
    agentProfiles: plan.agentProfiles,
    dryRun: options.dryRun,
  };
  const { name, role: to } = plan.member;
  return {
    data,
    exitCode: 0,
    render: (ui) =>
      renderMemberChange(ui, data, {
        done: `${name} is ${to} already; nothing to do`,
        headline: `${options.dryRun ? 'Would make' : 'Made'} ${name} ${to} (was ${plan.from || 'no role'})`,
        after: `route and the coordinator now send ${to} work to ${name}`,
      }),
  };
}
