/**
 * `create-squad prompt <agent> --task "<text>" | --task-file <path> [--mode standard|lightweight] [--skill name…] [--json]`:
 * render the spawn prompt for one member and one task. In text mode stdout carries exactly the
 * prompt (so it can be piped into Copilot's task tool) and warnings go to stderr.
 */
import type { McpConfigSource, McpRequirementRow } from '../core/mcp.js';
import { SPAWN_MODES, type SpawnMode } from '../core/spawn-modes.js';
import { buildSpawnPrompt, type PromptSkill, type SpawnPromptTokens } from '../core/spawn-prompt.js';
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
}

export interface PromptData {
  agent: string;
  mode: SpawnMode;
  requestedMode: SpawnMode;
  prompt: string;
  skills: PromptSkill[];
  mcp: McpRequirementRow[];
  mcpConfig: McpConfigSource[];
  warnings: string[];
  tokens: SpawnPromptTokens;
}

const USAGE = `usage: create-squad prompt <agent> --task "<text>" [--mode ${SPAWN_MODES.join('|')}] (--task - reads stdin; --task-file <path> reads a file)`;

export async function prompt(options: PromptOptions, ctx: CommandContext): Promise<CommandResult<PromptData>> {
  const task = await readTaskInput({ task: options.task, taskFile: options.taskFile }, USAGE, ctx);
  const built = await buildSpawnPrompt({
    root: ctx.cwd,
    agent: options.agent,
    task,
    ...(options.mode === undefined ? {} : { mode: options.mode }),
    skills: options.skills,
    home: ctx.home,
    cwd: ctx.startDir,
    env: ctx.env,
  });
  const data: PromptData = {
    agent: built.agent,
    mode: built.mode,
    requestedMode: built.requestedMode,
    prompt: built.prompt,
    skills: built.skills,
    mcp: built.mcp,
    mcpConfig: built.mcpConfig,
    warnings: built.warnings,
    tokens: built.tokens,
  };
  return {
    data,
    exitCode: 0,
    render(ui) {
      for (const warning of built.warnings) ui.warn(warning);
      ui.write(built.prompt.endsWith('\n') ? built.prompt : `${built.prompt}\n`);
    },
  };
}
