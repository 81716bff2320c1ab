/**
 * `create-squad skills validate [paths…] [--strict]`: check skills against the Agent Skills
 * standard. A path may be a skill folder, a SKILL.md file, or a folder of skill folders; with no
 * path, every skill of the squad is checked. Exit 1 when any skill has an error (or, with
 * --strict, a warning).
 */
import fs from 'node:fs';
import path from 'node:path';
import { discoverSkills, missingSkillFile } from '../core/squad/discover.js';
import { SquadError } from '../core/base/errors.js';
import { isDirectory, readDirNames } from '../core/fs/fs-safe.js';
import { inspectSkill, type SkillReport } from '../core/skills/inspect.js';
import { SKILL_FILE, resolveIn } from '../core/base/paths.js';
import { requireSquad } from '../core/roster/roster.js';
import type { SkillIssue } from '../core/skills/validate.js';
import type { CommandContext, CommandResult } from './context.js';
import { displayPath, plural } from './format.js';

export interface SkillsValidateOptions {
  paths: string[];
  strict: boolean;
}

export interface ValidatedSkill {
  /** SKILL.md path as given or found, relative to where the command ran when possible. */
  path: string;
  name: string;
  valid: boolean;
  errors: SkillIssue[];
  warnings: SkillIssue[];
}

export interface SkillsValidateData {
  strict: boolean;
  skills: ValidatedSkill[];
  /** Folders that were looked at but hold no SKILL.md. */
  skipped: { path: string; message: string }[];
  summary: { checked: number; valid: number; invalid: number; errors: number; warnings: number };
}

export async function skillsValidate(options: SkillsValidateOptions, ctx: CommandContext): Promise<CommandResult<SkillsValidateData>> {
  const skipped: SkillsValidateData['skipped'] = [];
  const files = options.paths.length > 0 ? expandPaths(options.paths, ctx, skipped) : squadSkillFiles(ctx, skipped);

  const skills = files.map((file) => toValidated(inspectSkill(file, { readBody: true }), options.strict, ctx));
  const summary = {
    checked: skills.length,
    valid: skills.filter((s) => s.valid).length,
    invalid: skills.filter((s) => !s.valid).length,
    errors: skills.reduce((n, s) => n + s.errors.length, 0),
    warnings: skills.reduce((n, s) => n + s.warnings.length, 0),
  };
  const data: SkillsValidateData = { strict: options.strict, skills, skipped, summary };

  return {
    data,
    exitCode: summary.invalid > 0 ? 1 : 0,
    render(ui) {
      const { style } = ui;
      for (const skill of skills) {
        const mark = skill.valid ? (skill.warnings.length ? style.yellow('⚠') : style.green('✓')) : style.red('✗');
        ui.out(mark, ' ', skill.path);
        for (const issue of skill.errors) ui.out('    ', style.red('error'), '    ', formatIssue(issue));
        for (const issue of skill.warnings) {
          ui.out('    ', options.strict ? style.red('error') : style.yellow('warning'), '  ', formatIssue(issue));
        }
      }
      for (const folder of skipped) ui.warn(`${folder.message}, skipped`);
      ui.out();
      ui.out(
        `${plural(summary.checked, 'skill')} checked: ${summary.valid} valid, ${summary.invalid} invalid ` +
          (options.strict
            ? `(${plural(summary.errors + summary.warnings, 'error')} under --strict: ${summary.errors} from the rules, ${summary.warnings} from warnings)`
            : `(${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')})`),
      );
    },
  };
}

function formatIssue(issue: SkillIssue): string {
  return `${issue.message}${issue.line === undefined ? '' : ` (line ${issue.line})`}`;
}

function toValidated(report: SkillReport, strict: boolean, ctx: CommandContext): ValidatedSkill {
  const invalid = report.errors.length > 0 || (strict && report.warnings.length > 0);
  return {
    path: displayPath(report.file, ctx),
    name: report.name,
    valid: !invalid,
    errors: report.errors,
    warnings: report.warnings,
  };
}

/** Every SKILL.md in the squad at ctx.cwd, across all scopes; skill folders without one go to `skipped`. */
function squadSkillFiles(ctx: CommandContext, skipped: SkillsValidateData['skipped']): string[] {
  requireSquad(ctx.cwd);
  const discovery = discoverSkills(ctx.cwd);
  for (const warning of discovery.warnings) {
    if (warning.code !== 'no-skill-file' && warning.code !== 'skill-file-case') continue;
    const dir = resolveIn(ctx.cwd, warning.path);
    skipped.push(skippedFolder(missingSkillFile(dir, displayPath(dir, ctx)) ?? warning));
  }
  return discovery.skills.map((s) => s.file);
}

function skippedFolder(missing: { path: string; message: string }): SkillsValidateData['skipped'][number] {
  return { path: missing.path, message: missing.message };
}

function expandPaths(paths: string[], ctx: CommandContext, skipped: SkillsValidateData['skipped']): string[] {
  const files = new Set<string>();
  for (const given of paths) {
    const abs = path.resolve(ctx.invocationDir, given);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(abs);
    } catch {
      throw new SquadError('not-found', `${given} does not exist`, {
        hint: 'pass a skill folder, a SKILL.md file, or a folder of skill folders',
      });
    }
    if (stat.isFile()) {
      files.add(abs);
      continue;
    }
    if (!missingSkillFile(abs, given)) {
      files.add(path.join(abs, SKILL_FILE));
      continue;
    }
    let found = 0;
    for (const name of readDirNames(abs)) {
      const child = path.join(abs, name);
      if (!isDirectory(child)) continue;
      const missing = missingSkillFile(child, displayPath(child, ctx));
      if (missing) {
        skipped.push(skippedFolder(missing));
      } else {
        files.add(path.join(child, SKILL_FILE));
        found += 1;
      }
    }
    if (found === 0) {
      const own = missingSkillFile(abs, given);
      throw new SquadError('not-found', own?.code === 'skill-file-case' ? own.message : `no ${SKILL_FILE} in ${given} or its sub-folders`, {
        hint: 'pass a skill folder (one that holds SKILL.md) or a folder of skill folders',
      });
    }
  }
  return [...files];
}
