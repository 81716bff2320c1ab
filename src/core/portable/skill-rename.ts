/**
 * Renaming a skill inside its SKILL.md text: the frontmatter `name` rewritten, every other byte
 * kept (a Squad 1.0 skill whose name breaks the rules, a learned skill renamed on import).
 */
import { SquadError } from '../base/errors.js';
import { parseSkill } from '../skills/skill.js';

/**
 * SKILL.md text with its frontmatter `name` set to `name`; every other byte (BOM, line endings,
 * other fields) kept. Undefined when the text has no frontmatter to change.
 */
export function withSkillName(text: string, name: string): string | undefined {
  const bom = text.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
  const lines = text.slice(bom.length).split('\n');
  const delimiter = /^---[ \t]*\r?$/;
  if (!delimiter.test(lines[0] ?? '')) return undefined;
  for (let i = 1; i < lines.length; i += 1) {
    const line = lines[i]!;
    const eol = line.endsWith('\r') ? '\r' : '';
    if (delimiter.test(line)) {
      lines.splice(1, 0, `name: ${name}${eol}`);
      return bom + lines.join('\n');
    }
    if (!/^(?:name|"name"|'name')[ \t]*:/.test(line)) continue;
    lines[i] = `name: ${name}${eol}`;
    // A value continued on indented lines (a block scalar, a folded string) goes with it.
    let end = i + 1;
    while (end < lines.length && /^[ \t]+\S/.test(lines[end]!)) end += 1;
    lines.splice(i + 1, end - i - 1);
    return bom + lines.join('\n');
  }
  return undefined;
}

/**
 * A SKILL.md renamed to `name` (withSkillName), checked to read back with that name; or why it
 * cannot be: no frontmatter, a frontmatter that cannot be read, or one written in a form the
 * rewrite cannot handle (a flow mapping `{name: …}`).
 */
export function renameSkillText(text: string, name: string): { text: string } | { problem: string } {
  const renamed = withSkillName(text, name);
  if (renamed === undefined) return { problem: 'its SKILL.md has no frontmatter' };
  const nameIn = (skillMd: string): unknown => parseSkill(skillMd).frontmatter.name;
  try {
    if (nameIn(renamed) === name) return { text: renamed };
  } catch {
    // said below: the original's own problem, or the rewrite's
  }
  try {
    nameIn(text);
  } catch (error) {
    return { problem: `its frontmatter cannot be read (${error instanceof SquadError ? error.message : String(error)})` };
  }
  return { problem: 'its frontmatter is written in a form create-squad cannot rewrite' };
}
