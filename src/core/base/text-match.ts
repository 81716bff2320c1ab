/**
 * Explainable text relevance: a small tokenizer, an English stemmer and BM25F over documents with
 * weighted fields.
 *
 * Used to route a task to a member and to pick the skills a task needs. Every score can be
 * explained by the query terms it matched in each field.
 */
import { createRequire } from 'node:module';
import { compareCodePoints } from './util.js';

/**
 * The Porter2 stemmer, required rather than imported: porter2 is a CommonJS package, and loading
 * one through the ES module loader costs route and prompt a few times more start-up than require.
 */
const { stem: porter2 } = createRequire(import.meta.url)('porter2') as typeof import('porter2');

/** Words that carry no topic in a task, a role, a charter or a skill description. */
const STOPWORDS = new Set(
  ('a an and are as at be been being but by can could do does for from had has have how i if in into is it its ' +
    'me my no not of on or our so than that the their them then there these they this those to us use used uses ' +
    'using was we were what when where which while who why will with would you your all any each also just only ' +
    'should must may might please make sure some such via about after before up out over under new add fix ' +
    'one every other more most own same like want need way etc eg ie re')
    .split(' '),
);

/** Words the stemmer knows: lowercase ASCII letters (Porter2 is defined for English words only). */
const ENGLISH_WORD = /^[a-z]+$/;

/** Stems already computed: a squad's skills repeat the same few thousand words on every run. */
const stems = new Map<string, string>();

/**
 * The stem of a lowercase word, so that the forms of one word meet: "tests", "testing" and "tested"
 * meet "test"; "resize", "resizing" and "resized" meet "resiz"; "configure" and "configuring" meet
 * "configur". English words go through the Porter2 (Snowball English) stemmer; words with digits or
 * other scripts stay as they are.
 */
export function stem(word: string): string {
  let known = stems.get(word);
  if (known === undefined) {
    known = ENGLISH_WORD.test(word) ? porter2(word) : word;
    stems.set(word, known);
  }
  return known;
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
  /** Length normalisation: one value for every field, or field name → value (default 0.75). */
  b?: number | Record<string, number>;
  /**
   * A term found in every document says nothing about which one fits: it scores 0 (with at least
   * two documents). For documents that share boilerplate, such as charters that all name the project.
   */
  ignoreSharedTerms?: boolean;
}

export interface RankedDocument {
  id: string;
  score: number;
  /**
   * Field name → the query words found in it, sorted: each as the query first wrote it (lowercased),
   * since a stem ("fenst") explains nothing to a reader. Only fields that matched.
   */
  matches: Record<string, string[]>;
  /**
   * The share of the query's terms this document holds, each term counting once: 1 when it holds
   * every term of the query, 0 when none. (Not weighted by rarity: in a small collection every
   * matched term is common, and that says nothing about the task.)
   */
  coverage: number;
}

const DEFAULT_K1 = 1.2;
const DEFAULT_B = 0.75;

interface TokenizedDocument {
  /** Field → term → count. */
  counts: Map<string, Map<string, number>>;
  /** Field → number of terms. */
  lengths: Map<string, number>;
}

function tokenizeDocument(doc: TextDocument, fieldNames: readonly string[]): TokenizedDocument {
  const counts = new Map<string, Map<string, number>>();
  const lengths = new Map<string, number>();
  for (const field of fieldNames) {
    const tokens = tokenize(doc.fields[field] ?? '');
    const fieldCounts = new Map<string, number>();
    for (const token of tokens) fieldCounts.set(token, (fieldCounts.get(token) ?? 0) + 1);
    counts.set(field, fieldCounts);
    lengths.set(field, tokens.length);
  }
  return { counts, lengths };
}

/** The query's terms (stems), each with the word the query first wrote for it. */
function queryTerms(query: string): Map<string, string> {
  const written = new Map<string, string>();
  for (const word of words(query)) {
    const term = stem(word);
    if (!written.has(term)) written.set(term, word);
  }
  return written;
}

/** Inverse document frequency of each term over whole documents (BM25's, never negative). */
function inverseFrequencies(terms: readonly string[], docs: readonly TokenizedDocument[], ignoreShared: boolean): Map<string, number> {
  return new Map(
    terms.map((term) => {
      const n = docs.filter((doc) => [...doc.counts.values()].some((counts) => counts.has(term))).length;
      if (ignoreShared && docs.length >= 2 && n === docs.length) return [term, 0];
      return [term, Math.log(1 + (docs.length - n + 0.5) / (n + 0.5))];
    }),
  );
}

function fieldValue<T>(option: T | Record<string, T> | undefined, field: string, fallback: T): T {
  if (option === undefined) return fallback;
  if (typeof option === 'object' && option !== null) return (option as Record<string, T>)[field] ?? fallback;
  return option as T;
}

/**
 * BM25F: each field's term frequency is length-normalised and weighted, the fields are summed into
 * one frequency per term, and that sum is saturated once. A term that appears in a name and in a
 * description counts once, more strongly, not twice; a long description is normalised only as much
 * as its field's `b` says. Inverse document frequency is computed over whole documents. Results are
 * sorted by score, then by input order; documents that match nothing score 0.
 */
export function rankDocuments(docs: readonly TextDocument[], query: string, options: RankOptions = {}): RankedDocument[] {
  const k1 = options.k1 ?? DEFAULT_K1;
  const written = queryTerms(query);
  const terms = [...written.keys()];
  const fieldNames = [...new Set(docs.flatMap((doc) => Object.keys(doc.fields)))];
  const tokenized = docs.map((doc) => tokenizeDocument(doc, fieldNames));
  const averages = new Map(
    fieldNames.map((field) => {
      const total = tokenized.reduce((sum, doc) => sum + doc.lengths.get(field)!, 0);
      return [field, docs.length === 0 ? 0 : total / docs.length];
    }),
  );
  const idf = inverseFrequencies(terms, tokenized, options.ignoreSharedTerms === true);

  const ranked = docs.map((doc, index) => {
    const { counts, lengths } = tokenized[index]!;
    let score = 0;
    let matchedTerms = 0;
    const matches: Record<string, string[]> = {};
    for (const term of terms) {
      const weight = idf.get(term)!;
      if (weight === 0) continue;
      let frequency = 0;
      for (const field of fieldNames) {
        const tf = counts.get(field)!.get(term);
        if (!tf) continue;
        const b = fieldValue(options.b, field, DEFAULT_B);
        const average = averages.get(field) || 1;
        frequency += (fieldValue(options.weights, field, 1) * tf) / (1 - b + (b * lengths.get(field)!) / average);
        (matches[field] ??= []).push(written.get(term)!);
      }
      if (frequency === 0) continue;
      score += (weight * frequency * (k1 + 1)) / (frequency + k1);
      matchedTerms += 1;
    }
    for (const list of Object.values(matches)) list.sort(compareCodePoints);
    return { id: doc.id, score, matches, coverage: terms.length > 0 ? matchedTerms / terms.length : 0, index };
  });
  ranked.sort((x, y) => y.score - x.score || x.index - y.index);
  return ranked.map(({ index: _index, ...rest }) => rest);
}
