/** `create-squad doctor [--json]`: check the squad's health and say how to fix each finding. */
import { runDoctor, type DoctorReport } from '../core/doctor/doctor.js';
import type { CommandContext, CommandResult } from './context.js';
import { plural } from './format.js';

export type DoctorData = DoctorReport & { dir: string };

export async function doctor(ctx: CommandContext): Promise<CommandResult<DoctorData>> {
  const report = await runDoctor(ctx.cwd, { home: ctx.home, cwd: ctx.startDir, env: ctx.env, ...(ctx.gitRoot === undefined ? {} : { gitRoot: ctx.gitRoot }) });
  const data: DoctorData = { dir: ctx.cwd, ...report };
  return {
    data,
    exitCode: report.summary.errors > 0 ? 1 : 0,
    render(ui) {
      const { style } = ui;
      for (const finding of report.findings) {
        const mark = finding.severity === 'error' ? style.red('✗ error  ') : style.yellow('⚠ warning');
        ui.out(mark, ' ', finding.message);
        ui.out('          ', style.dim(`fix: ${finding.fix}`));
      }
      if (report.findings.length > 0) ui.out();
      const checked = `${plural(report.checked.members, 'member')}, ${plural(report.checked.skills, 'skill')}, ${plural(report.checked.mcpServers, 'MCP server')}`;
      if (report.findings.length === 0) {
        ui.success(`The squad is healthy (checked ${checked}; coordinator ${report.version.coordinator ?? 'unstamped'}, create-squad ${report.version.package})`);
      } else {
        ui.out(`${plural(report.summary.errors, 'error')}, ${plural(report.summary.warnings, 'warning')} (checked ${checked})`);
      }
    },
  };
}
