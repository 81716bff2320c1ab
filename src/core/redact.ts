/**
 * Redaction of what must not leave a repository by accident: `export` runs the histories through
 * these rules by default (`--keep-private` keeps the text, and the export still says what it found).
 *
 * Each rule replaces a match with `[REDACTED:email]` or `[REDACTED:secret]`. In order:
 *   1. private key blocks: `-----BEGIN … PRIVATE KEY-----` up to its END line (or the end of the text);
 *   2. known token shapes: GitHub (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`), AWS access
 *      key ids (`AKIA…`, `ASIA…`), `sk-…` API keys, Slack `xox[abposr]-…`, Google `AIza…`, npm `npm_…`,
 *      Stripe `sk_live_…`/`rk_test_…`, JSON Web Tokens (`eyJ….eyJ….…`);
 *   3. credentials in URLs (`https://user:password@host` keeps the user-less URL shape);
 *   4. assignments: `password`, `passwd`, `pwd`, `secret`, `token`, `api_key`/`apikey`, `access_key`,
 *      `access_token`, `auth_token`, `client_secret` followed by `:` or `=` and a value of 8+ characters
 *      that has a digit, a symbol or mixed case (so prose like "token: expires daily" is kept, and
 *      placeholders such as `$TOKEN`, `${TOKEN}` or `<token>` too); the key is kept, the value goes;
 *      `Bearer <16+ characters>` likewise;
 *   5. e-mail addresses (not file names such as `logo@2x.png`);
 *   6. long high-entropy runs: hex of 41+ characters (a 40-character git commit id is kept), and
 *      base64/base64url runs of 40+ characters with upper case, lower case and digits and more than
 *      4.5 bits of entropy per character (paths and identifiers stay).
 */

export type RedactionKind = 'email' | 'secret';

export interface RedactionCounts {
  email: number;
  secret: number;
}

export interface Redacted {
  text: string;
  counts: RedactionCounts;
}

export function redactionMarker(kind: RedactionKind): string {
  return `[REDACTED:${kind}]`;
}

interface Rule {
  kind: RedactionKind;
  pattern: RegExp;
  /** The replacement for a match, or undefined to keep the match (not a secret after all). */
  replace: (match: string, ...groups: string[]) => string | undefined;
}

const SECRET = redactionMarker('secret');
const whole = (kind: RedactionKind) => () => redactionMarker(kind);

function looksSecret(value: string): boolean {
  if (/^[$<{[%]/.test(value)) return false; // a placeholder: $TOKEN, ${TOKEN}, <token>, {{token}}
  return /[^A-Za-z]/.test(value) || (/[a-z]/.test(value) && /[A-Z]/.test(value));
}

/** File names such as logo@2x.png look like addresses; they are not. */
const FILE_SUFFIX = /\.(?:png|jpe?g|gif|svg|webp|ico|m?js|cjs|tsx?|jsx|css|scss|md|json|ya?ml|html?)$/i;

function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

const ASSIGNMENT_KEYS = 'password|passwd|pwd|secret|client[_-]?secret|api[_-]?key|apikey|access[_-]?key|access[_-]?token|auth[_-]?token|token';

export const REDACTION_RULES: readonly Rule[] = [
  {
    kind: 'secret',
    pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$(?![\s\S]))/g,
    replace: whole('secret'),
  },
  {
    kind: 'secret',
    pattern:
      /\b(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255}|(?:AKIA|ASIA)[0-9A-Z]{16}|sk-[A-Za-z0-9_-]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35}|npm_[A-Za-z0-9]{36}|[rs]k_(?:live|test)_[A-Za-z0-9]{16,}|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})/g,
    replace: whole('secret'),
  },
  {
    kind: 'secret',
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/)[^\s:@/]+:[^\s@/]+@/gi,
    replace: (_match, scheme) => `${scheme}${SECRET}@`,
  },
  {
    kind: 'secret',
    pattern: new RegExp(`\\b((?:${ASSIGNMENT_KEYS})\\b["']?[ \\t]*[:=][ \\t]*)(["']?)([^\\s"'\`,;]{8,})\\2`, 'gi'),
    replace: (_match, head, quote, value) => (looksSecret(value!) ? `${head}${quote}${SECRET}${quote}` : undefined),
  },
  {
    kind: 'secret',
    pattern: /\b(Bearer[ \t]+)([A-Za-z0-9._~+/-]{16,}=*)/g,
    replace: (_match, head) => `${head}${SECRET}`,
  },
  {
    kind: 'email',
    pattern: /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g,
    replace: (match) => (FILE_SUFFIX.test(match) ? undefined : redactionMarker('email')),
  },
  {
    kind: 'secret',
    pattern: /(?<![A-Za-z0-9])[0-9a-fA-F]{41,}(?![A-Za-z0-9])/g,
    replace: whole('secret'),
  },
  {
    kind: 'secret',
    pattern: /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{40,}={0,2}(?![A-Za-z0-9+/_=-])/g,
    replace: (match) => (/[a-z]/.test(match) && /[A-Z]/.test(match) && /\d/.test(match) && entropy(match) > 4.5 ? SECRET : undefined),
  },
];

/** `text` with every e-mail address and credential-looking string replaced, and how many of each. */
export function redactText(text: string): Redacted {
  const counts: RedactionCounts = { email: 0, secret: 0 };
  let current = text;
  for (const rule of REDACTION_RULES) {
    current = current.replace(rule.pattern, (match: string, ...rest: unknown[]) => {
      // rest = capture groups, then the offset (a number), the whole text and named groups.
      const groups = rest.slice(0, rest.findIndex((value) => typeof value === 'number')).map((value) => (typeof value === 'string' ? value : ''));
      const replacement = rule.replace(match, ...groups);
      if (replacement === undefined) return match;
      counts[rule.kind] += 1;
      return replacement;
    });
  }
  return { text: current, counts };
}
