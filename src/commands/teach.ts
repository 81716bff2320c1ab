/**
 * `create-squad teach <agent> "<instruction>"` and `create-squad teach --team "<instruction>"`:
 * a standing rule ("always use tabs") goes where every spawn sees it (the member's charter, or
 * `.ai-team/rules.md` for the team); a procedure becomes a user-taught skill. `--rule` and
 * `--skill` (or `--name`, which names a skill) choose instead of the classifier. Control characters
 * are removed first and text aimed at the agent is warned about (standing-rules.ts checkInstruction);
 * the sizes are held to base/limits.ts by the deciders. Either way one plan is read, decided and
 * applied (pipeline.ts runPlan): a skill's plan holds the members' agents that list it, then the skill.
 */
import { reportProfileChanges, type ProfileChangeReport } from '../core/squad/agents/profile-sync.js';
import { usageError } from '../core/base/errors.js';
import {
  checkInstruction,
  classifyInstruction,
  decideStandingRule,
  instructionWarnings,
  requireInstructionContent,
  type CheckedInstruction,
  type InstructionKind,
} from '../core/team/standing-rules.js';
import { decideTeach } from '../core/team/teach.js';
import { readRuleState, readTeachState } from '../core/team/teach-state.js';
import type { CommandContext, CommandResult } from './context.js';
import { type ChangeReport, changeReport, renderChanges, runPlan } from './pipeline.js';

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

interface TeachCommon extends ChangeReport {
  scope: 'team' | 'agent';
  agent?: string;
  /** The file written (or that would be). */
  path: string;
  /** Why the instruction was taken for a rule or a procedure. */
  reason: string;
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

/** Who is taught, as the text report names them. */
function taught(agent: { displayName: string } | undefined): string {
  return agent ? agent.displayName : 'the whole team';
}

async function teachRule(options: TeachOptions, ctx: CommandContext, agentArg: string | undefined, checked: CheckedInstruction, reason: string): Promise<CommandResult<TeachData>> {
  const plan = await runPlan(ctx, {
    command: 'teach',
    activity: 'teaching',
    dryRun: options.dryRun,
    read: () => readRuleState(ctx.cwd, agentArg),
    decide: (state) => decideStandingRule(state, checked.text),
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
    ...changeReport(plan, options.dryRun),
  };
  return {
    data,
    exitCode: 0,
    warnings: instructionWarnings(checked, plan.path),
    render(ui) {
      const who = taught(agent);
      if (plan.present) {
        ui.success(`${agent ? who : 'The whole team'} already has this standing rule in ${plan.path}; nothing changed`);
        return;
      }
      if (options.dryRun) {
        ui.out(`Dry run: would add a standing rule for ${who} to ${plan.path} (${reason}):`);
        ui.out(`  - ${plan.rule}`);
      } else {
        ui.success(`Taught ${who} a standing rule: ${plan.path}`);
        ui.out(`  - ${plan.rule}`);
        ui.out(
          `  Every spawn of ${agent ? agent.displayName : 'every member'} sees it (create-squad prompt shows it). ` +
            'To teach a procedure for some tasks instead, run teach again with --skill.',
        );
      }
      renderChanges(ui, plan, options.dryRun, { message: `chore(squad): teach ${agent ? agent.displayName : 'the team'} a standing rule` });
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
  const input = {
    instruction: checked.text,
    ...(agentArg === undefined ? {} : { agent: agentArg }),
    ...(options.name === undefined ? {} : { name: options.name }),
  };
  const plan = await runPlan(ctx, {
    command: 'teach',
    activity: 'teaching',
    dryRun: options.dryRun,
    read: () => readTeachState(ctx.cwd, input),
    decide: (state) => decideTeach(state, input),
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
    ...changeReport(plan, options.dryRun),
  };
  return {
    data,
    exitCode: 0,
    warnings: instructionWarnings(checked, plan.path),
    render(ui) {
      const who = taught(agent);
      if (options.dryRun) {
        ui.out(`Dry run: would teach ${who} the skill "${skill.name}" at ${plan.path}:`);
        ui.out();
        for (const line of skill.content.replace(/\n$/, '').split('\n')) ui.out(line);
        ui.out();
      } else {
        ui.success(`Taught ${who} "${skill.name}": ${plan.path}`);
        ui.out(`  Edit that file to refine it; members read it when a task matches its description. A rule for every task: teach again with --rule.`);
      }
      renderChanges(ui, plan, options.dryRun, { message: `chore(squad): teach ${agent ? agent.displayName : 'the team'} the skill ${skill.name}` });
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
