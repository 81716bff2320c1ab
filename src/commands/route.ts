/**
 * `create-squad route "<task>" | --task-file <path> [--label <label...>] [--json]`: suggest the member, spawn mode
 * and skills for a task (or the human to ask), with the reason (the routing.md row, the label or the
 * distinguishing words), how clearly the best skill wins, the other candidate skills and the full ranking.
 */
import { routeTask, type RouteSuggestion } from '../core/squad/route.js';
import type { CommandContext, CommandResult } from './context.js';
import { readTaskInput } from './task-input.js';

export interface RouteOptions {
  /** The task as typed; "-" reads stdin. */
  task: string | undefined;
  /** `--task-file`: a file holding the task. */
  taskFile?: string | undefined;
  /** `--label`: the issue's labels (`squad:{member}`). */
  labels?: readonly string[];
}

const USAGE = 'usage: create-squad route "<task>" ("-" reads it from stdin; --task-file <path> reads a file)';

export async function route(options: RouteOptions, ctx: CommandContext): Promise<CommandResult<RouteSuggestion>> {
  const task = await readTaskInput(options, USAGE, ctx);
  const suggestion = routeTask(ctx.cwd, task, { labels: options.labels ?? [] });
  return {
    data: suggestion,
    exitCode: 0,
    render(ui) {
      if (suggestion.ask) {
        const human = suggestion.ask;
        ui.out(ui.style.bold('Ask:'), '    ', `${human.displayName}${human.role ? ` (${human.role})` : ''}, a human member: never spawned`);
        ui.out(ui.style.bold('Why:'), '    ', suggestion.reason);
        return;
      }
      if (!suggestion.agent) {
        ui.out(`No suggestion: ${suggestion.reason}. Add a member with "create-squad hire <role>".`);
        return;
      }
      const who = suggestion.role ? `${suggestion.displayName} (${suggestion.role})` : suggestion.displayName;
      const skills = suggestion.skills.map((s) => `${s.name} (${s.terms.join(', ')})`).join(', ') || '-';
      const activated = new Set(suggestion.skills.map((s) => s.name));
      const others = suggestion.candidates
        .filter((c) => !activated.has(c.name))
        .map((c) => c.name)
        .join(', ');
      const margin = suggestion.candidates.length > 0 ? ` (margin ${suggestion.confidence.margin}, ${percent(suggestion.confidence.coverage)} of the task matched)` : '';
      ui.out(ui.style.bold('Agent:'), '  ', who);
      ui.out(ui.style.bold('Mode:'), '   ', `${suggestion.mode}${margin}`);
      ui.out(ui.style.bold('Skills:'), ' ', skills);
      if (others) ui.out(ui.style.bold('Others:'), ' ', others);
      ui.out(ui.style.bold('Why:'), '    ', suggestion.reason);
      for (const human of suggestion.humans ?? [])
        ui.out(ui.style.bold('Ask:'), '    ', `${human.displayName}${human.role ? ` (${human.role})` : ''}, a human member: never spawned, asked for the decision`);
      ui.out();
      ui.table(
        ['AGENT', 'ROLE', 'SCORE', 'MATCHED'],
        suggestion.ranking.map((r) => [
          r.agent,
          r.role ?? '-',
          r.score.toFixed(2),
          Object.entries(r.matches)
            .map(([field, terms]) => `${field}: ${terms.join(', ')}`)
            .join('; ') || '-',
        ]),
      );
      ui.out();
      const skillFlags = suggestion.mode === 'lightweight' ? ` --skill ${suggestion.skills.map((s) => s.name).join(' ')}` : '';
      ui.out(`Next: create-squad prompt ${suggestion.agent} --mode ${suggestion.mode}${skillFlags} --task "<the task>"`);
    },
  };
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}
