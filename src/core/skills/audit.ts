/**
 * The skill audit: what a skill holds that a reviewer should see before it lands, found by the rules
 * of audit-rules.ts. Pure: it reads the files it is given (audit-read.ts reads them from a folder),
 * never the disk or the network. Each finding names its rule, the file and, in a text file, the
 * first line it was found on (and every other line of that file the same rule matched).
 */
import { hiddenCharacterCount, visibleText } from '../base/visible-text.js';
import { AUDIT_RULES, CONSENT_SEVERITIES, auditRule, type AuditRule, type AuditSeverity } from './audit-rules.js';
import { locateFrontmatter, parseFrontmatterYaml } from './frontmatter.js';
import { skillFields } from './skill-fields.js';
import { SKILL_FILE } from '../base/paths.js';

/** One file of a skill, as the audit reads it. */
export interface AuditFile {
  /** Path inside the skill folder, forward slashes. */
  path: string;
  bytes: Uint8Array;
  executable: boolean;
}

export interface AuditFinding {
  rule: string;
  severity: AuditSeverity;
  /** The file, relative to the skill folder. */
  file: string;
  /** 1-based line of the first match, in a text file; absent for a finding about a whole file. */
  line?: number;
  /** Every line of the file the rule matched (the first is `line`), at most MAX_LINES_LISTED. */
  lines?: number[];
  /** What the rule finds. */
  message: string;
  /** The matched line (or what was declared), shortened, every hidden character shown as an escape. */
  excerpt?: string;
}

export interface SkillAudit {
  /** The skill's folder name. */
  skill: string;
  findings: AuditFinding[];
}

/** Lines listed per finding; the rest are counted in none (the first ones show where to read). */
export const MAX_LINES_LISTED = 20;
/** Characters of a line shown in a finding. */
const EXCERPT_LENGTH = 160;
/** Characters of base64 or hex in one run that make a blob (a SHA-512 in hex is 128). */
const BLOB_MIN_CHARS = 256;

const SCRIPT_EXTENSIONS = new Set([
  'sh',
  'bash',
  'zsh',
  'ksh',
  'fish',
  'py',
  'pyw',
  'js',
  'mjs',
  'cjs',
  'ts',
  'mts',
  'cts',
  'rb',
  'pl',
  'pm',
  'php',
  'lua',
  'ps1',
  'psm1',
  'bat',
  'cmd',
  'r',
  'swift',
  'go',
  'rs',
  'java',
  'kt',
  'cs',
  'groovy',
  'tcl',
  'awk',
]);
const MARKDOWN_EXTENSIONS = new Set(['md', 'markdown', 'mdx', 'mdc']);
/** Names of MCP configuration files a skill might ship. */
const MCP_CONFIG_FILES = new Set(['.mcp.json', 'mcp.json', 'mcp-config.json']);

function extensionOf(file: string): string {
  const base = file.slice(file.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

type BinaryKind = 'executable' | 'archive' | 'data';

/** What a binary file is, from its first bytes and its extension. */
function binaryKind(file: AuditFile): { kind: BinaryKind; what: string } {
  const b = file.bytes;
  const starts = (...bytes: number[]) => bytes.every((byte, i) => b[i] === byte);
  const ascii = (text: string) => starts(...[...text].map((ch) => ch.charCodeAt(0)));
  if (starts(0x7f, 0x45, 0x4c, 0x46)) return { kind: 'executable', what: 'an ELF program' };
  if (ascii('MZ')) return { kind: 'executable', what: 'a Windows program' };
  if (starts(0xcf, 0xfa, 0xed, 0xfe) || starts(0xce, 0xfa, 0xed, 0xfe) || starts(0xfe, 0xed, 0xfa, 0xcf) || starts(0xfe, 0xed, 0xfa, 0xce))
    return { kind: 'executable', what: 'a Mach-O program' };
  if (starts(0xca, 0xfe, 0xba, 0xbe)) return { kind: 'executable', what: 'a Mach-O program or Java class' };
  if (starts(0x00, 0x61, 0x73, 0x6d)) return { kind: 'executable', what: 'a WebAssembly module' };
  const ext = extensionOf(file.path);
  if (['exe', 'dll', 'so', 'dylib', 'class', 'jar', 'pyc', 'pyo', 'wasm', 'node'].includes(ext)) return { kind: 'executable', what: `a .${ext} file` };
  if (ascii('\x89PNG') || starts(0xff, 0xd8, 0xff) || ascii('GIF8') || (ascii('RIFF') && b[8] === 0x57) || ascii('%PDF') || ascii('BM'))
    return { kind: 'data', what: 'an image or document' };
  if (ascii('wOFF') || ascii('wOF2') || ascii('OTTO') || starts(0x00, 0x01, 0x00, 0x00)) return { kind: 'data', what: 'a font' };
  // Office documents are zip files: by their extension.
  if (['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'dotx', 'potx', 'xltx'].includes(ext)) return { kind: 'data', what: `a .${ext} document` };
  if (ascii('PK')) return { kind: 'archive', what: 'a zip archive' };
  if (starts(0x1f, 0x8b)) return { kind: 'archive', what: 'a gzip archive' };
  if (ascii('BZh') || starts(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00) || starts(0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c) || ascii('Rar!') || starts(0x28, 0xb5, 0x2f, 0xfd))
    return { kind: 'archive', what: 'a compressed archive' };
  if (Buffer.from(b.subarray(257, 262)).toString('latin1') === 'ustar') return { kind: 'archive', what: 'a tar archive' };
  return { kind: 'data', what: ext === '' ? 'unknown bytes' : `a .${ext} file` };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The text of a file, or undefined when it is binary (a NUL byte, or not UTF-8). */
function textOf(file: AuditFile): string | undefined {
  if (file.bytes.includes(0)) return undefined;
  try {
    return utf8.decode(file.bytes);
  } catch {
    return undefined;
  }
}

function isScript(file: AuditFile, text: string): boolean {
  return file.path.startsWith('scripts/') || SCRIPT_EXTENSIONS.has(extensionOf(file.path)) || file.executable || text.startsWith('#!');
}

/** What each line of a text file offers the scopes: the whole line, its code, and whether a reader of the rendered skill sees it. */
interface LineView {
  number: number;
  text: string;
  /** For `code`: the whole line in a script, the code of a markdown line (a fenced line, or each inline span), else none. */
  code: string[];
  /** For `unseen`: the text a reader of the rendered SKILL.md does not see (all of it outside SKILL.md's body). */
  unseen: string;
  /** For `comments`: the text of HTML comments on this line. */
  comments: string;
}

/** The lines of one text file, split for the scopes. */
function lineViews(file: AuditFile, text: string, script: boolean): LineView[] {
  const lines = text.split(/\r?\n|\r/);
  const markdown = MARKDOWN_EXTENSIONS.has(extensionOf(file.path));
  const isSkillFile = file.path === SKILL_FILE;
  // SKILL.md's front matter (lines 1 to its closing ---) is unseen: a rendered page shows the body only.
  let frontmatterEnd = 0;
  if (isSkillFile) {
    const location = locateFrontmatter(text.replace(/\r\n?/g, '\n'), true);
    if (location.state === 'closed') frontmatterEnd = location.bodyLine - 1;
  }
  let fence: string | undefined;
  let inComment = false;
  return lines.map((line, index) => {
    const number = index + 1;
    let code: string[] = [];
    let comments = '';
    if (markdown) {
      // HTML comments, which may span lines.
      let rest = line;
      let outside = '';
      while (rest.length > 0) {
        if (inComment) {
          const end = rest.indexOf('-->');
          comments += `${end === -1 ? rest : rest.slice(0, end)} `;
          if (end === -1) rest = '';
          else {
            inComment = false;
            rest = rest.slice(end + 3);
          }
        } else {
          const start = fence === undefined ? rest.indexOf('<!--') : -1;
          if (start === -1) {
            outside += rest;
            rest = '';
          } else {
            outside += rest.slice(0, start);
            inComment = true;
            rest = rest.slice(start + 4);
          }
        }
      }
      const marker = /^\s*(`{3,}|~{3,})/.exec(outside)?.[1];
      if (fence !== undefined) {
        if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
        else code = [outside];
      } else if (marker !== undefined && number > frontmatterEnd) {
        fence = marker;
      } else {
        // An inline span of one word (`env`, `sudo`) names a command; only a span with arguments reads as one to run.
        code = [...outside.matchAll(/(`+)([^`]+?)\1/g)].map((m) => m[2]!.trim()).filter((span) => /\s/.test(span));
      }
    } else if (script) {
      code = [line];
    }
    const unseen = !isSkillFile || number <= frontmatterEnd ? line : comments;
    return { number, text: line, code, unseen, comments };
  });
}

/**
 * A line of a script without its string literals and comments (CODE_ONLY rules): a quoted string
 * that runs a command (`"$(curl …)"`) is kept.
 */
function withoutStringsAndComments(line: string): string {
  if (/^\s*(?:#|\/\/|\/?\*|REM\b|::|--)/i.test(line)) return '';
  return line.replace(/(["'`])(?:\\.|(?!\1)[^\\])*\1/g, (literal) => (literal.includes('$(') ? literal : '""')).replace(/(?:^|\s)(?:#|\/\/).*$/, '');
}

/** The global twin of each pattern a citation check scans with, built once. */
const globalTwins = new Map<RegExp, RegExp>();

/** Whether a pattern matches `text` anywhere but right after an opening quotation mark (a citation). */
function matchesUncited(pattern: RegExp, text: string): boolean {
  if (!pattern.test(text)) return false;
  let global = globalTwins.get(pattern);
  if (global === undefined) globalTwins.set(pattern, (global = new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`)));
  for (const match of text.matchAll(global)) {
    if (!/["“‘'«]\s*$/.test(text.slice(Math.max(0, match.index - 2), match.index))) return true;
  }
  return false;
}

/** Whether `rule` matches one of the parts of a line it reads. */
function ruleMatches(rule: AuditRule, parts: readonly string[], script: boolean): boolean {
  return parts.some((raw) => {
    const part = rule.codeOnly === true && script ? withoutStringsAndComments(raw) : raw;
    if (part === '') return false;
    return rule.patterns!.some((pattern) => (rule.citationsAllowed === true ? matchesUncited(pattern, part) : pattern.test(part)));
  });
}

/** The parts of a line a rule of this scope reads (none: the rule does not read this line). */
function scopedTexts(rule: AuditRule, view: LineView, script: boolean): readonly string[] {
  switch (rule.scope) {
    case 'text':
      return [view.text];
    case 'code':
      return view.code;
    case 'scripts':
      return script ? [view.text] : [];
    case 'unseen':
      return [view.unseen];
    case 'comments':
      return [view.comments];
    default:
      return [];
  }
}

function excerptOf(line: string): string {
  const trimmed = line.trim();
  const short = trimmed.length > EXCERPT_LENGTH ? `${trimmed.slice(0, EXCERPT_LENGTH)}…` : trimmed;
  return visibleText(short);
}

/** One finding of `rule` in `file` at the lines matched (the first is the one shown). */
function lineFinding(rule: AuditRule, file: string, matched: { number: number; text: string }[]): AuditFinding {
  const first = matched[0]!;
  return {
    rule: rule.id,
    severity: rule.severity,
    file,
    line: first.number,
    lines: matched.slice(0, MAX_LINES_LISTED).map((m) => m.number),
    message: rule.finds,
    excerpt: excerptOf(first.text),
  };
}

function fileFinding(rule: AuditRule, file: string, excerpt?: string): AuditFinding {
  return { rule: rule.id, severity: rule.severity, file, message: rule.finds, ...(excerpt === undefined ? {} : { excerpt }) };
}

const BLOB_RUN = new RegExp(`[A-Za-z0-9+/_-]{${BLOB_MIN_CHARS},}={0,2}`, 'g');

/** Whether a base64 run decodes to an image (an icon set kept in a script): data to see, nothing hidden. */
function isEncodedImage(blob: string): boolean {
  const head = Buffer.from(blob.slice(0, 64), 'base64');
  if (/^an image|^a font/.test(binaryKind({ path: '', bytes: head, executable: false }).what)) return true;
  return /^\s*<(?:svg|\?xml)\b/.test(head.toString('latin1'));
}

/** Whether a line holds a long run of base64 or hex that is not an image's data URI. */
function hasBlob(line: string): boolean {
  if (line.length < BLOB_MIN_CHARS) return false;
  for (const match of line.matchAll(BLOB_RUN)) {
    const before = line.slice(Math.max(0, match.index - 40), match.index);
    if (/data:image\/[\w.+-]+;base64,$/i.test(before)) continue;
    const blob = match[0];
    if (isEncodedImage(blob)) continue;
    // A long word of letters only, or a path, is not a blob: base64 mixes cases and digits.
    if (/[0-9]/.test(blob) && (/[a-z]/.test(blob) || /^[0-9A-F]+$/.test(blob)) && (/[A-Z]/.test(blob) || /^[0-9a-f]+$/i.test(blob))) return true;
  }
  return false;
}

/** The first line of `key:` in front matter lines, for a declaration's finding. */
function declarationLine(views: readonly LineView[], frontmatterEnd: number, key: string): number | undefined {
  const pattern = new RegExp(`^\\s*${key}\\s*:`);
  return views.slice(0, frontmatterEnd).find((view) => pattern.test(view.text))?.number;
}

/** What SKILL.md's front matter declares: MCP servers and allowed tools. */
function declarations(text: string, views: readonly LineView[]): AuditFinding[] {
  const normalized = text.replace(/\r\n?/g, '\n');
  const location = locateFrontmatter(normalized, true);
  // Most skills declare neither: their YAML is left unparsed.
  if (location.state !== 'closed' || !/\b(?:mcp-servers|allowed-tools)\s*:/.test(location.yaml)) return [];
  let frontmatter: Record<string, unknown>;
  try {
    frontmatter = parseFrontmatterYaml(location.yaml);
  } catch {
    return []; // validation reports it
  }
  const end = location.bodyLine - 1;
  const found: AuditFinding[] = [];
  const servers = skillFields(frontmatter).mcpServers;
  if (servers.length > 0) {
    const rule = auditRule('mcp-servers');
    const line = declarationLine(views, end, 'mcp-servers');
    const names = servers.map((server) => `${server.name}${server.optional ? ' (optional)' : ''}`).join(', ');
    found.push({ ...fileFinding(rule, SKILL_FILE, visibleText(names)), ...(line === undefined ? {} : { line, lines: [line] }) });
  }
  const tools = frontmatter['allowed-tools'];
  const listed = typeof tools === 'string' ? tools.trim() : Array.isArray(tools) ? tools.map(String).join(', ') : '';
  if (listed !== '') {
    const rule = auditRule('allowed-tools');
    const line = declarationLine(views, end, 'allowed-tools');
    const shell = /(?:^|[\s,[])(?:Bash|Shell|run_in_terminal|terminal)(?:\(\s*\*?\s*\))?(?=$|[\s,\]])/i.test(listed) ? ' (a shell without limits among them)' : '';
    found.push({ ...fileFinding(rule, SKILL_FILE, excerptOf(`${listed}${shell}`)), ...(line === undefined ? {} : { line, lines: [line] }) });
  }
  return found;
}

/** The findings in one file. */
function auditFile(file: AuditFile): AuditFinding[] {
  const text = textOf(file);
  if (text === undefined) {
    const { kind, what } = binaryKind(file);
    const id = kind === 'executable' ? 'executable-binary' : kind === 'archive' ? 'archive' : 'binary-file';
    return [fileFinding(auditRule(id), file.path, what)];
  }
  const script = isScript(file, text) && !MARKDOWN_EXTENSIONS.has(extensionOf(file.path));
  const views = lineViews(file, text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, script);
  const found: AuditFinding[] = [];
  if (file.path === SKILL_FILE) found.push(...declarations(text, views));
  const base = file.path.slice(file.path.lastIndexOf('/') + 1).toLowerCase();
  if (MCP_CONFIG_FILES.has(base)) found.push(fileFinding(auditRule('mcp-servers'), file.path, 'an MCP configuration file'));
  if (script) {
    const shebang = /^#![ \t]*(\S+(?:[ \t]+\S+)?)/.exec(text)?.[1];
    found.push(fileFinding(auditRule('script'), file.path, shebang === undefined ? undefined : excerptOf(`#!${shebang}`)));
  }
  for (const rule of AUDIT_RULES) {
    const matched: LineView[] = [];
    if (rule.id === 'hidden-characters') {
      matched.push(...views.filter((view) => hiddenCharacterCount(view.text) > 0));
    } else if (rule.id === 'encoded-blob') {
      matched.push(...views.filter((view) => hasBlob(view.text)));
    } else if (rule.patterns !== undefined) {
      for (const view of views) {
        if (ruleMatches(rule, scopedTexts(rule, view, script), script)) matched.push(view);
      }
    }
    if (matched.length > 0) found.push(lineFinding(rule, file.path, matched));
  }
  return found;
}

const RULE_ORDER = new Map(AUDIT_RULES.map((rule, index) => [rule.id, index]));
const SEVERITY_ORDER: Record<AuditSeverity, number> = { high: 0, medium: 1, info: 2 };

/** Audit one skill's files: every finding, the most severe first, then by rule and file. */
export function auditSkill(skill: string, files: readonly AuditFile[]): SkillAudit {
  const findings = files.flatMap(auditFile);
  findings.sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      RULE_ORDER.get(a.rule)! - RULE_ORDER.get(b.rule)! ||
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      (a.line ?? 0) - (b.line ?? 0),
  );
  return { skill, findings };
}

/** The findings that need consent before the skill lands (CONSENT_SEVERITIES). */
export function findingsNeedingConsent(audit: SkillAudit): AuditFinding[] {
  return audit.findings.filter((finding) => CONSENT_SEVERITIES.has(finding.severity));
}

/** A finding's place: `file:line`, or the file alone. */
export function findingPlace(finding: AuditFinding): string {
  return finding.line === undefined ? finding.file : `${finding.file}:${finding.line}`;
}

/**
 * A finding as one line of text: severity, place, what it finds, the excerpt, the other lines.
 * The one wording of a finding: `skills audit`, the warnings of `skills add` and `update`.
 */
export function findingLine(finding: AuditFinding): string {
  const more = (finding.lines ?? []).slice(1);
  const also = more.length === 0 ? '' : ` (also line${more.length === 1 ? '' : 's'} ${more.join(', ')})`;
  const excerpt = finding.excerpt === undefined || finding.excerpt === '' ? '' : `: ${finding.excerpt}`;
  return `[${finding.severity}] ${findingPlace(finding)} ${finding.message}${also}${excerpt}`;
}

/** The key of a finding without its line numbers: the same finding in an edited copy of the file. */
export function findingKey(finding: AuditFinding): string {
  return `${finding.rule}\u0000${finding.file}\u0000${finding.excerpt ?? ''}`;
}
