/**
 * Giving a member (or the squad) a model, decided from what the read step read (roster/models.ts
 * says where a model is recorded and how it is resolved):
 *
 *   member   its casting registry entry gets `model` / `reasoningEffort` (or loses them with
 *            --clear); an entry is added when it has none. A charter whose `## Model` section names
 *            another model is brought in line after a backup (the user wrote it), and `--clear`
 *            takes out squad-cli's per-agent override too, so the member really inherits. Then its
 *            Copilot agent is refreshed (withMemberAgent), as for a role change.
 *   squad    `.ai-team/config.json` gets `model` / `reasoningEffort` (other keys kept; created with
 *            `"version": 1` when missing), then every active member's agent is refreshed.
 *
 * Pure: no disk access (test/unit/decide-model.test.ts runs both with node:fs switched off).
 */
import type { DiskFacts } from '../base/disk-facts.js';
import { didYouMean } from '../base/edit-distance.js';
import { SquadError } from '../base/errors.js';
import { factsAfter } from '../base/planned-facts.js';
import { squadPaths } from '../base/paths.js';
import type { Change, Plan } from '../base/plan.js';
import { isMapping } from '../base/util.js';
import { adoptRoster, serializeCasting } from '../roster/casting.js';
import { backupChange, isNamed, readText } from '../roster/members.js';
import {
  SQUAD_CONFIG_PATH,
  charterModel,
  legacyAgentKey,
  parseConfig,
  recordWithModel,
  recordedChoice,
  resolveModel,
  resolvedDefault,
  sourcesAfter,
  withModels,
  type ModelChoice,
  type ModelSources,
  type ReasoningEffort,
  type ResolvedModel,
} from '../roster/models.js';
import { parseRoster } from '../roster/roster.js';
import type { SquadSkills } from '../squad/agents/profile-input.js';
import { decideMemberProfiles, profileChanges, reportProfileChanges, type ProfileChangeReport } from '../squad/agents/profile-plan.js';
import type { ProfileMember } from '../squad/agents/profile-input.js';
import { withMemberAgent, type MemberChangePlan, type MemberChangeState } from './member-change-plan.js';
import { charterOf } from './role-change-plan.js';

export interface ModelChangeOptions {
  /** The names, first choice first; undefined: keep the ones recorded. */
  models?: string[];
  /** Take the model and effort out: the member inherits (the squad's default, else the session's). */
  clear?: boolean;
  effort?: ReasoningEffort;
  now?: Date;
}

export interface MemberModelPlan extends MemberChangePlan {
  from: ResolvedModel;
  to: ResolvedModel;
}

/** The choice `options` make over `current` (what the record holds now). */
function wantedChoice(current: ModelChoice, options: ModelChangeOptions): ModelChoice {
  if (options.clear) return { models: [] };
  const effort = options.effort ?? current.effort;
  return { models: options.models ?? current.models, ...(effort ? { effort } : {}) };
}

/** The registry text with `folder`'s entry holding `choice`: its own entry, the original Squad's, or a new one. */
function registryWithModel(state: MemberChangeState, member: { folder: string; name: string; role: string }, options: ModelChangeOptions): { text: string; base?: string } {
  const { registry } = state.casting;
  if (registry.state === 'invalid') {
    throw new SquadError('invalid-format', `${squadPaths.castingRegistry} is not valid: ${registry.reason}`, {
      hint: 'fix that file (or move it aside) and run model again; nothing was written',
    });
  }
  const raw = registry.state === 'ok' ? registry.raw : { schema: 1 };
  const members = Array.isArray(raw.members) ? (raw.members as unknown[]) : [];
  const own = members.findLastIndex((entry) => isMapping(entry) && entry.folder === member.folder);
  const base = registry.state === 'ok' ? registry.text : undefined;
  if (own !== -1) {
    const entry = members[own] as Record<string, unknown>;
    const next = [...members];
    next[own] = recordWithModel(entry, wantedChoice(recordedChoice(entry), options));
    return { text: serializeCasting({ ...raw, members: next }), ...(base === undefined ? {} : { base }) };
  }
  const agents = isMapping(raw.agents) ? raw.agents : undefined;
  const legacyKey = agents === undefined ? undefined : legacyAgentKey(agents, member.folder);
  if (agents !== undefined && legacyKey !== undefined) {
    const entry = agents[legacyKey] as Record<string, unknown>;
    const choice = wantedChoice(recordedChoice(entry), options);
    // The original Squad's entry: "auto" is its word for "none", so it is kept readable by it.
    const written = recordWithModel(entry, choice);
    const kept = choice.models.length === 0 && 'model' in entry ? { ...written, model: 'auto' } : written;
    return { text: serializeCasting({ ...raw, agents: { ...agents, [legacyKey]: kept } }), ...(base === undefined ? {} : { base }) };
  }
  // No entry yet: one is added (a new registry adopts the roster first, as hire does, so it stays complete).
  const adopted = registry.state === 'ok' ? [] : adoptRoster(parseRoster(state.teamText)).map((cast) => cast.entry as unknown as Record<string, unknown>);
  const withoutMember = adopted.filter((entry) => entry.folder !== member.folder);
  const entry = recordWithModel({ name: member.name, folder: member.folder, role: member.role, universe: null }, wantedChoice({ models: [] }, options));
  return { text: serializeCasting({ ...raw, members: [...members, ...withoutMember, entry] }), ...(base === undefined ? {} : { base }) };
}

const PREFERRED_LINE = /^([ \t]*(?:[-*][ \t]+)?(?:\*\*)?Preferred:(?:\*\*)?[ \t]*)(.*?)([ \t]*)$/im;

/** The charter with its `## Model` section's Preferred line naming `first` ("auto" for none); undefined when it has none to change. */
function charterWithPreferred(text: string, first: string): string | undefined {
  const section = /^##[ \t]+Model[ \t]*\r?\n/im.exec(text);
  if (!section) return undefined;
  const start = section.index + section[0].length;
  const next = /^##?[ \t]/m.exec(text.slice(start));
  const end = next === null ? text.length : start + next.index;
  const body = text.slice(start, end);
  const changed = body.replace(PREFERRED_LINE, (_whole, head: string, _value: string, tail: string) => `${head}${first}${tail}`);
  return changed === body ? undefined : `${text.slice(0, start)}${changed}${text.slice(end)}`;
}

/** Give the member the state was read for the model `options` say. Refuses before anything is written. */
export async function decideMemberModel(state: MemberChangeState, options: ModelChangeOptions): Promise<MemberModelPlan> {
  const now = options.now ?? new Date();
  const roster = parseRoster(state.teamText);
  const member = roster.find((m) => isNamed(m, state.wanted) && !m.human);
  if (!member) {
    const near = didYouMean(
      state.wanted,
      roster.flatMap((m) => [m.name, m.displayName]),
    );
    throw new SquadError('unknown-agent', `no member named "${state.wanted}" in this squad${near}`, {
      hint: `members: ${roster.map((m) => m.name).join(', ') || '(none)'} (see "create-squad members"); for the squad's default use --default`,
    });
  }
  const from = resolveModel(member.name, state.models);
  const changes: Change[] = [];
  const notes: string[] = [];
  const registry = registryWithModel(state, { folder: member.name, name: member.displayName, role: member.role }, options);
  if (registry.base === undefined) changes.push({ kind: 'create', path: squadPaths.castingRegistry, content: registry.text });
  else if (registry.text !== registry.base) changes.push({ kind: 'replace', path: squadPaths.castingRegistry, content: registry.text, base: registry.base });

  // squad-cli's per-agent override would win over the squad's default: --clear takes it out too.
  const { config, configText } = state.models;
  if (options.clear && config !== undefined && configText !== undefined) {
    const strip = (key: string) => {
      const map = config[key];
      if (!isMapping(map) || !Object.hasOwn(map, member.name)) return map;
      const { [member.name]: _gone, ...rest } = map;
      return rest;
    };
    const next: Record<string, unknown> = { ...config, agentModelOverrides: strip('agentModelOverrides'), agentReasoningEffortOverrides: strip('agentReasoningEffortOverrides') };
    for (const key of ['agentModelOverrides', 'agentReasoningEffortOverrides']) if (next[key] === undefined) delete next[key];
    const text = serializeCasting(next);
    if (JSON.stringify(next) !== JSON.stringify(config)) changes.push({ kind: 'replace', path: SQUAD_CONFIG_PATH, content: text, base: configText });
  }

  // A charter naming another model in its `## Model` section is brought in line (after a backup): else it would disagree.
  const charterPathOf = member.noCharter ? undefined : charterOf(member);
  const charter = charterPathOf === undefined || !state.texts.has(charterPathOf) ? undefined : readText(state, charterPathOf);
  const recorded = resolveModel(member.name, sourcesAfter({ ...state.models, charter: () => undefined }, changes));
  if (charter !== undefined && charterPathOf !== undefined) {
    const says = charterModel(charter).models[0];
    const wanted = options.clear ? undefined : recorded.models[0];
    const next = says !== undefined && says !== wanted ? charterWithPreferred(charter, wanted ?? 'auto') : undefined;
    if (next !== undefined) {
      const backup = backupChange(state, charterPathOf, charter, now);
      changes.push(...backup.changes, { kind: 'replace', path: charterPathOf, content: next, base: charter });
      notes.push(`${charterPathOf} named ${says} in its "## Model" section: it now says ${wanted ?? 'auto'} (the charter as it was: ${backup.path})`);
    }
  }
  const to = resolveModel(member.name, sourcesAfter(state.models, changes));
  const plan = await withMemberAgent(state, { member: { name: member.displayName, folder: member.name, role: member.role }, changes, notes }, now);
  return { ...plan, from, to };
}

/** What setting the squad's default decides from, read once (model-state.ts readSquadModelState). */
export interface SquadModelState {
  root: string;
  /** `.ai-team/config.json` as read; undefined: none. */
  configText: string | undefined;
  /** Who gets an agent (models not yet attached) and the skills they see. */
  members: ProfileMember[];
  squad: SquadSkills;
  models: ModelSources;
  /** The agents' paths as the read step saw them. */
  disk: DiskFacts;
  version: string;
}

export interface SquadModelPlan extends Plan {
  root: string;
  from: ResolvedModel;
  to: ResolvedModel;
  agentProfiles: ProfileChangeReport[];
  notes: string[];
}

/** The squad's default as `options` say, written into config.json, then every member's agent in step. */
export async function decideSquadModel(state: SquadModelState, options: ModelChangeOptions): Promise<SquadModelPlan> {
  const now = options.now ?? new Date();
  const config = state.configText === undefined ? undefined : parseConfig(state.configText);
  if (state.configText !== undefined && config === undefined) {
    throw new SquadError('invalid-format', `${SQUAD_CONFIG_PATH} is not a JSON object`, { hint: 'fix that file (or move it aside) and run model again; nothing was written' });
  }
  const from = resolvedDefault(config);
  const base = config ?? { version: 1 };
  let next = recordWithModel(base, wantedChoice({ models: from.models, ...(from.effort ? { effort: from.effort } : {}) }, options));
  if (options.clear) {
    const { defaultModel: _model, defaultReasoningEffort: _effort, ...rest } = next;
    next = rest;
  }
  const changes: Change[] = [];
  if (config === undefined) changes.push({ kind: 'create', path: SQUAD_CONFIG_PATH, content: serializeCasting(next) });
  else if (JSON.stringify(next) !== JSON.stringify(config)) changes.push({ kind: 'replace', path: SQUAD_CONFIG_PATH, content: serializeCasting(next), base: state.configText! });
  const sources = sourcesAfter(state.models, changes);
  const profiles = await decideMemberProfiles(
    factsAfter(state.disk, changes),
    { members: withModels(state.members, sources), squad: state.squad },
    { members: state.members.map((member) => member.folder), version: state.version, now },
  );
  const notes = profiles.skipped.map((skip) => `${skip.path} was left as it is: ${skip.reason}`);
  return { root: state.root, changes: [...changes, ...profileChanges(profiles)], from, to: resolvedDefault(sources.config), agentProfiles: reportProfileChanges(profiles), notes };
}
