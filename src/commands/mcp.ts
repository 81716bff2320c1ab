/**
 * `create-squad mcp [--cwd <dir>]`: serve the squad to an MCP client (VS Code, the Copilot CLI, the
 * cloud agent) over stdin and stdout until the client leaves. stdout carries only the protocol;
 * the MCP SDK loads with this command and no other.
 */
import type { CommandContext, CommandResult } from './context.js';
import { createSquadMcpServer } from './mcp/server.js';
import { serveStdio, type StopReason } from './mcp/stdio.js';

export interface McpData {
  stopped: StopReason;
}

export async function mcp(ctx: CommandContext): Promise<CommandResult<McpData>> {
  const stopped = await serveStdio(createSquadMcpServer(ctx));
  return {
    data: { stopped },
    exitCode: 0,
    render(ui) {
      ui.note(`create-squad MCP server stopped (${stopped.replace('-', ' ')})`);
    },
  };
}
