/** `create-squad rehire <member>`: a retired member back on the roster and routing, from the alumni. */
import { decideRehire } from '../core/team/member-change-plan.js';
import type { CommandContext, CommandResult } from './context.js';
import { renderMemberChange, runMemberChange, type MemberChangeData } from './member-change.js';

export interface RehireOptions {
  member: string;
  dryRun: boolean;
}

export async function rehire(options: RehireOptions, ctx: CommandContext): Promise<CommandResult<MemberChangeData>> {
  const { plan, data } = await runMemberChange(ctx, { command: 'rehire', activity: 'rehiring', dryRun: options.dryRun, member: options.member }, (state) => decideRehire(state));
  const { name, role } = plan.member;
  return {
    data,
    exitCode: 0,
    render: (ui) =>
      renderMemberChange(ui, plan, options.dryRun, {
        done: `${name} is on the roster already`,
        headline: `${options.dryRun ? 'Would bring back' : 'Brought back'} ${name}${role ? ` as ${role}` : ''}`,
        after: `${name}'s history, charter and skills are as they were at retirement`,
        commit: `chore(squad): rehire ${name}`,
      }),
  };
}
