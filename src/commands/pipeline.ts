/**
 * The one pipeline of every writing command: take the squad lock → read the squad's state once →
 * decide a plan in a pure function of that state → apply the plan through the atomic writer (not
 * in a dry run) → report from the plan. The report's change list, its text lines and the commit
 * hint are all derived from the plan's changes (core/base/plan.ts), so they cannot disagree with
 * what was written.
 */
import type { Ui } from '../cli/ui.js';
import { type ChangeSummary, type Plan, changeLines, commitHint, commitPathsOf, summarizeChanges } from '../core/base/plan.js';
import { applyPlan, checkPlanPaths } from '../core/fs/apply-plan.js';
import { sweepRepositoryDebris } from '../core/fs/debris.js';
import { withSquadLock } from '../core/fs/lock.js';
import type { CommandContext } from './context.js';

/**
 * Run `work` holding the lock of `root`; a dry run writes nothing and takes no lock. A command that
 * finds the lock taken waits as long as `--wait` allows, else refuses. Once it holds the lock, what
 * killed runs left in the folders create-squad writes is swept (core/fs/debris.ts).
 */
export function underSquadLock<T>(ctx: CommandContext, command: string, dryRun: boolean, work: () => Promise<T>, root = ctx.cwd): Promise<T> {
  if (dryRun) return work();
  return withSquadLock(root, { command, ...(ctx.lockWaitMs === undefined ? {} : { waitMs: ctx.lockWaitMs }), ...(ctx.note ? { onWait: ctx.note } : {}) }, () => {
    sweepRepositoryDebris(root);
    return work();
  });
}

export interface WritingCommand<S, P extends Plan> {
  /** The command's name, recorded in the lock ("hire"). */
  command: string;
  /** What was running, for a conflict's message ("hiring"). */
  activity: string;
  dryRun: boolean;
  /** The repository written (default: the command's squad). */
  root?: string;
  /** Read what the decision needs, once. */
  read: () => S | Promise<S>;
  /** Decide from what was read alone: no disk access (test/unit/architecture.test.ts). */
  decide: (state: S) => P | Promise<P>;
}

/** Read, decide and apply (a dry run only checks that every path stays inside); returns the plan. */
async function decideAndApply<S, P extends Plan>(root: string, step: Pick<WritingCommand<S, P>, 'read' | 'decide'>, dryRun: boolean, activity: string): Promise<P> {
  const plan = await step.decide(await step.read());
  if (dryRun) checkPlanPaths(root, plan);
  else applyPlan(root, plan, activity);
  return plan;
}

/** Read, decide and (unless a dry run) apply under the squad lock; returns the plan. */
export function runPlan<S, P extends Plan>(ctx: CommandContext, spec: WritingCommand<S, P>): Promise<P> {
  const root = spec.root ?? ctx.cwd;
  return underSquadLock(ctx, spec.command, spec.dryRun, () => decideAndApply(root, spec, spec.dryRun, spec.activity), root);
}

/** A second read and decision, made once the first plan is applied. */
export type NextPlan<T, Q extends Plan> = Pick<WritingCommand<T, Q>, 'read' | 'decide'>;

/**
 * Two plans under one lock, the second read from the tree the first leaves: for a decision that
 * needs that tree and cannot see it through the first plan's changes (upgrade plans a squad in
 * `.ai-team/` once the original Squad's `.squad/` is moved there). `next` gets the first plan and
 * says what to read and decide then (undefined: nothing); in a dry run the first is not applied,
 * which `next` must take into account. Returns both plans.
 */
export function runPlanThen<S, P extends Plan, T, Q extends Plan>(
  ctx: CommandContext,
  spec: WritingCommand<S, P>,
  next: (first: P) => NextPlan<T, Q> | undefined,
): Promise<{ first: P; second: Q | undefined }> {
  const root = spec.root ?? ctx.cwd;
  return underSquadLock(
    ctx,
    spec.command,
    spec.dryRun,
    async () => {
      const first = await decideAndApply(root, spec, spec.dryRun, spec.activity);
      const stage = next(first);
      return { first, second: stage === undefined ? undefined : await decideAndApply(root, stage, spec.dryRun, spec.activity) };
    },
    root,
  );
}

/** What every writing command's `--json` data carries about its changes. */
export interface ChangeReport {
  /** What was (or in a dry run would be) created, replaced, moved, backed up and removed. */
  changes: ChangeSummary;
  /** The paths `git add -A --` needs to commit exactly these changes; [] when nothing changed. */
  commit: string[];
  dryRun: boolean;
}

export function changeReport(plan: Plan, dryRun: boolean): ChangeReport {
  return { changes: summarizeChanges(plan.changes), commit: commitPathsOf(plan.changes), dryRun };
}

/**
 * The text report of a plan's changes: one line per change, then the commit hint (`message` is
 * the commit message), or the dry run's note. Prints nothing about changes when there are none.
 */
export function renderChanges(ui: Ui, plan: Plan, dryRun: boolean, commit?: { message: string; label?: string }): void {
  for (const line of changeLines(plan.changes, dryRun)) ui.out(`  ${line}`);
  if (dryRun) {
    ui.out('Dry run: nothing was written.');
    return;
  }
  const hint = commit === undefined ? undefined : commitHint(plan.changes, commit.message);
  if (hint !== undefined) ui.out(`  ${commit?.label ?? 'Commit it'}: ${hint}`);
}
