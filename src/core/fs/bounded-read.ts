/** Reading a stream (stdin) whole, but never more than a limit: `</dev/zero` must not fill memory. */
import { SquadError } from '../base/errors.js';

/** A task is a sentence or a page, not megabytes. */
export const MAX_STDIN_BYTES = 1024 * 1024;

export async function readBounded(stream: AsyncIterable<unknown>, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > limit) {
      throw new SquadError('invalid-input', `stdin holds more than ${formatBytes(limit)}`, {
        hint: 'pass a shorter task, or put the long text in a file and refer to it in the task',
      });
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${bytes} bytes`;
}
