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
 * A light stemmer, so "tests", "testing", "tested" and "Tester" meet "test": a plural -s (or -ies)
 * is dropped first, then one of -ing, -ed or the agent noun's -er, from longer words only.
 * Deliberately simple: its effect is easy to predict and to explain, and a task and a role or
 * description are stemmed alike, so an odd stem ("number" → "numb") still meets its own kind.
 */
export function stem(word: string): string {
  let base = word;
  if (base.length > 4 && base.endsWith('ies')) base = `${base.slice(0, -3)}y`;
  else if (base.length > 3 && base.endsWith('s') && !base.endsWith('ss')) base = base.slice(0, -1);
  if (base.length > 5 && base.endsWith('ing')) return base.slice(0, -3);
  if (base.length > 4 && base.endsWith('ed')) return base.slice(0, -2);
  if (base.length > 5 && base.endsWith('er')) return base.slice(0, -2);
  return base;
}

/** The lowercased words of `text` (letters and digits of any script) that carry a topic. */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((raw) => raw.length >= 2 && !STOPWORDS.has(raw));
}

/** Lowercased, stemmed words of `text` (letters and digits of any script), without stopwords. */
export function tokenize(text: string): string[] {
  return words(text).map(stem);
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
  /**
   * Field name → the query words found in it, sorted: each as the query first wrote it (lowercased),
   * since a stem ("fenst") explains nothing to a reader. Only fields that matched.
   */
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
  const written = new Map<string, string>();
  for (const word of words(query)) {
    const term = stem(word);
    if (!written.has(term)) written.set(term, word);
  }
  const terms = [...written.keys()];
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
        (matches[field] ??= []).push(written.get(term)!);
      }
    }
    for (const list of Object.values(matches)) list.sort(compareCodePoints);
    return { id: doc.id, score, matches, index };
  });
  ranked.sort((x, y) => y.score - x.score || x.index - y.index);
  return ranked.map(({ index: _index, ...rest }) => rest);
}
