/**
 * The kind of work a task asks for, learned from how tasks are phrased: a naive Bayes model over the
 * task's words and word pairs, trained on the routing evaluation's tuned tasks (bench/, never its
 * held-out half) and shipped as counts in templates/routing/work-kinds.json. It reads the phrasings
 * the hand-written table (work-kind.ts) does not list — "put them in order and explain why" is the
 * lead's, "try each one against the app" testing — and route.ts trusts it only when it is nearly
 * sure. A second model, of the same make, learns the domain of a specialist's task from the
 * original squads' specialists (security, prompts, release…: templates/routing/work-domains.json),
 * which routing adds to the domain words the task's own words stand for (routing-table.ts).
 * Training and classifying share workKindFeatures, one source of truth.
 */
import * as v from 'valibot';
import { stem } from '../base/text-match.js';
import { lazySchema, mapping } from '../base/schema.js';
import { checkedTemplateJson } from '../fs/templates.js';

/** What a task asks of the team: the lead's judgement, testing, a human's yes, or work to do. */
export const LEARNED_KINDS = ['lead', 'testing', 'approval', 'work'] as const;
export type LearnedKind = (typeof LEARNED_KINDS)[number];

export const WORK_KINDS_DATA_FILE = 'routing/work-kinds.json';
export const WORK_DOMAINS_DATA_FILE = 'routing/work-domains.json';
/** The class of the domains model for a task of no specialist's domain (a lead's, a tester's, a developer of everything's). */
export const GENERAL_DOMAIN = 'general';

/** A feature held by fewer training tasks than this is left out of the model: one task's wording is not a pattern. */
const MIN_TASKS_PER_FEATURE = 2;
/** How sure the model must be before routing follows it: chosen by cross-validation over the tuned tasks, where its guesses this sure were right about nine times in ten for the lead's and 95% for the others. */
export const LEARNED_KIND_CONFIDENCE = 0.99;
/** Additive smoothing of the counts. */
const SMOOTHING = 0.5;

/**
 * A model as shipped: the features, and their counts as one flat list (a feature's row of one count
 * per kind, rows in `features` order). Flat lists parse several times faster than an object of
 * thousands of keys, and every route reads both models.
 */
const modelSchema = lazySchema(() =>
  mapping(
    v.pipe(
      v.object({
        schema: v.literal(2),
        about: v.string(),
        /** The classes the model tells apart: kinds of work, or domains (each a domain's names, space-separated). */
        kinds: v.pipe(v.array(v.pipe(v.string(), v.nonEmpty())), v.minLength(2)),
        /** Training tasks per kind, in `kinds` order. */
        tasks: v.array(v.pipe(v.number(), v.integer(), v.minValue(0))),
        /** The features training tasks held (MIN_TASKS_PER_FEATURE of them at least), sorted. */
        features: v.custom<string[]>((value) => Array.isArray(value) && value.every((feature) => typeof feature === 'string'), 'a list of features'),
        /** How many training tasks of each kind hold each feature: features.length × kinds.length counts. */
        counts: v.custom<number[]>((value) => Array.isArray(value) && value.every((count) => Number.isInteger(count) && count >= 0), 'a list of whole numbers'),
      }),
      v.check((model) => model.tasks.length === model.kinds.length && model.counts.length === model.features.length * model.kinds.length, 'one count per feature and kind'),
    ),
  ),
);
export type TaskModel = v.InferOutput<ReturnType<typeof modelSchema>>;

/**
 * The features of a task: its words (stemmed, stopwords kept: "should we" and "how do" say a lot
 * here), each pair of neighbouring words, the first word, and whether it ends in a question mark.
 */
export function workKindFeatures(task: string): string[] {
  return [...featuresAsWritten(task).keys()];
}

/** Each feature of the task (workKindFeatures) → the task's words it comes from, as written. */
function featuresAsWritten(task: string): Map<string, string> {
  const written = task.split(/[^\p{L}\p{N}'’]+/u).filter((word) => word.replace(/['’]/g, '') !== '');
  const stems = written.map((word) => stem(word.toLowerCase().replace(/['’]/g, '')));
  const features = new Map<string, string>();
  stems.forEach((term, i) => {
    if (!features.has(term)) features.set(term, written[i]!);
  });
  for (let i = 1; i < stems.length; i += 1) {
    const pair = `${stems[i - 1]} ${stems[i]}`;
    if (!features.has(pair)) features.set(pair, `${written[i - 1]} ${written[i]}`);
  }
  if (stems[0] !== undefined) features.set(`^${stems[0]}`, written[0]!);
  if (/\?\s*$/.test(task)) features.set('?', '?');
  return features;
}

/** The kinds-of-work model counted from `examples` (trainTaskModel over LEARNED_KINDS). */
export function trainWorkKindModel(examples: readonly { task: string; kind: LearnedKind }[], about: string): TaskModel {
  return trainTaskModel(examples, LEARNED_KINDS, about);
}

/** A model counted from `examples` of `kinds`, features held by fewer than MIN_TASKS_PER_FEATURE tasks left out, sorted for a stable file. */
export function trainTaskModel(examples: readonly { task: string; kind: string }[], kinds: readonly string[], about: string): TaskModel {
  const tasks = kinds.map(() => 0);
  const counts = new Map<string, number[]>();
  for (const { task, kind } of examples) {
    const k = kinds.indexOf(kind);
    if (k < 0) throw new Error(`a training task of an unknown kind "${kind}": ${task}`);
    tasks[k]! += 1;
    for (const feature of workKindFeatures(task)) {
      let row = counts.get(feature);
      if (row === undefined) counts.set(feature, (row = kinds.map(() => 0)));
      row[k]! += 1;
    }
  }
  const kept = [...counts].filter(([, row]) => row.reduce((a, b) => a + b, 0) >= MIN_TASKS_PER_FEATURE).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { schema: 2, about, kinds: [...kinds], tasks, features: kept.map(([feature]) => feature), counts: kept.flatMap(([, row]) => row) };
}

export interface LearnedKindGuess<K extends string = LearnedKind> {
  kind: K;
  /** The model's probability for `kind`, 0–1. */
  probability: number;
  /** The task's words (or pairs of words) that most favour `kind` over the others, as written, most first (at most three, no word twice). */
  evidence: string[];
}

const shipped = new Map<string, TaskModel>();

/** A model shipped with the package, read once. */
function shippedModel(file: string): TaskModel {
  let model = shipped.get(file);
  if (model === undefined) shipped.set(file, (model = checkedTemplateJson(file, modelSchema())));
  return model;
}

/** The kinds-of-work model shipped with the package. */
export function shippedWorkKindModel(): TaskModel {
  return shippedModel(WORK_KINDS_DATA_FILE);
}

/** The specialists' domains model shipped with the package. */
export function shippedWorkDomainModel(): TaskModel {
  return shippedModel(WORK_DOMAINS_DATA_FILE);
}

/** The domain `model` (the shipped one by default) finds most likely for `task`: its names, space-separated. */
export function classifyWorkDomain(task: string, model: TaskModel = shippedWorkDomainModel()): LearnedKindGuess<string> {
  return classifyTask(task, model);
}

/** The kind `model` finds most likely for `task`, with its probability and the features that favour it. */
export function classifyWorkKind(task: string, model: TaskModel = shippedWorkKindModel()): LearnedKindGuess {
  const guess = classifyTask(task, model);
  if (!(LEARNED_KINDS as readonly string[]).includes(guess.kind)) throw new Error(`the kinds-of-work model has a kind route does not know: ${guess.kind}`);
  return guess as LearnedKindGuess;
}

/** The class `model` finds most likely for `task`, with its probability and the words that favour it. */
function classifyTask(task: string, model: TaskModel): LearnedKindGuess<string> {
  const { occurrences, vocabulary, rowOf } = indexOf(model);
  const width = model.kinds.length;
  const total = model.tasks.reduce((a, b) => a + b, 0);
  // P(feature | kind): the share of that kind's feature occurrences, smoothed over the vocabulary.
  const logLikelihood = (feature: string, k: number) => Math.log((model.counts[rowOf.get(feature)! * width + k]! + SMOOTHING) / (occurrences[k]! + SMOOTHING * vocabulary));
  const features = featuresAsWritten(task);
  const known = [...features.keys()].filter((feature) => rowOf.has(feature));
  const logs = model.tasks.map((n, k) => known.reduce((score, feature) => score + logLikelihood(feature, k), Math.log((n + SMOOTHING) / (total + SMOOTHING * model.kinds.length))));
  const top = Math.max(...logs);
  const shares = logs.map((score) => Math.exp(score - top));
  const best = shares.indexOf(1);
  // The features that favour the kind chosen most over the likeliest other kind.
  const lean = (feature: string) => logLikelihood(feature, best) - Math.max(...model.kinds.map((_, k) => (k === best ? Number.NEGATIVE_INFINITY : logLikelihood(feature, k))));
  const evidence = known
    .map((feature) => ({ feature, lean: lean(feature) }))
    .filter(({ lean }) => lean > 0)
    .sort((a, b) => b.lean - a.lean)
    .map(({ feature }) => features.get(feature)!)
    .filter((words, i, all) => all.indexOf(words) === i)
    .slice(0, 3);
  return { kind: model.kinds[best]!, probability: 1 / shares.reduce((a, b) => a + b, 0), evidence };
}

const indexes = new WeakMap<TaskModel, { occurrences: number[]; vocabulary: number; rowOf: Map<string, number> }>();

/** Each feature's row, feature occurrences per kind and the vocabulary's size, made once per model. */
function indexOf(model: TaskModel): { occurrences: number[]; vocabulary: number; rowOf: Map<string, number> } {
  let known = indexes.get(model);
  if (known === undefined) {
    const width = model.kinds.length;
    const occurrences = model.kinds.map(() => 0);
    model.counts.forEach((count, i) => {
      occurrences[i % width]! += count;
    });
    known = { occurrences, vocabulary: model.features.length, rowOf: new Map(model.features.map((feature, row) => [feature, row])) };
    indexes.set(model, known);
  }
  return known;
}

/** The counts of `feature` per kind in `model`, undefined when the model does not hold it. */
export function featureCounts(model: TaskModel, feature: string): number[] | undefined {
  const row = indexOf(model).rowOf.get(feature);
  return row === undefined ? undefined : model.counts.slice(row * model.kinds.length, (row + 1) * model.kinds.length);
}
