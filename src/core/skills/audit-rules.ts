/**
 * The rules of the skill audit (audit.ts), as data: what each one finds, how severe it is, why a
 * reviewer should look, where in a skill it looks and, for the rules that read lines, the patterns.
 * `skills add` and `skills update` show the findings before anything is written and need consent
 * for any finding above `info`; `skills audit` reports them for installed skills. docs/skills.md
 * ("The audit") lists this table for users; a test holds the two together.
 *
 * The patterns look for what a reviewer should see, not for proof of harm: a finding is a place to
 * read, named by file and line. They are tuned on real public skills so that ordinary skills stay
 * clear (see test/unit/skills-audit-corpus.test.ts).
 */

/** `high` and `medium` need consent before a skill lands; `info` is listed only ("declares …"). */
export type AuditSeverity = 'high' | 'medium' | 'info';

/** The severities that need the user's consent (a terminal's yes, or --yes). */
export const CONSENT_SEVERITIES: ReadonlySet<AuditSeverity> = new Set(['high', 'medium']);

/**
 * Where a rule looks:
 * - `text`: every line of every text file;
 * - `code`: the lines of scripts, and the code of markdown files (fenced blocks and inline code), which an agent may run;
 * - `scripts`: the lines of scripts only (files in scripts/, with a script's extension or shebang, or executable);
 * - `unseen`: text a reader of the rendered SKILL.md does not see but the model reads: its front
 *   matter, HTML comments in any markdown file, and every file other than SKILL.md;
 * - `comments`: HTML comments of markdown files;
 * - `file`: a file as a whole (binary files);
 * - `frontmatter`: what SKILL.md's front matter declares.
 */
export type AuditScope = 'text' | 'code' | 'scripts' | 'unseen' | 'comments' | 'file' | 'frontmatter';

export interface AuditRule {
  id: string;
  severity: AuditSeverity;
  /** What it finds, as a finding says it. */
  finds: string;
  /** Why a reviewer should look. */
  why: string;
  scope: AuditScope;
  /** For the rules that read lines: a line matching any of these is a finding. The other rules are computed by audit.ts. */
  patterns?: readonly RegExp[];
  /** Read a script's line without its string literals and comments: a message that names a command does not run it. */
  codeOnly?: true;
  /** A match right after an opening quotation mark is a citation (an example of what not to write), not an order. */
  citationsAllowed?: true;
}

/**
 * Text that reads as an order aimed at the agent rather than guidance: each with what it does. Shared
 * by `teach` (a warning about what the user typed) and the audit (`agent-directive`). A prohibition
 * ("never send tokens to the client") does not match the sending pattern. `inDocuments: false`: too
 * broad for a skill's documents, which speak of tokens, secrets and prompts as their subject (API
 * references, guides on prompting); the audit leaves those out and adds AGENT_DIRECTIVES_IN_DOCUMENTS.
 */
export const SUSPICIOUS_INSTRUCTIONS: readonly { pattern: RegExp; says: string; inDocuments?: false }[] = [
  {
    pattern: /\b(?:ignore|disregard|forget|override)\b[^.!?\n]{0,40}?\b(?:instructions?|rules|prompts?|guidelines|directions|system message)\b/i,
    says: 'it tells the agent to ignore other instructions',
    inDocuments: false,
  },
  {
    pattern:
      /(?<!\b(?:never|not|don'?t|no|avoid|without)\s+(?:\w+\s+)?)\b(?:send|upload|post|e-?mail|transmit|forward|leak|share|pipe|curl|wget)\b[^.!?\n]{0,80}?(?:\.env\b|\bsecrets?\b|\btokens?\b|\bcredentials?\b|\bpasswords?\b|\bapi[ _-]?keys?\b|\bprivate keys?\b|~\/\.ssh|\.ssh\/|\bid_rsa\b|\.npmrc\b|\.aws\/)/i,
    says: 'it tells the agent to send secrets or credentials somewhere',
    inDocuments: false,
  },
  { pattern: /\bexfiltrat/i, says: 'it speaks of exfiltrating data', inDocuments: false },
  {
    pattern:
      /\b(?:do not|don'?t|never)\s+(?:tell|inform|notify|alert|warn)\s+(?:the\s+)?(?:user|owner|human|maintainers?)\b|\bwithout\s+(?:telling|informing)\s+(?:the\s+)?(?:user|owner|human)\b|\bhide\s+(?:this|it|that)\s+from\s+(?:the\s+)?(?:user|owner|human)\b/i,
    says: 'it tells the agent to keep something from the user',
  },
  { pattern: /\b(?:reveal|print|show|repeat|dump)\b[^.!?\n]{0,30}?\bsystem prompt\b/i, says: 'it tells the agent to reveal its system prompt' },
];

/**
 * Orders aimed at the agent that hold in a skill's documents too: to drop what it was told before,
 * to take on another role, to act on hidden instructions.
 */
const AGENT_DIRECTIVES_IN_DOCUMENTS: readonly RegExp[] = [
  /\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:(?:the|your|my|these)\s+)?(?:previous|prior|above|earlier|preceding|other|system|original|existing)\s+(?:instructions?|rules|prompts?|guidelines|directions|messages?)\b/i,
  /\byou\s+are\s+no\s+longer\b|\bfrom\s+now\s+on,?\s+you\s+(?:are|will|must)\b|\bnew\s+(?:system\s+)?instructions\s*:/i,
];

/** A program that runs what it reads on stdin, after a pipe (sudo before it included). */
const INTERPRETER = String.raw`\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:(?:ba|z|k|da|fi|c)?sh|python[0-9.]*|perl|ruby|node|php|pwsh|powershell|iex|Invoke-Expression)\b`;
/** A downloader. */
const DOWNLOAD = String.raw`\b(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b`;
/** A path outside the skill and the temporary folder: absolute, or in the home folder. */
const OUTSIDE_PATH = String.raw`["']?(?:~|\$HOME\b|\$\{HOME\}|/(?!dev/(?:null|stdout|stderr|tty)\b|tmp/|proc/self/)[A-Za-z])`;
/** A name of an environment variable that holds a secret. */
const SECRET_NAME = '[A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)[A-Z0-9_]*';

/** Every rule, in the order findings are listed. */
export const AUDIT_RULES: readonly AuditRule[] = [
  {
    id: 'pipe-to-interpreter',
    severity: 'high',
    finds: 'pipes a download into an interpreter (curl … | sh)',
    why: 'runs whatever the server sends at that moment, unseen and unpinned',
    scope: 'text',
    patterns: [
      new RegExp(`${DOWNLOAD}[^|\\n]*${INTERPRETER}`, 'i'),
      /\b(?:ba|z)?sh\s+(?:-\S+\s+)*<\(\s*(?:curl|wget)\b/,
      /\b(?:eval|source)\s+["']?\$\(\s*(?:curl|wget)\b/,
      /\b(?:iex|Invoke-Expression)\b[^\n]*\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod|DownloadString)\b/i,
    ],
  },
  {
    id: 'obfuscated-exec',
    severity: 'high',
    finds: 'decodes text and runs it',
    why: 'hides what runs from anyone reading the skill',
    scope: 'text',
    patterns: [
      /\bbase64\s+(?:-d|--decode|-D)\b[^\n]*\|\s*(?:sudo\s+)?(?:(?:ba|z)?sh|python[0-9.]*|perl|node)\b/,
      /\b(?:exec|eval)\s*\(\s*(?:base64\.b64decode|codecs\.decode|zlib\.decompress|bytes\.fromhex|marshal\.loads|atob|unescape|String\.fromCharCode|Buffer\.from)\b/,
      /\bFromBase64String\b[^\n]*\b(?:iex|Invoke-Expression)\b|\b(?:iex|Invoke-Expression)\b[^\n]*\bFromBase64String\b/i,
      /\b(?:pwsh|powershell)(?:\.exe)?\b[^\n]*\s-(?:e|enc|encodedcommand)\s+[A-Za-z0-9+/=]{16,}/i,
    ],
  },
  {
    id: 'privilege-escalation',
    severity: 'high',
    finds: 'raises privileges (sudo, setuid, run as administrator)',
    why: 'what runs with root or administrator rights can change anything on the machine',
    scope: 'code',
    patterns: [
      // Installing from the distribution's own repositories needs root by design and says what it installs.
      /(?:^|[\s;&|(`$])(?:sudo|doas|pkexec)\s+(?!(?:-\S+\s+)*(?:apt|apt-get|dnf|yum|zypper|pacman|apk|snap|port)\b)\S/,
      /(?:^|[\s;&|(`])su\s+(?:-\s|-c\b|root\b|-l\b)/,
      /\bchmod\s+(?:-\S+\s+)*(?:[ugoa]*\+[rwxX]*s|[0-7]?[2467][0-7]{3}\b)/,
      /\bchown\s+(?:-\S+\s+)*root\b/,
      /\bsetcap\s+\S/,
      /\/etc\/sudoers\b/,
      /\bStart-Process\b[^\n]*-Verb\s+RunAs\b|\brunas\s+\/user:/i,
    ],
  },
  {
    id: 'credential-path',
    severity: 'high',
    finds: 'names a credential file (SSH keys, cloud, registry or git credentials)',
    why: 'an agent that reads these can leak the keys to everything you can reach',
    scope: 'text',
    patterns: [
      /(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|\$env:USERPROFILE)[\\/]\.(?:ssh|aws|gnupg|kube|docker|azure|config[\\/]gcloud|config[\\/]gh)\b/i,
      /\.ssh[\\/](?:id_\w+|authorized_keys|known_hosts)\b|[\\/]id_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)/,
      /\.aws[\\/](?:credentials|config)\b|\.docker[\\/]config\.json\b|\.kube[\\/]config\b|\.config[\\/]gh[\\/]hosts\.yml\b/,
      /(?:~|\$HOME|\$\{HOME\})[\\/]\.(?:netrc|npmrc|pypirc|git-credentials)\b|\.git-credentials\b/,
      /\/etc\/shadow\b|\bLogin Data\b|\bsecurity\s+find-(?:generic|internet)-password\b/,
    ],
  },
  {
    id: 'env-dump',
    severity: 'high',
    finds: 'dumps the whole environment',
    why: 'the environment holds tokens and keys; printing or sending all of it leaks them',
    scope: 'code',
    patterns: [
      /(?:^|[;&|]|\$\()\s*(?:printenv|env)\s*(?:$|[|>)&;`])/,
      /\bjson\.dumps\(\s*(?:dict\(\s*)?os\.environ\b|\bdict\(\s*os\.environ\s*\)|\bprint\(\s*os\.environ\s*\)/,
      /\bJSON\.stringify\(\s*process\.env\s*[,)]|\bObject\.(?:entries|keys|values)\(\s*process\.env\s*\)|console\.\w+\(\s*process\.env\s*\)/,
      /\bGet-ChildItem\s+env:|\b(?:gci|dir|ls)\s+env:/i,
      /\bexport\s+-p\b|\bdeclare\s+-x\s*(?:$|[|>])/,
    ],
  },
  {
    id: 'persistence',
    severity: 'high',
    finds: 'changes what runs later (shell start-up files, cron, launch agents, services)',
    why: 'it keeps running after the skill is done, outside any review',
    scope: 'code',
    patterns: [
      /(?:>>?|\btee\b[^\n]*)\s*["']?(?:~|\$HOME|\$\{HOME\})[\\/]\.(?:bashrc|zshrc|bash_profile|profile|zprofile|zshenv|bash_login)\b/,
      /\bcrontab\s+(?!-l\b)|\/etc\/cron|\bLaunchAgents\b|\bLaunchDaemons\b|\bsystemctl\s+(?:--user\s+)?enable\b|\.config[\\/]autostart\b/,
      /\\CurrentVersion\\Run\b|\bschtasks\s+\/create\b|\bRegister-ScheduledTask\b/i,
    ],
  },
  {
    id: 'write-outside',
    severity: 'medium',
    finds: 'writes or deletes outside the skill and the repository',
    why: 'a skill works on the repository; files elsewhere on the machine are not its business',
    scope: 'scripts',
    patterns: [
      new RegExp(`(?:^|\\s)(?:[12&]?>>?)\\s*${OUTSIDE_PATH}`),
      new RegExp(`\\btee\\s+(?:-a\\s+)?${OUTSIDE_PATH}`),
      new RegExp(`\\brm\\s+-[a-zA-Z]*[rRf][a-zA-Z]*\\s+${OUTSIDE_PATH}`),
      /\b(?:cp|mv|install|ln)\s+[^\n|;]*\s["']?(?:~\/|\$HOME\/|\/(?:etc|usr|bin|sbin|lib|opt|var|root|Library|System|Applications)\/)/,
      /\bopen\(\s*["'](?:~|\/(?!tmp\/|dev\/))[^"']*["']\s*,\s*["'][wax]/,
      /\b(?:writeFile|writeFileSync|appendFile|appendFileSync|createWriteStream)\(\s*["'`](?:~|\/(?!tmp\/|dev\/))/,
    ],
  },
  {
    id: 'network',
    severity: 'medium',
    finds: 'reaches the network',
    why: 'a script that downloads or sends can fetch code or carry data away',
    scope: 'scripts',
    codeOnly: true,
    patterns: [
      /\b(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b/i,
      /\brequests\.(?:get|post|put|patch|delete|head|request|Session)\b|\burllib(?:\.request|2)?\b|\bhttp\.client\b|\bhttpx\b|\baiohttp\b|\bsocket\.socket\((?!\s*(?:socket\.)?AF_UNIX)/,
      /\bfetch\s*\(|\baxios\b|\bhttps?\.(?:get|request)\s*\(|\bnew\s+WebSocket\b|\bNet\.WebClient\b/,
      /\/dev\/(?:tcp|udp)\/|\bnc\s+-|\bncat\b|\bscp\s|\bssh\s+[^\n]*@/,
      /\b(?:pip3?|pipx|uv\s+pip|npm|pnpm|yarn|gem|cargo|go)\s+(?:install|add|i)\b|\bnpx\s|\bgit\s+(?:clone|fetch|pull|push)\b/,
    ],
  },
  {
    id: 'secret-env',
    severity: 'medium',
    finds: 'reads a secret from the environment (a token, key or password)',
    why: 'a reviewer should know which secrets a script gets, and where they go',
    scope: 'scripts',
    patterns: [
      new RegExp(`\\bos\\.(?:environ(?:\\.get)?\\s*[[(]|getenv\\()\\s*["']${SECRET_NAME}["']`),
      new RegExp(`\\bprocess\\.env(?:\\.${SECRET_NAME}\\b|\\[\\s*["'\`]${SECRET_NAME}["'\`])`),
      new RegExp(`\\$\\{?${SECRET_NAME}\\b|\\$env:${SECRET_NAME}\\b|\\bENV\\[\\s*["']${SECRET_NAME}["']|\\bSystem\\.getenv\\(\\s*"${SECRET_NAME}"`),
    ],
  },
  {
    id: 'agent-directive',
    severity: 'high',
    finds: 'speaks to the agent where a reader does not look',
    why: 'text the model reads but the rendered skill hides can steer the agent against you',
    scope: 'unseen',
    citationsAllowed: true,
    patterns: [...AGENT_DIRECTIVES_IN_DOCUMENTS, ...SUSPICIOUS_INSTRUCTIONS.filter((entry) => entry.inDocuments !== false).map(({ pattern }) => pattern)],
  },
  {
    id: 'hidden-comment',
    severity: 'medium',
    finds: 'an HTML comment that addresses the agent or the model',
    why: 'a rendered page hides the comment; the model still reads it',
    scope: 'comments',
    // Addressed to the agent, not about it: a note to it, a call by its name, "if you are an AI".
    patterns: [
      /\b(?:note|notes|instructions?|message|reminder)\s+(?:to|for)\s+(?:the\s+|any\s+)?(?:AI|LLM|assistants?|agents?|models?|Copilot|Claude|GPT)\b/i,
      /^\s*(?:(?:dear|hey)\s+)?(?:AI|LLM|assistant|agent|model|Copilot|Claude|GPT)\s*[:,]\s*\S/i,
      /\b(?:if\s+)?you\s+are\s+(?:an?\s+)?(?:AI|LLM|language model|assistant|agent|Copilot|Claude)\b|\b(?:AI|LLM|assistants?|agents?|models?)\s+(?:reading|processing|parsing)\s+this\b/i,
    ],
  },
  {
    id: 'hidden-characters',
    severity: 'high',
    finds: 'holds invisible or bidirectional characters',
    why: 'they hide or reorder text: what the model reads is not what you see',
    scope: 'text',
  },
  {
    id: 'encoded-blob',
    severity: 'medium',
    finds: 'holds a long encoded blob (base64 or hex)',
    why: 'nobody can read what it carries; it may be code or data meant to be decoded later',
    scope: 'text',
  },
  {
    id: 'executable-binary',
    severity: 'high',
    finds: 'ships a compiled program (ELF, Mach-O, Windows, WebAssembly, Java or Python bytecode)',
    why: 'a compiled program cannot be reviewed by reading it',
    scope: 'file',
  },
  {
    id: 'archive',
    severity: 'medium',
    finds: 'ships an archive (zip, tar, gzip, xz, 7z, …)',
    why: 'what it holds was never read in review, and a script may unpack and run it',
    scope: 'file',
  },
  { id: 'binary-file', severity: 'info', finds: 'ships a binary file (an image, font, document or other data)', why: 'listed so you know it is there', scope: 'file' },
  { id: 'script', severity: 'info', finds: 'ships a script', why: 'an agent may run it (only where .ai-team/skills-allowlist.json allows it)', scope: 'scripts' },
  {
    id: 'home-path',
    severity: 'info',
    finds: 'uses the home folder',
    why: 'a script reading or writing your home folder reaches beyond the repository',
    scope: 'scripts',
    patterns: [/(?:^|[\s"'=(:])~\/|\$HOME\b|\$\{HOME\}|\bos\.homedir\(\)|\bPath\.home\(\)|\bexpanduser\(|%USERPROFILE%|\$env:USERPROFILE\b/],
  },
  {
    id: 'mcp-servers',
    severity: 'info',
    finds: 'declares MCP servers',
    why: 'the members will want these servers (and the tools they give) to do the work',
    scope: 'frontmatter',
  },
  { id: 'allowed-tools', severity: 'info', finds: 'declares allowed tools', why: 'hosts that read allowed-tools may let the skill use these without asking', scope: 'frontmatter' },
];

/** The rule with this id (a rule audit.ts computes must be in the table). */
export function auditRule(id: string): AuditRule {
  const rule = AUDIT_RULES.find((candidate) => candidate.id === id);
  if (rule === undefined) throw new Error(`no audit rule "${id}"`);
  return rule;
}
