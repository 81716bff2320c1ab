/** `create-squad hire <role> [--name N]`: add one member to the squad. */
import { charterPath } from '../core/base/paths.js';
import { decideHire } from '../core/team/hire.js';
import { readHireState } from '../core/team/hire-state.js';
import { checkRoles } from '../core/roster/roles.js';
import { checkModelNames } from '../core/roster/models.js';
import type { CommandContext, CommandResult } from './context.js';
import { type ChangeReport, changeReport, renderChanges, runPlan } from './pipeline.js';

export interface HireCommandOptions {
  role: string;
  name?: string;
  /** `--model`: the member's model, first choice first. */
  models?: string[];
  dryRun: boolean;
}

export interface HireData extends ChangeReport {
  member: { name: string; role: string; folder: string };
  /** The member's model, first choice first; [] when it runs on the squad's default or the session's. */
  models: string[];
  /** Universe the name came from; null for a name given with --name. */
  universe: string | null;
  /** How the name was chosen: cast, overflow (the universe ran out) or named (--name). */
  casting: string;
  /** True when this finished an interrupted hire instead of casting someone new. */
  resumed: boolean;
  /** Files created (changes.created). */
  created: string[];
  /** Files updated (changes.replaced). */
  modified: string[];
}

export async function hire(options: HireCommandOptions, ctx: CommandContext): Promise<CommandResult<HireData>> {
  checkRoles([options.role]); // a bad role is a usage error before anything is read
  const models = options.models === undefined ? undefined : checkModelNames(options.models);
  const plan = await runPlan(ctx, {
    command: 'hire',
    activity: 'hiring',
    dryRun: options.dryRun,
    read: () => readHireState(ctx.cwd),
    decide: (state) => decideHire(state, { role: options.role, ...(options.name === undefined ? {} : { name: options.name }), ...(models === undefined ? {} : { models }) }),
  });
  const report = changeReport(plan, options.dryRun);
  const data: HireData = {
    member: plan.member,
    models: plan.models,
    universe: plan.universe,
    casting: plan.event,
    resumed: plan.resumed,
    created: report.changes.created,
    modified: report.changes.replaced,
    ...report,
  };
  return {
    data,
    exitCode: 0,
    warnings: plan.warnings,
    render(ui) {
      const { name, role } = plan.member;
      const from = plan.universe ? ` (from ${plan.universe}${plan.event === 'overflow' ? ', overflow' : ''})` : '';
      const on = plan.models.length > 0 ? ` on ${plan.models.join(', then ')}` : '';
      ui.success(`${options.dryRun ? 'Would hire' : 'Hired'} ${name} as ${role}${from}${on}`);
      renderChanges(ui, plan, options.dryRun, { message: `chore(squad): hire ${name} as ${role}` });
      if (!options.dryRun) ui.out(`  Edit ${charterPath(plan.member.folder)} to refine what ${name} owns.`);
    },
  };
}
