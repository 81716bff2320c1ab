/** `create-squad hire <role> [--name N]`: add one member to the squad. */
import { applyHire, planHire } from '../core/squad/hire.js';
import { charterPath } from '../core/base/paths.js';
import type { CommandContext, CommandResult } from './context.js';
import { underSquadLock } from './lock.js';

export interface HireCommandOptions {
  role: string;
  name?: string;
  dryRun: boolean;
}

export interface HireData {
  member: { name: string; role: string; folder: string };
  /** Universe the name came from; null for a name given with --name. */
  universe: string | null;
  /** How the name was chosen: cast, overflow (the universe ran out) or named (--name). */
  casting: string;
  /** True when this finished an interrupted hire instead of casting someone new. */
  resumed: boolean;
  created: string[];
  modified: string[];
  dryRun: boolean;
}

export async function hire(options: HireCommandOptions, ctx: CommandContext): Promise<CommandResult<HireData>> {
  const plan = await underSquadLock(ctx, 'hire', options.dryRun, async () => {
    const planned = await planHire(ctx.cwd, { role: options.role, ...(options.name === undefined ? {} : { name: options.name }) });
    if (!options.dryRun) applyHire(planned);
    return planned;
  });
  const data: HireData = {
    member: plan.member,
    universe: plan.universe,
    casting: plan.event,
    resumed: plan.resumed,
    created: plan.created,
    modified: plan.modified,
    dryRun: options.dryRun,
  };
  return {
    data,
    exitCode: 0,
    warnings: plan.warnings,
    render(ui) {
      const { name, role } = plan.member;
      const from = plan.universe ? ` (from ${plan.universe}${plan.event === 'overflow' ? ', overflow' : ''})` : '';
      ui.success(`${options.dryRun ? 'Would hire' : 'Hired'} ${name} as ${role}${from}`);
      for (const file of plan.created) ui.out(`  ${options.dryRun ? 'would create' : 'created'}  ${file}`);
      for (const file of plan.modified) ui.out(`  ${options.dryRun ? 'would update' : 'updated'}  ${file}`);
      if (options.dryRun) ui.out('Dry run: nothing was written.');
      else ui.out(`  Edit ${charterPath(plan.member.folder)} to refine what ${name} owns.`);
    },
  };
}
