/**
 * The coordinator prompt (`.github/agents/squad.agent.md`): its version stamp and its size limit.
 *
 * The stamp is an HTML comment on the first line of the body, right after the frontmatter:
 *   <!-- create-squad: 0.1.0 -->
 * Copilot ignores HTML comments in the prompt's meaning, and the frontmatter stays exactly what
 * Copilot's custom agent profile expects.
 */
import { normalizeNewlines, locateFrontmatter } from './frontmatter.js';

/** Copilot's limit for a custom agent's prompt (the markdown body after the frontmatter). */
export const COPILOT_PROMPT_LIMIT = 30_000;
/** What we aim for, to leave room for growth. */
export const COORDINATOR_TARGET = 24_000;

const STAMP_LINE = /^<!-- create-squad: (\S+?) -->[ \t]*\n?/;

export function formatStamp(version: string): string {
  return `<!-- create-squad: ${version} -->`;
}

/** Split a coordinator text into frontmatter (with delimiters) and body. */
export function splitCoordinator(text: string): { head: string; body: string } {
  const normalized = normalizeNewlines(text);
  const location = locateFrontmatter(normalized, true);
  if (location.state !== 'closed') return { head: '', body: normalized };
  return { head: normalized.slice(0, location.bodyStart), body: normalized.slice(location.bodyStart) };
}

/** The text with its stamp set to `version` (replacing an existing stamp). */
export function stampCoordinator(text: string, version: string): string {
  const { head, body } = splitCoordinator(text);
  return `${head}${formatStamp(version)}\n${body.replace(STAMP_LINE, '')}`;
}

/** The version stamped into a coordinator text, or undefined when it has no stamp. */
export function readCoordinatorStamp(text: string): string | undefined {
  return STAMP_LINE.exec(splitCoordinator(text).body)?.[1];
}

/** Characters of the prompt body, as Copilot counts them (the stamp included). */
export function coordinatorBodyLength(text: string): number {
  return [...splitCoordinator(text).body].length;
}
