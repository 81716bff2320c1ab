/**
 * The MCP server's stdio framing, in-process over a pair of streams: a message over the size limit
 * and lines that are not JSON-RPC get JSON-RPC errors, and the session goes on answering.
 */
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { buildContext } from '../../src/cli/run.js';
import { INVALID_REQUEST, PARSE_ERROR, leadingRequestId } from '../../src/commands/mcp/line-transport.js';
import { MCP_MESSAGE_MAX_BYTES } from '../../src/core/base/limits.js';
import { createSquadMcpServer } from '../../src/commands/mcp/server.js';
import { serveStdio } from '../../src/commands/mcp/stdio.js';
import { cleanupTempDirs, tempDir } from '../helpers/cli.js';
import { promptSquad } from '../helpers/prompt-squad.js';

afterAll(cleanupTempDirs);

interface Reply {
  id: string | number | null;
  result?: { structuredContent?: Record<string, unknown> };
  error?: { code: number; message: string };
}

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
const line = (message: unknown): string => `${JSON.stringify(message)}\n`;
const route = (id: number, task: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'route', arguments: { task } } });

/** Serve a squad, write `input` (chunks in order), close stdin, and collect every reply by arrival. */
async function session(input: (string | Buffer)[], maxMessageBytes?: number): Promise<{ replies: Reply[]; stopped: string }> {
  const root = promptSquad();
  const io: Io = { cwd: root, env: { ...process.env, HOME: tempDir() }, stdinIsTTY: false, stdoutIsTTY: false, readStdin: async () => '' };
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const served = serveStdio(createSquadMcpServer(buildContext({}, io)), stdin, stdout, maxMessageBytes);
  for (const chunk of input) stdin.write(chunk);
  stdin.end();
  const stopped = await served;
  const replies = text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Reply);
  return { replies, stopped };
}

const byId = (replies: Reply[], id: string | number | null): Reply | undefined => replies.find((r) => r.id === id);

describe('MCP stdio framing', () => {
  it('answers a message over the limit with -32600 and its id, then answers the next request', async () => {
    const huge = line(route(7, 'x'.repeat(MCP_MESSAGE_MAX_BYTES + 1)));
    const chunks: Buffer[] = [];
    // Sent as a pipe delivers it: in 64 KB pieces, never whole.
    for (let at = 0; at < huge.length; at += 65_536) chunks.push(Buffer.from(huge.slice(at, at + 65_536)));
    const { replies, stopped } = await session([line(INITIALIZE), line(INITIALIZED), ...chunks, line(route(8, 'Write tests for the checkout flow'))]);
    expect(stopped).toBe('stdin-closed');
    expect(byId(replies, 7)?.error).toMatchObject({ code: INVALID_REQUEST });
    expect(byId(replies, 7)?.error?.message).toContain(`message over ${MCP_MESSAGE_MAX_BYTES} bytes`);
    expect(byId(replies, 8)?.result?.structuredContent).toMatchObject({ ok: true });
  });

  it('answers an oversized line whose id it cannot see with the id null', async () => {
    const cut = `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"route","arguments":{"task":"${'y'.repeat(5000)}"}},"id":9}\n`;
    const { replies } = await session([line(INITIALIZE), line(INITIALIZED), cut, line(route(10, 'Review the login page'))], 1024);
    expect(byId(replies, null)?.error).toMatchObject({ code: INVALID_REQUEST });
    expect(byId(replies, 10)?.result).toBeDefined();
  });

  it('answers a line that is not JSON with -32700, one that is not JSON-RPC with -32600, and goes on', async () => {
    const { replies } = await session([
      line(INITIALIZE),
      line(INITIALIZED),
      '{"jsonrpc":"2.0","id":3,"method":\n',
      'not json at all\r\n',
      '\n',
      line({ id: 4, hello: 'there' }),
      line({ jsonrpc: '2.0', id: 99, result: {} }),
      line(route(5, 'Write tests for the checkout flow')),
    ]);
    const parseErrors = replies.filter((r) => r.error?.code === PARSE_ERROR);
    expect(parseErrors).toHaveLength(2);
    expect(parseErrors.every((r) => r.id === null)).toBe(true);
    expect(byId(replies, 4)?.error).toMatchObject({ code: INVALID_REQUEST });
    expect(byId(replies, 99)).toBeUndefined(); // a response from the client is never answered
    expect(byId(replies, 5)?.result?.structuredContent).toMatchObject({ ok: true });
  });

  it('answers a last request sent without a newline before stdin closed', async () => {
    const { replies } = await session([line(INITIALIZE), line(INITIALIZED), JSON.stringify(route(6, 'Write tests for the checkout flow'))]);
    expect(byId(replies, 6)?.result).toBeDefined();
  });
});

describe('leadingRequestId', () => {
  it('finds the top-level id before the cut, never a nested one or a value', () => {
    expect(leadingRequestId('{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"a')).toBe(42);
    expect(leadingRequestId('{"id" : "abc-1", "params": {')).toBe('abc-1');
    expect(leadingRequestId('{"params":{"id":5,"x":"')).toBeNull();
    expect(leadingRequestId('{"method":"id","params":"')).toBeNull();
    expect(leadingRequestId('{"a":"\\"id\\"","id":-3e2}')).toBe(-300);
    expect(leadingRequestId('{"id":true}')).toBeNull();
    expect(leadingRequestId('{"params":"aaaa')).toBeNull();
  });
});
