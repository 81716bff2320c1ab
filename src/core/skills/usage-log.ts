/**
 * The local usage log: which skills were listed, read, run and tested, and how long that took.
 *
 * - Off unless the user turns it on: CREATE_SQUAD_USAGE_LOG=1 (or true/on) in the environment of
 *   the process that runs create-squad, or `{"enabled": true}` in USAGE_LOG_SETTING_PATH; the
 *   variable set to 0 (false/off) turns it off whatever the file says.
 * - Names and timings only: skill names, member names, a skill's file or script path, exit codes,
 *   case counts, milliseconds. Never a task, a query, arguments, file content or output.
 * - Local only: one JSON object per line appended to USAGE_LOG_PATH (ignored by git); nothing is
 *   ever sent anywhere. It stops growing at USAGE_LOG_MAX_BYTES (stats says so).
 * - Logging never fails a command: an entry that cannot be written is dropped.
 */
import { isMapping } from '../base/util.js';
import { squadPaths } from '../base/paths.js';
import { appendLineInside, resolveInside } from '../fs/fs-safe.js';
import { readStateText } from '../fs/confined.js';
import fs from 'node:fs';

/** The log: JSON Lines, local, never committed (the ignore rule is USAGE_LOG_IGNORE_RULE). */
export const USAGE_LOG_PATH = `${squadPaths.root}/usage-log.jsonl`;
/** The .gitignore rule that keeps the log out of git. */
export const USAGE_LOG_IGNORE_RULE = `/${USAGE_LOG_PATH}`;
/** The setting file that turns the log on for a repository: {"enabled": true}. */
export const USAGE_LOG_SETTING_PATH = `${squadPaths.root}/usage-log.json`;
export const USAGE_LOG_ENV = 'CREATE_SQUAD_USAGE_LOG';
/** The log stops growing at this size (about 50,000 entries). */
export const USAGE_LOG_MAX_BYTES = 8 * 1024 * 1024;

export type UsageVia = 'mcp' | 'cli';

export type UsageEntry =
  | { event: 'listed'; skills: string[]; agent?: string; via: UsageVia; ms: number }
  | { event: 'read'; skill: string; file?: string; agent?: string; via: UsageVia; ms: number }
  | { event: 'run'; skill: string; script: string; exitCode: number | null; via: UsageVia; ms: number }
  | { event: 'tested'; skill: string; cases: number; passed: number; via: UsageVia; ms: number };

export type UsageRecord = UsageEntry & { t: string };

export interface UsageLogState {
  enabled: boolean;
  /** What decided it: the variable, the setting file, or nothing (off by default). */
  by: 'env' | 'setting' | 'default';
}

const ON = new Set(['1', 'true', 'on', 'yes']);
const OFF = new Set(['0', 'false', 'off', 'no', '']);

/** Whether the squad at `root` logs usage, and why. */
export function usageLogState(root: string, env: Readonly<Record<string, string | undefined>>): UsageLogState {
  const value = env[USAGE_LOG_ENV]?.trim().toLowerCase();
  if (value !== undefined && ON.has(value)) return { enabled: true, by: 'env' };
  if (value !== undefined && OFF.has(value)) return { enabled: false, by: 'env' };
  let setting: unknown;
  try {
    const text = readStateText(root, USAGE_LOG_SETTING_PATH, 64 * 1024);
    setting = text === undefined ? undefined : JSON.parse(text);
  } catch {
    setting = undefined;
  }
  if (isMapping(setting) && typeof setting.enabled === 'boolean') return { enabled: setting.enabled, by: 'setting' };
  return { enabled: false, by: 'default' };
}

/** Append one entry when the log is on; never throws. */
export function recordUsage(root: string, env: Readonly<Record<string, string | undefined>>, entry: UsageEntry): void {
  try {
    if (!usageLogState(root, env).enabled) return;
    if (!fs.existsSync(resolveInside(root, squadPaths.root))) return;
    let size = 0;
    try {
      size = fs.statSync(resolveInside(root, USAGE_LOG_PATH)).size;
    } catch {
      size = 0;
    }
    if (size >= USAGE_LOG_MAX_BYTES) return;
    appendLineInside(root, USAGE_LOG_PATH, JSON.stringify({ t: new Date().toISOString(), ...entry }));
  } catch {
    // The log is a convenience: a command never fails for it.
  }
}

export interface UsageLog {
  records: UsageRecord[];
  /** Lines that are not entries (a cut line, a hand edit). */
  badLines: number;
  bytes: number;
  full: boolean;
}

function isEntry(value: unknown): value is UsageRecord {
  if (!isMapping(value) || typeof value.t !== 'string' || typeof value.ms !== 'number') return false;
  switch (value.event) {
    case 'listed':
      return Array.isArray(value.skills) && value.skills.every((s) => typeof s === 'string');
    case 'read':
      return typeof value.skill === 'string';
    case 'run':
      return typeof value.skill === 'string' && typeof value.script === 'string';
    case 'tested':
      return typeof value.skill === 'string' && typeof value.cases === 'number' && typeof value.passed === 'number';
    default:
      return false;
  }
}

/** The entries of the log at `root` (none when it does not exist), skipping lines that are not entries. */
export function readUsageLog(root: string): UsageLog {
  const text = readStateText(root, USAGE_LOG_PATH, USAGE_LOG_MAX_BYTES + 1024 * 1024) ?? '';
  const records: UsageRecord[] = [];
  let badLines = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value: unknown = JSON.parse(line);
      if (isEntry(value)) records.push(value);
      else badLines += 1;
    } catch {
      badLines += 1;
    }
  }
  const bytes = Buffer.byteLength(text);
  return { records, badLines, bytes, full: bytes >= USAGE_LOG_MAX_BYTES };
}

export interface SkillUsage {
  name: string;
  listed: number;
  read: number;
  run: number;
  runFailed: number;
  tested: number;
  /** Median milliseconds of its reads and runs (null when there were none). */
  medianReadMs: number | null;
  medianRunMs: number | null;
  lastUsed: string | null;
}

export interface UsageSummary {
  entries: number;
  since: string | null;
  until: string | null;
  skills: SkillUsage[];
  /** Skills of the squad that no entry shows read (listed or not), by name. */
  neverRead: string[];
  /** The most read skills, most first (at most ten). */
  readMost: { name: string; read: number }[];
  /** Names in the log that the squad no longer has. */
  gone: string[];
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
}

/** What the log says about each skill, with the squad's current skills (`known`) for what was never read. */
export function summariseUsage(records: readonly UsageRecord[], known: readonly string[]): UsageSummary {
  const byName = new Map<string, { listed: number; read: number[]; run: number[]; runFailed: number; tested: number; last: string }>();
  const of = (name: string, t: string) => {
    let usage = byName.get(name);
    if (!usage) byName.set(name, (usage = { listed: 0, read: [], run: [], runFailed: 0, tested: 0, last: t }));
    if (t > usage.last) usage.last = t;
    return usage;
  };
  for (const record of records) {
    if (record.event === 'listed') for (const name of new Set(record.skills)) of(name, record.t).listed += 1;
    else if (record.event === 'read') of(record.skill, record.t).read.push(record.ms);
    else if (record.event === 'run') {
      const usage = of(record.skill, record.t);
      usage.run.push(record.ms);
      if (record.exitCode !== 0) usage.runFailed += 1;
    } else of(record.skill, record.t).tested += 1;
  }
  const names = [...new Set([...known, ...byName.keys()])].sort();
  const skills: SkillUsage[] = names.map((name) => {
    const usage = byName.get(name);
    return {
      name,
      listed: usage?.listed ?? 0,
      read: usage?.read.length ?? 0,
      run: usage?.run.length ?? 0,
      runFailed: usage?.runFailed ?? 0,
      tested: usage?.tested ?? 0,
      medianReadMs: median(usage?.read ?? []),
      medianRunMs: median(usage?.run ?? []),
      lastUsed: usage?.last ?? null,
    };
  });
  const times = records.map((r) => r.t).sort();
  const knownSet = new Set(known);
  return {
    entries: records.length,
    since: times[0] ?? null,
    until: times.at(-1) ?? null,
    skills,
    neverRead: known.filter((name) => (byName.get(name)?.read.length ?? 0) === 0).sort(),
    readMost: skills
      .filter((s) => s.read > 0)
      .sort((a, b) => b.read - a.read || (a.name < b.name ? -1 : 1))
      .slice(0, 10)
      .map((s) => ({ name: s.name, read: s.read })),
    gone: [...byName.keys()].filter((name) => !knownSet.has(name)).sort(),
  };
}
