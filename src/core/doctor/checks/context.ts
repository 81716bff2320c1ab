/** Members whose spawn starts over the "over" threshold of their model's window (context/gauge.ts measured it). */
import { agentDir } from '../../base/paths.js';
import type { Finding } from '../catalog.js';
import type { DoctorState } from '../read.js';

export function checkContext(state: DoctorState): Finding[] {
  const report = state.context;
  if (report === undefined) return [];
  return report.members
    .filter((member) => member.level === 'over')
    .map((member) => ({
      severity: 'warning' as const,
      code: 'context-over-threshold',
      path: agentDir(member.member),
      message: `${member.member}'s spawn starts at ${member.percent}% of its ${member.window.tokens.toLocaleString('en-US')}-token window (${member.model ?? 'the session model'}), over ${report.thresholds.over}%: history ${member.parts.history.toLocaleString('en-US')} tokens, decisions ${member.parts.decisions.toLocaleString('en-US')}`,
      fix: `run "create-squad compact" (older history entries and decisions move to archive files the members read on demand; "create-squad context" shows each part)`,
    }));
}
