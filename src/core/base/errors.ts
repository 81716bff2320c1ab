/**
 * Typed errors for everything create-squad refuses to do.
 *
 * Core code throws these; the CLI layer turns them into one `✗` line plus a hint and an exit code.
 * `code` is stable and machine-readable (it appears in `--json` output); `message` says what is
 * wrong, `hint` says how to fix it.
 */
export type SquadErrorCode =
  | 'usage'
  | 'not-found'
  | 'no-squad'
  | 'unknown-agent'
  | 'skill-parse'
  | 'skill-invalid'
  | 'skill-exists'
  | 'file-exists'
  | 'unsafe-path'
  | 'not-allowed'
  | 'not-writable'
  | 'invalid-input'
  | 'invalid-format'
  | 'conflict'
  | 'locked'
  | 'lock-obstructed'
  /** The change was made, but recording it (e.g. a skill's source) failed: the message says what landed. */
  | 'bookkeeping-failed'
  /** The audit of a skill about to land found what needs review, and consent was declined or could not be asked (no terminal, no --yes). */
  | 'needs-consent'
  | 'aborted';

export interface SquadErrorOptions {
  hint?: string;
  /** File the error is about, when there is one. */
  file?: string;
  /** 1-based line in `file`, when known. */
  line?: number;
  cause?: unknown;
}

/**
 * Marks SquadError instances across copies of this module: the CLI's start-up bundle has its own
 * copy, so `instanceof` alone would miss errors thrown by the commands it loads.
 */
const SQUAD_ERROR_BRAND = Symbol.for('create-squad.SquadError');

export class SquadError extends Error {
  readonly code: SquadErrorCode;
  readonly hint: string | undefined;
  readonly file: string | undefined;
  readonly line: number | undefined;

  constructor(code: SquadErrorCode, message: string, options: SquadErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SquadError';
    this.code = code;
    this.hint = options.hint;
    this.file = options.file;
    this.line = options.line;
  }

  /** Exit code the CLI uses for this error: 2 for usage errors, 130 when the user interrupted (Ctrl-C), 1 otherwise. */
  get exitCode(): 1 | 2 | 130 {
    return this.code === 'usage' ? 2 : this.code === 'aborted' ? 130 : 1;
  }

  toJSON(): { code: SquadErrorCode; message: string; hint?: string; file?: string; line?: number } {
    return {
      code: this.code,
      message: this.message,
      ...(this.hint === undefined ? {} : { hint: this.hint }),
      ...(this.file === undefined ? {} : { file: this.file }),
      ...(this.line === undefined ? {} : { line: this.line }),
    };
  }
}

Object.defineProperty(SquadError.prototype, SQUAD_ERROR_BRAND, { value: true });

export function isSquadError(value: unknown): value is SquadError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[SQUAD_ERROR_BRAND] === true;
}

/** A usage error: wrong arguments or flags. Exit code 2. */
export function usageError(message: string, hint?: string): SquadError {
  return new SquadError('usage', message, hint === undefined ? {} : { hint });
}
