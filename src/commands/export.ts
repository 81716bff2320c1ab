/**
 * `create-squad export [--out file.squad] [--no-history] [--keep-private] [--force]`: write the
 * squad to a portable .squad file.
 */
import path from 'node:path';
import { exportSquad, isExpectedSkip, writeSquadFile, type ExportReport } from '../core/portable/export.js';
import { formatBytes } from '../core/base/util.js';
import { DEFAULT_EXPORT_FILE, SQUAD_FORMAT_VERSION } from '../core/portable/squad-format.js';
import { packageVersion } from '../core/fs/version.js';
import { squadCommand } from '../core/base/cli-invocation.js';
import type { CommandContext, CommandResult } from './context.js';
import { displayPath, listNames, plural } from './format.js';

export interface ExportCommandOptions {
  /** Output file as typed (relative to where the command runs); default squad-export.squad in the repository. */
  out?: string;
  /** false with --no-history. */
  history: boolean;
  keepPrivate: boolean;
  force: boolean;
  /** Build and report the export, write nothing. */
  dryRun: boolean;
}

export interface ExportData extends ExportReport {
  file: string;
  bytes: number;
  format: string;
  dryRun: boolean;
}

function found(counts: { email: number; secret: number }): string {
  const parts = [];
  if (counts.email > 0) parts.push(`${counts.email} e-mail address${counts.email === 1 ? '' : 'es'}`);
  if (counts.secret > 0) parts.push(plural(counts.secret, 'credential-looking string'));
  return parts.join(' and ');
}

/**
 * The file as `import` finds it when run in another repository: its name when it is in the current
 * folder (to be copied there), else its absolute path (as displayPath shows it), quoted when it
 * has a space.
 */
function importArgument(shown: string): string {
  const file = path.isAbsolute(shown) || /^[A-Za-z]:\//.test(shown) ? shown : path.basename(shown);
  return /\s/.test(file) ? `"${file}"` : file;
}

export async function exportCommand(options: ExportCommandOptions, ctx: CommandContext): Promise<CommandResult<ExportData>> {
  const absOut = options.out === undefined ? path.join(ctx.cwd, DEFAULT_EXPORT_FILE) : path.resolve(ctx.invocationDir, options.out);
  const shown = displayPath(absOut, ctx);
  const result = await exportSquad(ctx.cwd, { history: options.history, redact: !options.keepPrivate, out: { path: absOut, shown, force: options.force } });
  if (!options.dryRun) writeSquadFile(absOut, result.text, options.force);

  const report = result.report;
  const data: ExportData = { file: shown, bytes: Buffer.byteLength(result.text), format: SQUAD_FORMAT_VERSION, ...report, dryRun: options.dryRun };
  return {
    data,
    exitCode: 0,
    render(ui) {
      ui.success(`${options.dryRun ? 'Would export' : 'Exported'} the squad to ${shown} (${formatBytes(data.bytes)})`);
      const members = report.agents.map((a) => (a.role ? `${a.displayName} (${a.role})` : a.displayName));
      ui.out(`  Members: ${members.length ? listNames(members, 12) : 'none'}`);
      const skills = report.skills.map((s) => `${s.name} (${s.agent ?? 'team'})`);
      ui.out(`  Learned skills: ${skills.length ? `${skills.length} (${listNames(skills)})` : 'none'}`);
      if (report.builtinSkills.length) ui.out(`  Built-in skills left out: ${report.builtinSkills.length} (the target repository installs its own)`);
      ui.out(`  Histories: ${report.history ? 'split into portable knowledge and project learnings' : 'left out (--no-history)'}`);
      const counts = report.redaction;
      if (counts.email + counts.secret > 0) {
        const who = counts.agents.length === 1 ? `in ${counts.agents[0]}'s history` : `in the histories of ${listNames(counts.agents)}`;
        if (counts.enabled) ui.warn(`Redacted ${found(counts)} ${who}; --keep-private keeps them`);
        else ui.warn(`Kept ${found(counts)} ${who} (--keep-private): the file contains them`);
      }
      // What stays by design is one line; anything else left out is a warning each.
      const stays = report.skipped.filter((skip) => isExpectedSkip(skip)).map((skip) => skip.path);
      if (stays.length) ui.out(`  Stays with this repository (--json says why): ${listNames(stays)}`);
      for (const skip of report.skipped) if (!isExpectedSkip(skip)) ui.warn(`${skip.path}: ${skip.reason}`);
      if (options.dryRun) {
        ui.out('Dry run: nothing was written.');
        return;
      }
      ui.out(`  The file holds what the team learned about this project: look through it before you share it.`);
      // Another repository, which may not install create-squad: this version, pinned (it reads what it wrote).
      ui.out(`  Import it in another repository with: ${squadCommand(`import ${importArgument(shown)}`, packageVersion())}`);
    },
  };
}
