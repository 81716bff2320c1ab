/**
 * `create-squad context [member]`: each member's spawn context in tokens, part by part, against its
 * model's window (core/context/gauge.ts). Reads only.
 */
import { CONTEXT_PARTS, measureContext, type ContextPart, type ContextReport } from '../core/context/gauge.js';
import type { CommandContext, CommandResult } from './context.js';

export interface ContextGaugeOptions {
  member?: string;
}

export type ContextGaugeData = Omit<ContextReport, 'warnings'>;

const PART_LABELS: Record<ContextPart, string> = {
  agent: 'agent',
  charter: 'charter',
  standingRules: 'rules',
  skills: 'skills',
  mcp: 'mcp',
  prompt: 'prompt',
  history: 'history',
  decisions: 'decisions',
};

const count = (tokens: number): string => tokens.toLocaleString('en-US');

export async function contextGauge(options: ContextGaugeOptions, ctx: CommandContext): Promise<CommandResult<ContextGaugeData>> {
  const { warnings, ...data } = await measureContext(ctx.cwd, {
    ...(options.member === undefined ? {} : { member: options.member }),
    home: ctx.home,
    cwd: ctx.startDir,
    env: ctx.env,
  });
  return {
    data,
    exitCode: 0,
    warnings,
    render(ui) {
      const header = ['member', 'model', 'window', ...CONTEXT_PARTS.map((part) => PART_LABELS[part]), 'total', 'used'];
      const rows = data.members.map((m) => [
        m.member,
        m.model ?? 'session model',
        `${count(m.window.tokens)}${m.window.source === 'default' ? ' (default)' : m.window.source === 'team' ? ' (team)' : ''}`,
        ...CONTEXT_PARTS.map((part) => count(m.parts[part])),
        count(m.total),
        m.level === 'ok' ? `${m.percent}%` : m.level === 'warn' ? ui.style.yellow(`${m.percent}% ⚠`) : ui.style.red(`${m.percent}% ✗`),
      ]);
      if (rows.length > 0) ui.table(header, rows);
      else ui.out('No members to measure.');
      if (data.coordinator) {
        const c = data.coordinator;
        ui.out(`coordinator (${c.path}), every turn: ${count(c.tokens)} tokens, ${c.percent}% of the session model's ${count(c.window.tokens)}-token window`);
      }
      ui.out(
        `Tokens estimated at about four characters each, as the spawn prompt counts them (task left out). Warning from ${data.thresholds.warn}%, over from ${data.thresholds.over}% of a window.`,
      );
      const archived = data.members.filter((m) => m.archives.history !== null);
      if (archived.length > 0 || data.members.some((m) => m.archives.decisions !== null)) {
        ui.out(
          'Archives (named in the prompt, read on demand, not counted): ' +
            [...new Set(data.members.flatMap((m) => [m.archives.history, m.archives.decisions]).filter((p): p is string => p !== null))].sort().join(', '),
        );
      }
    },
  };
}
