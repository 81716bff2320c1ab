/** What retire, rehire and role share: one plan (the member change, then the member's agent) and its report. */
import type { Ui } from '../cli/ui.js';
import type { ProfileChangeReport } from '../core/squad/agents/profile-sync.js';
import type { MemberChangePlan, MemberChangeState, MemberCommand, MemberRef } from '../core/team/member-change-plan.js';
import { readMemberChangeState } from '../core/team/retire.js';
import type { CommandContext } from './context.js';
import { type ChangeReport, changeReport, renderChanges, runPlan } from './pipeline.js';

export interface MemberChangeData extends ChangeReport {
  member: MemberRef;
  /** The change was already made and the member's agent is in step: nothing was (or would be) written. */
  done: boolean;
  /** Files created (changes.created). */
  created: string[];
  /** Files updated (changes.replaced). */
  modified: string[];
  /** Files and folders moved (changes.moved). */
  moved: { from: string; to: string }[];
  notes: string[];
  /** What happens (or, in a dry run, would) to the member's Copilot agent (.github/agents/); its changes are among `changes`. */
  agentProfiles: ProfileChangeReport[];
}

/**
 * Read the squad for `change.member` and decide under the squad lock, apply unless this is a dry
 * run; returns the plan and what is reported of it, all derived from the plan's changes.
 */
export async function runMemberChange<P extends MemberChangePlan>(
  ctx: CommandContext,
  change: { command: MemberCommand; activity: string; dryRun: boolean; member: string },
  decide: (state: MemberChangeState) => Promise<P>,
): Promise<{ plan: P; data: MemberChangeData }> {
  const plan = await runPlan(ctx, {
    command: change.command,
    activity: change.activity,
    dryRun: change.dryRun,
    read: () => readMemberChangeState(ctx.cwd, change.command, change.member),
    decide,
  });
  const report = changeReport(plan, change.dryRun);
  return {
    plan,
    data: {
      member: plan.member,
      done: plan.done,
      created: report.changes.created,
      modified: report.changes.replaced,
      moved: report.changes.moved,
      notes: plan.notes,
      agentProfiles: plan.agentProfiles,
      ...report,
    },
  };
}

/**
 * The text report: the notes, a headline, one line per change and the commit hint (or the dry
 * run's note), then what to know after. `done` says the change was made already ("… already").
 */
export function renderMemberChange(ui: Ui, plan: MemberChangePlan, dryRun: boolean, text: { done: string; headline: string; after: string; commit: string }): void {
  for (const note of plan.notes) ui.warn(note);
  if (plan.done) {
    ui.success(`${text.done}; nothing to do`);
    return;
  }
  // A run after one stopped between the member change and the agent only brings the agent in step.
  ui.success(plan.madeAlready ? `${text.done}; ${dryRun ? 'would bring' : 'brought'} their Copilot agent in step` : text.headline);
  renderChanges(ui, plan, dryRun, { message: text.commit });
  if (!dryRun && !plan.madeAlready) ui.out(`  ${text.after}.`);
}
