/** `create-squad rehire <member>`: a retired member back on the roster and routing, from the alumni. */
import { planRehire } from '../core/squad/retire.js';
import type { CommandContext, CommandResult } from './context.js';
import { renderMemberChange, runMemberChange, type MemberChangeData } from './member-change.js';

export interface RehireOptions {
  member: string;
  dryRun: boolean;
}

export async function rehire(options: RehireOptions, ctx: CommandContext): Promise<CommandResult<MemberChangeData>> {
  const { plan, data } = await runMemberChange(ctx, { command: 'rehire', activity: 'rehiring', dryRun: options.dryRun }, () => planRehire(ctx.cwd, options.member));
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
