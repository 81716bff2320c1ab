/**
 * The built-in synonyms of skill ranking: words a developer writes in a task for what a skill's
 * description says another way. Data only: skill-rank.ts builds the table (synonymTable) and a
 * squad adds its own in `.ai-team/synonyms.md` (team-synonyms.ts; docs/skills.md).
 *
 * Kept to words that mean the same in any project: abbreviations, other spellings, a tool's other
 * name. A word that means something else in common use ("port", "word", "token") is left out.
 */

/** Words that count for one another, in both directions. */
export const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  // Abbreviations and other names
  ['postgres', 'postgresql', 'psql'],
  ['k8s', 'kubernetes'],
  ['js', 'javascript'],
  ['ts', 'typescript'],
  ['py', 'python'],
  ['golang', 'go'],
  ['tf', 'terraform'],
  ['db', 'database'],
  ['repo', 'repository'],
  ['doc', 'docs', 'documentation'],
  ['spec', 'specification'],
  ['config', 'configuration', 'settings'],
  ['env', 'environment'],
  ['auth', 'authentication', 'login'],
  ['deps', 'dependency'],
  ['perf', 'performance'],
  ['async', 'await', 'asynchronous'],
  ['app', 'application'],
  ['infra', 'infrastructure'],
  ['i18n', 'internationalization', 'localization', 'l10n', 'translation', 'translate'],
  ['a11y', 'accessibility'],
  ['gh', 'github'],
  ['md', 'markdown'],
  ['yml', 'yaml'],
  ['regex', 'regexp'],
  ['e2e', 'end-to-end'],
  ['llm', 'llms'],
  ['cli', 'terminal'],
  ['vuln', 'vulnerability', 'cve'],
  // One thing, several words
  ['bump', 'upgrade', 'update'],
  ['slides', 'deck', 'presentation', 'powerpoint', 'pptx'],
  ['spreadsheet', 'workbook', 'excel', 'xlsx'],
  ['picture', 'image', 'photo'],
  ['outage', 'incident'],
  ['postmortem', 'retrospective'],
  ['bug', 'defect'],
  ['flaky', 'intermittent'],
  ['mock', 'stub', 'fake'],
  ['telemetry', 'instrumentation', 'observability'],
  ['credential', 'secret'],
  ['website', 'site'],
  ['email', 'mail'],
  ['gif', 'animation'],
  ['lint', 'linter'],
  ['format', 'formatter'],
  ['notify', 'notification'],
  ['cron', 'schedule'],
  ['debug', 'troubleshoot', 'diagnose', 'diagnosis'],
  ['audit', 'review'],
  ['validate', 'verify', 'verification'],
  ['error', 'exception'],
  ['alert', 'alarm'],
  ['runbook', 'playbook'],
  ['css', 'styling', 'stylesheet'],
  ['ads', 'advertising', 'adverts'],
  ['resume', 'cv'],
  ['node', 'nodejs'],
  // British and American spellings the stemmer keeps apart
  ['optimise', 'optimize'],
  ['optimisation', 'optimization'],
  ['organisation', 'organization'],
  ['analyse', 'analyze'],
  ['behaviour', 'behavior'],
  ['licence', 'license'],
  ['colour', 'color'],
  ['visualise', 'visualize'],
  ['customise', 'customize'],
  ['initialise', 'initialize'],
  ['normalise', 'normalize'],
  ['serialise', 'serialize'],
  ['catalogue', 'catalog'],
];

/** Words that count for others, one way only: a task's word is often said of what these words name. */
export const SYNONYM_ONE_WAY: readonly { from: string; to: readonly string[] }[] = [
  { from: 'slow', to: ['performance', 'latency', 'optimization'] },
  { from: 'faster', to: ['performance', 'optimization'] },
  { from: 'speed', to: ['performance', 'optimization'] },
  { from: 'docker', to: ['container', 'containerize', 'dockerfile'] },
  { from: 'dockerfile', to: ['docker', 'container'] },
  { from: 'leaked', to: ['secret', 'exposure'] },
  { from: 'docx', to: ['word'] },
  { from: 'pdfs', to: ['pdf'] },
  { from: 'bill', to: ['cost'] },
  { from: 'spend', to: ['cost'] },
  { from: 'expensive', to: ['cost'] },
  { from: 'cheaper', to: ['cost'] },
  { from: 'charge', to: ['pricing'] },
  { from: 'sheet', to: ['spreadsheet'] },
  { from: 'pr', to: ['pull'] },
  { from: 'ticket', to: ['issue'] },
  { from: 'password', to: ['credential', 'secret'] },
  { from: 'endpoint', to: ['api'] },
  { from: 'ship', to: ['deploy', 'release'] },
  { from: 'rollout', to: ['deploy', 'release'] },
  { from: 'crash', to: ['error', 'exception'] },
  { from: 'restructure', to: ['refactor'] },
  { from: 'cleanup', to: ['refactor'] },
  { from: 'screencast', to: ['video', 'recording'] },
  { from: 'ci', to: ['pipeline', 'workflow'] },
  { from: 'iac', to: ['infrastructure'] },
  { from: 'monitor', to: ['observability', 'telemetry'] },
  { from: 'roadmap', to: ['plan'] },
  { from: 'prd', to: ['requirements'] },
  { from: 'adr', to: ['decision', 'architectural'] },
  { from: 'rbac', to: ['role', 'permission'] },
  { from: 'signup', to: ['registration', 'onboarding'] },
  { from: 'signin', to: ['login', 'authentication'] },
  { from: 'jsx', to: ['react'] },
  { from: 'nextjs', to: ['next'] },
  { from: 'cargo', to: ['rust'] },
  { from: 'uml', to: ['diagram'] },
  { from: 'flowchart', to: ['diagram'] },
  { from: 'seo', to: ['search'] },
];

/**
 * Spellings that the tokenizer would lose ("C#" is the one-letter word "c"), written the way skill
 * names spell them before a task is ranked. ASCII patterns: a letter of another script next to one
 * is rare, and Unicode classes cost start-up time to build.
 */
export const SPELLINGS: readonly { pattern: RegExp; as: string }[] = [
  { pattern: /(?<![a-z0-9])c#(?![a-z0-9])/gi, as: ' csharp ' },
  { pattern: /(?<![a-z0-9])f#(?![a-z0-9])/gi, as: ' fsharp ' },
  { pattern: /(?<![a-z0-9])c\+\+(?![a-z0-9])/gi, as: ' cpp ' },
  { pattern: /(?<![a-z0-9.])\.net(?![a-z0-9])/gi, as: ' dotnet ' },
];

/** Characters one of SPELLINGS holds: a task without any needs no pattern run. */
export const SPELLING_MARKS = /[#+]|\.net/i;
