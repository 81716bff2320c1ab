/**
 * The create-squad MCP server for one repository: skill tools (list, read), squad tools
 * (spawn prompt, route, teach, validate) and the roster and charters as resources. Built on the
 * official SDK, which is loaded only here (the `mcp` command), never by the other commands.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { packageVersion } from '../../core/version.js';
import type { CommandContext } from '../context.js';
import { serialQueue, toolCommandContext, type ToolContext } from './context.js';
import { registerSquadResources } from './resources.js';
import { registerSkillTools } from './skill-tools.js';
import { registerSquadTools } from './squad-tools.js';

export const SERVER_NAME = 'create-squad';

const INSTRUCTIONS = `Tools for this repository's squad (create-squad). To work on a task: route it (route) or pick a member, find the skills that fit (list_skills with the task as query), read them (read_skill; its file list names the references, scripts and assets you can read next), then spawn the member with the prompt from build_spawn_prompt. teach records a rule as a skill; validate_skill checks skills.`;

/** A server for the squad that `ctx` points at; connect it to a transport to serve. */
export function createSquadMcpServer(ctx: CommandContext): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version: packageVersion() }, { instructions: INSTRUCTIONS });
  const tools: ToolContext = {
    command: toolCommandContext(ctx),
    oneAtATime: serialQueue(),
  };
  registerSkillTools(server, tools);
  registerSquadTools(server, tools);
  registerSquadResources(server, tools);
  return server;
}
