/** `create-squad import <file> [--force] [--dry-run]`: rebuild a squad from a .squad file. */
import path from 'node:path';
import { readStateText } from '../core/fs/confined.js';
import { IMPORT_ACTIVITY, decideImport, readImportState, type ImportReport } from '../core/portable/import.js';
import { detectStack } from '../core/scaffold/project-context.js';
import { parseProjectContext, type ProjectContext } from '../core/scaffold/scaffold.js';
import { TEAM_SKILLS_DIR, TEMPLATES_COPY_DIR, squadPaths } from '../core/base/paths.js';
import { changeLines, commitHint } from '../core/base/plan.js';
import { packageVersion, startableInstallVersion } from '../core/fs/version.js';
import { hintCommand } from '../core/base/cli-invocation.js';
import type { CommandContext, CommandResult } from './context.js';
import { type ChangeReport, changeReport, runPlan } from './pipeline.js';
import { displayPath, listNames, plural } from './format.js';

export interface ImportCommandOptions {
  /** The .squad file as typed (relative to where the command runs). */
  file: string;
  force: boolean;
  dryRun: boolean;
}

export type ImportData = ImportReport &
  ChangeReport & {
    /** The project context team.md has now: the other repository's (none in a dry run). */
    context?: ProjectContext;
    /** The stack this repository's manifest files name, when they name one. */
    detectedStack?: string;
  };

/** The arguments of the init that gives the imported squad this repository's context ("…" where only the user knows). */
export function contextArguments(context: ProjectContext, detectedStack: string | undefined): string {
  const stack = detectedStack && detectedStack !== context.stack ? detectedStack : '…';
  return `init --project ${JSON.stringify('…')} --stack ${JSON.stringify(stack)}${context.owner ? ` --owner ${JSON.stringify('…')}` : ''}`;
}

function describeContext(context: ProjectContext): string {
  return [`Project: ${context.project || '-'}`, `Stack: ${context.stack || '-'}`, `Owner: ${context.owner || '-'}`].join('; ');
}

function scopeOf(entry: { agent?: string }): string {
  return entry.agent ?? 'team';
}

export async function importCommand(options: ImportCommandOptions, ctx: CommandContext): Promise<CommandResult<ImportData>> {
  const absFile = path.resolve(ctx.invocationDir, options.file);
  const plan = await runPlan(ctx, {
    command: 'import',
    activity: IMPORT_ACTIVITY,
    dryRun: options.dryRun,
    read: () => readImportState(ctx.cwd, absFile, { shownFile: displayPath(absFile, ctx) }),
    decide: (state) => decideImport(state, { force: options.force, dryRun: options.dryRun }),
  });
  const teamText = options.dryRun ? undefined : readStateText(ctx.cwd, squadPaths.team);
  const detected = detectStack(ctx.cwd).stack;
  // Next steps run where the user is: this version, or the repository's install of it (read now, once).
  const installed = startableInstallVersion(ctx.cwd);
  const nextStep = (args: string) => hintCommand(args, packageVersion(), installed);
  const data: ImportData = {
    ...plan.report,
    ...changeReport(plan, options.dryRun),
    ...(teamText === undefined ? {} : { context: parseProjectContext(teamText) }),
    ...(detected ? { detectedStack: detected } : {}),
  };
  return {
    data,
    exitCode: 0,
    render(ui) {
      const would = (done: string, planned: string) => (data.dryRun ? planned : done);
      const members = data.agents.map((a) => (a.role ? `${a.displayName} (${a.role})` : a.displayName));
      ui.success(`${would('Imported', 'Would import')} squad: ${plural(data.agents.length, 'agent')} from ${data.universe}${members.length ? `: ${listNames(members, 12)}` : ''}`);
      const learned = data.skills.map((s) => s.name);
      ui.success(`${would('Imported', 'Would import')} ${plural(learned.length, 'learned skill')}${learned.length ? ` (${listNames(learned)})` : ''}`);
      ui.success(`Built-in skills ${would('applied', 'to apply')}: ${listNames(data.builtinSkills, 6)}`);
      for (const rename of data.renamed) ui.warn(`Renamed ${rename.from} → ${rename.to} (${scopeOf(rename)}): ${rename.reason}`);
      for (const skip of data.skipped) ui.out(`  Skipped ${skip.name} (${scopeOf(skip)}): ${skip.reason}`);
      if (data.replaced) {
        const { archive, members: count, learnedSkills } = data.replaced;
        ui.success(`${would('Archived', 'Would archive')} the previous squad (${plural(count, 'member')}, ${plural(learnedSkills, 'learned skill')}) to ${archive}/`);
      }
      const templates = data.created.filter((f) => f.startsWith(`${TEMPLATES_COPY_DIR}/`)).length;
      const skills = new Set(data.created.filter((f) => f.startsWith(`${TEAM_SKILLS_DIR}/`)).map((f) => f.split('/')[2]));
      const grouped = (f: string) => f.startsWith(`${TEMPLATES_COPY_DIR}/`) || f.startsWith(`${TEAM_SKILLS_DIR}/`);
      const created = [
        ...data.created.filter((f) => !grouped(f)),
        ...(skills.size ? [`${TEAM_SKILLS_DIR}/ (${plural(skills.size, 'built-in skill')})`] : []),
        ...(templates ? [`${TEMPLATES_COPY_DIR}/ (${plural(templates, 'file')})`] : []),
      ];
      if (data.gitattributesAdded.length) created.push(`${squadPaths.gitattributes} (+${plural(data.gitattributesAdded.length, 'line')})`);
      if (created.length) ui.out(`  ${would('Created', 'Would create')} outside ${squadPaths.root}/: ${created.join(', ')}`);
      for (const note of data.notes) ui.warn(note);
      for (const leftover of data.leftovers) ui.warn(`${leftover}/ is left from an interrupted import; it is safe to delete`);
      // Every change of the plan, one line each, and the commit that records exactly them.
      for (const line of changeLines(plan.changes, data.dryRun)) ui.out(`  ${line}`);
      const hint = data.dryRun ? undefined : commitHint(plan.changes, `chore(squad): import the squad from ${data.source}`);
      if (hint !== undefined) ui.out(`  Commit it: ${hint}`);
      ui.out();
      if (data.dryRun) {
        ui.out('Dry run: nothing was written.');
        return;
      }
      ui.out('Next steps:');
      const context = data.context ?? { project: '', stack: '', owner: '' };
      ui.out(`  1. ${squadPaths.team} still describes "${data.source}" (${describeContext(context)}); for this repository run`);
      ui.out(`     ${nextStep(contextArguments(context, data.detectedStack))}  (it updates team.md and the charters)`);
      ui.out('  2. Start a new Copilot session and pick the "Squad" agent');
      ui.out(`  3. Check the imported skills: ${nextStep('skills validate')}`);
    },
  };
}
