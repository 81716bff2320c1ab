/**
 * `create-squad prompt <agent> --task "<text>" | --task-file <path> [--mode standard|lightweight] [--skill name…]
 * [--skills-budget <tokens> | --all-skills] [--json]`: render the spawn prompt for one member and one task. In text
 * mode stdout carries exactly the prompt (so it can be piped into Copilot's task tool) and warnings go to stderr.
 */
import { usageError } from '../core/base/errors.js';
import { recordUsage } from '../core/skills/usage-log.js';
import { SPAWN_MODES, type SpawnMode } from '../core/base/spawn-modes.js';
import { buildSpawnPrompt, type SpawnPrompt } from '../core/prompt/spawn-prompt.js';
import type { CommandContext, CommandResult } from './context.js';
import { readTaskInput } from './task-input.js';

export interface PromptOptions {
  agent: string;
  /** `--task` as given; "-" reads stdin. */
  task: string | undefined;
  /** `--task-file`: a file holding the task. */
  taskFile?: string | undefined;
  /** One of SPAWN_MODES (the CLI offers only those); default standard. */
  mode: SpawnMode | undefined;
  skills: string[];
  /** `--skills-budget` as given: a whole number of tokens. */
  skillsBudget?: string | undefined;
  /** `--all-skills`: list every skill in a standard prompt. */
  allSkills?: boolean;
}

/** What `prompt --json` reports: the spawn prompt and what went into it, without its inner parts. */
export type PromptData = Pick<
  SpawnPrompt,
  'agent' | 'mode' | 'requestedMode' | 'prompt' | 'skills' | 'candidates' | 'skillsBudget' | 'skillsLeftOut' | 'mcp' | 'mcpConfig' | 'standingRules' | 'archives' | 'tokens'
>;

const USAGE = `usage: create-squad prompt <agent> --task "<text>" [--mode ${SPAWN_MODES.join('|')}] (--task - reads stdin; --task-file <path> reads a file)`;

export async function prompt(options: PromptOptions, ctx: CommandContext): Promise<CommandResult<PromptData>> {
  const started = performance.now();
  const skillsBudget = parseSkillsBudget(options);
  const task = await readTaskInput({ task: options.task, taskFile: options.taskFile }, USAGE, ctx);
  const built = await buildSpawnPrompt({
    root: ctx.cwd,
    agent: options.agent,
    task,
    ...(options.mode === undefined ? {} : { mode: options.mode }),
    skills: options.skills,
    ...(skillsBudget === undefined ? {} : { skillsBudget }),
    allSkills: options.allSkills === true,
    home: ctx.home,
    cwd: ctx.startDir,
    env: ctx.env,
  });
  recordUsage(ctx.cwd, ctx.env, {
    event: 'listed',
    skills: built.skills.map((s) => s.name),
    agent: built.agent,
    via: ctx.via ?? 'cli',
    ms: Math.round(performance.now() - started),
  });
  const data: PromptData = {
    agent: built.agent,
    mode: built.mode,
    requestedMode: built.requestedMode,
    prompt: built.prompt,
    skills: built.skills,
    candidates: built.candidates,
    skillsBudget: built.skillsBudget,
    skillsLeftOut: built.skillsLeftOut,
    mcp: built.mcp,
    mcpConfig: built.mcpConfig,
    standingRules: built.standingRules,
    archives: built.archives,
    tokens: built.tokens,
  };
  return {
    data,
    exitCode: 0,
    warnings: built.warnings,
    render(ui) {
      ui.write(built.prompt.endsWith('\n') ? built.prompt : `${built.prompt}\n`);
    },
  };
}

/** `--skills-budget` as a number of tokens: a whole number, not with --all-skills. */
function parseSkillsBudget(options: PromptOptions): number | undefined {
  if (options.skillsBudget === undefined) return undefined;
  if (options.allSkills) throw usageError('--skills-budget and --all-skills contradict each other', 'give a budget, or --all-skills to list every skill');
  const text = options.skillsBudget.trim();
  if (!/^\d{1,9}$/.test(text)) {
    throw usageError(`--skills-budget must be a whole number of tokens, not "${options.skillsBudget}"`, 'e.g. --skills-budget 8000, or --all-skills to list every skill');
  }
  return Number(text);
}
