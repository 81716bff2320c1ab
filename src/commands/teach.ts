/**
 * `create-squad teach <agent> "<instruction>" [--name slug]` and
 * `create-squad teach --team "<instruction>"`: turn a user's instruction into a standard skill.
 */
import { describeProfileChange, reportProfileChanges, type ProfileChangeReport } from '../core/squad/agents/profile-sync.js';
import { usageError } from '../core/base/errors.js';
import { applyTeach, planTeach } from '../core/squad/teach.js';
import type { CommandContext, CommandResult } from './context.js';
import { underSquadLock } from './lock.js';

export interface TeachOptions {
  /** Positional arguments as given: [agent, instruction], or [instruction] with --team. */
  args: string[];
  team: boolean;
  name?: string;
  dryRun: boolean;
}

export interface TeachData {
  name: string;
  scope: 'team' | 'agent';
  agent?: string;
  path: string;
  description: string;
  /** What happened to the members' Copilot agents (.github/agents/). */
  agentProfiles: ProfileChangeReport[];
  dryRun: boolean;
}

export async function teach(options: TeachOptions, ctx: CommandContext): Promise<CommandResult<TeachData>> {
  const { agentArg, instruction } = splitArgs(options);
  const plan = await underSquadLock(ctx, 'teach', options.dryRun, async () => {
    const planned = await planTeach(ctx.cwd, {
      instruction,
      ...(agentArg === undefined ? {} : { agent: agentArg }),
      ...(options.name === undefined ? {} : { name: options.name }),
    });
    if (!options.dryRun) applyTeach(planned);
    return planned;
  });

  const { agent, skill } = plan;
  const data: TeachData = {
    name: skill.name,
    scope: agent ? 'agent' : 'team',
    ...(agent ? { agent: agent.name } : {}),
    path: plan.path,
    description: skill.description,
    agentProfiles: reportProfileChanges(plan.profile),
    dryRun: options.dryRun,
  };
  return {
    data,
    exitCode: 0,
    render(ui) {
      const who = agent ? agent.displayName : 'the whole team';
      if (options.dryRun) {
        ui.out(`Dry run: would teach ${who} the skill "${skill.name}" at ${plan.path}:`);
        ui.out();
        for (const line of skill.content.replace(/\n$/, '').split('\n')) ui.out(line);
        for (const change of data.agentProfiles) ui.out(`  ${describeProfileChange(change, true)}`);
        return;
      }
      ui.success(`Taught ${who} "${skill.name}": ${plan.path}`);
      for (const change of data.agentProfiles) ui.out(`  ${describeProfileChange(change)}`);
      ui.out(`  Edit that file to refine the rule; agents read it when a task matches its description.`);
    },
  };
}

function splitArgs(options: TeachOptions): { agentArg: string | undefined; instruction: string } {
  const args = options.args;
  if (options.team) {
    if (args.length !== 1) {
      throw usageError(
        args.length === 0 ? 'missing the instruction to teach' : 'with --team, give only the instruction (no agent)',
        'usage: create-squad teach --team "<instruction>"',
      );
    }
    return { agentArg: undefined, instruction: args[0]! };
  }
  if (args.length !== 2) {
    throw usageError(
      args.length < 2 ? 'missing the agent or the instruction' : 'too many arguments (quote the instruction)',
      'usage: create-squad teach <agent> "<instruction>"  or  create-squad teach --team "<instruction>"',
    );
  }
  return { agentArg: args[0]!, instruction: args[1]! };
}
