/**
 * MCP over stdio, one JSON-RPC message a line, with every bad line answered instead of fatal.
 *
 * The SDK's own stdio transport closes the session when a message passes its buffer limit (later
 * requests then go unanswered) and answers a malformed line with nothing. Here a line over the
 * limit is dropped as it arrives (never held whole), and the client gets a JSON-RPC error for it:
 * -32600 with the request's id when its first bytes name one, -32700 for text that is not JSON.
 * The session goes on either way.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { MCP_MESSAGE_MAX_BYTES } from '../../core/base/limits.js';

/** JSON-RPC 2.0's error codes for a line that is not JSON, and for JSON that is not a request. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
/** How much of an oversized line is kept to find its id in. */
const ID_SEARCH_BYTES = 4096;
const NEWLINE = 0x0a;

type Writable = NodeJS.WritableStream;
type Readable = NodeJS.ReadableStream;

export class LineTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];

  private pieces: Buffer[] = [];
  private size = 0;
  /** The first bytes of the line being dropped for its size; undefined while the line is within the limit. */
  private oversizedHead: Buffer | undefined;
  private started = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly maxMessageBytes = MCP_MESSAGE_MAX_BYTES,
  ) {}

  async start(): Promise<void> {
    if (this.started) throw new Error('the MCP line transport is already started');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onInputError);
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.reset();
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  private readonly onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    while (start < bytes.length) {
      const newline = bytes.indexOf(NEWLINE, start);
      this.take(bytes.subarray(start, newline === -1 ? bytes.length : newline));
      if (newline === -1) return;
      this.endLine();
      start = newline + 1;
    }
  };

  /** A last request the client sent without a newline before closing its end is still answered. */
  private readonly onEnd = (): void => {
    if (this.size > 0 || this.oversizedHead !== undefined) this.endLine();
  };

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.oversizedHead !== undefined) {
      if (this.oversizedHead.length < ID_SEARCH_BYTES) this.oversizedHead = Buffer.concat([this.oversizedHead, piece]).subarray(0, ID_SEARCH_BYTES);
      return;
    }
    if (this.size + piece.length > this.maxMessageBytes) {
      this.oversizedHead = Buffer.concat([...this.pieces, piece]).subarray(0, ID_SEARCH_BYTES);
      this.pieces = [];
      this.size = 0;
      return;
    }
    this.pieces.push(piece);
    this.size += piece.length;
  }

  private endLine(): void {
    const head = this.oversizedHead;
    const line = head === undefined ? Buffer.concat(this.pieces, this.size).toString('utf8') : '';
    this.reset();
    if (head !== undefined) {
      const id = leadingRequestId(head.toString('utf8'));
      this.reply(id, INVALID_REQUEST, `message over ${this.maxMessageBytes} bytes: send smaller requests (a file's content belongs on disk, not in the request)`);
      return;
    }
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.reply(null, PARSE_ERROR, `Parse error: ${(error as Error).message}`);
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(value);
    if (message.success) {
      this.onmessage?.(message.data);
      return;
    }
    // A malformed response from the client is not answered: answering answers could loop.
    if (isRecord(value) && !('method' in value) && ('result' in value || 'error' in value)) return;
    this.reply(requestIdOf(value), INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message (jsonrpc "2.0", a method, an id of a string or a number)');
  }

  private reply(id: RequestId | null, code: number, message: string): void {
    // JSON-RPC 2.0 answers a request whose id cannot be told with the id null, which the SDK's types leave out.
    const error = { jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage;
    this.send(error).catch((failure: unknown) => this.onerror?.(failure as Error));
  }

  private reset(): void {
    this.pieces = [];
    this.size = 0;
    this.oversizedHead = undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requestIdOf(value: unknown): RequestId | null {
  if (!isRecord(value)) return null;
  const id = value.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/**
 * The top-level "id" of a JSON object of which only the first bytes are known, or null when those
 * bytes do not show it (clients write the id before the params, so a cut-off request usually does).
 */
export function leadingRequestId(head: string): RequestId | null {
  let depth = 0;
  for (let i = 0; i < head.length; i++) {
    const char = head[i];
    if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') depth--;
    else if (char === '"') {
      const end = stringEnd(head, i);
      if (end === -1) return null;
      const isIdKey = depth === 1 && head.slice(i, end + 1) === '"id"';
      i = end;
      if (!isIdKey) continue;
      const value = /^\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*")/.exec(head.slice(end + 1, end + 1 + 512));
      if (value === null) continue;
      const parsed = JSON.parse(value[1]!) as unknown;
      return typeof parsed === 'string' || (typeof parsed === 'number' && Number.isFinite(parsed)) ? parsed : null;
    }
  }
  return null;
}

/** The index of the quote that closes the string opening at `start`, or -1 when the text ends first. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}
