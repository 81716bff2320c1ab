/**
 * Skills in the original Squad's style, made standard Agent Skills.
 *
 * The original coordinator taught members to write skills its own way: some with no frontmatter at
 * all (a `# Title` and `**Confidence:** high` lines), others with frontmatter that has fields the
 * standard does not know (`domain`, `confidence`, `source`, `agents`, …), a `tools:` list
 * (`{ name, description, when }`) and names such as "Playwright E2E Patterns". A conversion keeps
 * the body byte for byte and writes a new frontmatter:
 *
 *   - `name`: the skill's folder (when it is a valid name), else the name or the title, normalised;
 *   - `description`: the one it has, else the first paragraph of the body, else the title;
 *   - `tools:` → a note between the frontmatter and the body (toolsNote). Its entries are tool
 *     names and shell commands (`gh api`, `github-mcp-server-search_code`, `trello_*`), not MCP
 *     servers: made `metadata.mcp-servers` they became servers nobody has, in every prompt and
 *     agent. Nor `allowed-tools`, which hosts read as tools pre-approved to run without asking:
 *     the original only named them;
 *   - every other field the standard does not know → `metadata` (a value that is not a string is
 *     written as text: a list joined with ", ");
 *   - the standard's own fields and create-squad's known extensions stay as they are.
 * Pure: text in, text out. `legacyConversion` is what create-squad wrote before (tools as MCP
 * servers): it tells upgrade that a skill is still exactly that conversion, so it may redo it.
 */
import { splitFrontmatter } from '../../skills/frontmatter.js';
import { isValidName, slugify } from '../../base/names.js';
import { parseSkill } from '../../skills/skill.js';
import { KNOWN_EXTENSION_FIELDS, STANDARD_FIELDS } from '../../skills/validate.js';
import { isMapping } from '../../base/util.js';

export interface OriginalSkillConversion {
  /** The standard SKILL.md. */
  text: string;
  /** Its `name`. */
  name: string;
  /** What changed, one short phrase each ("added frontmatter", "tools → metadata.mcp-servers"). */
  changes: string[];
}

const KEPT_FIELDS: ReadonlySet<string> = new Set<string>([...STANDARD_FIELDS, ...KNOWN_EXTENSION_FIELDS]);
/** Fields the original coordinator had members write: a frontmatter with one of them is in its style. */
const ORIGINAL_FIELDS = ['domain', 'confidence', 'source', 'tools'];
/** `**Confidence:** high`, `**Source**: review` — the original's fields in a skill without frontmatter. */
const BOLD_FIELD = /^\*\*([A-Za-z][A-Za-z -]{0,30}?)(?::\*\*|\*\*:)[ \t]*(.+?)[ \t]*$/;
const TITLE = /^#[ \t]+(.+?)[ \t#]*$/;
/** Longest description synthesised from a body paragraph. */
const DESCRIPTION_CHARS = 300;

/**
 * The standard form of an original-style SKILL.md in the folder `folder` (when known), or
 * undefined when it is not in that style (standard already, or a frontmatter without the original's
 * fields, whose problems are the author's to fix) or cannot be read (a frontmatter that is not valid
 * YAML is left for `skills validate` to report).
 */
export function convertOriginalSkill(text: string, folder?: string): OriginalSkillConversion | undefined {
  return convert(text, folder, 'note');
}

/**
 * What create-squad's conversion before this one wrote for `text` (the original's `tools:` as
 * `metadata.mcp-servers`), or undefined when it wrote nothing. Only for recognising a skill that
 * conversion wrote and nobody changed since (skill-migration-plan.ts): never written anew.
 */
export function legacyConversion(text: string, folder?: string): OriginalSkillConversion | undefined {
  return convert(text, folder, 'mcp-servers');
}

/** Where the original's `tools:` go: a note before the body, or (the old conversion) `metadata.mcp-servers`. */
type ToolsAs = 'note' | 'mcp-servers';

function convert(text: string, folder: string | undefined, toolsAs: ToolsAs): OriginalSkillConversion | undefined {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const raw = text.slice(bom.length);
  const split = rawFrontmatter(raw);
  if (split === undefined) return fromBodyOnly(raw, folder);
  let frontmatter: Record<string, unknown>;
  try {
    frontmatter = parseSkill(raw).frontmatter;
  } catch {
    return undefined;
  }
  if (!ORIGINAL_FIELDS.some((field) => Object.hasOwn(frontmatter, field))) return undefined;
  return fromFrontmatter(frontmatter, split.body, folder, split.eol, toolsAs);
}

/** A skill with no frontmatter: one is written from its folder, title, first paragraph and bold fields. */
function fromBodyOnly(body: string, folder: string | undefined): OriginalSkillConversion | undefined {
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  const title = lines.map((line) => TITLE.exec(line)?.[1]).find((found) => found !== undefined);
  const cleanTitle = title?.replace(/^skill\s*:\s*/i, '').trim();
  const name = validFolder(folder) ?? slugify(cleanTitle ?? '');
  if (!name) return undefined;
  const metadata: Record<string, unknown> = {};
  for (const line of lines) {
    const field = BOLD_FIELD.exec(line.trim());
    if (!field) continue;
    const key = slugify(field[1]!);
    if (key && metadata[key] === undefined) metadata[key] = field[2]!.replace(/\s+$/, '');
  }
  const description = firstParagraph(lines) ?? describeTitle(cleanTitle ?? name);
  const eol = body.includes('\r\n') ? '\r\n' : '\n';
  const changes = [
    `added frontmatter: name "${name}" from its ${validFolder(folder) ? 'folder' : 'title'}, a description from its ${firstParagraph(lines) ? 'first paragraph' : 'title'}`,
  ];
  if (Object.keys(metadata).length > 0) changes.push(`${Object.keys(metadata).join(', ')} → metadata`);
  const head = renderFrontmatter({ name, description, ...(Object.keys(metadata).length > 0 ? { metadata } : {}) }, eol);
  return { text: `${head}${eol}${body}`, name, changes };
}

/** A skill with frontmatter: its name normalised, its unknown fields moved under metadata. */
function fromFrontmatter(frontmatter: Record<string, unknown>, body: string, folder: string | undefined, eol: string, toolsAs: ToolsAs): OriginalSkillConversion | undefined {
  const changes: string[] = [];
  const given = typeof frontmatter.name === 'string' ? frontmatter.name.trim() : '';
  const name = validFolder(folder) ?? (isValidName(given) ? given : slugify(given));
  if (!name) return undefined;
  if (name !== frontmatter.name) changes.push(given ? `name "${given}" → "${name}"` : `added name "${name}"`);
  let description = typeof frontmatter.description === 'string' && frontmatter.description.trim() !== '' ? frontmatter.description : undefined;
  if (description === undefined) {
    const lines = body.replace(/\r\n?/g, '\n').split('\n');
    description = firstParagraph(lines) ?? describeTitle(lines.map((line) => TITLE.exec(line)?.[1]).find(Boolean) ?? given ?? name);
    changes.push('added a description');
  }
  const metadata: Record<string, unknown> = isMapping(frontmatter.metadata) ? { ...frontmatter.metadata } : {};
  const kept: Record<string, unknown> = {};
  const moved: string[] = [];
  let note = '';
  for (const [key, value] of Object.entries(frontmatter)) {
    if (key === 'name' || key === 'description' || key === 'metadata') continue;
    if (KEPT_FIELDS.has(key)) {
      kept[key] = value;
    } else if (key === 'tools' && Array.isArray(value) && toolsAs === 'note' && toolEntries(value).length > 0) {
      // A blank line between the note and the body, unless the body starts with one.
      note = `${toolsNote(toolEntries(value), eol)}${/^\r?\n/.test(body) ? '' : eol}`;
      changes.push('tools → a note before the body (tools and commands, not MCP servers)');
    } else if (key === 'tools' && Array.isArray(value) && toolsAs === 'mcp-servers') {
      const servers = mcpServers(value);
      if (servers.length > 0 && metadata['mcp-servers'] === undefined) {
        metadata['mcp-servers'] = servers;
        changes.push('tools → metadata.mcp-servers');
      } else {
        metadata[key] ??= asText(value);
        moved.push(key);
      }
    } else if (value !== null && value !== undefined) {
      metadata[key] ??= asText(value);
      moved.push(key);
    }
  }
  if (moved.length > 0) changes.push(`${moved.join(', ')} → metadata`);
  if (changes.length === 0) return undefined;
  const head = renderFrontmatter({ name, description, ...kept, ...(Object.keys(metadata).length > 0 ? { metadata } : {}) }, eol);
  return { text: `${head}${note}${body}`, name, changes };
}

/** The frontmatter of a raw text (line endings kept): the body after its closing `---` line; undefined without frontmatter. */
function rawFrontmatter(text: string): { body: string; eol: string } | undefined {
  const first = /^---[ \t]*(\r?\n)/.exec(text);
  if (!first) return undefined;
  try {
    splitFrontmatter(text);
  } catch {
    return undefined;
  }
  const close = /^---[ \t]*(?:\r?\n|$)/m;
  const rest = text.slice(first[0].length);
  const found = close.exec(rest);
  if (!found) return undefined;
  return { body: rest.slice(found.index + found[0].length), eol: first[1]! };
}

function validFolder(folder: string | undefined): string | undefined {
  return folder !== undefined && isValidName(folder) ? folder : undefined;
}

/** One entry of the original's `tools:`: a tool name or a command, what it is for, and when to use it. */
interface ToolEntry {
  name: string;
  description: string;
  when: string;
}

/** The original's `tools:` entries (a mapping with a name, or a bare name); entries without a name are left out. */
function toolEntries(tools: readonly unknown[]): ToolEntry[] {
  const text = (value: unknown) => (typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '');
  return tools.flatMap((tool) => {
    if (typeof tool === 'string') return tool.trim() === '' ? [] : [{ name: text(tool), description: '', when: '' }];
    if (!isMapping(tool) || text(tool.name) === '') return [];
    return [{ name: text(tool.name), description: text(tool.description), when: text(tool.when) }];
  });
}

/**
 * The note that keeps the original's `tools:` where a member reads them: a quoted block between
 * the frontmatter and the body (the body stays byte for byte at the end), one line per tool.
 */
function toolsNote(tools: readonly ToolEntry[], eol: string): string {
  const code = (name: string) => (name.includes('`') ? name : `\`${name}\``);
  const lines = [
    "> **Tools this skill names** (the original Squad's `tools:` field): tools and commands to use when you have them. They are not MCP servers; nothing here is installed or required.",
    ...tools.map((tool) => `> - ${code(tool.name)}${tool.description ? `: ${tool.description}` : ''}${tool.when ? ` (when: ${tool.when})` : ''}`),
  ];
  return `${lines.join(eol)}${eol}`;
}

/** The old conversion's mcp-servers entries from the original's `tools:` (legacyConversion); entries without a name are left out. */
function mcpServers(tools: readonly unknown[]): Record<string, unknown>[] {
  return tools.flatMap((tool) => {
    if (!isMapping(tool) || typeof tool.name !== 'string' || tool.name.trim() === '') return [];
    const purpose = typeof tool.description === 'string' ? tool.description.trim() : '';
    const when = typeof tool.when === 'string' ? tool.when.trim() : '';
    const reason = [purpose, when ? `when: ${when}` : ''].filter(Boolean).join('; ');
    return [{ name: tool.name.trim(), ...(reason ? { reason } : {}), optional: true }];
  });
}

/** A frontmatter value as metadata text: a string as it is, a list joined with ", ", anything else as JSON. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string' || typeof item === 'number')) return value.join(', ');
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

/** The first paragraph of prose: not a heading, a bold field, a list, a table, a fence or a comment. */
function firstParagraph(lines: readonly string[]): string | undefined {
  const paragraph: string[] = [];
  for (const line of lines) {
    const trimmed = line.trim();
    const prose = trimmed !== '' && !/^(?:#|\*\*[^*]+:|[-*+] |\d+\. |\||```|~~~|<!--|>)/.test(trimmed) && !BOLD_FIELD.test(trimmed);
    if (prose) paragraph.push(trimmed);
    else if (paragraph.length > 0) break;
  }
  if (paragraph.length === 0) return undefined;
  const text = paragraph.join(' ');
  return text.length > DESCRIPTION_CHARS ? `${text.slice(0, DESCRIPTION_CHARS - 1).trimEnd()}…` : text;
}

function describeTitle(title: string): string {
  return `${title.trim()}: what the team learned; use when the work touches it.`;
}

/**
 * Frontmatter text: every value as JSON (which YAML reads as it is), `metadata` as a block with
 * `mcp-servers` as a list of mappings.
 */
function renderFrontmatter(fields: Record<string, unknown>, eol: string): string {
  const lines = ['---'];
  for (const [key, value] of Object.entries(fields)) {
    if (key === 'metadata' && isMapping(value)) {
      lines.push('metadata:');
      for (const [metaKey, metaValue] of Object.entries(value)) {
        if (metaKey === 'mcp-servers' && Array.isArray(metaValue) && metaValue.every(isMapping)) {
          lines.push(`  ${yamlKey(metaKey)}:`);
          for (const server of metaValue) {
            for (const [index, [field, fieldValue]] of Object.entries(server).entries())
              lines.push(`${index === 0 ? '    - ' : '      '}${yamlKey(field)}: ${JSON.stringify(fieldValue)}`);
          }
        } else {
          lines.push(`  ${yamlKey(metaKey)}: ${JSON.stringify(metaValue)}`);
        }
      }
    } else {
      lines.push(`${yamlKey(key)}: ${JSON.stringify(value)}`);
    }
  }
  lines.push('---');
  return `${lines.join(eol)}${eol}`;
}

function yamlKey(key: string): string {
  return /^[A-Za-z0-9_][A-Za-z0-9_-]*$/.test(key) ? key : JSON.stringify(key);
}

/** A skill's original text as an earlier upgrade backed it up: where, and the text. */
export interface EarlierOriginal {
  backup: string;
  text: string;
}

/**
 * A skill an earlier create-squad converted with the original's `tools:` as MCP servers, converted
 * again from its original text (`earlier`: its backups, newest first): only while the SKILL.md is
 * still exactly what that conversion wrote from one of them. Undefined otherwise: a skill changed
 * since is the team's own (doctor's MCP checks name the servers it declares).
 */
export function redoLegacyConversion(text: string, folder: string | undefined, earlier: readonly EarlierOriginal[] = []): OriginalSkillConversion | undefined {
  const source = earlier.find((original) => legacyConversion(original.text, folder)?.text === text);
  if (source === undefined) return undefined;
  const fresh = convertOriginalSkill(source.text, folder);
  if (fresh === undefined || fresh.text === text) return undefined;
  return { ...fresh, changes: [`converted again from ${source.backup}: an earlier upgrade had made its tools MCP servers (metadata.mcp-servers)`] };
}
