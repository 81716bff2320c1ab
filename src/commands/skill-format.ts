/** Short text forms of skill facts, shared by the commands that print skills. */
import type { Style } from '../cli/ui.js';
import type { McpServerRequirement } from '../core/skill.js';
import type { SkillIssue } from '../core/validate.js';

export function formatScope(skill: { scope: string; agent?: string }): string {
  return skill.agent === undefined ? skill.scope : `agent:${skill.agent}`;
}

export function formatMcp(servers: McpServerRequirement[]): string {
  if (servers.length === 0) return '-';
  return servers.map((s) => (s.optional ? `${s.name}?` : s.name)).join(', ');
}

export function formatStatus(skill: { valid: boolean; errors: SkillIssue[]; warnings: SkillIssue[] }, style: Style): string {
  if (!skill.valid) return style.red(`✗ ${plural(skill.errors.length, 'error')}`);
  if (skill.warnings.length > 0) return style.yellow(`⚠ ${plural(skill.warnings.length, 'warning')}`);
  return style.green('✓ valid');
}

export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
