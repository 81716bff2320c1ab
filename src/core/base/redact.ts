/**
 * Redaction of what must not leave a repository by accident: `export` runs the histories through
 * these rules by default (`--keep-private` keeps the text, and the export still says what it found).
 *
 * Each rule replaces a match with `[REDACTED:email]` or `[REDACTED:secret]`. In order:
 *   1. private key blocks: `-----BEGIN … PRIVATE KEY-----` up to its END line (or the end of the text);
 *   2. known token shapes: GitHub (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`), GitLab
 *      (`glpat-`, `gldt-`, `glrt-`, `glptt-`, `glft-`, `glcbt-`, `glimt-`, `gloas-`, `glsoat-`,
 *      `glagent-`, runner registration `GR1348941…`), AWS access key ids (`AKIA…`, `ASIA…`),
 *      `sk-…` API keys, Slack `xox[abposr]-…` and webhook URLs (`https://hooks.slack.com/services/…`),
 *      Google `AIza…`, npm `npm_…`, Stripe `sk_live_…`/`rk_test_…`, JSON Web Tokens (`eyJ….eyJ….…`);
 *   3. credentials in URLs (`https://user:password@host`, `redis://:password@host`): the part
 *      before `@` goes;
 *   4. assignments: a key ending in `password`, `passwd`, `pwd`, `secret`, `token`, `api_key`/`apikey`,
 *      `api_token`, `secret_key`, `access_key`, `access_token`, `auth_token`, `client_secret` (so
 *      `DB_PASSWORD`, `GITHUB_TOKEN`, `MY_API_KEY` too) followed by `:` or `=` and a value of 8+
 *      characters that has a digit, a symbol or mixed case; the key is kept, the value goes. Kept as
 *      they are: prose ("token: expires daily", "Token: JWT-based auth": words joined by hyphens),
 *      placeholders (`$TOKEN`, `${TOKEN}`, `<token>`) and paths (`config/secrets.yaml`,
 *      `/home/ada/app`, `setup.md`: a value with `/` or a file extension whose parts are names, not
 *      random strings). `Bearer <16+ characters>` and `Basic <base64 of user:password>` likewise;
 *   5. e-mail addresses, also at the end of a sentence and with letters of any script (not file
 *      names such as `logo@2x.png` or `font@1.5x.woff2`, and not git remotes such as
 *      `git@github.com:acme/app.git` or the user of a URL, `ssh://git@gitlab.com/acme/app.git`);
 *   6. long random-looking runs: hex of 41+ characters, except 64 (a 40-character git commit id and
 *      a SHA-256 digest are kept), and base64/base64url runs of 40+ characters with upper case, lower
 *      case and digits and more than 4.5 bits of entropy per character; a run with `/` and without
 *      `+` or `=` is a path, redacted only when one of its `/`-separated parts looks random by
 *      itself (12+ characters of mixed case that split into many short "words").
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

/** A run of 40+ base64 characters mixing upper case, lower case and digits, with high entropy. */
function randomRun(value: string): boolean {
  return /[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value) && entropy(value) > 4.5;
}

/** The words of a name: `KycDocumentUploadHandler` → Kyc, Document, Upload, Handler. */
const NAME_WORD = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+|[^A-Za-z\d]+/g;

/**
 * One part of a path that looks random rather than named: 12+ characters with upper and lower
 * case that fall apart into many short "words". A name has a word every 3 characters or more
 * (`Kyc2VerificationController`: 4 words in 26); a random string one every 2 (`OSQ6ATi1PGHg`).
 */
function randomPart(value: string): boolean {
  if (value.length < 12 || !/[a-z]/.test(value) || !/[A-Z]/.test(value)) return false;
  return (value.match(NAME_WORD)?.length ?? 0) / value.length > 0.38;
}

/** A file name's extension: a dot and 1–5 letters or digits, starting with a letter. */
const FILE_EXTENSION = /\.[A-Za-z][A-Za-z0-9]{0,4}$/;

/**
 * A path or a file name rather than a secret: it has `/` or ends in a file extension, and every
 * part is a plain name (letters, digits, `.`, `_`, `-`, `~`, `@`) none of which looks random.
 */
function looksLikePath(value: string): boolean {
  if (!value.includes('/') && !FILE_EXTENSION.test(value)) return false;
  const parts = value.split('/').filter((part) => part !== '');
  return parts.length > 0 && parts.every((part) => /^[\w.~@-]+$/.test(part) && !randomPart(part));
}

/** Whether an assignment's value is worth redacting. */
function looksSecret(value: string): boolean {
  if (/^[$<{[%]/.test(value)) return false; // a placeholder: $TOKEN, ${TOKEN}, <token>, {{token}}
  if (/^[A-Za-z]+(?:-[A-Za-z]+)+$/.test(value)) return false; // words joined by hyphens: "JWT-based"
  if (looksLikePath(value)) return false;
  return /[^A-Za-z]/.test(value) || (/[a-z]/.test(value) && /[A-Z]/.test(value));
}

/** HTTP Basic credentials: base64 of printable `user:password`. */
function basicCredentials(value: string): boolean {
  if (value.length % 4 !== 0) return false;
  const decoded = Buffer.from(value, 'base64').toString('latin1');
  return decoded.includes(':') && /^[\x20-\x7e]+$/.test(decoded);
}

/** File names such as logo@2x.png look like addresses; they are not. */
const FILE_SUFFIX = /\.(?:png|jpe?g|gif|svg|webp|avif|ico|bmp|m?js|cjs|tsx?|jsx|css|scss|less|md|json|ya?ml|html?|txt|pdf|woff2?|ttf|otf|eot|mp[34]|webm|wasm)$/i;
/** An image density in a file name: `@2x.`, `@1.5x.`. */
const DENSITY = /@\d+(?:\.\d+)?x\./i;

const ASSIGNMENT_KEYS = 'password|passwd|pwd|client[_-]?secret|secret[_-]?key|secret|api[_-]?key|apikey|api[_-]?token|access[_-]?key|access[_-]?token|auth[_-]?token|token';

export const REDACTION_RULES: readonly Rule[] = [
  {
    kind: 'secret',
    pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$(?![\s\S]))/g,
    replace: whole('secret'),
  },
  {
    kind: 'secret',
    pattern:
      /\b(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255}|gl(?:pat|dt|rt|ptt|ft|cbt|imt|oas|soat|agent)-[A-Za-z0-9_-]{20,}|GR1348941[A-Za-z0-9_-]{20,}|(?:AKIA|ASIA)[0-9A-Z]{16}|sk-[A-Za-z0-9_-]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}|https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]+|AIza[0-9A-Za-z_-]{35}|npm_[A-Za-z0-9]{36}|[rs]k_(?:live|test)_[A-Za-z0-9]{16,}|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})/g,
    replace: whole('secret'),
  },
  {
    kind: 'secret',
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/)[^\s:@/]*:[^\s@/]+@/gi,
    replace: (_match, scheme) => `${scheme}${SECRET}@`,
  },
  {
    kind: 'secret',
    pattern: new RegExp(`(?<![A-Za-z0-9])((?:\\w+[_-])?(?:${ASSIGNMENT_KEYS})\\b["']?[ \\t]*[:=][ \\t]*)(["']?)([^\\s"'\`,;]{8,})\\2`, 'gi'),
    replace: (_match, head, quote, value) => (looksSecret(value!) ? `${head}${quote}${SECRET}${quote}` : undefined),
  },
  {
    kind: 'secret',
    pattern: /\b(Bearer[ \t]+)([A-Za-z0-9._~+/-]{16,}=*)/g,
    replace: (_match, head) => `${head}${SECRET}`,
  },
  {
    kind: 'secret',
    pattern: /\b(Basic[ \t]+)([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/g,
    replace: (_match, head, value) => (basicCredentials(value!) ? `${head}${SECRET}` : undefined),
  },
  {
    kind: 'email',
    // Starts where a word starts (`o'brien@…` whole), but not right after "://" (the user of a URL
    // such as ssh://git@gitlab.com/acme/app.git, not an address). Letters of any script
    // (`first.last@exämple.de`). Ends where the address ends: a full stop that ends the sentence
    // is not part of it, but a longer name is (font@1.5x.woff2 is no address), and so is
    // ":path" (git@github.com:acme/app.git, a remote).
    pattern:
      /(?<![\p{L}\p{M}\p{N}._%+-])(?<!:\/\/)[\p{L}\p{M}\p{N}._%+-][\p{L}\p{M}\p{N}._%+'-]*@[\p{L}\p{M}\p{N}-]+(?:\.[\p{L}\p{M}\p{N}-]+)*\.(?:\p{L}{2,}|xn--[a-z0-9-]+)(?![\p{L}\p{M}\p{N}_-]|\.[\p{L}\p{M}\p{N}_-])(?!:\S)/gu,
    replace: (match) => (FILE_SUFFIX.test(match) || DENSITY.test(match) ? undefined : redactionMarker('email')),
  },
  {
    kind: 'secret',
    pattern: /(?<![A-Za-z0-9])[0-9a-fA-F]{41,}(?![A-Za-z0-9])/g,
    replace: (match) => (match.length === 64 ? undefined : SECRET),
  },
  {
    kind: 'secret',
    pattern: /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{40,}={0,2}(?![A-Za-z0-9+/_=-])/g,
    replace: (match) => {
      // `+` and `=` never appear in a path: with them, or without `/`, the run is judged whole.
      if (!match.includes('/') || /[+=]/.test(match)) return randomRun(match) ? SECRET : undefined;
      return match.split('/').some(randomPart) ? SECRET : undefined;
    },
  },
];

/** `text` with every e-mail address and credential-looking string replaced, and how many of each. */
export function redactText(text: string): Redacted {
  const counts: RedactionCounts = { email: 0, secret: 0 };
  let current = text;
  for (const rule of REDACTION_RULES) {
    current = current.replace(rule.pattern, (match: string, ...rest: unknown[]) => {
      // rest = capture groups, then the offset (a number), the whole text and named groups.
      const groups = rest
        .slice(
          0,
          rest.findIndex((value) => typeof value === 'number'),
        )
        .map((value) => (typeof value === 'string' ? value : ''));
      const replacement = rule.replace(match, ...groups);
      if (replacement === undefined) return match;
      counts[rule.kind] += 1;
      return replacement;
    });
  }
  return { text: current, counts };
}
