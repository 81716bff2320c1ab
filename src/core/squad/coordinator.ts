/**
 * The coordinator prompt (`.github/agents/squad.agent.md`): its version stamp and its size limit.
 *
 * The stamp is an HTML comment on the first line of the body, right after the frontmatter:
 *   <!-- create-squad: 0.1.0 -->
 * Copilot ignores HTML comments in the prompt's meaning, and the frontmatter stays exactly what
 * Copilot's custom agent profile expects.
 *
 * Stamping also pins the CLI: where the shipped text runs create-squad from the registry it writes
 * `create-squad@{version}`, and the installed text names the exact version that installed it, so
 * the coordinator never runs whatever package holds the name (see pinCliVersion).
 */
import { normalizeNewlines, locateFrontmatter } from '../skills/frontmatter.js';

/** Copilot's limit for a custom agent's prompt (the markdown body after the frontmatter). */
export const COPILOT_PROMPT_LIMIT = 30_000;
/**
 * Our budget for the body: Copilot re-reads it on every turn, so rarely needed procedures live in
 * built-in skills the coordinator opens on demand (docs/budgets.md).
 */
export const COORDINATOR_TARGET = 16_000;

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

/** The text with its stamp set to `version` (replacing an existing stamp) and its CLI pinned to it. */
export function stampCoordinator(text: string, version: string): string {
  const { head, body } = splitCoordinator(text);
  return `${head}${formatStamp(version)}\n${pinCliVersion(body.replace(STAMP_LINE, ''), version)}`;
}

/** `create-squad@` followed by the shipped placeholder `{version}` or by a version an earlier install filled in. */
const PINNED_CLI = /\bcreate-squad@(?:\{version\}|\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)/g;

/**
 * Every `create-squad@…` of a shipped text (coordinator or built-in skill) set to `version`: the
 * one rule that makes `npx --yes create-squad@<version>` name the version that installed the text.
 */
export function pinCliVersion(text: string, version: string): string {
  return text.replace(PINNED_CLI, `create-squad@${version}`);
}

/** The version stamped into a coordinator text, or undefined when it has no stamp. */
export function readCoordinatorStamp(text: string): string | undefined {
  return STAMP_LINE.exec(splitCoordinator(text).body)?.[1];
}

/** Characters of the prompt body, as Copilot counts them (the stamp included). */
export function coordinatorBodyLength(text: string): number {
  return [...splitCoordinator(text).body].length;
}

/**
 * The lines around the user's own instructions in the coordinator. What stands between them is the
 * team's: `upgrade` carries it into the new coordinator; everything else in the file is
 * create-squad's and is replaced (an edit there backed up first).
 */
export const CUSTOM_BEGIN = '<!-- your instructions: begin (create-squad upgrade keeps what is between these lines) -->';
export const CUSTOM_END = '<!-- your instructions: end -->';

/** What stands between the markers of a coordinator text; undefined when a marker is missing or out of order. */
export function customInstructions(text: string): string | undefined {
  const begin = text.indexOf(CUSTOM_BEGIN);
  const end = text.indexOf(CUSTOM_END, begin + CUSTOM_BEGIN.length);
  return begin === -1 || end === -1 ? undefined : text.slice(begin + CUSTOM_BEGIN.length, end);
}

/** `text` with what stands between its markers set to `block`; unchanged when it has no markers. */
export function withCustomInstructions(text: string, block: string): string {
  const begin = text.indexOf(CUSTOM_BEGIN);
  const end = text.indexOf(CUSTOM_END, begin + CUSTOM_BEGIN.length);
  if (begin === -1 || end === -1) return text;
  return `${text.slice(0, begin + CUSTOM_BEGIN.length)}${block}${text.slice(end)}`;
}

/**
 * An installed coordinator whose markers hold instructions of the team's own, against the shipped
 * one: `compared`, the installed text with the shipped (empty) block, says whether anything else
 * was edited; `content` is the shipped text with the team's block, what upgrade writes. Undefined
 * when there is nothing of the team's to carry (no markers, or nothing but the shipped block).
 */
export function carriedInstructions(installed: Buffer, shipped: Buffer): { compared: Buffer; content: Buffer } | undefined {
  const installedText = installed.toString('utf8');
  const shippedText = shipped.toString('utf8');
  const block = customInstructions(installedText);
  const emptyBlock = customInstructions(shippedText);
  if (block === undefined || emptyBlock === undefined || normalizeNewlines(block).trim() === normalizeNewlines(emptyBlock).trim()) return undefined;
  return {
    compared: Buffer.from(withCustomInstructions(installedText, emptyBlock)),
    content: Buffer.from(withCustomInstructions(shippedText, block)),
  };
}
