/**
 * What create-squad's declarative shapes share (the `.squad` document, skill frontmatter, the JSON
 * catalogs, the casting registry), written with valibot: building a schema once on first use,
 * a record that keeps every own key, and turning valibot's first issue into "where: what" text.
 *
 * valibot is bundled into each command that uses it (tree-shaken, scripts/bundle-cli.mjs); the
 * schemas are built lazily (`lazySchema`), so `--version` and `--help` never load or build them.
 */
import * as v from 'valibot';
import { isMapping, jsonTypeName } from './util.js';

/** A schema built on first use and kept: importing a module costs nothing until it validates. */
export function lazySchema<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

/** How an entry is named in messages: `.name` for plain names, `["…"]` for anything else. */
export function entryPath(base: string, key: string | number, bracket = false): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  if (!bracket && /^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$/.test(key)) return base ? `${base}.${key}` : key;
  const shown = key.length > 80 ? `${key.slice(0, 79)}…` : key;
  return `${base}[${JSON.stringify(shown)}]`;
}

/** A type message: "must be an object, not a list"; a missing value "is missing (must be …)". */
export function mustBe(what: string): (issue: v.BaseIssue<unknown>) => string {
  return (issue) => (issue.input === undefined ? `is missing (must be ${what})` : `must be ${what}, not ${jsonTypeName(issue.input)}`);
}

/** What valibot's `expects` says, in words: "string" → "a string". */
function expectedWords(expects: string): string {
  const words: Record<string, string> = { string: 'a string', Object: 'an object', boolean: 'true or false', number: 'a number', Array: 'a list' };
  return expects
    .split(' | ')
    .map((part) => words[part] ?? part)
    .join(' or ');
}

/**
 * The message of an object schema: a required field that is missing ("is missing (must be a
 * string)", valibot reports it at the field with the object's message), else `mustBe(what)`.
 */
export function objectMessage(what: string, entries: v.ObjectEntries): (issue: v.BaseIssue<unknown>) => string {
  return (issue) => {
    const key = issue.path?.[issue.path.length - 1]?.key;
    const entry = issue.input === undefined && typeof key === 'string' && Object.hasOwn(entries, key) ? entries[key] : undefined;
    return entry ? `is missing (must be ${expectedWords(entry.expects)})` : mustBe(what)(issue);
  };
}

type Run = (dataset: v.UnknownDataset, config: v.Config<v.BaseIssue<unknown>>) => v.OutputDataset<unknown, v.BaseIssue<unknown>>;

/**
 * `v.record`, except that every own key is kept: valibot's record leaves out `constructor`,
 * `prototype` and `__proto__` without a word, and those are valid skill names and file names. Keys
 * are defined as own data properties, so `__proto__` stays a key, never a prototype. Converts to
 * JSON Schema as a record (same `type`, `key` and `value`).
 */
export function ownRecord<const Key extends v.BaseSchema<string, string, v.BaseIssue<unknown>>, const Value extends v.BaseSchema<unknown, unknown, v.BaseIssue<unknown>>>(
  key: Key,
  value: Value,
  message?: v.ErrorMessage<v.RecordIssue>,
): v.RecordSchema<Key, Value, v.ErrorMessage<v.RecordIssue> | undefined> {
  const schema = v.record(key, value, message);
  const recordRun = (schema as unknown as { '~run': Run })['~run'].bind(schema);
  const run: Run = (dataset, config) => {
    const input = dataset.value;
    if (!isMapping(input)) return notMapping(schema, dataset, config, recordRun);
    const output: Record<string, unknown> = {};
    let typed = true;
    const issues: v.BaseIssue<unknown>[] = [];
    for (const entryKey of Object.keys(input)) {
      const entryValue = (input as Record<string, unknown>)[entryKey];
      for (const [origin, part, datasetIn] of [
        ['key', key, entryKey],
        ['value', value, entryValue],
      ] as const) {
        const result = part['~run']({ value: datasetIn }, config);
        if (result.issues) {
          const item = { type: 'object', origin, input, key: entryKey, value: entryValue } as const;
          for (const issue of result.issues) {
            (issue as { path?: unknown[] }).path = [item, ...(issue.path ?? [])];
            issues.push(issue);
          }
          typed = false;
          if (config.abortEarly) return { typed: false, value: input, issues } as never;
        }
        if (origin === 'value' && result.typed) {
          Object.defineProperty(output, entryKey, { value: result.value, enumerable: true, writable: true, configurable: true });
        }
      }
    }
    return (issues.length > 0 ? { typed, value: typed ? output : input, issues } : { typed: true, value: output }) as never;
  };
  (schema as unknown as { '~run': unknown })['~run'] = run;
  return schema;
}

/** The type issue of an object schema for a value that is no JSON object (valibot takes a list for one). */
function notMapping(schema: object, dataset: v.UnknownDataset, config: v.Config<v.BaseIssue<unknown>>, run: Run): v.OutputDataset<unknown, v.BaseIssue<unknown>> {
  if (!Array.isArray(dataset.value)) return run(dataset, config); // its own type issue, with its message
  v._addIssue(schema as never, 'type', dataset, config);
  return dataset as never;
}

/**
 * An object schema (`v.object`, `v.strictObject`) that refuses a list: valibot reads a list as an
 * object with index keys. Converts to JSON Schema as the object it wraps.
 */
export function mapping<S extends v.GenericSchema>(schema: S): S {
  const run = (schema as unknown as { '~run': Run })['~run'].bind(schema);
  (schema as unknown as { '~run': Run })['~run'] = (dataset, config) => (isMapping(dataset.value) ? run(dataset, config) : notMapping(schema, dataset, config, run));
  return schema;
}

/** One problem: `path` names the entry (valibot's path items: object keys and list indexes), `message` says what is wrong. */
export interface SchemaProblem {
  /** Keys and indexes from the checked value to the entry (for an unexpected field: to its object). */
  path: (string | number)[];
  message: string;
}

/**
 * The first problem valibot finds in `value`, or undefined. A union whose options all fail on a
 * value of the right kind (an object for a "string or object" entry) reports the problem inside
 * that option, not "none of the options".
 */
export function firstProblem(schema: v.GenericSchema, value: unknown): SchemaProblem | undefined {
  const result = v.safeParse(schema, value, { abortEarly: true });
  if (result.success) return undefined;
  return describeIssue(result.issues[0]);
}

/** The value as the schema gives it back (defaults filled in), or its first problem. */
export function parseWith<S extends v.GenericSchema>(schema: S, value: unknown): { value: v.InferOutput<S> } | { problem: SchemaProblem } {
  const result = v.safeParse(schema, value, { abortEarly: true });
  return result.success ? { value: result.output } : { problem: describeIssue(result.issues[0]) };
}

/** Every problem valibot finds in `value`, in order. */
export function allProblems(schema: v.GenericSchema, value: unknown): SchemaProblem[] {
  const result = v.safeParse(schema, value);
  return result.success ? [] : result.issues.map((issue) => describeIssue(issue));
}

function describeIssue(issue: v.BaseIssue<unknown>, prefix: (string | number)[] = []): SchemaProblem {
  // An unexpected field is a problem of its object (the message names the field).
  const items = issue.type === 'strict_object' && issue.expected === 'never' ? (issue.path ?? []).slice(0, -1) : (issue.path ?? []);
  const path = [...prefix, ...items.map((item) => item.key as string | number)];
  if (issue.type === 'union' && issue.issues) {
    // The option that got furthest: a sub-issue below the union's own level, or a validation failure.
    const inner = issue.issues.find((sub) => (sub.path?.length ?? 0) > 0 || sub.kind === 'validation');
    if (inner) return describeIssue(inner, path);
  }
  return { path, message: issue.message };
}

/** A problem's entry as message text (entryPath), from `base`; `bracket` says which keys are shown as `["…"]`. */
export function problemWhere(problem: SchemaProblem, base = '', bracket: (path: readonly (string | number)[], index: number) => boolean = () => false): string {
  let where = base;
  problem.path.forEach((key, index) => {
    where = entryPath(where, key, typeof key === 'string' && bracket(problem.path, index));
  });
  return where;
}
