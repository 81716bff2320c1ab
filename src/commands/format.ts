/** Short text forms shared by the commands that print reports (skills, file lists, counts). */
import path from 'node:path';
import type { Style, Styled } from '../cli/ui.js';
import type { CommandContext } from './context.js';
import { TEAM_SKILLS_DIR, squadPaths } from '../core/base/paths.js';
import { compareCodePoints } from '../core/base/util.js';
import type { McpServerRequirement } from '../core/skills/skill.js';
import type { SkillIssue } from '../core/skills/validate.js';

export function formatScope(skill: { scope: string; agent?: string }): string {
  return skill.agent === undefined ? skill.scope : `agent:${skill.agent}`;
}

export function formatMcp(servers: McpServerRequirement[]): string {
  if (servers.length === 0) return '-';
  return servers.map((s) => (s.optional ? `${s.name}?` : s.name)).join(', ');
}

export function formatStatus(skill: { valid: boolean; errors: SkillIssue[]; warnings: SkillIssue[] }, style: Style): Styled {
  if (!skill.valid) return style.red(`✗ ${plural(skill.errors.length, 'error')}`);
  if (skill.warnings.length > 0) return style.yellow(`⚠ ${plural(skill.warnings.length, 'warning')}`);
  return style.green('✓ valid');
}

export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * Paths grouped for display: one line per member folder, skill, or casting folder (each a folder two
 * levels down, so the line names where its files are); any other path by itself.
 */
export function groupPaths(paths: readonly string[]): { label: string; count: number }[] {
  const groups = new Map<string, number>();
  for (const file of [...paths].sort(compareCodePoints)) {
    const segments = file.split('/');
    let label = file;
    if ([squadPaths.agents, squadPaths.aiTeamSkills, TEAM_SKILLS_DIR].some((dir) => file.startsWith(`${dir}/`))) label = `${segments.slice(0, 3).join('/')}/`;
    else if (file.startsWith(`${squadPaths.casting}/`)) label = `${path.posix.dirname(file)}/`;
    groups.set(label, (groups.get(label) ?? 0) + 1);
  }
  return [...groups].map(([label, count]) => ({ label, count }));
}

/** A path as the user would type it: relative to where the command was run when below it, else absolute. */
export function displayPath(absPath: string, ctx: CommandContext): string {
  const rel = path.relative(ctx.invocationDir, absPath);
  return (rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : absPath).split(path.sep).join('/');
}

/** Names joined with ", ", at most `max` of them, then "and N more" (one rule with the notes core writes). */
export { listNames } from '../core/base/util.js';
