/**
 * Bytes shown as text within a limit: a file or a process output cut at a size, never in the
 * middle of a UTF-8 character, and binary content recognised so it can be sent as base64.
 */

/** `bytes` without the UTF-8 character cut off at its end, if one is. */
export function withoutCutCharacter(bytes: Buffer): Buffer {
  let start = bytes.length - 1;
  // Step back over continuation bytes (10xxxxxx) to the first byte of the last character.
  while (start >= 0 && start > bytes.length - 4 && (bytes[start]! & 0xc0) === 0x80) start -= 1;
  if (start < 0) return bytes;
  const lead = bytes[start]!;
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - start < length ? bytes.subarray(0, start) : bytes;
}

/** The longest prefix of `bytes` of at most `max` bytes that does not cut a UTF-8 character. */
export function utf8Prefix(bytes: Buffer, max: number): Buffer {
  return bytes.length <= max ? bytes : withoutCutCharacter(bytes.subarray(0, max));
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The text of `bytes` when they are UTF-8 text (no NUL byte, no invalid sequence); undefined for binary content. */
export function utf8Text(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Collects a stream's output up to `limit` bytes and counts the rest without keeping it, so a
 * process that prints without end costs no memory beyond the limit.
 */
export class BoundedOutput {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  /** Every byte seen, kept or not. */
  total = 0;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const room = this.limit - this.kept;
    if (room <= 0) return;
    const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.chunks.push(part);
    this.kept += part.length;
  }

  get truncated(): boolean {
    return this.total > this.kept;
  }

  /** What was kept, as UTF-8 (a character cut at the limit is left out). */
  text(): string {
    const bytes = Buffer.concat(this.chunks);
    return (this.truncated ? withoutCutCharacter(bytes) : bytes).toString('utf8');
  }
}
