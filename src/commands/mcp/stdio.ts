/**
 * The server on stdin and stdout until the client goes: when stdin ends, every request already
 * received is answered first (a client may send its requests and close its end), then the server
 * closes. A termination signal closes it at once, which stops running scripts. A line that is too
 * long or not JSON-RPC is answered with an error and the session goes on (line-transport.ts).
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCErrorResponse, isJSONRPCRequest, isJSONRPCResultResponse, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LineTransport } from './line-transport.js';

export type StopReason = 'stdin-closed' | 'signal' | 'transport-closed';

/** A transport that knows which requests are still unanswered, and can wait until none is. */
export interface DrainingTransport {
  transport: Transport;
  /** Resolves once every request received so far has its response sent. */
  idle(): Promise<void>;
}

export function drainingTransport(inner: Transport): DrainingTransport {
  const pending = new Set<RequestId>();
  let waiters: (() => void)[] = [];
  const settle = (): void => {
    if (pending.size > 0) return;
    for (const resolve of waiters) resolve();
    waiters = [];
  };
  const outer: Transport = {
    start: () => inner.start(),
    close: () => inner.close(),
    async send(message, options) {
      await inner.send(message, options);
      if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined) {
        pending.delete(message.id);
        settle();
      }
    },
  };
  inner.onmessage = (message, extra) => {
    if (isJSONRPCRequest(message)) pending.add(message.id);
    outer.onmessage?.(message, extra);
  };
  inner.onerror = (error) => outer.onerror?.(error);
  inner.onclose = () => outer.onclose?.();
  return {
    transport: outer,
    idle: () => (pending.size === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve))),
  };
}

const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/** Serve `server` on the process's stdin and stdout until the client leaves or a signal comes; says why it stopped. */
export async function serveStdio(
  server: McpServer,
  stdin: NodeJS.ReadableStream & { destroy?(): void } = process.stdin,
  stdout: NodeJS.WritableStream = process.stdout,
  maxMessageBytes?: number,
): Promise<StopReason> {
  const { transport, idle } = drainingTransport(new LineTransport(stdin, stdout, maxMessageBytes));
  let onSignal = (): void => {};
  const stopped = new Promise<StopReason>((resolve) => {
    stdin.once('end', () => resolve('stdin-closed'));
    stdin.once('close', () => resolve('stdin-closed'));
    transport.onclose = () => resolve('transport-closed');
    onSignal = () => resolve('signal');
    for (const signal of STOP_SIGNALS) process.once(signal, onSignal);
  });
  await server.connect(transport);
  const reason = await stopped;
  for (const signal of STOP_SIGNALS) process.removeListener(signal, onSignal);
  if (reason === 'stdin-closed') await idle();
  await server.close();
  stdin.destroy?.();
  return reason;
}
