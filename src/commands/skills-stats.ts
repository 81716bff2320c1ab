/**
 * `create-squad skills stats`: what the local usage log says about the squad's skills: which are
 * read most, which are never read, how often each was listed, run and tested, and the median time
 * of its reads and runs. Reads only; the log is opt-in (core/skills/usage-log.ts).
 */
import { discoverSkills } from '../core/squad/discover.js';
import { requireSquad } from '../core/roster/roster.js';
import {
  USAGE_LOG_ENV,
  USAGE_LOG_PATH,
  USAGE_LOG_SETTING_PATH,
  readUsageLog,
  summariseUsage,
  usageLogState,
  type UsageLogState,
  type UsageSummary,
} from '../core/skills/usage-log.js';
import type { CommandContext, CommandResult } from './context.js';
import { listNames, plural } from './format.js';

export interface SkillsStatsData extends UsageSummary {
  log: { path: string; bytes: number; full: boolean; badLines: number } & UsageLogState;
}

const HOW_TO_ENABLE = `set ${USAGE_LOG_ENV}=1 where create-squad runs (the MCP server's environment), or write {"enabled": true} to ${USAGE_LOG_SETTING_PATH}`;

function ms(value: number | null): string {
  return value === null ? '-' : `${value} ms`;
}

export async function skillsStats(ctx: CommandContext): Promise<CommandResult<SkillsStatsData>> {
  requireSquad(ctx.cwd);
  const state = usageLogState(ctx.cwd, ctx.env);
  const log = readUsageLog(ctx.cwd);
  const known = [...new Set(discoverSkills(ctx.cwd).skills.map((skill) => skill.dirName))];
  const summary = summariseUsage(log.records, known);
  const data: SkillsStatsData = { ...summary, log: { path: USAGE_LOG_PATH, bytes: log.bytes, full: log.full, badLines: log.badLines, ...state } };
  return {
    data,
    exitCode: 0,
    render(ui) {
      const { style } = ui;
      if (!state.enabled)
        ui.note(`The usage log is off${state.by === 'default' ? '' : ` (turned off by ${state.by === 'env' ? USAGE_LOG_ENV : USAGE_LOG_SETTING_PATH})`}: ${HOW_TO_ENABLE}.`);
      if (log.full) ui.warn(`${USAGE_LOG_PATH} reached its size limit and no longer grows: delete it to start a new one`);
      if (log.badLines > 0)
        ui.warn(`${plural(log.badLines, 'line')} of ${USAGE_LOG_PATH} ${log.badLines === 1 ? 'is' : 'are'} not log entries and ${log.badLines === 1 ? 'was' : 'were'} skipped`);
      if (summary.entries === 0) {
        ui.out(`No usage recorded yet in ${USAGE_LOG_PATH}.`);
        return;
      }
      ui.out(`${summary.entries} ${summary.entries === 1 ? 'entry' : 'entries'} from ${summary.since} to ${summary.until} (${USAGE_LOG_PATH})`);
      ui.out();
      const used = summary.skills
        .filter((s) => s.listed + s.read + s.run + s.tested > 0)
        .sort((a, b) => b.read - a.read || b.run - a.run || b.listed - a.listed || (a.name < b.name ? -1 : 1));
      ui.table(
        ['SKILL', 'LISTED', 'READ', 'RUN', 'FAILED', 'TESTED', 'MEDIAN READ', 'MEDIAN RUN'],
        used.map((s) => [s.name, String(s.listed), String(s.read), String(s.run), String(s.runFailed), String(s.tested), ms(s.medianReadMs), ms(s.medianRunMs)]),
      );
      ui.out();
      if (summary.readMost.length > 0) ui.out(style.bold('Read most: '), summary.readMost.map((s) => `${s.name} (${s.read})`).join(', '));
      ui.out(style.bold('Never read: '), summary.neverRead.length === 0 ? 'none' : `${listNames(summary.neverRead, 20)} (${plural(summary.neverRead.length, 'skill')})`);
      if (summary.gone.length > 0) ui.out(style.dim(`In the log but no longer in the squad: ${listNames(summary.gone)}`));
    },
  };
}
