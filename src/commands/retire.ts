/** `create-squad retire <member>`: to the alumni, off the roster and routing; the name stays reserved. */
import { decideRetire, type MemberRef } from '../core/team/member-change-plan.js';
import type { CommandContext, CommandResult } from './context.js';
import { renderMemberChange, runMemberChange, type MemberChangeData } from './member-change.js';

export interface RetireOptions {
  member: string;
  dryRun: boolean;
}

export async function retire(options: RetireOptions, ctx: CommandContext): Promise<CommandResult<MemberChangeData>> {
  const { plan, data } = await runMemberChange(ctx, { command: 'retire', activity: 'retiring', dryRun: options.dryRun, member: options.member }, (state) => decideRetire(state));
  return {
    data,
    exitCode: 0,
    render: (ui) =>
      renderMemberChange(ui, plan, options.dryRun, {
        done: `${plan.member.name} is already retired (${plan.member.folder ? `.ai-team/agents/_alumni/${plan.member.folder}/` : 'in the Alumni list'})`,
        headline: `${options.dryRun ? 'Would retire' : 'Retired'} ${describe(plan.member)}`,
        after: `The name stays reserved; bring ${plan.member.name} back with: create-squad rehire ${plan.member.folder}`,
        commit: `chore(squad): retire ${plan.member.name}`,
      }),
  };
}

function describe(member: MemberRef): string {
  return `${member.name}${member.role ? ` (${member.role})` : ''}`;
}
