/**
 * The one JSON document every command prints with `--json` (docs/commands.md, "JSON output"):
 *
 *   { "schemaVersion": 1, "ok": true,  "data": {…},                          "warnings": [{ "code", "message", "path"? }] }
 *   { "schemaVersion": 1, "ok": false, "data": {…},                          "warnings": […] }  a report that found failures (exit 1)
 *   { "schemaVersion": 1, "ok": false, "error": { "code", "message", "hint"? … }, "warnings": […] }  the command refused or failed
 *
 * Built here only: `report()` (run.ts) for a command's result, `main`'s error policy for an error.
 */
import type { CommandResult } from '../commands/context.js';
import type { SquadErrorCode } from '../core/base/errors.js';
import type { Warning } from '../core/base/warnings.js';

/** Bumped only on a breaking change to the envelope or to a command's data. */
export const JSON_SCHEMA_VERSION = 1;

/** What went wrong: the SquadError's code (or `internal` for a bug), what, and how to fix it. */
export interface JsonError {
  code: SquadErrorCode | 'internal';
  message: string;
  hint?: string;
  /** File the error is about, when there is one. */
  file?: string;
  /** 1-based line in `file`, when known. */
  line?: number;
}

interface EnvelopeBase {
  schemaVersion: typeof JSON_SCHEMA_VERSION;
  warnings: Warning[];
}

/** The command ran: `ok` is its exit code 0; `ok: false` with `data` is a report that found failures. */
export interface DataEnvelope<T extends object = object> extends EnvelopeBase {
  ok: boolean;
  data: T;
}

/** The command refused or failed: no data. */
export interface ErrorEnvelope extends EnvelopeBase {
  ok: false;
  error: JsonError;
}

export type JsonEnvelope<T extends object = object> = DataEnvelope<T> | ErrorEnvelope;

export function dataEnvelope<T extends object>(result: CommandResult<T>): DataEnvelope<T> {
  return { schemaVersion: JSON_SCHEMA_VERSION, ok: result.exitCode === 0, data: result.data, warnings: result.warnings ?? [] };
}

export function errorEnvelope(error: JsonError, warnings: Warning[] = []): ErrorEnvelope {
  return { schemaVersion: JSON_SCHEMA_VERSION, ok: false, error, warnings };
}
