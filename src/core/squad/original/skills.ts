/**
 * Skills in the original Squad's style, made standard Agent Skills.
 *
 * The original coordinator taught members to write skills its own way: some with no frontmatter at
 * all (a `# Title` and `**Confidence:** high` lines), others with frontmatter that has fields the
 * standard does not know (`domain`, `confidence`, `source`, `agents`, …), a `tools:` list of MCP
 * servers (`{ name, description, when }`), and names such as "Playwright E2E Patterns". A conversion
 * keeps the body byte for byte and writes a new frontmatter:
 *
 *   - `name`: the skill's folder (when it is a valid name), else the name or the title, normalised;
 *   - `description`: the one it has, else the first paragraph of the body, else the title;
 *   - `tools:` → `metadata.mcp-servers` (`{ name, reason, optional: true }`: the original never
 *     made a skill depend on a server);
 *   - every other field the standard does not know → `metadata` (a value that is not a string is
 *     written as text: a list joined with ", ");
 *   - the standard's own fields and create-squad's known extensions stay as they are.
 * Pure: text in, text out.
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
  return fromFrontmatter(frontmatter, split.body, folder, split.eol);
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
function fromFrontmatter(frontmatter: Record<string, unknown>, body: string, folder: string | undefined, eol: string): OriginalSkillConversion | undefined {
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
  for (const [key, value] of Object.entries(frontmatter)) {
    if (key === 'name' || key === 'description' || key === 'metadata') continue;
    if (KEPT_FIELDS.has(key)) {
      kept[key] = value;
    } else if (key === 'tools' && Array.isArray(value)) {
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
  return { text: `${head}${body}`, name, changes };
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

/** The original's `tools:` entries as mcp-servers entries; entries without a name are left out. */
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
