/** `create-squad role <member> <role…>`: give a member another role (roster, routing, charter, casting, its agent). */
import { checkRoles } from '../core/roster/roles.js';
import { decideRoleChange } from '../core/team/role-change-plan.js';
import type { CommandContext, CommandResult } from './context.js';
import { renderMemberChange, runMemberChange, type MemberChangeData } from './member-change.js';

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
  checkRoles([options.role]); // a bad role is a usage error before anything is read
  const { plan, data: change } = await runMemberChange(ctx, { command: 'role', activity: 'changing the role', dryRun: options.dryRun, member: options.member }, (state) =>
    decideRoleChange(state, { role: options.role }),
  );
  const data: RoleData = { ...change, from: plan.from, ...(plan.backup ? { backup: plan.backup } : {}) };
  const { name, role: to } = plan.member;
  return {
    data,
    exitCode: 0,
    render: (ui) =>
      renderMemberChange(ui, plan, options.dryRun, {
        done: `${name} is ${to} already`,
        headline: `${options.dryRun ? 'Would make' : 'Made'} ${name} ${to} (was ${plan.from || 'no role'})`,
        after: `route and the coordinator now send ${to} work to ${name}`,
        commit: `chore(squad): make ${name} ${to}`,
      }),
  };
}
