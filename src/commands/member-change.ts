/** What retire, rehire and role report: the member, the files written and moved, and notes. */
import type { Ui } from '../cli/ui.js';
import { describeProfileChange, syncMemberAgent, type ProfileChangeReport } from '../core/squad/agents/profile-sync.js';
import { applySteps, describeSteps } from '../core/squad/members.js';
import type { MemberChangePlan, MemberRef } from '../core/squad/retire.js';
import type { CommandContext } from './context.js';
import { underSquadLock } from './pipeline.js';

export interface MemberChangeData {
  member: MemberRef;
  /** The change was already made: nothing was (or would be) written. */
  done: boolean;
  created: string[];
  modified: string[];
  moved: { from: string; to: string }[];
  notes: string[];
  /** What happened to the member's Copilot agent (.github/agents/); none in a dry run. */
  agentProfiles: ProfileChangeReport[];
  dryRun: boolean;
}

/**
 * Plan a member change under the squad lock, apply it unless this is a dry run, and bring the
 * member's Copilot agent in step; returns the plan and what is reported of it.
 */
export async function runMemberChange<P extends MemberChangePlan>(
  ctx: CommandContext,
  change: { command: string; activity: string; dryRun: boolean },
  plan: () => P | Promise<P>,
): Promise<{ plan: P; data: MemberChangeData }> {
  const done = await underSquadLock(ctx, change.command, change.dryRun, async () => {
    const planned = await plan();
    if (!change.dryRun) applySteps(ctx.cwd, planned.steps, change.activity);
    return { planned, agentProfiles: change.dryRun ? [] : await syncMemberAgent(ctx.cwd, planned.member.folder) };
  });
  const { planned } = done;
  return {
    plan: planned,
    data: {
      member: planned.member,
      done: planned.done,
      ...describeSteps(planned.steps),
      notes: planned.notes,
      agentProfiles: done.agentProfiles,
      dryRun: change.dryRun,
    },
  };
}

export function renderMemberChange(ui: Ui, data: MemberChangeData, text: { done: string; headline: string; after: string }): void {
  for (const note of data.notes) ui.warn(note);
  const agents = () => {
    for (const change of data.agentProfiles) ui.out(`  ${describeProfileChange(change)}`);
  };
  if (data.done) {
    ui.success(text.done);
    agents();
    return;
  }
  const would = data.dryRun ? 'would ' : '';
  ui.success(text.headline);
  for (const move of data.moved) ui.out(`  ${would}${data.dryRun ? 'move' : 'moved'}    ${move.from} → ${move.to}`);
  for (const file of data.created) ui.out(`  ${would}${data.dryRun ? 'create' : 'created'}  ${file}`);
  for (const file of data.modified) ui.out(`  ${would}${data.dryRun ? 'update' : 'updated'}  ${file}`);
  agents();
  if (data.dryRun) ui.out('Dry run: nothing was written.');
  else ui.out(`  ${text.after}.`);
}
