/**
 * Ranking members for a task by what distinguishes them (this module reads no file): each task
 * word counts by how few members hold it in the same kind of text, so a word every charter shares
 * ("prompt" in every charter of a squad of agents) weighs nothing there, though it still counts in
 * the one role that names it. The role title counts most, the charter's "what I own" part next,
 * charter boilerplate least; what a charter says its member does not handle is no evidence.
 */
import { tokenize } from '../base/text-match.js';
import { routingTerms } from './routing-table.js';

/** What routing reads of one member, as text. */
export interface MemberTexts {
  id: string;
  /** The role with its preset's aliases and routing line. */
  role: string;
  /** The charter's ownership part: "What I Own", the expertise and "I handle" lines. */
  owns: string;
  /** The rest of the charter. */
  charter: string;
  /** The member's own skills the task calls for. */
  skills: string;
}

export interface MemberScore {
  id: string;
  score: number;
  /** Field (role, owns, charter, skills) → the task words found there, as the task wrote them, sorted. Only fields that matched. */
  matches: Record<string, string[]>;
}

export const MEMBER_FIELD_WEIGHTS = { role: 3, owns: 2, skills: 2, charter: 1 } as const;
type Field = keyof typeof MEMBER_FIELD_WEIGHTS;

/**
 * How much a word held by `holders` of `count` members says: nothing when every member holds it
 * (with two members or more), more the fewer hold it.
 */
function rarity(holders: number, count: number): number {
  if (holders === 0 || (count >= 2 && holders >= count)) return 0;
  return Math.log(1 + (count - holders + 0.5) / (holders + 0.5));
}

/**
 * Members ranked for `task`, best first (equal scores keep input order). A word in the role, the
 * own skills and the charter counts in each; in the charter it counts once, at the ownership
 * weight when the ownership part holds it. Rarity is measured per kind of text: roles among roles,
 * charters (ownership part and rest together) among charters, skills among skills.
 */
export function rankMembers(members: readonly MemberTexts[], task: string): MemberScore[] {
  const terms = routingTerms(task);
  const sets = members.map((m) => ({
    role: new Set(tokenize(m.role)),
    owns: new Set(tokenize(m.owns)),
    charter: new Set(tokenize(m.charter)),
    skills: new Set(tokenize(m.skills)),
  }));
  const count = members.length;
  const holders = (has: (i: number) => boolean) => sets.filter((_, i) => has(i)).length;
  const scored = members.map((member, i) => {
    const own = sets[i]!;
    let score = 0;
    const matches: Partial<Record<Field, string[]>> = {};
    // A word every member holds in that kind of text weighs nothing, and explains nothing either.
    const credit = (field: Field, weight: number, written: string) => {
      if (weight <= 0) return;
      score += weight;
      (matches[field] ??= []).push(written);
    };
    for (const [term, written] of terms) {
      if (own.role.has(term)) {
        credit(
          'role',
          MEMBER_FIELD_WEIGHTS.role *
            rarity(
              holders((j) => sets[j]!.role.has(term)),
              count,
            ),
          written,
        );
      }
      if (own.owns.has(term) || own.charter.has(term)) {
        const field = own.owns.has(term) ? 'owns' : 'charter';
        credit(
          field,
          MEMBER_FIELD_WEIGHTS[field] *
            rarity(
              holders((j) => sets[j]!.owns.has(term) || sets[j]!.charter.has(term)),
              count,
            ),
          written,
        );
      }
      if (own.skills.has(term)) {
        credit(
          'skills',
          MEMBER_FIELD_WEIGHTS.skills *
            rarity(
              holders((j) => sets[j]!.skills.has(term)),
              count,
            ),
          written,
        );
      }
    }
    for (const words of Object.values(matches)) words.sort();
    return { id: member.id, score, matches: matches as Record<string, string[]> };
  });
  return scored
    .map((s, i) => ({ s, i }))
    .sort((a, b) => b.s.score - a.s.score || a.i - b.i)
    .map(({ s }) => s);
}

/** Headings of a charter's ownership part. */
const OWNERSHIP_HEADING = /^#{1,6}\s+(?:what i own|responsibilit|owns?\b|scope|focus|expertise|specialt)/i;
/** Lines of a charter's ownership part outside it: `**Role:**`, `**Expertise:**`, `**I handle:**`. */
const OWNERSHIP_LINE = /^\s*[-*]?\s*\*\*(?:role|expertise|focus|specialt\w*|i handle|i own)\s*:?\*\*/i;
/** Lines that say what a member does not do: evidence for someone else. */
const DISCLAIMER_LINE = /\b(?:don'?t|do not|never|won'?t|doesn'?t|does not)\s+(?:handle|own|do|touch|write)\b|\bnot (?:for|mine)\b/i;
const HEADING = /^#{1,6}\s/;

/** A charter cut into its ownership part and the rest; lines saying what the member does not handle are dropped. */
export function charterParts(charter: string): { owns: string; rest: string } {
  const owns: string[] = [];
  const rest: string[] = [];
  let inOwnership = false;
  for (const line of charter.split('\n')) {
    if (HEADING.test(line)) inOwnership = OWNERSHIP_HEADING.test(line);
    if (DISCLAIMER_LINE.test(line)) continue;
    (inOwnership || OWNERSHIP_LINE.test(line) ? owns : rest).push(line);
  }
  return { owns: owns.join('\n'), rest: rest.join('\n') };
}
