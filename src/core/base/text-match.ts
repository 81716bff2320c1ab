/**
 * Explainable text relevance: a small tokenizer, an English stemmer and BM25F over documents with
 * weighted fields; optionally synonyms of the query's words, a score for query words held side by
 * side, and words run together in some fields met by their start (RankOptions).
 *
 * Used to route a task to a member and to pick the skills a task needs. Every score can be
 * explained by the query terms it matched in each field.
 */
import { createRequire } from 'node:module';
import { compareCodePoints, isAscii } from './util.js';

/**
 * The Porter2 stemmer, required rather than imported: porter2 is a CommonJS package, and loading
 * one through the ES module loader costs route and prompt a few times more start-up than require.
 */
const { stem: porter2 } = createRequire(import.meta.url)('porter2') as typeof import('porter2');

/** Words that carry no topic in a task, a role, a charter or a skill description. */
const STOPWORDS = new Set(
  (
    'a an and are as at be been being but by can could do does for from had has have how i if in into is it its ' +
    'me my no not of on or our so than that the their them then there these they this those to us use used uses ' +
    'using was we were what when where which while who why will with would you your all any each also just only ' +
    'should must may might please make sure some such via about after before up out over under new add fix ' +
    'one every other more most own same like want need way etc eg ie re ' +
    // What is left of a contraction once the apostrophe splits it ("doesn't" → "doesn", "t").
    'don doesn didn isn aren wasn weren won wouldn couldn shouldn hasn haven hadn ll ve'
  ).split(' '),
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
    .split(isAscii(text) ? /[^a-z0-9]+/ : /[^\p{L}\p{N}]+/u)
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
  /** Return only the documents that score above 0 (the others cost a record each for nothing). */
  matchedOnly?: boolean;
  /**
   * Other words that count as a query word (synonymTable): each occurrence of one counts as an
   * occurrence of the query word, times `synonymWeight`. The query word's rarity is that of all its
   * forms together, and a document that holds only a synonym holds the query word for coverage.
   */
  synonyms?: SynonymTable;
  /** How much an occurrence of a synonym counts, against 1 for the query word itself (default 0.8). */
  synonymWeight?: number;
  /**
   * A score added for each pair of query words that a document holds side by side, in the query's
   * order, in one field ("code scanning" in "CodeQL code scanning"): times the rarer word's
   * inverse document frequency. Stopwords in between do not separate words. 0 (default) for none.
   */
  phraseWeight?: number;
  /**
   * Fields whose words are often words run together ("dockerfile", "editorconfig"): there a word
   * that begins with a query term of at least PREFIX_MIN_LENGTH letters counts as that term.
   */
  prefixFields?: readonly string[];
}

/** A query word's stem → the stems of the words that count as it (see RankOptions.synonyms). */
export type SynonymTable = ReadonlyMap<string, readonly string[]>;

/** A query term must be at least this long to match the start of a longer word in a prefix field. */
export const PREFIX_MIN_LENGTH = 5;

/**
 * A synonym table from groups of words that mean the same (each word of a group counts for every
 * other), and one-way entries (`from` counts as `to`, not the reverse). Words are stemmed as the
 * query's words are; a word of several (e.g. "pull request") is left out, since a query word is one.
 */
export function synonymTable(groups: readonly (readonly string[])[], oneWay: readonly { from: string; to: readonly string[] }[] = []): SynonymTable {
  const table = new Map<string, Set<string>>();
  const add = (from: string, to: readonly string[]): void => {
    const [key, ...rest] = tokenize(from);
    if (key === undefined || rest.length > 0) return;
    const targets = table.get(key) ?? new Set<string>();
    for (const word of to) {
      const stems = tokenize(word);
      if (stems.length === 1 && stems[0] !== key) targets.add(stems[0]!);
    }
    if (targets.size > 0) table.set(key, targets);
  };
  for (const group of groups) for (const word of group) add(word, group);
  for (const { from, to } of oneWay) add(from, to);
  return new Map([...table].map(([key, targets]) => [key, [...targets]]));
}

/** Two tables as one: the words each gives for a query word, together. */
export function mergeSynonyms(first: SynonymTable, second: SynonymTable): SynonymTable {
  if (second.size === 0) return first;
  if (first.size === 0) return second;
  const merged = new Map<string, readonly string[]>(first);
  for (const [key, targets] of second) merged.set(key, [...new Set([...(first.get(key) ?? []), ...targets])]);
  return merged;
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
const DEFAULT_SYNONYM_WEIGHT = 0.8;

/**
 * The query's terms: its own stems first, one group each (in the order the query first writes
 * them, with the word it wrote), then their synonyms' stems, each in the group of the query word
 * it stands for (a synonym that is also a query term stays in its own group). `pairs` holds each
 * two groups the query writes side by side (first × group count + second).
 */
interface QueryTerms {
  /** Every stem to look for. */
  terms: string[];
  /** The group of each term, and how much an occurrence of it counts (1, or the synonym weight). */
  groupOf: Int32Array;
  termWeight: Float64Array;
  /** Per group, the word the query wrote. */
  written: string[];
  pairs: Set<number>;
}

function queryTerms(query: string, synonyms: SynonymTable | undefined, synonymWeight: number): QueryTerms {
  const groups = new Map<string, number>();
  const written: string[] = [];
  const sequence: number[] = [];
  for (const word of words(query)) {
    const term = stem(word);
    let group = groups.get(term);
    if (group === undefined) {
      group = written.length;
      groups.set(term, group);
      written.push(word);
    }
    sequence.push(group);
  }
  const terms = [...groups.keys()];
  const groupOf = terms.map((_, index) => index);
  const weights = terms.map(() => 1);
  if (synonyms !== undefined && synonyms.size > 0) {
    const known = new Set(terms);
    for (let group = 0; group < written.length; group += 1) {
      for (const other of synonyms.get(terms[group]!) ?? []) {
        if (known.has(other)) continue;
        known.add(other);
        terms.push(other);
        groupOf.push(group);
        weights.push(synonymWeight);
      }
    }
  }
  const pairs = new Set<number>();
  for (let i = 1; i < sequence.length; i += 1) {
    if (sequence[i - 1] !== sequence[i]) pairs.add(sequence[i - 1]! * written.length + sequence[i]!);
  }
  return { terms, groupOf: Int32Array.from(groupOf), termWeight: Float64Array.from(weights), written, pairs };
}

function fieldValue<T>(option: T | Record<string, T> | undefined, field: string, fallback: T): T {
  if (option === undefined) return fallback;
  if (typeof option === 'object' && option !== null) return (option as Record<string, T>)[field] ?? fallback;
  return option as T;
}

/** The stopwords as numbers (each letter a digit in base 27), to check a word without making it a string. */
const STOPWORD_CODES = new Set([...STOPWORDS].map((word) => [...word].reduce((code, letter) => code * 27 + (letter.charCodeAt(0) - 96), 0)));
const LONGEST_STOPWORD = Math.max(...[...STOPWORDS].map((word) => word.length));
/**
 * For each lowercase first letter, a bit per length some stopword of that letter has: most words
 * are ruled out by one lookup here, without hashing their code.
 */
const STOPWORD_SHAPES = new Uint32Array(27);
for (const word of STOPWORDS) STOPWORD_SHAPES[word.charCodeAt(0) - 96]! |= 1 << word.length;
const WORD_CHAR = /^[\p{L}\p{N}]$/u;
/** Whether each code point above ASCII met so far is a letter or digit. */
const wordChars = new Map<number, boolean>();

/**
 * How many UTF-16 units the character at `at` (not ASCII) takes when it is a letter or digit of any
 * script, as `words` counts them; 0 when it separates words.
 */
function wordCharWidth(text: string, at: number): number {
  const point = text.codePointAt(at)!;
  let known = wordChars.get(point);
  if (known === undefined) {
    known = WORD_CHAR.test(String.fromCodePoint(point));
    wordChars.set(point, known);
  }
  return known ? (point > 0xffff ? 2 : 1) : 0;
}

/**
 * Which words could stem to a query term, by their first two UTF-16 units: a stem keeps its word's
 * first letter (Porter2 never changes it; other words are their own stem) and its second one, but
 * for three exceptions (test/unit/text-match.test.ts checks this of the stemmer). So a
 * word whose first two letters start no query term needs no string and no stemming. ASCII pairs
 * are looked up in a table; a term of one letter, or with a second unit beyond ASCII, lets every
 * word of its first letter through.
 */
function termStarts(terms: readonly string[]): { mayStart(first: number, second: number): boolean } {
  const pairs = new Uint8Array(128 * 128);
  const anySecond = new Uint8Array(128);
  const otherFirsts = new Set<number>();
  for (const term of terms) {
    const first = term.charCodeAt(0);
    const second = term.length > 1 ? term.charCodeAt(1) : -1;
    if (first >= 128) otherFirsts.add(first);
    else if (second < 0 || second >= 128) anySecond[first] = 1;
    else {
      pairs[first * 128 + second] = 1;
      // Porter2's exceptions: dying → die, lying → lie, tying → tie (a "di" term lets "dy" through).
      if (second === 105 && (first === 100 || first === 108 || first === 116)) pairs[first * 128 + 121] = 1;
    }
  }
  return {
    mayStart(first: number, second: number): boolean {
      if (first >= 128) return otherFirsts.has(first);
      if (anySecond[first] === 1) return true;
      if (second >= 65 && second <= 90) second += 32;
      return second < 128 && pairs[first * 128 + second] === 1;
    },
  };
}

/** What a scan does with each word it finds: see `word` in scoreCollection. */
type WordSink = (source: string, start: number, at: number, first: number, code: number, ascii: boolean) => void;

/**
 * The words of ASCII `text` (nearly every description), as `words` splits them, found without a
 * string each: scanned as it is, A-Z folded as it is read, so no lowercased copy is made. A unit is
 * a letter when `unit | 32` is a-z. Small functions of their own, so V8 optimises them early in
 * a run rather than the whole ranking at once.
 */
function scanAsciiWords(text: string, word: WordSink): void {
  const end = text.length;
  let at = 0;
  while (at < end) {
    const unit = text.charCodeAt(at);
    if (((unit | 32) - 97) >>> 0 >= 26 && (unit - 48) >>> 0 >= 10) {
      at += 1;
      continue;
    }
    const start = at;
    let lettersOnly = true;
    for (at += 1; at < end; at += 1) {
      const next = text.charCodeAt(at);
      if (((next | 32) - 97) >>> 0 < 26) continue;
      if ((next - 48) >>> 0 >= 10) break;
      lettersOnly = false;
    }
    // The letters' code only for a word short enough to be a stopword.
    let code = -1;
    if (lettersOnly && (unit | 32) >= 97 && at - start <= LONGEST_STOPWORD) {
      code = 0;
      for (let i = start; i < at; i += 1) code = code * 27 + ((text.charCodeAt(i) | 32) - 96);
    }
    word(text, start, at, unit | 32, code, true);
  }
}

/** The words of `lower`, text lowercased by Unicode's rules (not only ASCII), as `words` splits them. */
function scanWords(lower: string, word: WordSink): void {
  const end = lower.length;
  let at = 0;
  while (at < end) {
    let unit = lower.charCodeAt(at);
    let width = 1;
    if (unit >= 128) width = wordCharWidth(lower, at);
    else if (!((unit >= 97 && unit <= 122) || (unit >= 48 && unit <= 57))) width = 0;
    if (width === 0) {
      at += 1;
      continue;
    }
    const start = at;
    const first = unit;
    let code = 0;
    while (at < end) {
      unit = lower.charCodeAt(at);
      if (unit >= 97 && unit <= 122) {
        if (code >= 0) code = code * 27 + (unit - 96);
        at += 1;
      } else if (unit >= 48 && unit <= 57) {
        code = -1;
        at += 1;
      } else if (unit >= 128 && (width = wordCharWidth(lower, at)) > 0) {
        code = -1;
        at += width;
      } else {
        break;
      }
    }
    word(lower, start, at, first, code, false);
  }
}

/**
 * A collection to score, read through a function rather than as objects: a caller with thousands
 * of records hands over their texts without building a document for each.
 */
export interface TextCollection {
  size: number;
  fieldNames: readonly string[];
  /** Document `doc`'s text in field `field` (an index into fieldNames); undefined or '' when it has none. */
  text(doc: number, field: number): string | undefined;
}

interface CollectionScores {
  scores: Float64Array;
  coverages: Float64Array;
  /** Per document, field name → the query words found in it (only when explained). */
  matches: (Record<string, string[]> | undefined)[] | undefined;
}

/**
 * BM25F: each field's term frequency is length-normalised and weighted, the fields are summed into
 * one frequency per term, and that sum is saturated once. A term that appears in a name and in a
 * description counts once, more strongly, not twice; a long description is normalised only as much
 * as its field's `b` says. Inverse document frequency is computed over whole documents. Results are
 * sorted by score, then by input order; documents that match nothing score 0.
 */
export function rankDocuments(docs: readonly TextDocument[], query: string, options: RankOptions = {}): RankedDocument[] {
  const fieldNames: string[] = [];
  const known = new Set<string>();
  for (const doc of docs) {
    for (const field of Object.keys(doc.fields)) {
      if (!known.has(field)) {
        known.add(field);
        fieldNames.push(field);
      }
    }
  }
  const ranked = rankCollection({ size: docs.length, fieldNames, text: (doc, field) => docs[doc]!.fields[fieldNames[field]!] }, query, options);
  return ranked.map(({ index, score, matches, coverage }) => ({ id: docs[index]!.id, score, matches, coverage }));
}

/** A document of a collection as ranked: rankDocuments' result, the document named by its index. */
export interface RankedIndex extends Omit<RankedDocument, 'id'> {
  index: number;
}

/** rankDocuments for a collection read through a function. */
export function rankCollection(collection: TextCollection, query: string, options: RankOptions = {}): RankedIndex[] {
  const { scores, coverages, matches } = scoreCollection(collection, query, options, true);
  const order: number[] = [];
  for (let d = 0; d < collection.size; d += 1) if (options.matchedOnly !== true || scores[d]! > 0) order.push(d);
  order.sort((x, y) => scores[y]! - scores[x]! || x - y);
  return order.map((d) => ({ index: d, score: scores[d]!, matches: matches![d] ?? {}, coverage: coverages[d]! }));
}

/**
 * Each document's BM25F score for `query`, exactly as rankDocuments scores it (0: matches nothing),
 * in collection order, without the explanation of what matched: what a caller needs to order
 * thousands of documents.
 */
export function scoreTexts(collection: TextCollection, query: string, options: Omit<RankOptions, 'matchedOnly'> = {}): Float64Array {
  return scoreCollection(collection, query, options, false).scores;
}

/**
 * Allocation is per query, not per document × term: each field is scanned for words in place (the
 * words `words` would give), a word becomes a string only when its first two letters could start a
 * query term, and only the query terms' occurrences are kept, in flat arrays shared by every
 * document.
 */
function scoreCollection(collection: TextCollection, query: string, options: RankOptions, explain: boolean): CollectionScores {
  const k1 = options.k1 ?? DEFAULT_K1;
  const { terms, groupOf, termWeight, written, pairs } = queryTerms(query, options.synonyms, options.synonymWeight ?? DEFAULT_SYNONYM_WEIGHT);
  const termCount = terms.length;
  const groupCount = written.length;
  const termIndex = new Map(terms.map((term, index) => [term, index]));
  const starts = termStarts(terms);
  const { fieldNames, size: docCount } = collection;
  const fieldCount = fieldNames.length;
  const phraseWeight = options.phraseWeight ?? 0;
  const findPhrases = phraseWeight > 0 && pairs.size > 0;
  const prefixFields = new Set(options.prefixFields ?? []);
  const prefixTerms = prefixFields.size === 0 ? [] : terms.map((term, index) => ({ term, index })).filter(({ term }) => term.length >= PREFIX_MIN_LENGTH);

  // Pass 1: every field's length in words, and the occurrences of query terms: for document d,
  // hits[hitStart[d] .. hitStart[d + 1]) hold (field × termCount + term) and hitCounts the counts;
  // phrases[phraseStart[d] .. phraseStart[d + 1]) the query's pairs of groups found side by side.
  const lengths = new Float64Array(docCount * fieldCount);
  const totals = new Float64Array(fieldCount);
  const hitStart = new Uint32Array(docCount + 1);
  const hits: number[] = [];
  const hitCounts: number[] = [];
  const phraseStart = findPhrases ? new Uint32Array(docCount + 1) : undefined;
  const phrases: number[] = [];
  const documentFrequency = new Uint32Array(groupCount);
  const scratch = new Uint32Array(Math.max(1, fieldCount * termCount));
  const lastSeen = new Int32Array(groupCount).fill(-1);
  let doc = 0;
  let base = 0;
  let length = 0;
  let prefixField = false;
  // The group of the field's previous word, when that word was a query term (-1 otherwise).
  let previousGroup = -1;
  let previousAt = -1;
  // A word of the field at `base` of document `doc`, found at [start, at) of `source`: counted
  // unless a stopword, and kept when it is a query term. `code` is its letters in base 27 when it
  // has only letters, else -1. Made once; both scans below call it.
  const word = (source: string, start: number, at: number, first: number, code: number, ascii: boolean): void => {
    const size = at - start;
    if (size < 2) return;
    if (code >= 0 && size <= LONGEST_STOPWORD && (STOPWORD_SHAPES[first - 96]! & (1 << size)) !== 0 && STOPWORD_CODES.has(code)) return;
    length += 1;
    if (!starts.mayStart(first, source.charCodeAt(start + 1))) return;
    const found = ascii ? source.slice(start, at).toLowerCase() : source.slice(start, at);
    let term = termIndex.get(stem(found));
    if (term === undefined && prefixField) term = prefixTerm(found);
    if (term === undefined) return;
    if (scratch[base + term] === 0) {
      hits.push(base + term);
      hitCounts.push(0);
    }
    scratch[base + term] += 1;
    const group = groupOf[term]!;
    if (lastSeen[group] !== doc) {
      lastSeen[group] = doc;
      documentFrequency[group] += 1;
    }
    if (findPhrases) {
      if (previousAt === length - 1 && pairs.has(previousGroup * groupCount + group)) phrases.push(previousGroup * groupCount + group);
      previousGroup = group;
      previousAt = length;
    }
  };
  // The longest query term a word of a prefix field begins with and goes on past ("dockerfile": docker).
  const prefixTerm = (found: string): number | undefined => {
    let best: number | undefined;
    for (const { term, index } of prefixTerms) {
      if (found.length > term.length && found.startsWith(term) && (best === undefined || term.length > terms[best]!.length)) best = index;
    }
    return best;
  };
  for (let d = 0; d < docCount; d += 1) {
    hitStart[d] = hits.length;
    if (phraseStart) phraseStart[d] = phrases.length;
    doc = d;
    for (let f = 0; f < fieldCount; f += 1) {
      const text = collection.text(d, f);
      if (!text) continue;
      length = 0;
      previousAt = -1;
      base = f * termCount;
      prefixField = prefixFields.size > 0 && prefixFields.has(fieldNames[f]!);
      let firstHit = hits.length;
      if (isAscii(text)) scanAsciiWords(text, word);
      else scanWords(text.toLowerCase(), word);
      for (; firstHit < hits.length; firstHit += 1) {
        hitCounts[firstHit] = scratch[hits[firstHit]!]!;
        scratch[hits[firstHit]!] = 0;
      }
      lengths[d * fieldCount + f] = length;
      totals[f] += length;
    }
  }
  hitStart[docCount] = hits.length;
  if (phraseStart) phraseStart[docCount] = phrases.length;

  const averages = Array.from(totals, (total) => (docCount === 0 ? 0 : total / docCount));
  const weights = fieldNames.map((field) => fieldValue(options.weights, field, 1));
  const bs = fieldNames.map((field) => fieldValue(options.b, field, DEFAULT_B));
  const idf = written.map((_, g) => {
    const n = documentFrequency[g]!;
    if (options.ignoreSharedTerms === true && docCount >= 2 && n === docCount) return 0;
    return Math.log(1 + (docCount - n + 0.5) / (n + 0.5));
  });
  // Each group's terms: the query's own term, then its synonyms.
  const groupTerms: number[][] = written.map(() => []);
  for (let t = 0; t < termCount; t += 1) groupTerms[groupOf[t]!]!.push(t);

  // Pass 2: score the documents that hold a query term, groups in query order, each group's terms
  // and then fields in order, so every sum adds up exactly as the formula reads.
  const scores = new Float64Array(docCount);
  const matchesOf: (Record<string, string[]> | undefined)[] | undefined = explain ? new Array(docCount) : undefined;
  const coverages = new Float64Array(docCount);
  for (let d = 0; d < docCount; d += 1) {
    const from = hitStart[d]!;
    const to = hitStart[d + 1]!;
    if (from === to) continue;
    for (let h = from; h < to; h += 1) scratch[hits[h]!] = hitCounts[h]!;
    let score = 0;
    let matchedGroups = 0;
    let matches: Record<string, string[]> | undefined;
    for (let g = 0; g < groupCount; g += 1) {
      const weight = idf[g]!;
      if (weight === 0) continue;
      let frequency = 0;
      for (const t of groupTerms[g]!) {
        for (let f = 0; f < fieldCount; f += 1) {
          const tf = scratch[f * termCount + t]!;
          if (!tf) continue;
          const b = bs[f]!;
          const average = averages[f] || 1;
          frequency += (termWeight[t]! * weights[f]! * tf) / (1 - b + (b * lengths[d * fieldCount + f]!) / average);
          if (explain) {
            const list = ((matches ??= {})[fieldNames[f]!] ??= []);
            if (list[list.length - 1] !== written[g]) list.push(written[g]!);
          }
        }
      }
      if (frequency === 0) continue;
      score += (weight * frequency * (k1 + 1)) / (frequency + k1);
      matchedGroups += 1;
    }
    for (let h = from; h < to; h += 1) scratch[hits[h]!] = 0;
    if (phraseStart) score += phraseScore(phrases, phraseStart[d]!, phraseStart[d + 1]!, groupCount, idf, phraseWeight);
    scores[d] = score;
    coverages[d] = groupCount > 0 ? matchedGroups / groupCount : 0;
    if (matches) {
      for (const list of Object.values(matches)) list.sort(compareCodePoints);
      matchesOf![d] = matches;
    }
  }
  return { scores, coverages, matches: matchesOf };
}

/** A document's phrase score: each pair of query words it holds side by side, once, times the rarer word's weight. */
function phraseScore(phrases: readonly number[], from: number, to: number, groupCount: number, idf: readonly number[], phraseWeight: number): number {
  let score = 0;
  for (let p = from; p < to; p += 1) {
    const pair = phrases[p]!;
    if (phrases.indexOf(pair, from) !== p) continue;
    score += phraseWeight * Math.min(idf[Math.floor(pair / groupCount)]!, idf[pair % groupCount]!);
  }
  return score;
}
