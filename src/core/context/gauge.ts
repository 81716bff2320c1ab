/**
 * The context gauge: what each member's spawn carries, in tokens, against its model's window.
 *
 * The prompt's parts are the spawn prompt's own counts (prompt/spawn-prompt.ts renders a standard
 * prompt for a placeholder task, exactly as `prompt` does, and its `tokens` are taken as they are;
 * the task is left out). Beside the prompt a spawn carries the member's Copilot agent body
 * (`.github/agents/{folder}.agent.md`) and the files the prompt has it read first: its history.md
 * and decisions.md, counted with the same estimate (base/tokens.ts). The coordinator's agent body
 * is what the coordinator carries every turn, against the session model's window (the default).
 */
import fs from 'node:fs';
import { DEFAULT_SKILLS_BUDGET } from '../base/prompt-limits.js';
import { COORDINATOR_PATH, agentDir, charterPath, historyPath, squadPaths } from '../base/paths.js';
import { estimateTokens, tokensOfLength } from '../base/tokens.js';
import { warning, type Warning } from '../base/warnings.js';
import { readStateText } from '../fs/confined.js';
import { readTextIfExists } from '../fs/fs-safe.js';
import { resolveIn } from '../base/paths.js';
import { parseFrontmatterYaml, splitFrontmatter } from '../skills/frontmatter.js';
import { listAgents, agentNamed, requireSquad } from '../roster/roster.js';
import { memberProfilePath } from '../squad/agents/member-profile.js';
import { splitCoordinator } from '../squad/coordinator.js';
import { decideSpawn, renderSpawnPrompt } from '../prompt/spawn-prompt.js';
import { readSpawnSelection, readSpawnState, type McpLookup } from '../prompt/spawn-read.js';
import { contextLevel, readContextSettings, windowFor, type ModelWindow, type Thresholds } from './windows.js';

/** The task a gauge's prompt is rendered for; its own tokens are not counted. */
export const GAUGE_TASK = '(the task)';

/** The parts of a spawn, in the order they are shown. */
export const CONTEXT_PARTS = ['agent', 'charter', 'standingRules', 'skills', 'mcp', 'prompt', 'history', 'decisions'] as const;
export type ContextPart = (typeof CONTEXT_PARTS)[number];

export interface MemberContext {
  member: string;
  displayName: string;
  /** The model its agent names (the first of a list); null: the session's model. */
  model: string | null;
  window: ModelWindow;
  /** Tokens of each part. */
  parts: Record<ContextPart, number>;
  total: number;
  /** total as a percentage of the window, one decimal. */
  percent: number;
  level: 'ok' | 'warn' | 'over';
  /** The archives of its history and of the decisions, when there are some (the prompt names them; they are read on demand, not counted). */
  archives: { history: string | null; decisions: string | null };
}

export interface ContextReport {
  members: MemberContext[];
  /** The coordinator's agent body, carried every turn of the session. */
  coordinator: { path: string; tokens: number; window: ModelWindow; percent: number; level: 'ok' | 'warn' | 'over' } | null;
  thresholds: Thresholds;
  defaultWindow: number;
  warnings: Warning[];
}

/** The model a member's Copilot agent names: `model` of its frontmatter, a string or the first of a list. */
export function agentModel(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    const model = parseFrontmatterYaml(splitFrontmatter(text).yaml).model;
    const first = Array.isArray(model) ? model[0] : model;
    return typeof first === 'string' && first.trim() !== '' ? first.trim() : undefined;
  } catch {
    return undefined;
  }
}

function agentBody(text: string | undefined): string {
  if (text === undefined) return '';
  try {
    return splitFrontmatter(text).body;
  } catch {
    return text;
  }
}

/** Tokens of a squad file the member reads whole; 0 when it is missing or cannot be read. */
function fileTokens(root: string, relPath: string): number {
  try {
    return estimateTokens(readStateText(root, relPath) ?? '');
  } catch {
    return 0;
  }
}

/** Measure every member's spawn (or only `member`'s). */
export async function measureContext(root: string, options: McpLookup & { member?: string } = {}): Promise<ContextReport> {
  requireSquad(root);
  const { settings, warnings } = readContextSettings(root);
  const everyone = listAgents(root).filter((agent) => agent.hasFolder && agent.human !== true);
  const chosen = options.member === undefined ? everyone : [agentNamed(everyone, options.member)];
  const decisions = fileTokens(root, squadPaths.decisions);
  const members: MemberContext[] = [];
  for (const agent of chosen) {
    const state = readSpawnState(root, agent.name);
    const decision = decideSpawn(state, { task: GAUGE_TASK, mode: 'standard' });
    const prompt = await renderSpawnPrompt(state, decision, await readSpawnSelection(root, decision, options));
    const { tokens } = prompt;
    const profileText = readTextIfExists(resolveIn(root, memberProfilePath(agent.name)));
    const model = agentModel(profileText);
    const parts: Record<ContextPart, number> = {
      agent: estimateTokens(agentBody(profileText)),
      charter: tokens.charter,
      standingRules: tokens.standingRules,
      skills: tokens.skills,
      mcp: tokens.mcp,
      prompt: tokens.other,
      history: fileTokens(root, historyPath(agent.name)),
      decisions,
    };
    const total = CONTEXT_PARTS.reduce((sum, part) => sum + parts[part], 0);
    const window = windowFor(settings, model);
    members.push({
      member: agent.name,
      displayName: prompt.displayName,
      model: model ?? null,
      window,
      parts,
      total,
      ...contextLevel(total, window.tokens, settings.thresholds),
      archives: prompt.archives,
    });
  }
  const coordinatorText = readTextIfExists(resolveIn(root, COORDINATOR_PATH));
  let coordinator: ContextReport['coordinator'] = null;
  if (coordinatorText !== undefined) {
    const tokens = estimateTokens(splitCoordinator(coordinatorText).body);
    const window = windowFor(settings, undefined);
    coordinator = { path: COORDINATOR_PATH, tokens, window, ...contextLevel(tokens, window.tokens, settings.thresholds) };
  }
  for (const member of members) {
    if (member.level === 'ok') continue;
    warnings.push(
      warning(
        'context-over-threshold',
        `${member.member}'s spawn starts at ${member.percent}% of its ${member.window.tokens.toLocaleString('en-US')}-token window (${member.level === 'over' ? `over ${settings.thresholds.over}%` : `warning from ${settings.thresholds.warn}%`}): run "create-squad compact" to archive older history and decisions`,
        agentDir(member.member),
      ),
    );
  }
  return { members, coordinator, thresholds: settings.thresholds, defaultWindow: settings.defaultWindow, warnings };
}

/**
 * A spawn's text besides its files and its skill list (the template's instructions, the MCP
 * table, paths), in tokens: generous, so that the bound below never falls short of the measure.
 */
const PROMPT_TEXT_BOUND = 16_000;

function fileBytes(root: string, relPath: string): number {
  try {
    return fs.statSync(resolveIn(root, relPath)).size;
  } catch {
    return 0;
  }
}

/**
 * measureContext, only when some member could be over the "over" threshold: first a bound from
 * the files' sizes (a byte is at most a character), the skills budget and PROMPT_TEXT_BOUND, so
 * that doctor renders no prompt for a squad far from its windows. Undefined when none could be.
 */
export async function measureContextIfOver(root: string, options: McpLookup = {}): Promise<ContextReport | undefined> {
  const { settings } = readContextSettings(root);
  const shared = fileBytes(root, squadPaths.decisions) + fileBytes(root, squadPaths.rules);
  const mayBeOver = listAgents(root)
    .filter((agent) => agent.hasFolder && agent.human !== true)
    .some((agent) => {
      const profile = memberProfilePath(agent.name);
      const bytes = shared + fileBytes(root, charterPath(agent.name)) + fileBytes(root, historyPath(agent.name)) + fileBytes(root, profile);
      const bound = tokensOfLength(bytes) + DEFAULT_SKILLS_BUDGET + PROMPT_TEXT_BOUND;
      const window = windowFor(settings, agentModel(readTextIfExists(resolveIn(root, profile))));
      return contextLevel(bound, window.tokens, settings.thresholds).level === 'over';
    });
  return mayBeOver ? measureContext(root, options) : undefined;
}
