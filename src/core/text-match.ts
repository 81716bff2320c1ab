/**
 * Explainable text relevance: a small tokenizer and BM25 over documents with weighted fields.
 *
 * Used to route a task to a member and to pick the skills a task needs. Every score can be
 * explained by the query terms it matched in each field.
 */
import { compareCodePoints } from './util.js';

/** Words that carry no topic in a task, a role, a charter or a skill description. */
const STOPWORDS = new Set(
  ('a an and are as at be been being but by can could do does for from had has have how i if in into is it its ' +
    'me my no not of on or our so than that the their them then there these they this those to us use used uses ' +
    'using was we were what when where which while who why will with would you your all any each also just only ' +
    'should must may might please make sure some such via about after before up out over under new add fix')
    .split(' '),
);

/**
 * A light stemmer, so "tests", "testing" and "tested" meet "test": plural -s, -ing and -ed are
 * dropped from longer words. Deliberately simple: its effect is easy to predict and to explain.
 */
export function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Lowercased, stemmed words of `text` (letters and digits of any script), without stopwords. */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (raw.length < 2 || STOPWORDS.has(raw)) continue;
    tokens.push(stem(raw));
  }
  return tokens;
}

export interface TextDocument {
  id: string;
  /** Field name → text. */
  fields: Record<string, string>;
}

export interface RankOptions {
  /** Field name → weight; fields without a weight count 1. */
  weights?: Record<string, number>;
  /** Term-frequency saturation (default 1.2). */
  k1?: number;
  /** Length normalisation (default 0.75). */
  b?: number;
}

export interface RankedDocument {
  id: string;
  score: number;
  /** Field name → the query terms (stemmed) found in it, sorted. Only fields that matched. */
  matches: Record<string, string[]>;
}

/**
 * BM25 with per-field length normalisation and weights (a simplified BM25F): a term's inverse
 * document frequency is computed over whole documents; its contribution is the weighted sum of
 * the saturated, length-normalised frequencies in each field. Results are sorted by score, then by
 * input order; documents that match nothing score 0.
 */
export function rankDocuments(docs: readonly TextDocument[], query: string, options: RankOptions = {}): RankedDocument[] {
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const terms = [...new Set(tokenize(query))];
  const fieldNames = [...new Set(docs.flatMap((doc) => Object.keys(doc.fields)))];

  const tokenized = docs.map((doc) => {
    const fields = new Map<string, Map<string, number>>();
    const lengths = new Map<string, number>();
    for (const field of fieldNames) {
      const tokens = tokenize(doc.fields[field] ?? '');
      const counts = new Map<string, number>();
      for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
      fields.set(field, counts);
      lengths.set(field, tokens.length);
    }
    return { fields, lengths };
  });

  const averages = new Map(
    fieldNames.map((field) => {
      const total = tokenized.reduce((sum, doc) => sum + doc.lengths.get(field)!, 0);
      return [field, docs.length === 0 ? 0 : total / docs.length];
    }),
  );
  const idf = new Map(
    terms.map((term) => {
      const n = tokenized.filter((doc) => [...doc.fields.values()].some((counts) => counts.has(term))).length;
      return [term, Math.log(1 + (docs.length - n + 0.5) / (n + 0.5))];
    }),
  );

  const ranked = docs.map((doc, index) => {
    const { fields, lengths } = tokenized[index]!;
    let score = 0;
    const matches: Record<string, string[]> = {};
    for (const field of fieldNames) {
      const counts = fields.get(field)!;
      const weight = options.weights?.[field] ?? 1;
      const average = averages.get(field) || 1;
      const norm = k1 * (1 - b + (b * lengths.get(field)!) / average);
      for (const term of terms) {
        const tf = counts.get(term);
        if (!tf) continue;
        score += weight * idf.get(term)! * ((tf * (k1 + 1)) / (tf + norm));
        (matches[field] ??= []).push(term);
      }
    }
    for (const list of Object.values(matches)) list.sort(compareCodePoints);
    return { id: doc.id, score, matches, index };
  });
  ranked.sort((x, y) => y.score - x.score || x.index - y.index);
  return ranked.map(({ index: _index, ...rest }) => rest);
}
