/**
 * The team's routing.md as routing reads it: the routing table(s) (work type → who, with examples)
 * and the issue-label rules (`squad:{name}` → who), from the file's text (this module reads no
 * file). Both layouts are read: create-squad's (| Work Type | Route To | Role |) and the original
 * Squad's (| Work Type | Route To | Examples |, with emoji, links, bold, "Name (role)" cells and
 * several names in one cell; a `{Name}` placeholder row is a template row nobody filled in).
 * Then the matcher: which row a task falls under, by the rows' own words.
 */
import { findTables, locatedRecords, type TableRecord } from '../base/md-table.js';
import { tokenize } from '../base/text-match.js';
import { classifyWorkDomain, GENERAL_DOMAIN, LEARNED_KIND_CONFIDENCE } from './work-kind-model.js';

export interface RoutingRow {
  /** The row's line in routing.md, counted from 1. */
  line: number;
  /** The Work Type cell, as plain text (links, emphasis and emoji dropped). */
  workType: string;
  /** The Route To cell as plain text ("Baer", "Ripley (Backend Dev)", "Dallas, Kane"). */
  routeTo: string;
  /** The names the Route To cell holds, in order ("Name (role)" gives the name). */
  names: string[];
  /** The row's other cells (examples, role), as plain text. */
  examples: string;
}

export interface LabelRule {
  line: number;
  /** The label as written, without backticks: "squad", "squad:{name}", "squad:copilot". */
  label: string;
  /** The Who cell as plain text. */
  who: string;
  names: string[];
}

export interface RoutingTable {
  rows: RoutingRow[];
  labels: LabelRule[];
}

/** Columns that name who a row routes to. */
const WHO_COLUMNS = ['route to', 'who', 'owner', 'member', 'agent', 'assign to', 'assignee'];
/** Columns that name the kind of work of a row. */
const WORK_COLUMNS = ['work type', 'work', 'domain', 'area', 'type', 'task', 'tasks'];
const LABEL_COLUMN = 'label';

function whoColumn(columns: readonly string[]): string | undefined {
  return WHO_COLUMNS.find((column) => columns.includes(column));
}

/** A cell as plain text: markdown links give their text, emphasis marks, backticks and emoji go. */
export function plainText(cell: string): string {
  return cell
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*\*|__|`/g, '')
    .replace(/\p{Extended_Pictographic}|\u{FE0F}|\u{200D}|[\u{1F3FB}-\u{1F3FF}]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A placeholder of an unfilled template: `{Name}`, `{domain 1}`. */
const PLACEHOLDER = /\{[^}]*\}/;
/** Between two names in one cell: a comma, a slash, "&", "+", ";", "and", "or", an arrow. */
const NAME_SEPARATOR = /\s*(?:[,;/&+]|→|->|\band\b|\bor\b|\bthen\b)\s*/i;

/**
 * The names in a Route To cell, in order: "[Keaton](url)" → Keaton, "Brady 👤" → Brady,
 * "Ripley (Backend Dev)" → Ripley, "**Dallas**, Kane" → Dallas and Kane. A placeholder names nobody.
 */
export function cellNames(cell: string): string[] {
  const plain = plainText(cell).replace(/\([^)]*\)/g, ' ');
  return plain
    .split(NAME_SEPARATOR)
    .filter((part) => !PLACEHOLDER.test(part))
    .map((part) =>
      part
        .replace(/[^\p{L}\p{N}\s.'@_-]/gu, '')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((name) => /[\p{L}\p{N}]/u.test(name));
}

/**
 * Every routing table of routing.md (a table with a Route To column, or Who/Owner/Member beside a
 * Work Type column) and every label table (a Label column beside a Who/Route To column), rows in
 * file order. Rows whose work type or Route To cell is an unfilled placeholder are left out.
 */
export function parseRoutingTable(text: string): RoutingTable {
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  const rows: RoutingRow[] = [];
  const labels: LabelRule[] = [];
  const tables = findTables(lines, (columns) => whoColumn(columns) !== undefined);
  for (const table of tables) {
    const who = whoColumn(table.columns)!;
    const records = locatedRecords(lines, table);
    if (table.columns.includes(LABEL_COLUMN)) {
      records.forEach((record, i) => {
        const label = plainText(record[LABEL_COLUMN] ?? '');
        if (label === '') return;
        labels.push({ line: table.firstRow + i + 1, label, who: plainText(record[who] ?? ''), names: cellNames(record[who] ?? '') });
      });
      continue;
    }
    const work = WORK_COLUMNS.find((column) => table.columns.includes(column)) ?? table.columns.find((column) => column !== who);
    if (work === undefined || (who !== 'route to' && !WORK_COLUMNS.includes(work))) continue;
    records.forEach((record, i) => {
      const row = routingRow(record, work, who, table.firstRow + i + 1);
      if (row) rows.push(row);
    });
  }
  return { rows, labels };
}

function routingRow(record: TableRecord, work: string, who: string, line: number): RoutingRow | undefined {
  const workType = plainText(record[work] ?? '');
  const names = cellNames(record[who] ?? '');
  if (workType === '' || PLACEHOLDER.test(workType) || names.length === 0) return undefined;
  const examples = Object.entries(record)
    .filter(([column, cell]) => column !== work && column !== who && !PLACEHOLDER.test(cell))
    .map(([, cell]) => plainText(cell))
    .filter((cell) => cell !== '')
    .join('; ');
  return { line, workType, routeTo: plainText(record[who] ?? ''), names, examples };
}

// ---------------------------------------------------------------- the task's words

/**
 * Words that say nothing about who should do the work: the verbs of any task ("write", "check",
 * "improve") and the filler of routing tables ("automatic", "never", "needs"). As stems.
 */
export const GENERIC_WORDS: ReadonlySet<string> = new Set(
  tokenize(
    'write writing written find check checks suggest improve improvement verify build create update change changes work works task tasks ' +
      'get gets got set go goes make makes made do does done thing things stuff hard easy good better well defined matching small ' +
      'automatic automatically never needs routing route next quick fast slow help look start run running item items ' +
      'handle handles handling own owns keep keeps code codebase app application project repo repository file files team squad',
  ),
);

/** Words the skill ranking drops as stopwords that still tell members apart (a row's "bug fixes"). */
const ROUTING_KEEPS: ReadonlySet<string> = new Set(['fix']);

/** A request line of HTTP (`GET /todos`): the task is about an API endpoint. */
const HTTP_REQUEST = /\b(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+(?:\/\S*|(?:routes?|endpoints?|requests?|handlers?|calls?)\b)/;
/** A pull (or merge) request is a PR to review, not an HTTP request: routing tables write "PRs". */
const PULL_REQUEST = /\b(?:pull|merge)[- ]requests?\b/gi;
/** A lead time is how long something takes, not the Lead's work. */
const LEAD_TIME = /\blead[- ]times?\b/gi;

/**
 * Work domains: the words routing tables, roles and charters use for a kind of work (`names`), and
 * the everyday words (`words`) and phrases of several words (`phrases`) tasks use for it: "spinner"
 * and "cards" are UI work, "foreign key" is database work, "try to break" is testing. Each task word
 * of a domain, and the last word of each phrase of it, adds the domain's names as other readings of
 * that word (shown as "spinner→ui"), so a task finds the member whose row or role names the domain
 * even when it shares no word with them. A word may belong to several domains ("icon": UI and visual
 * design); whichever reading a row or member holds counts, once per task word.
 */
const WORK_DOMAINS: readonly { names: string; words: string; phrases?: readonly string[] }[] = [
  {
    names: 'database',
    words:
      'table tables index indexes query queries sql schema schemas migration migrations postgres postgresql mysql sqlite mariadb orm column columns ' +
      'constraint constraints join joins transaction transactions prisma typeorm sequelize knex drizzle mongo mongodb redis dynamodb db nosql ' +
      'upsert upserts deadlock deadlocks elasticsearch cassandra supabase firestore sqlalchemy activerecord backfill backfills',
    phrases: ['foreign key', 'primary key', 'stored procedure', 'already stored', 'existing rows', 'existing records'],
  },
  {
    names: 'api',
    words:
      'endpoint endpoints rest graphql http response responses webhook webhooks grpc json payload payloads backend cors openapi swagger trpc rpc pagination paginate paginated',
    phrases: ['status code', 'server side', 'rate limit', 'rate limits', 'rate limiting'],
  },
  {
    names: 'runtime',
    words:
      'quit quits quitting exit exits shutdown signal signals sigint sigterm cancel cancels cancelled canceled cancellation abort aborts aborted lifecycle stream streams streaming backpressure ' +
      'reconnect reconnects reconnection disconnect disconnects disconnected orphan orphaned zombie timeout timeouts',
    phrases: ['event loop', 'in flight', 'child process', 'graceful shutdown', 'ctrl c'],
  },
  { names: 'prompt', words: 'persona personas personality personalities tone voice wording phrasing greeting greetings reply replies instruct instructed' },
  { names: 'extension', words: 'vscode ide editor editors sidebar webview', phrases: ['vs code', 'visual studio code', 'chat participant', 'command palette', 'status bar'] },
  {
    names: 'ui frontend',
    words:
      'screen screens button buttons dropdown modal dialog tooltip toast navbar menu tab tabs card cards spinner loader layout css html ' +
      'style styles styling restyle stylesheet theme dark component components responsive mobile animation animations hover click drag checkbox ' +
      'skeleton placeholder heading headings spacing padding margin margins alignment contrast grey gray navigation nav form forms popup popover carousel slider toggle zoom flicker flickers flickering rerender rerenders ux ' +
      'accessibility a11y aria browser icon icons color colors colour colours font fonts view views autocomplete keyboard keystroke keystrokes input inputs scroll scrolling printable ' +
      'photo photos image images picture pictures thumbnail thumbnails fallback',
    phrases: ['light mode', 'dark mode', 'blank page', 'white page', 'print view', 'print stylesheet', 'print preview', 'print layout'],
  },
  {
    names: 'tests',
    words:
      'coverage regression regressions flaky e2e spec specs fuzz fuzzing mock mocks stub stubs fixture fixtures assertion assertions qa repro reproduce ' +
      'untested playwright cypress selenium puppeteer jest vitest mocha pytest junit testcase testcases harness',
    phrases: ['edge case', 'corner case', 'try to break', 'invalid input', 'bad input', 'end to end'],
  },
  {
    names: 'security',
    words:
      'secret secrets token tokens credential credentials vulnerability vulnerabilities vulnerable xss csrf injection auth authentication authz ' +
      'password passwords permission permissions encrypt encryption encrypted cve exploit exploits attacker threat threats sanitize sanitise ' +
      'leak leaked leaks secure insecure harden hardening sandbox traversal ssrf rce csp oauth jwt mfa 2fa sso',
    phrases: ['authorization header', 'authorization check', 'authorization checks', 'access token', 'api key', 'safe to ship', 'safe to run', 'shell commands', 'arbitrary code'],
  },
  {
    names: 'privacy pii',
    words: 'pii gdpr ccpa consent cookie cookies telemetry tracker trackers anonymize anonymise anonymous redact redaction',
    phrases: [
      'tracking pixel',
      'tracking script',
      'user tracking',
      'user names',
      'user data',
      'personal data',
      'personal emails',
      'personal information',
      'email addresses',
      'ip addresses',
      'phone numbers',
    ],
  },
  {
    names: 'compliance',
    words: 'legal license licenses licensing licence policy policies',
    phrases: ['terms of service', 'terms of use', 'allowed under', 's terms'],
  },
  {
    names: 'documentation',
    words:
      'docs readme readmes guide guides tutorial tutorials blog article articles announcement announcements announce newsletter walkthrough screencast video videos demo demos faq quickstart handbook wiki ' +
      'piece essay explainer writeup jsdoc docstring docstrings troubleshooting',
    phrases: ['getting started', 'quick start', 'write up', 'how to'],
  },
  {
    names: 'messaging',
    words: 'tagline taglines slogan slogans headline headlines marketing pitch',
    phrases: ['elevator pitch', 'landing page', 'value proposition', 'talk about'],
  },
  { names: 'release', words: 'release releases changelog semver hotfix prerelease', phrases: ['release notes', 'version bump', 'release candidate', 'cut a release'] },
  {
    names: 'git',
    words: 'commit commits branch branches rebase rebased reflog cherry tag tags bisect stash submodule submodules gitignore gitattributes',
    phrases: ['force push', 'force pushed', 'branch protection', 'protected branch', 'merge conflict', 'merge conflicts', 'squash merge'],
  },
  {
    names: 'distribution',
    words: 'executable executables binary binaries installer installers tarball npx publish publishing homebrew brew winget chocolatey scoop deb rpm msi',
    phrases: ['global install', 'single file'],
  },
  {
    names: 'ci devops',
    words:
      'pipeline pipelines workflow workflows deploy deployment deployments docker dockerfile kubernetes k8s helm terraform infrastructure runner runners container containers nightly jenkins circleci buildkite',
    phrases: ['github actions'],
  },
  {
    names: 'performance',
    words:
      'latency throughput memory profiling profiler cpu bottleneck bottlenecks perf benchmark benchmarks optimize optimise optimization speed freeze freezes frozen stall stalls hang hangs lag ' +
      'sluggish cache caching cached slow slower slowness slowly faster quicker startup milliseconds',
    phrases: ['memory leak', 'load time', 'page load', 'start up', 'startup time', 'cold start'],
  },
  {
    names: 'refactoring',
    words: 'refactor rename renaming renames cleanup tidy simplify readability readable tangled untangle spaghetti duplicated duplication dedupe consolidate modularize',
    phrases: ['clean up', 'dead code', 'break up', 'break it up', 'split up', 'pull it out', 'pull out', 'shared helper'],
  },
  {
    names: 'visual graphic',
    words:
      'draw drawing illustration illustrations illustrate logo logos icon icons badge badges banner artwork graphics mascot palette color colors colour colours ' +
      'font fonts typography branding brand svg avatar avatars sketch mockup mockups wireframe wireframes figma favicon favicons thumbnail thumbnails portrait portraits style',
    phrases: ['social preview', 'og image'],
  },
  {
    names: 'typescript',
    words:
      'type types typing typings typecheck typechecking tsc tsconfig nouncheckedindexedaccess noimplicitany strictnullchecks generics generic nullable undefined esm commonjs cjs declaration declarations',
    phrases: ['type error', 'compile error', 'compiler error', 'compiler config', 'compiler options', 'path alias', 'path aliases', 'module resolution'],
  },
  { names: 'review', words: 'pr prs' },
];

/** A task word's stem → the names of its domains' readings (stems, with the name as written). */
function domainsOf(): ReadonlyMap<string, readonly (readonly [stem: string, name: string])[]> {
  if (domainsOfWords !== undefined) return domainsOfWords;
  const of = new Map<string, [string, string][]>();
  for (const { names, words } of WORK_DOMAINS) {
    const readings = names.split(' ').map((name) => [tokenize(name)[0]!, name] as [string, string]);
    for (const term of tokenize(words)) of.set(term, [...(of.get(term) ?? []), ...readings.filter(([r]) => r !== term)]);
  }
  domainsOfWords = of;
  return of;
}
/** Stemmed on first use: commands that load routing without routing a task (prompt) never pay for the stems. */
let domainsOfWords: ReadonlyMap<string, readonly (readonly [stem: string, name: string])[]> | undefined;

/** A word of a task or a phrase as phrases compare it: its stem, or the word itself when it is a stopword ("up" of "clean up"). */
function phraseKey(word: string): string {
  return tokenize(word)[0] ?? word;
}

/** The lowercased words of `text`, stopwords included: phrases span them. */
function phraseWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/** The domains' phrases as keys (phraseKey), each with its domain's readings; made on first use, as domainsOf. */
function domainPhrases(): readonly { keys: readonly string[]; readings: readonly (readonly [string, string])[] }[] {
  domainPhraseKeys ??= WORK_DOMAINS.flatMap(({ names, phrases = [] }) =>
    phrases.map((phrase) => ({ keys: phraseWords(phrase).map(phraseKey), readings: names.split(' ').map((name) => [tokenize(name)[0]!, name] as const) })),
  );
  return domainPhraseKeys;
}
let domainPhraseKeys: readonly { keys: readonly string[]; readings: readonly (readonly [string, string])[] }[] | undefined;

/** One task word's readings: its own stem (as the task wrote the word), and the domain names it stands for. */
export type RoutingTerm = readonly [term: string, written: string];

/**
 * The task's words that can say who should do it: stems (stopwords and GENERIC_WORDS dropped), each
 * with the word the task first wrote for it; then, for each of those words, the domain names it or a
 * phrase it ends stands for (WORK_DOMAINS, written "table→database"), and "api" for an HTTP request
 * line (`GET /todos`). A domain name the task writes itself is no extra reading.
 */
export function routingTerms(task: string): readonly RoutingTerm[] {
  // One route reads the task's terms for the ranking, the rows and each role title: made once per task.
  if (lastTerms?.task !== task) lastTerms = { task, terms: readRoutingTerms(task) };
  return lastTerms.terms;
}
let lastTerms: { task: string; terms: readonly RoutingTerm[] } | undefined;

function readRoutingTerms(task: string): RoutingTerm[] {
  const own = new Map<string, string>();
  const written = phraseWords(task.replace(PULL_REQUEST, 'PR').replace(LEAD_TIME, 'leadtime'));
  for (const word of written) {
    // "fix" is a stopword for skills but says who fixes bugs; "fixes" in a row reaches the same stem.
    const [term] = ROUTING_KEEPS.has(word) ? [word] : tokenize(word);
    if (term === undefined || GENERIC_WORDS.has(term) || own.has(term)) continue;
    own.set(term, word);
  }
  // Every word in order, stopwords included, as phrases compare them.
  const keys = written.map(phraseKey);
  const terms: RoutingTerm[] = [...own];
  const readings: [string, string][] = [];
  const add = (written: string, domains: readonly (readonly [string, string])[]) => {
    for (const [term, name] of domains) {
      const label = `${written}→${name}`;
      if (!own.has(term) && !readings.some(([t, w]) => t === term && w.split('→')[0] === written)) readings.push([term, label]);
    }
  };
  for (const [term, written] of own) add(written, domainsOf().get(term) ?? []);
  for (const { keys: phrase, readings: domains } of domainPhrases()) {
    for (let at = 0; at + phrase.length <= keys.length; at += 1) {
      if (phrase.every((key, i) => keys[at + i] === key)) {
        const last = at + phrase.length - 1;
        add(own.get(keys[last]!) ?? written[last]!, domains);
      }
    }
  }
  const request = HTTP_REQUEST.exec(task);
  if (request) add(request[0], [[tokenize('api')[0]!, 'api']]);
  // A specialist's domain the task's wording tells when no listed word does, learned from tasks: read through the word that tells it most.
  const learned = classifyWorkDomain(task);
  if (learned.kind !== GENERAL_DOMAIN && learned.probability >= LEARNED_KIND_CONFIDENCE && learned.evidence[0] !== undefined) {
    add(
      `(${learned.evidence[0].toLowerCase()})`,
      learned.kind.split(' ').map((name) => [tokenize(name)[0]!, name] as const),
    );
  }
  return [...terms, ...readings];
}

/** How many of the task's own words `words` (as routingTerms writes them) hold: "table" and "table→database" are one. */
export function taskWordCount(words: Iterable<string>): number {
  return new Set([...words].map((word) => word.split('→')[0])).size;
}

/**
 * The task's terms (routingTerms) grouped by the word the task wrote: "table" with "table→database",
 * "GET /todos→api" alone. Each group is one piece of evidence.
 */
export function termsBySource(terms: readonly RoutingTerm[]): Map<string, RoutingTerm[]> {
  const groups = new Map<string, RoutingTerm[]>();
  for (const [term, written] of terms) {
    const source = written.split('→')[0]!;
    const group = groups.get(source);
    if (group) group.push([term, written]);
    else groups.set(source, [[term, written]]);
  }
  return groups;
}

// ---------------------------------------------------------------- matching a task to the rows

export interface RowMatch {
  row: RoutingRow;
  score: number;
  /** The task's words the row holds, as the task wrote them. */
  words: string[];
}

/** A word in the Work Type cell says more than one among the examples. */
const WORK_TYPE_WEIGHT = 2;

/**
 * The rows `task` matches, best first: each task word a row holds counts by how few rows hold it
 * (a word of every row says nothing) and double in the Work Type cell; a word and the domain word
 * it stands for count once. Rows that hold no word of the
 * task are left out; equal scores keep file order.
 */
export function matchRoutingRows(task: string, rows: readonly RoutingRow[]): RowMatch[] {
  const bySource = termsBySource(routingTerms(task));
  const rowTerms = rows.map((row) => ({ work: new Set(tokenize(row.workType)), all: new Set([...tokenize(row.workType), ...tokenize(row.examples)]) }));
  const weight = (term: string, i: number) => {
    const { work, all } = rowTerms[i]!;
    if (!all.has(term)) return 0;
    const holding = rowTerms.filter((r) => r.all.has(term)).length;
    return Math.log(1 + rows.length / holding) * (work.has(term) ? WORK_TYPE_WEIGHT : 1);
  };
  const matches: RowMatch[] = [];
  rows.forEach((row, i) => {
    let score = 0;
    const words: string[] = [];
    // A task word and the domain word it stands for count once, the better of the two.
    for (const variants of bySource.values()) {
      const [best] = variants.map(([term, written]) => ({ written, weight: weight(term, i) })).sort((a, b) => b.weight - a.weight);
      if (best === undefined || best.weight === 0) continue;
      score += best.weight;
      words.push(best.written);
    }
    if (score > 0) matches.push({ row, score, words });
  });
  return matches.sort((a, b) => b.score - a.score);
}
