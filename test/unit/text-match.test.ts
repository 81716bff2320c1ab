/**
 * BM25F ranking: the flat, per-query implementation in text-match.ts must rank exactly as the
 * formula reads, document by document. The reference below is that straightforward reading (a map
 * of term counts per field per document); random collections and queries must agree with it on
 * every score, match list, coverage and order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rankDocuments, scoreTexts, stem, synonymTable, tokenize, type RankOptions, type RankedDocument, type TextDocument } from '../../src/core/base/text-match.js';
import { compareCodePoints } from '../../src/core/base/util.js';

function referenceRank(docs: readonly TextDocument[], query: string, options: RankOptions = {}): RankedDocument[] {
  const k1 = options.k1 ?? 1.2;
  const written = new Map<string, string>();
  for (const word of query.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    const [term] = tokenize(word);
    if (term !== undefined && !written.has(term)) written.set(term, word);
  }
  const terms = [...written.keys()];
  const fieldNames = [...new Set(docs.flatMap((doc) => Object.keys(doc.fields)))];
  const tokenized = docs.map((doc) => {
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
  });
  const averages = new Map(fieldNames.map((field) => [field, docs.length === 0 ? 0 : tokenized.reduce((sum, doc) => sum + doc.lengths.get(field)!, 0) / docs.length]));
  const idf = new Map(
    terms.map((term) => {
      const n = tokenized.filter((doc) => [...doc.counts.values()].some((counts) => counts.has(term))).length;
      if (options.ignoreSharedTerms && docs.length >= 2 && n === docs.length) return [term, 0];
      return [term, Math.log(1 + (docs.length - n + 0.5) / (n + 0.5))];
    }),
  );
  const option = <T>(value: T | Record<string, T> | undefined, field: string, fallback: T): T =>
    value === undefined ? fallback : typeof value === 'object' && value !== null ? ((value as Record<string, T>)[field] ?? fallback) : (value as T);
  const ranked = docs.map((doc, index) => {
    const { counts, lengths } = tokenized[index]!;
    let score = 0;
    let matched = 0;
    const matches: Record<string, string[]> = {};
    for (const term of terms) {
      const weight = idf.get(term)!;
      if (weight === 0) continue;
      let frequency = 0;
      for (const field of fieldNames) {
        const tf = counts.get(field)!.get(term);
        if (!tf) continue;
        const b = option(options.b, field, 0.75);
        frequency += (option(options.weights, field, 1) * tf) / (1 - b + (b * lengths.get(field)!) / (averages.get(field) || 1));
        (matches[field] ??= []).push(written.get(term)!);
      }
      if (frequency === 0) continue;
      score += (weight * frequency * (k1 + 1)) / (frequency + k1);
      matched += 1;
    }
    for (const list of Object.values(matches)) list.sort(compareCodePoints);
    return { id: doc.id, score, matches, coverage: terms.length > 0 ? matched / terms.length : 0, index };
  });
  ranked.sort((x, y) => y.score - x.score || x.index - y.index);
  return ranked.map(({ index: _index, ...rest }) => rest);
}

const WORDS = [
  'İstanbul',
  '𝐀𝐁',
  'x²',
  'a\uD800b',
  'über',
  'Über',
  'test',
  'tests',
  'testing',
  'api',
  'orders',
  'order',
  'pagination',
  'paginate',
  'the',
  'and',
  'x',
  'deploy',
  'deploying',
  'ci',
  'café',
  'données',
  'v2',
  'react',
  'yes',
  'yield',
  'ugly',
  'early',
  'skis',
  'A-B',
  '日本',
  // Capitals, so the ASCII scan that folds case as it reads meets the reference's lowercasing.
  'Testing',
  'API',
  'The',
  'PDF',
  'ReAct',
  'Z9',
  'Café',
  // Porter2's exceptions that change a second letter (dying → die), and their stems.
  'dying',
  'Lying',
  'die',
  'lie',
  'tie',
  'skies',
];
const text = fc
  .array(fc.constantFrom(...WORDS), { maxLength: 12 })
  .chain((words) =>
    fc.array(fc.constantFrom(' ', ', ', '. ', '-', '\n', '/'), { minLength: words.length, maxLength: words.length }).map((gaps) => words.map((w, i) => `${w}${gaps[i]}`).join('')),
  );
const fieldName = fc.constantFrom('name', 'description', 'role', 'body');
const docs = fc
  .array(
    fc.dictionary(fieldName, text, { maxKeys: 3 }).map((fields) => fields),
    { maxLength: 8 },
  )
  .map((list) => list.map((fields, index) => ({ id: `d${index}`, fields })));
const options = fc.record(
  {
    weights: fc.dictionary(fieldName, fc.constantFrom(0, 0.5, 1, 1.5, 2)),
    b: fc.oneof(fc.constantFrom(0, 0.3, 0.75, 1), fc.dictionary(fieldName, fc.constantFrom(0, 0.3, 0.5, 1))),
    k1: fc.constantFrom(0.9, 1.2, 2),
    ignoreSharedTerms: fc.boolean(),
  },
  { requiredKeys: [] },
);

describe('rankDocuments', () => {
  it('agrees with the straightforward BM25F on random collections and queries', () => {
    fc.assert(
      fc.property(docs, text, options, (collection, query, rankOptions) => {
        expect(rankDocuments(collection, query, rankOptions)).toEqual(referenceRank(collection, query, rankOptions));
      }),
      { numRuns: 500 },
    );
  });

  it('synonyms no query word has, a phrase weight of 0 and no prefix fields rank exactly as without them', () => {
    const unrelated = synonymTable([['zebra', 'okapi']]);
    fc.assert(
      fc.property(docs, text, options, (collection, query, rankOptions) => {
        const plain = rankDocuments(collection, query, rankOptions);
        expect(rankDocuments(collection, query, { ...rankOptions, synonyms: unrelated, phraseWeight: 0, prefixFields: [] })).toEqual(plain);
      }),
      { numRuns: 200 },
    );
  });

  it("a phrase adds its weight times the rarer word's inverse document frequency, once per pair, in the query's order only", () => {
    const collection: TextDocument[] = [
      { id: 'together', fields: { body: 'code scanning code scanning' } },
      { id: 'reversed', fields: { body: 'scanning code scanning code' } },
      { id: 'other', fields: { body: 'release notes' } },
    ];
    const plain = new Map(rankDocuments(collection, 'code scanning').map((d) => [d.id, d.score]));
    const phrased = new Map(rankDocuments(collection, 'code scanning', { phraseWeight: 2 }).map((d) => [d.id, d.score]));
    const idf = Math.log(1 + (3 - 2 + 0.5) / (2 + 0.5));
    expect(phrased.get('together')! - plain.get('together')!).toBeCloseTo(2 * idf, 12);
    // "scanning code" holds the pair reversed; "code scanning" appears once in the middle.
    expect(phrased.get('reversed')! - plain.get('reversed')!).toBeCloseTo(2 * idf, 12);
    expect(rankDocuments(collection, 'scanning release', { phraseWeight: 2 }).find((d) => d.id === 'other')!.score).toBe(
      rankDocuments(collection, 'scanning release').find((d) => d.id === 'other')!.score,
    );
  });

  it('ranks a skill-like collection as the reference does', () => {
    const collection = [
      { id: 'a', fields: { name: 'api pagination', description: 'Paginating the orders API: cursors, limits and tests.' } },
      { id: 'b', fields: { name: 'orders', description: 'Everything about orders and the order table.' } },
      { id: 'c', fields: { name: 'deploy', description: 'Deploying to production.' } },
      { id: 'd', fields: { name: 'empty', description: '' } },
    ];
    const query = 'Add pagination to the orders API';
    const options = { weights: { name: 1.5, description: 1 }, b: { name: 0.5, description: 0.3 } };
    const ranked = rankDocuments(collection, query, options);
    expect(ranked).toEqual(referenceRank(collection, query, options));
    expect(ranked.map((r) => r.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(ranked[0]!.matches).toEqual({ name: ['api', 'pagination'], description: ['api', 'orders', 'pagination'] });
  });

  it("a stem keeps its word's first two letters but for dying, lying and tying (the ranking stems only words that could match)", () => {
    // Letters weighted toward what Porter2 rewrites: y, vowels, and the endings it strips.
    const letters = fc.constantFrom(...'aeiouyyyydltsngrbcx');
    const endings = fc.constantFrom('', 's', 'ies', 'ied', 'ing', 'ed', 'ly', 'y', 'eed', 'ement', 'ational', 'ness');
    const word = fc.oneof(
      fc.stringMatching(/^[a-z]{1,14}$/),
      fc.tuple(fc.array(letters, { minLength: 1, maxLength: 6 }), endings).map(([start, end]) => start.join('') + end),
    );
    const changed = new Set(['dying', 'lying', 'tying']);
    fc.assert(
      fc.property(word, (w) => {
        const stemmed = stem(w);
        expect(stemmed[0]).toBe(w[0]);
        if (stemmed.length > 1 && !changed.has(w)) expect(stemmed[1]).toBe(w[1]);
      }),
      { numRuns: 5000 },
    );
    expect([...changed].map(stem)).toEqual(['die', 'lie', 'tie']);
  });

  it("scoreTexts gives rankDocuments' scores, in collection order, for a collection read through a function", () => {
    fc.assert(
      fc.property(docs, text, options, (collection, query, rankOptions) => {
        const fieldNames = [...new Set(collection.flatMap((doc) => Object.keys(doc.fields)))];
        const scores = scoreTexts({ size: collection.length, fieldNames, text: (d, f) => collection[d]!.fields[fieldNames[f]!] }, query, rankOptions);
        const expected = new Map(referenceRank(collection, query, rankOptions).map((doc) => [doc.id, doc.score]));
        expect([...scores]).toEqual(collection.map((doc) => expected.get(doc.id)));
      }),
      { numRuns: 300 },
    );
  });

  it('matchedOnly gives exactly the documents of the full ranking that score above 0, in its order', () => {
    const docs: TextDocument[] = [
      { id: 'a', fields: { name: 'orders api', description: 'Paginate the orders API and its cursors.' } },
      { id: 'b', fields: { name: 'styles', description: 'Colours and spacing tokens.' } },
      { id: 'c', fields: { name: 'pagination', description: 'Cursor pagination for any list endpoint.' } },
      { id: 'd', fields: { name: 'empty', description: '' } },
    ];
    for (const query of ['add pagination to the orders api', 'tokens', 'nothing matches here', '']) {
      const full = rankDocuments(docs, query, { weights: { name: 1.5 } });
      expect(rankDocuments(docs, query, { weights: { name: 1.5 }, matchedOnly: true })).toEqual(full.filter((doc) => doc.score > 0));
    }
  });
});
