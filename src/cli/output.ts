/**
 * The real process's stdout and stderr, as the Ui writes to them.
 *
 * Node builds `process.stdout` (a stream over a socket, a pipe or a terminal) the first time it is
 * touched, and loading that machinery (net, stream, tty) costs a few milliseconds, a tenth of a
 * short command's run. When the output is a pipe or a file, which is where scripts and the
 * coordinator read the CLI, nothing of it is needed: the text is written to the descriptor
 * directly, synchronously, as Node itself does for those on Linux. A terminal or a device keeps
 * Node's own stream (a Windows console needs it to show Unicode).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';

export interface OutputStream {
  write(text: string): unknown;
  /** Whether it is a terminal: colour, and questions, need one. */
  readonly isTTY: boolean;
}

/** Whether descriptor `fd` is a terminal, without loading node:tty unless it is a device at all. */
export function isTerminal(fd: number): boolean {
  return isDevice(fd) && (createRequire(import.meta.url)('node:tty') as typeof import('node:tty')).isatty(fd);
}

function isDevice(fd: number): boolean {
  try {
    return fs.fstatSync(fd).isCharacterDevice();
  } catch {
    return true; // closed or odd: Node's own stream decides what to do with it
  }
}

/** stdout or stderr of the process: its descriptor written directly unless it is a device. */
export function processOutput(fd: 1 | 2): OutputStream {
  let direct: boolean | undefined;
  let closed = false;
  let stream: NodeJS.WriteStream | undefined;
  const nodeStream = (): NodeJS.WriteStream => {
    if (stream === undefined) {
      stream = fd === 1 ? process.stdout : process.stderr;
      // A reader that went away ends the run quietly, as a direct write does.
      stream.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      });
    }
    return stream;
  };
  const isDirect = () => (direct ??= !isDevice(fd));
  return {
    write(text: string): boolean {
      if (!isDirect()) return nodeStream().write(text);
      if (!closed) closed = !writeAll(fd, Buffer.from(text, 'utf8'));
      return true;
    },
    get isTTY(): boolean {
      return isDirect() ? false : nodeStream().isTTY === true;
    },
  };
}

/** Shared by every wait: Atomics.wait needs a view of shared memory to wait on. */
let pause: Int32Array | undefined;

/**
 * Write all of `bytes` to `fd`; false when the reader has gone (EPIPE: `… | head`), after which
 * the rest of the output has nowhere to go and is dropped quietly. A descriptor another process
 * left non-blocking refuses a full pipe for a moment (EAGAIN): the write waits a millisecond and
 * goes on, as a blocking write would have.
 */
function writeAll(fd: number, bytes: Buffer): boolean {
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += fs.writeSync(fd, bytes, offset, bytes.length - offset);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return false;
      if (code !== 'EAGAIN') throw error;
      pause ??= new Int32Array(new SharedArrayBuffer(4));
      Atomics.wait(pause, 0, 0, 1);
    }
  }
  return true;
}
