/**
 * The create-squad MCP server for one repository: skill tools (list, read, run), squad tools
 * (spawn prompt, route, teach, validate) and the roster and charters as resources. Built on the
 * official SDK, which is loaded only here (the `mcp` command), never by the other commands.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { DEFAULT_SCRIPT_LIMITS, SKILLS_ALLOWLIST_PATH, type ScriptLimits } from '../../core/skills/skill-scripts.js';
import { packageVersion } from '../../core/fs/version.js';
import type { CommandContext } from '../context.js';
import { serialQueue, toolCommandContext, type ToolContext } from './context.js';
import { registerSquadResources } from './resources.js';
import { registerSkillTools } from './skill-tools.js';
import { registerSquadTools, registerTestTool } from './squad-tools.js';

export const SERVER_NAME = 'create-squad';

export interface SquadServerOptions {
  /** Limits of run_skill_script (tests shorten them). */
  scriptLimits?: Partial<ScriptLimits>;
}

const INSTRUCTIONS = `Tools for this repository's squad (create-squad). To work on a task: route it (route) or pick a member, find the skills that fit (list_skills with the task as query), read them (read_skill; its file list names the references, scripts and assets you can read next), then spawn the member with the prompt from build_spawn_prompt. teach records a standing rule (every spawn sees it) or a procedure (a skill); validate_skill checks skills. run_skill_script runs a skill's script, and test_skill its tests, only when ${SKILLS_ALLOWLIST_PATH} allows it.`;

/** A server for the squad that `ctx` points at; connect it to a transport to serve. */
export function createSquadMcpServer(ctx: CommandContext, options: SquadServerOptions = {}): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version: packageVersion() }, { instructions: INSTRUCTIONS });
  const tools: ToolContext = {
    command: toolCommandContext(ctx),
    scriptLimits: { ...DEFAULT_SCRIPT_LIMITS, ...options.scriptLimits },
    oneAtATime: serialQueue(),
  };
  registerSkillTools(server, tools);
  registerSquadTools(server, tools);
  registerTestTool(server, tools);
  registerSquadResources(server, tools);
  return server;
}
