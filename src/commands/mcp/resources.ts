/**
 * The squad as MCP resources: the roster (team.md) and each member's charter, read through the
 * same confined reads as every command (a file linked out of the repository is refused).
 */
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { readStateText } from '../../core/fs/confined.js';
import { SquadError } from '../../core/base/errors.js';
import { charterPath, squadPaths } from '../../core/base/paths.js';
import { hasSquad, listAgents, requireAgent, requireSquad } from '../../core/roster/roster.js';
import type { ToolContext } from './context.js';
import { errorText } from './results.js';

export const ROSTER_URI = 'squad://roster';
const CHARTER_URI = 'squad://charters/{agent}';
const MARKDOWN = 'text/markdown';

function charterUri(agent: string): string {
  return CHARTER_URI.replace('{agent}', encodeURIComponent(agent));
}

/** A squad file as a resource; a missing file or a refused read becomes the request's error. */
function markdownFile(root: string, relPath: string, uri: string): ReadResourceResult {
  let text: string | undefined;
  try {
    requireSquad(root);
    text = readStateText(root, relPath);
    if (text === undefined) throw new SquadError('not-found', `${relPath} does not exist`, { hint: 'run "create-squad doctor" to see what the squad is missing' });
  } catch (error) {
    throw new Error(errorText(error));
  }
  return { contents: [{ uri, mimeType: MARKDOWN, text }] };
}

export function registerSquadResources(server: McpServer, tools: ToolContext): void {
  const root = tools.command.cwd;

  server.registerResource('roster', ROSTER_URI, { title: 'Squad roster', description: `The squad's members and roles (${squadPaths.team}).`, mimeType: MARKDOWN }, (uri) =>
    markdownFile(root, squadPaths.team, uri.href),
  );

  server.registerResource(
    'charter',
    new ResourceTemplate(CHARTER_URI, {
      list: () => ({
        resources: hasSquad(root)
          ? listAgents(root)
              .filter((agent) => agent.hasFolder && agent.human !== true)
              .map((agent) => ({ uri: charterUri(agent.name), name: `${agent.displayName} charter`, mimeType: MARKDOWN }))
          : [],
      }),
    }),
    { title: 'Member charter', description: "A member's charter: who they are, what they own, how they work.", mimeType: MARKDOWN },
    (uri, variables) => {
      const wanted = decodeURIComponent(String(variables.agent ?? ''));
      let folder: string;
      try {
        folder = requireAgent(root, wanted).name;
      } catch (error) {
        throw new Error(errorText(error));
      }
      return markdownFile(root, charterPath(folder), uri.href);
    },
  );
}
