/**
 * Context windows and the gauge's thresholds. The known windows are data
 * (`templates/context/windows.json`); a squad overrides any of them, and the default, in
 * `.ai-team/config.json`:
 *
 *   { "contextWindows": { "gpt-5": 128000, "default": 64000 }, "contextThresholds": { "warn": 50, "over": 80 } }
 *
 * Thresholds are percentages of a member's window. Other keys of that file belong to other
 * settings and are never touched (this module only reads). A model is looked up by its name made
 * plain (lowercase, a trailing "(…)" dropped, spaces as hyphens): exactly, else the longest known
 * name it extends ("gpt-5.1-codex-max" → "gpt-5.1-codex").
 */
import * as v from 'valibot';
import { squadPaths } from '../base/paths.js';
import { lazySchema, mapping } from '../base/schema.js';
import { isMapping } from '../base/util.js';
import { warning, type Warning } from '../base/warnings.js';
import { readStateText } from '../fs/confined.js';
import { checkedTemplateJson } from '../fs/templates.js';

export const WINDOWS_DATA_FILE = 'context/windows.json';

/** Percent of a member's window: from `warn` on the gauge warns, from `over` doctor reports the member. */
export const DEFAULT_THRESHOLDS = { warn: 50, over: 80 } as const;

export interface Thresholds {
  warn: number;
  over: number;
}

export interface ContextSettings {
  /** The squad's windows by plain model name (its `default` taken out). */
  teamWindows: Readonly<Record<string, number>>;
  /** The package's windows by plain model name. */
  knownWindows: Readonly<Record<string, number>>;
  defaultWindow: number;
  /** Where the default comes from. */
  defaultSource: 'team' | 'package';
  thresholds: Thresholds;
}

export interface ModelWindow {
  tokens: number;
  /** team: .ai-team/config.json; known: the package's table; default: neither knows the model (or there is none). */
  source: 'team' | 'known' | 'default';
}

const windowsSchema = lazySchema(() =>
  mapping(
    v.object({
      schema: v.literal(1),
      default: v.pipe(v.number(), v.integer(), v.minValue(1)),
      models: v.record(v.string(), v.pipe(v.number(), v.integer(), v.minValue(1))),
    }),
  ),
);

/** A model's name as windows are looked up: lowercase, no trailing "(…)", spaces as hyphens. */
export function plainModelName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/\s*\([^)]*\)\s*$/, '')
    .trim()
    .replace(/\s+/g, '-');
}

function plainKeys(record: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(record).map(([name, tokens]) => [plainModelName(name), tokens]));
}

const isWindow = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value > 0;
const isPercent = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= 1000;

/**
 * The settings from the package's table and the squad's config text (undefined: no config file).
 * Pure: what is wrong in the config is a warning and that key is ignored.
 */
export function contextSettingsFrom(
  configText: string | undefined,
  known: { default: number; models: Record<string, number> },
): { settings: ContextSettings; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const invalid = (what: string) => warnings.push(warning('config-invalid', `${squadPaths.config}: ${what}; the defaults are used instead`, squadPaths.config));
  let config: Record<string, unknown> = {};
  if (configText !== undefined) {
    try {
      const parsed: unknown = JSON.parse(configText);
      if (isMapping(parsed)) config = parsed;
      else invalid('is not a JSON object');
    } catch {
      invalid('is not valid JSON');
    }
  }
  const teamWindows: Record<string, number> = {};
  let defaultWindow = known.default;
  let defaultSource: ContextSettings['defaultSource'] = 'package';
  const windows = config.contextWindows;
  if (windows !== undefined) {
    if (!isMapping(windows)) invalid('contextWindows is not an object of model names and token counts');
    else {
      for (const [name, tokens] of Object.entries(windows)) {
        if (!isWindow(tokens)) {
          invalid(`contextWindows.${name} is not a whole number of tokens above 0`);
          continue;
        }
        if (name === 'default') {
          defaultWindow = tokens;
          defaultSource = 'team';
        } else teamWindows[plainModelName(name)] = tokens;
      }
    }
  }
  const thresholds: Thresholds = { ...DEFAULT_THRESHOLDS };
  const given = config.contextThresholds;
  if (given !== undefined) {
    if (!isMapping(given)) invalid('contextThresholds is not an object {"warn": percent, "over": percent}');
    else {
      for (const key of ['warn', 'over'] as const) {
        if (given[key] === undefined) continue;
        if (isPercent(given[key])) thresholds[key] = given[key];
        else invalid(`contextThresholds.${key} is not a percentage above 0`);
      }
      if (thresholds.warn > thresholds.over) {
        invalid('contextThresholds.warn is above contextThresholds.over');
        Object.assign(thresholds, DEFAULT_THRESHOLDS);
      }
    }
  }
  return { settings: { teamWindows, knownWindows: plainKeys(known.models), defaultWindow, defaultSource, thresholds }, warnings };
}

/** Read the package's table and the squad's `.ai-team/config.json`. */
export function readContextSettings(root: string): { settings: ContextSettings; warnings: Warning[] } {
  let configText: string | undefined;
  try {
    configText = readStateText(root, squadPaths.config);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ...contextSettingsFrom(undefined, checkedTemplateJson(WINDOWS_DATA_FILE, windowsSchema())),
      warnings: [warning('config-invalid', `${reason}; the defaults are used instead`, squadPaths.config)],
    };
  }
  return contextSettingsFrom(configText, checkedTemplateJson(WINDOWS_DATA_FILE, windowsSchema()));
}

/** The entry of `table` for `name`: exactly, else the longest name it extends with "-" or ".". */
function lookUp(table: Readonly<Record<string, number>>, name: string): number | undefined {
  if (Object.hasOwn(table, name)) return table[name];
  const prefix = Object.keys(table)
    .filter((known) => name.startsWith(known) && /^[-.]/.test(name.slice(known.length)))
    .sort((a, b) => b.length - a.length)[0];
  return prefix === undefined ? undefined : table[prefix];
}

/** The window of `model` (undefined: the session's model, whose window is the default). */
export function windowFor(settings: ContextSettings, model: string | undefined): ModelWindow {
  if (model !== undefined) {
    const name = plainModelName(model);
    const team = lookUp(settings.teamWindows, name);
    if (team !== undefined) return { tokens: team, source: 'team' };
    const known = lookUp(settings.knownWindows, name);
    if (known !== undefined) return { tokens: known, source: 'known' };
  }
  return { tokens: settings.defaultWindow, source: settings.defaultSource === 'team' ? 'team' : 'default' };
}

/** Where `tokens` stands against a window and the thresholds. */
export function contextLevel(tokens: number, window: number, thresholds: Thresholds): { percent: number; level: 'ok' | 'warn' | 'over' } {
  const percent = Math.round((tokens / window) * 1000) / 10;
  return { percent, level: percent >= thresholds.over ? 'over' : percent >= thresholds.warn ? 'warn' : 'ok' };
}
