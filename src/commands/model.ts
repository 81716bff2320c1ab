/**
 * `create-squad model <member> [<name…>|--clear] [--effort low|medium|high]`, and `model --default
 * [<name…>|--clear] [--effort …]`: the model a member (or the whole squad) runs on, recorded in the
 * casting registry (or `.ai-team/config.json`) and written into the Copilot agents.
 */
import { usageError } from '../core/base/errors.js';
import { checkEffort, checkModelNames, describeModel, type ReasoningEffort, type ResolvedModel } from '../core/roster/models.js';
import { decideMemberModel, decideSquadModel, type ModelChangeOptions } from '../core/team/model-change.js';
import { readSquadModelState } from '../core/team/model-state.js';
import type { ProfileChangeReport } from '../core/squad/agents/profile-sync.js';
import type { CommandContext, CommandResult } from './context.js';
import { renderMemberChange, runMemberChange } from './member-change.js';
import { type ChangeReport, changeReport, renderChanges, runPlan } from './pipeline.js';

export interface ModelCommandOptions {
  /** The member; undefined with `--default`. */
  member?: string;
  /** Model names, first choice first (empty: none given). */
  models: string[];
  clear: boolean;
  effort?: string;
  /** Set the squad's default instead of a member's. */
  squadDefault: boolean;
  dryRun: boolean;
}

/** A model as reported: names in order (empty: the session's), the effort, and where it comes from. */
export interface ModelReport {
  models: string[];
  effort: ReasoningEffort | null;
  source: ResolvedModel['source'];
}

export interface ModelData extends ChangeReport {
  /** The member's folder; null for the squad's default. */
  member: string | null;
  /** It runs on that already: nothing was (or would be) written. */
  done: boolean;
  from: ModelReport;
  to: ModelReport;
  notes: string[];
  agentProfiles: ProfileChangeReport[];
}

function reported(model: ResolvedModel): ModelReport {
  return { models: model.models, effort: model.effort ?? null, source: model.source };
}

/** What the options ask for; a usage error for a contradiction, before anything is read. */
function changeOptions(options: ModelCommandOptions): ModelChangeOptions {
  const effort = checkEffort(options.effort);
  if (options.clear && (options.models.length > 0 || effort !== undefined)) {
    throw usageError('--clear takes no model names and no --effort', 'clear first, then give the new model, or give the new model alone: it replaces the old one');
  }
  if (!options.clear && options.models.length === 0 && effort === undefined) {
    throw usageError('nothing to change', 'give model names (first choice first), --effort low|medium|high, or --clear; "create-squad members" shows each member\'s model');
  }
  const models = options.models.length > 0 ? checkModelNames(options.models) : undefined;
  return { ...(models ? { models } : {}), ...(options.clear ? { clear: true } : {}), ...(effort ? { effort } : {}) };
}

export async function model(options: ModelCommandOptions, ctx: CommandContext): Promise<CommandResult<ModelData>> {
  // With --default there is no member: every operand is a model name.
  const models = options.squadDefault && options.member !== undefined ? [options.member, ...options.models] : options.models;
  const change = changeOptions({ ...options, models });
  if (options.squadDefault) return squadModel(options, change, ctx);
  if (options.member === undefined) throw usageError('no member given', "name a member (create-squad model fenster claude-sonnet-4.5), or set the squad's default with --default");
  const { plan, data: changed } = await runMemberChange(ctx, { command: 'model', activity: 'changing the model', dryRun: options.dryRun, member: options.member }, (state) =>
    decideMemberModel(state, change),
  );
  const data: ModelData = {
    ...changeReport(plan, options.dryRun),
    member: plan.member.folder,
    done: plan.done,
    from: reported(plan.from),
    to: reported(plan.to),
    notes: plan.notes,
    agentProfiles: changed.agentProfiles,
  };
  const { name } = plan.member;
  return {
    data,
    exitCode: 0,
    render: (ui) =>
      renderMemberChange(ui, plan, options.dryRun, {
        done: `${name} runs on ${describeModel(plan.to)} already`,
        headline: `${options.dryRun ? 'Would put' : 'Put'} ${name} on ${describeModel(plan.to)} (was ${describeModel(plan.from)})`,
        after: `the coordinator passes ${name}'s model to each spawn; "create-squad members" lists it`,
        commit: `chore(squad): ${name} on ${plan.to.models[0] ?? 'the session model'}`,
      }),
  };
}

async function squadModel(options: ModelCommandOptions, change: ModelChangeOptions, ctx: CommandContext): Promise<CommandResult<ModelData>> {
  const plan = await runPlan(ctx, {
    command: 'model',
    activity: 'changing the model',
    dryRun: options.dryRun,
    read: () => readSquadModelState(ctx.cwd),
    decide: (state) => decideSquadModel(state, change),
  });
  const data: ModelData = {
    ...changeReport(plan, options.dryRun),
    member: null,
    done: plan.changes.length === 0,
    from: reported(plan.from),
    to: reported(plan.to),
    notes: plan.notes,
    agentProfiles: plan.agentProfiles,
  };
  return {
    data,
    exitCode: 0,
    render(ui) {
      for (const note of plan.notes) ui.warn(note);
      if (plan.changes.length === 0) {
        ui.success(`The squad's default is ${describeModel({ ...plan.to, source: undefined })} already; nothing to do`);
        return;
      }
      ui.success(
        `${options.dryRun ? 'Would set' : 'Set'} the squad's default to ${describeModel({ ...plan.to, source: undefined })} (was ${describeModel({ ...plan.from, source: undefined })})`,
      );
      renderChanges(ui, plan, options.dryRun, { message: `chore(squad): default model ${plan.to.models[0] ?? 'the session model'}` });
      if (!options.dryRun) ui.out('  Members with a model of their own keep it.');
    },
  };
}
