/**
 * The squad's own synonyms for skill ranking, in `.ai-team/synonyms.md`: the words this team says
 * for what its skills' descriptions say another way ("checkout: basket, cart"). They count beside
 * the built-in ones (skill-synonyms.ts) wherever route and prompt rank skills.
 *
 * Each list item `- word: other, other` makes one group: every word of it counts for every other.
 * Any other line (headings, prose) is ignored, and so is a word of several words ("pull request"):
 * a task is matched word by word.
 */
import { readStateHead } from '../fs/confined.js';
import { AI_TEAM_DIR } from '../base/paths.js';
import { synonymTable, type SynonymTable } from '../base/text-match.js';

export const TEAM_SYNONYMS_PATH = `${AI_TEAM_DIR}/synonyms.md`;

/** At most this much of the file is read: a list of synonyms is short, and every spawn reads it. */
export const TEAM_SYNONYMS_MAX_BYTES = 64 * 1024;

/** `- word: other, other` (or `*` for `-`), the word and its others. */
const ENTRY = /^\s*[-*]\s+([^:\n]+?)\s*:\s*(.+?)\s*$/;

/** The groups of words a synonyms file lists, each lowercased, in the order written. */
export function parseTeamSynonyms(text: string): string[][] {
  const groups: string[][] = [];
  for (const line of text.split('\n')) {
    const entry = ENTRY.exec(line);
    if (!entry) continue;
    const words = [entry[1]!, ...entry[2]!.split(',')].map((word) => word.trim().toLowerCase()).filter((word) => word !== '');
    if (words.length >= 2) groups.push(words);
  }
  return groups;
}

/**
 * The squad's synonym table, undefined when it keeps no `.ai-team/synonyms.md` (or lists nothing
 * in it). A file past TEAM_SYNONYMS_MAX_BYTES is read up to its last whole line before there, so
 * an oversized file never stops a spawn; a file that may not be read (a link out of the
 * repository) is refused as every squad file is (unsafe-path).
 */
export function readTeamSynonyms(root: string): SynonymTable | undefined {
  const head = readStateHead(root, TEAM_SYNONYMS_PATH, TEAM_SYNONYMS_MAX_BYTES);
  if (head === undefined) return undefined;
  const text = Buffer.byteLength(head) < TEAM_SYNONYMS_MAX_BYTES ? head : head.slice(0, head.lastIndexOf('\n') + 1);
  const table = synonymTable(parseTeamSynonyms(text));
  return table.size === 0 ? undefined : table;
}
