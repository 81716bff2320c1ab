/**
 * What a tool call answers: structured content with a text copy, or a tool error a model can read
 * (the SquadError's message and how to fix it). A tool never throws out of its handler, so one bad
 * call never stops the server.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { isSquadError } from '../../core/base/errors.js';
import type { CommandResult } from '../context.js';

/** The warnings a tool answers with, as the CLI's --json envelope has them. */
export const warningsOutput = z
  .array(z.object({ code: z.string(), message: z.string(), path: z.string().optional() }))
  .describe('What the user should know beside the result: a stable kebab-case code, a message, the path it is about.');

export interface ToolAnswer {
  structured: Record<string, unknown>;
  /** What the content block says: the document itself (a prompt, a file) or the JSON. */
  text?: string;
  /** The call ran but failed (a script that exited non-zero): structured content still follows. */
  failed?: boolean;
}

/**
 * What a tool answers for a command: `ok` (exit code 0), the command's data and its warnings; the
 * `data` and `warnings` of the CLI's --json envelope, without the envelope around them.
 */
export function jsonDocument(result: CommandResult): Record<string, unknown> {
  return { ok: result.exitCode === 0, ...result.data, warnings: result.warnings ?? [] };
}

/** The text of a tool error: the message, its code, and how to fix it. */
export function errorText(error: unknown): string {
  if (isSquadError(error)) {
    return `${error.code}: ${error.message}${error.hint ? `\nHow to fix: ${error.hint}` : ''}`;
  }
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
  return `internal: unexpected error: ${message} (a bug in create-squad; please report it)`;
}

export function toolError(error: unknown): CallToolResult {
  return { content: [{ type: 'text', text: errorText(error) }], isError: true };
}

/** Run a tool's work and answer with its result, or with a tool error for whatever it throws. */
export async function answer(work: () => Promise<ToolAnswer> | ToolAnswer): Promise<CallToolResult> {
  try {
    const { structured, text, failed } = await work();
    return {
      content: [{ type: 'text', text: text ?? JSON.stringify(structured, null, 2) }],
      structuredContent: structured,
      ...(failed ? { isError: true } : {}),
    };
  } catch (error) {
    return toolError(error);
  }
}
