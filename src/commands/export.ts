/**
 * `create-squad export [--out file.squad] [--format squad|squad-cli] [--no-history] [--keep-private] [--force]`:
 * write the squad to a portable .squad file, or (`--format squad-cli`) to the export squad-cli's
 * `squad import` reads.
 */
import path from 'node:path';
import { exportSquad, isExpectedSkip, writeSquadFile, type ExportReport } from '../core/portable/export.js';
import { formatBytes } from '../core/base/util.js';
import { DEFAULT_EXPORT_FILE, SQUAD_FORMAT_VERSION } from '../core/portable/squad-format.js';
import { SQUAD_CLI_EXPORT_FILE, SQUAD_CLI_FORMAT, toSquadCliExport, type SquadCliExportReport } from '../core/portable/squad-cli-export.js';
import { SquadError } from '../core/base/errors.js';
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
  /** `squad` (default): a .squad file; `squad-cli`: the export squad-cli's `squad import` reads. */
  format?: string;
}

export interface ExportData extends ExportReport {
  file: string;
  bytes: number;
  format: string;
  dryRun: boolean;
  /** `--format squad-cli`: what squad-cli's format holds and what it has no place for. */
  squadCli?: SquadCliExportReport;
}

const FORMATS = ['squad', SQUAD_CLI_FORMAT];

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
  const format = options.format ?? 'squad';
  if (!FORMATS.includes(format)) {
    throw new SquadError('usage', `unknown export format "${format}"`, {
      hint: `use --format squad (a .squad file, the default) or --format ${SQUAD_CLI_FORMAT} (what squad-cli's "squad import" reads)`,
    });
  }
  const forSquadCli = format === SQUAD_CLI_FORMAT;
  const absOut = options.out === undefined ? path.join(ctx.cwd, forSquadCli ? SQUAD_CLI_EXPORT_FILE : DEFAULT_EXPORT_FILE) : path.resolve(ctx.invocationDir, options.out);
  const shown = displayPath(absOut, ctx);
  const result = await exportSquad(ctx.cwd, { history: options.history, redact: !options.keepPrivate, out: { path: absOut, shown, force: options.force } });
  const squadCli = forSquadCli ? toSquadCliExport(result.document) : undefined;
  const text = squadCli?.text ?? result.text;
  if (!options.dryRun) writeSquadFile(absOut, text, options.force);

  const report = result.report;
  const data: ExportData = {
    file: shown,
    bytes: Buffer.byteLength(text),
    format: forSquadCli ? SQUAD_CLI_FORMAT : SQUAD_FORMAT_VERSION,
    ...report,
    dryRun: options.dryRun,
    ...(squadCli === undefined ? {} : { squadCli: squadCli.report }),
  };
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
      if (data.squadCli !== undefined) {
        ui.out(
          `  For squad-cli: the team's ${data.squadCli.paths} .ai-team/ path${data.squadCli.paths === 1 ? '' : 's'} pointed at .squad/, where squad-cli keeps the squad; members' skills travel as team skills`,
        );
        for (const left of data.squadCli.leftOut) ui.warn(`Left out for squad-cli: ${left.what} (${left.reason})`);
      }
      if (options.dryRun) {
        ui.out('Dry run: nothing was written.');
        return;
      }
      ui.out(`  The file holds what the team learned about this project: look through it before you share it.`);
      if (forSquadCli) {
        ui.out(`  Import it with squad-cli in another repository: squad import ${importArgument(shown)}`);
        return;
      }
      // Another repository, which may not install create-squad: this version, pinned (it reads what it wrote).
      ui.out(`  Import it in another repository with: ${squadCommand(`import ${importArgument(shown)}`, packageVersion())}`);
    },
  };
}
