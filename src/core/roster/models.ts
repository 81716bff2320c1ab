/**
 * Each member on its model: what model (a name, or a prioritized list of names) and reasoning
 * effort a member runs on, where that is recorded, and the one rule a model name follows.
 *
 *   .ai-team/casting/registry.json   a member's entry: "model": "<name>" | ["<first>", "<fallback>", …],
 *                                    "reasoningEffort": "low" | "medium" | "high" (both optional)
 *   .ai-team/config.json             the squad's default: {"version": 1, "model": …, "reasoningEffort": …}
 *
 * Nothing recorded means the member inherits the session's model: there is never a hard-coded
 * default. A squad the original Squad set up records models its own ways, read too (never
 * rewritten): its registry's `agents` map (`"model": "auto"` means unset), squad-cli's config keys
 * (`defaultModel`, `agentModelOverrides`, `defaultReasoningEffort`, `agentReasoningEffortOverrides`)
 * and a charter's `## Model` section (`**Preferred:** <model>`, `**Reasoning Effort:** <effort>`).
 *
 * A member's choice, first found wins: its registry entry; squad-cli's per-agent override; its
 * charter's `## Model`; the squad's default (`model`, else squad-cli's `defaultModel`). The effort
 * is taken the same way, each on its own.
 */
import { usageError } from '../base/errors.js';
import { isValidName, slugify } from '../base/names.js';
import { AI_TEAM_DIR, charterPath, squadPaths } from '../base/paths.js';
import type { Change } from '../base/plan.js';
import { isMapping, nonEmptyString } from '../base/util.js';
import { readStateText } from '../fs/confined.js';

/** Where the squad's settings (its default model) live. */
export const SQUAD_CONFIG_PATH = `${AI_TEAM_DIR}/config.json`;
/** The longest model name accepted (docs/budgets.md). */
export const MODEL_NAME_MAX = 100;
/** The most names a prioritized list holds. */
export const MODEL_LIST_MAX = 8;
export const REASONING_EFFORTS = ['low', 'medium', 'high'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/** A member's (or the squad's) model: names in order of preference (empty: the session's), and an effort. */
export interface ModelChoice {
  models: string[];
  effort?: ReasoningEffort;
}

/** Where a member's model comes from. */
export type ModelSource = 'member' | 'charter' | 'squad' | 'session';

export interface ResolvedModel extends ModelChoice {
  source: ModelSource;
}

/** Printable characters only: no white space, no control or format characters. */
const MODEL_NAME = /^[^\s\p{C}]+$/u;

/** What is wrong with a model name, or undefined. The one rule every model name follows. */
export function modelNameProblem(name: string): string | undefined {
  if (name === '') return 'is empty';
  if ([...name].length > MODEL_NAME_MAX) return `is longer than ${MODEL_NAME_MAX} characters`;
  if (!MODEL_NAME.test(name)) return 'holds a space, a line break or a control character';
  if (name.startsWith('-')) return 'starts with "-"';
  return undefined;
}

/** The names typed on the command line, checked: a usage error names the first bad one. */
export function checkModelNames(names: readonly string[]): string[] {
  for (const name of names) {
    const problem = modelNameProblem(name);
    if (problem) throw usageError(`the model name "${name}" ${problem}`, `give a model's name as the host lists it, e.g. claude-sonnet-4.5 (at most ${MODEL_NAME_MAX} characters)`);
  }
  if (new Set(names).size !== names.length) throw usageError('a model is named twice', 'name each model once, first choice first');
  if (names.length > MODEL_LIST_MAX) throw usageError(`${names.length} models given`, `give at most ${MODEL_LIST_MAX}, first choice first`);
  return [...names];
}

export function checkEffort(effort: string | undefined): ReasoningEffort | undefined {
  if (effort === undefined) return undefined;
  const known = REASONING_EFFORTS.find((e) => e === effort.toLowerCase());
  if (!known) throw usageError(`unknown reasoning effort "${effort}"`, `use one of ${REASONING_EFFORTS.join(', ')}`);
  return known;
}

/** "auto", empty and "default" say "no model of its own" in the original Squad's files. */
function isUnsetWord(text: string): boolean {
  return /^(?:auto|default|none|inherit|session)?$/i.test(text.trim());
}

/** Model names from a recorded value: valid names only; "auto" and empty mean none. */
export function modelNames(value: unknown): string[] {
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  const names: string[] = [];
  for (const item of list) {
    if (typeof item !== 'string' || isUnsetWord(item)) continue;
    const name = item.trim();
    if (modelNameProblem(name) === undefined && !names.includes(name)) names.push(name);
  }
  return names.slice(0, MODEL_LIST_MAX);
}

export function effortOf(value: unknown): ReasoningEffort | undefined {
  const text = nonEmptyString(value)?.trim().toLowerCase();
  return REASONING_EFFORTS.find((effort) => effort === text);
}

/** The choice a record (a registry entry, the config) makes with its `modelKey` and `effortKey`. */
function choiceOf(record: unknown, modelKey: string, effortKey: string): ModelChoice {
  if (!isMapping(record)) return { models: [] };
  const effort = effortOf(record[effortKey]);
  return { models: modelNames(record[modelKey]), ...(effort ? { effort } : {}) };
}

/** A charter's `## Model` section: `**Preferred:** <model>` (also a plain "Preferred: <model>" line) and `**Reasoning Effort:** <effort>`. */
export function charterModel(text: string | undefined): ModelChoice {
  if (text === undefined) return { models: [] };
  const section = /^##[ \t]+Model[ \t]*\r?\n([\s\S]*?)(?=^##?[ \t]|(?![\s\S]))/im.exec(text)?.[1] ?? '';
  const line = (label: string) => new RegExp(`^[ \\t]*(?:[-*][ \\t]+)?(?:\\*\\*)?${label}:(?:\\*\\*)?[ \\t]*(.*?)[ \\t]*$`, 'im').exec(section)?.[1];
  const preferred = line('Preferred')?.replace(/^[`"']|[`"']$/g, '');
  const effort = effortOf(line('Reasoning Effort'));
  return { models: preferred === undefined ? [] : modelNames(preferred.split(/\s+/)[0] ?? ''), ...(effort ? { effort } : {}) };
}

/** What a member's model is read from: the registry's and the config's raw objects, and the charters. */
export interface ModelSources {
  registry: Record<string, unknown> | undefined;
  config: Record<string, unknown> | undefined;
  /** The config's text as read (what a change of it replaces); undefined: no such file. */
  configText?: string;
  /** A member's charter text, when read (undefined: none, or not read). */
  charter: (folder: string) => string | undefined;
}

/** The registry entry of `folder`: its own `members` entry, else the original Squad's `agents` entry. */
function registryEntry(registry: Record<string, unknown> | undefined, folder: string): Record<string, unknown> | undefined {
  if (registry === undefined) return undefined;
  const own = Array.isArray(registry.members) ? registry.members.findLast((entry) => isMapping(entry) && entry.folder === folder) : undefined;
  if (isMapping(own)) return own;
  const agents = registry.agents;
  if (!isMapping(agents)) return undefined;
  const key = legacyAgentKey(agents, folder);
  return key === undefined ? undefined : (agents[key] as Record<string, unknown>);
}

/** The key of `folder`'s entry in the original Squad's `agents` map (its folder is the key, slugified when it is no valid name). */
export function legacyAgentKey(agents: Record<string, unknown>, folder: string): string | undefined {
  return Object.keys(agents).find((name) => isMapping(agents[name]) && (isValidName(name) ? name : slugify(name)) === folder);
}

/** What a registry entry records of a model (its `model` and `reasoningEffort`). */
export function recordedChoice(record: Record<string, unknown>): ModelChoice {
  return choiceOf(record, 'model', 'reasoningEffort');
}

/** The squad's default: `model`/`reasoningEffort`, else squad-cli's `defaultModel`/`defaultReasoningEffort`. */
export function squadDefault(config: Record<string, unknown> | undefined): ModelChoice {
  const own = choiceOf(config, 'model', 'reasoningEffort');
  const cli = choiceOf(config, 'defaultModel', 'defaultReasoningEffort');
  const effort = own.effort ?? cli.effort;
  return { models: own.models.length > 0 ? own.models : cli.models, ...(effort ? { effort } : {}) };
}

/** The squad's default as resolved: its choice, from the squad, else the session's. */
export function resolvedDefault(config: Record<string, unknown> | undefined): ResolvedModel {
  const choice = squadDefault(config);
  return { ...choice, source: choice.models.length > 0 ? 'squad' : 'session' };
}

/** `folder`'s model, by the order in the header. */
export function resolveModel(folder: string, sources: ModelSources): ResolvedModel {
  const overrides = (key: string) => (isMapping(sources.config?.[key]) ? (sources.config[key] as Record<string, unknown>)[folder] : undefined);
  const candidates: [ModelSource, ModelChoice][] = [
    ['member', choiceOf(registryEntry(sources.registry, folder), 'model', 'reasoningEffort')],
    ['member', { models: modelNames(overrides('agentModelOverrides')), ...optionalEffort(effortOf(overrides('agentReasoningEffortOverrides'))) }],
    ['charter', charterModel(sources.charter(folder))],
    ['squad', squadDefault(sources.config)],
  ];
  const named = candidates.find(([, choice]) => choice.models.length > 0);
  const effort = candidates.find(([, choice]) => choice.effort !== undefined)?.[1].effort;
  return { source: named?.[0] ?? 'session', models: named?.[1].models ?? [], ...optionalEffort(effort) };
}

function optionalEffort(effort: ReasoningEffort | undefined): { effort?: ReasoningEffort } {
  return effort === undefined ? {} : { effort };
}

/** The choice as a host's frontmatter value wants it: one name, or the list; undefined for none. */
export function frontmatterModel(choice: ModelChoice | undefined): string | string[] | undefined {
  if (choice === undefined || choice.models.length === 0) return undefined;
  return choice.models.length === 1 ? choice.models[0] : choice.models;
}

/** How `members` and reports say a choice: "a, then b (effort high)", "(squad) a" for the squad's default, or "session model". */
export function describeModel(choice: (ModelChoice & { source?: ModelSource }) | undefined): string {
  const named = choice !== undefined && choice.models.length > 0;
  const names = named ? `${choice.source === 'squad' ? '(squad) ' : ''}${choice.models.join(', then ')}` : 'session model';
  return choice?.effort ? `${names} (effort ${choice.effort})` : names;
}

/** A JSON object text, or undefined when it is missing or not an object (then it is left alone). */
export function parseConfig(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isMapping(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** `members` with each one's model (left out when it is the session's). */
export function withModels<T extends { folder: string }>(members: readonly T[], sources: ModelSources): (T & { model?: ModelChoice })[] {
  return members.map((member) => {
    const resolved = resolveModel(member.folder, sources);
    if (resolved.models.length === 0 && resolved.effort === undefined) return member;
    return { ...member, model: { models: resolved.models, ...optionalEffort(resolved.effort) } };
  });
}

/** A record (registry entry, config) with `choice` written in: "model" and "reasoningEffort" set, or taken out when unset. */
export function recordWithModel(record: Record<string, unknown>, choice: ModelChoice): Record<string, unknown> {
  const { model: _model, reasoningEffort: _effort, ...rest } = record;
  const model = frontmatterModel(choice);
  return { ...rest, ...(model === undefined ? {} : { model }), ...(choice.effort ? { reasoningEffort: choice.effort } : {}) };
}

/** A text the model is read from; one that cannot be read (too large, a folder) counts as absent. */
function readQuietly(root: string, relPath: string): string | undefined {
  try {
    return readStateText(root, relPath);
  } catch {
    return undefined;
  }
}

/** Read the model sources of the squad at `root`: the registry, the config and the charters of `folders`. */
export function readModelSources(root: string, folders: readonly string[]): ModelSources {
  const charters = new Map(folders.filter(isValidName).map((folder) => [folder, readQuietly(root, charterPath(folder))]));
  const configText = readQuietly(root, SQUAD_CONFIG_PATH);
  return {
    registry: parseConfig(readQuietly(root, squadPaths.castingRegistry)),
    config: parseConfig(configText),
    ...(configText === undefined ? {} : { configText }),
    charter: (folder) => charters.get(folder),
  };
}

/** The text `changes` leave at `relPath` (the last create or replace of it), else undefined. */
export function plannedText(changes: readonly Change[], relPath: string): string | undefined {
  const change = changes.findLast((c) => (c.kind === 'create' || c.kind === 'replace') && c.path === relPath);
  return change === undefined || change.kind === 'backup' || change.kind === 'move' || !('content' in change) ? undefined : String(change.content);
}

/** `sources` as `changes` leave them: a registry, config or charter they write is read from the plan. */
export function sourcesAfter(sources: ModelSources, changes: readonly Change[]): ModelSources {
  const registry = plannedText(changes, squadPaths.castingRegistry);
  const config = plannedText(changes, SQUAD_CONFIG_PATH);
  return {
    registry: registry === undefined ? sources.registry : parseConfig(registry),
    config: config === undefined ? sources.config : parseConfig(config),
    ...(config === undefined ? (sources.configText === undefined ? {} : { configText: sources.configText }) : { configText: config }),
    charter: (folder) => plannedText(changes, charterPath(folder)) ?? sources.charter(folder),
  };
}
