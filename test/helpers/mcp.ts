/**
 * The MCP server in-process: the SDK's own client over its in-memory transport, against the squad
 * at a folder, with the environment a test gives it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Io } from '../../src/cli/io.js';
import { buildContext } from '../../src/cli/run.js';
import { createSquadMcpServer, type SquadServerOptions } from '../../src/commands/mcp/server.js';
import { tempDir } from './cli.js';

/** A client of a server for the squad at `root`; HOME is a fresh folder unless `env` sets it. */
export async function connectMcp(root: string, env: Record<string, string | undefined> = {}, options: SquadServerOptions = {}): Promise<Client> {
  const io: Io = { cwd: root, env: { ...process.env, HOME: tempDir(), ...env }, stdinIsTTY: false, stdoutIsTTY: false, readStdin: async () => '' };
  const server = createSquadMcpServer(buildContext({}, io), options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}
