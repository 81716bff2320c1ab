/**
 * `create-squad teach <agent> "<instruction>"` and `create-squad teach --team "<instruction>"`:
 * a standing rule ("always use tabs") goes where every spawn sees it (the member's charter, or
 * `.ai-team/rules.md` for the team); a procedure becomes a user-taught skill. `--rule` and
 * `--skill` (or `--name`, which names a skill) choose instead of the classifier. Control characters
 * are removed first and text aimed at the agent is warned about (standing-rules.ts checkInstruction);
 * the sizes are held to base/limits.ts by the planners.
 */
import { describeProfileChange, reportProfileChanges, type ProfileChangeReport } from '../core/squad/agents/profile-sync.js';
import { usageError } from '../core/base/errors.js';
import {
  applyStandingRule,
  checkInstruction,
  classifyInstruction,
  instructionWarnings,
  planStandingRule,
  requireInstructionContent,
  type CheckedInstruction,
  type InstructionKind,
} from '../core/squad/standing-rules.js';
import { applyTeach, planTeach } from '../core/squad/teach.js';
import type { CommandContext, CommandResult } from './context.js';
import { underSquadLock } from './pipeline.js';

export interface TeachOptions {
  /** Positional arguments as given: [agent, instruction], or [instruction] with --team. */
  args: string[];
  team: boolean;
  name?: string;
  /** `--rule`: a standing rule, whatever the classifier says. */
  rule?: boolean;
  /** `--skill`: a skill, whatever the classifier says. */
  skill?: boolean;
  dryRun: boolean;
}

interface TeachCommon {
  scope: 'team' | 'agent';
  agent?: string;
  /** The file written (or that would be). */
  path: string;
  /** Why the instruction was taken for a rule or a procedure. */
  reason: string;
  dryRun: boolean;
}

export interface TeachSkillData extends TeachCommon {
  kind: 'skill';
  name: string;
  description: string;
  /** What happened to the members' Copilot agents (.github/agents/). */
  agentProfiles: ProfileChangeReport[];
}

export interface TeachRuleData extends TeachCommon {
  kind: 'rule';
  /** The rule as written (one line). */
  rule: string;
  /** False when the rule was there already: nothing was (or would be) written. */
  added: boolean;
}

export type TeachData = TeachSkillData | TeachRuleData;

export async function teach(options: TeachOptions, ctx: CommandContext): Promise<CommandResult<TeachData>> {
  const { agentArg, instruction } = splitArgs(options);
  // Control characters go before anything else looks at the text; what reads as an order to the agent is warned about.
  const checked = checkInstruction(instruction);
  requireInstructionContent(checked.text);
  const kind = classifyInstruction(checked.text, forcedKind(options));
  return kind.kind === 'rule' ? teachRule(options, ctx, agentArg, checked, kind.reason) : teachSkill(options, ctx, agentArg, checked, kind.reason);
}

function forcedKind(options: TeachOptions): InstructionKind | undefined {
  if (options.rule && (options.skill || options.name !== undefined)) {
    throw usageError(
      options.skill ? '--rule and --skill contradict each other' : '--name names a skill; a standing rule has none',
      'give --rule for a standing rule, or --skill [--name <slug>] for a skill',
    );
  }
  if (options.rule) return 'rule';
  if (options.skill || options.name !== undefined) return 'procedure';
  return undefined;
}

async function teachRule(options: TeachOptions, ctx: CommandContext, agentArg: string | undefined, checked: CheckedInstruction, reason: string): Promise<CommandResult<TeachData>> {
  const plan = await underSquadLock(ctx, 'teach', options.dryRun, async () => {
    const planned = planStandingRule(ctx.cwd, checked.text, agentArg);
    if (!options.dryRun) applyStandingRule(planned);
    return planned;
  });
  const { agent } = plan;
  const data: TeachRuleData = {
    kind: 'rule',
    scope: agent ? 'agent' : 'team',
    ...(agent ? { agent: agent.name } : {}),
    path: plan.path,
    rule: plan.rule,
    added: !plan.present,
    reason,
    dryRun: options.dryRun,
  };
  return {
    data,
    exitCode: 0,
    warnings: instructionWarnings(checked, plan.path),
    render(ui) {
      const who = agent ? agent.displayName : 'the whole team';
      if (plan.present) {
        ui.success(`${who === 'the whole team' ? 'The whole team' : who} already has this standing rule in ${plan.path}; nothing changed`);
        return;
      }
      if (options.dryRun) {
        ui.out(`Dry run: would add a standing rule for ${who} to ${plan.path} (${reason}):`);
        ui.out(`  - ${plan.rule}`);
        return;
      }
      ui.success(`Taught ${who} a standing rule: ${plan.path}`);
      ui.out(`  - ${plan.rule}`);
      ui.out(
        `  Every spawn of ${agent ? agent.displayName : 'every member'} sees it (create-squad prompt shows it). ` +
          'To teach a procedure for some tasks instead, run teach again with --skill.',
      );
    },
  };
}

async function teachSkill(
  options: TeachOptions,
  ctx: CommandContext,
  agentArg: string | undefined,
  checked: CheckedInstruction,
  reason: string,
): Promise<CommandResult<TeachData>> {
  const plan = await underSquadLock(ctx, 'teach', options.dryRun, async () => {
    const planned = await planTeach(ctx.cwd, {
      instruction: checked.text,
      ...(agentArg === undefined ? {} : { agent: agentArg }),
      ...(options.name === undefined ? {} : { name: options.name }),
    });
    if (!options.dryRun) applyTeach(planned);
    return planned;
  });

  const { agent, skill } = plan;
  const data: TeachSkillData = {
    kind: 'skill',
    name: skill.name,
    scope: agent ? 'agent' : 'team',
    ...(agent ? { agent: agent.name } : {}),
    path: plan.path,
    description: skill.description,
    reason,
    agentProfiles: reportProfileChanges(plan.profile),
    dryRun: options.dryRun,
  };
  return {
    data,
    exitCode: 0,
    warnings: instructionWarnings(checked, plan.path),
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
      ui.out(`  Edit that file to refine it; members read it when a task matches its description. A rule for every task: teach again with --rule.`);
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
