/**
 * `create-squad skills check [name…]`: for each skill the project lock (skills-lock.json) records,
 * whether it is unchanged, modified here (the files that differ), has an update at its source (a
 * folder's files or a git ref moved), or lost its source. Reads only; exit code 1 when any skill is
 * not unchanged.
 */
import { SquadError } from '../core/base/errors.js';
import { requireSquad } from '../core/roster/roster.js';
import { checkSource, installedState, readLockedSkills, type InstalledState, type SourceState } from '../core/skills/skill-check.js';
import { SKILL_LOCK_PATH } from '../core/skills/skill-lock.js';
import { readSources } from '../core/skills/skill-sources.js';
import { warning, type Warning } from '../core/base/warnings.js';
import type { CommandContext, CommandResult } from './context.js';
import { plural } from './format.js';

export interface SkillsCheckOptions {
  /** Only these skills (a name, or `<member>/<name>`); default: every skill the lock records. */
  names?: string[];
}

/** One skill's verdict: the first that holds of not-installed, source-gone, modified, update-available, unchanged. */
export type CheckVerdict = 'unchanged' | 'modified' | 'update-available' | 'source-gone' | 'not-installed';

export interface CheckedSkill {
  name: string;
  agent?: string;
  /** The lock's key. */
  key: string;
  /** Where it is installed. */
  folder?: string;
  state: CheckVerdict;
  installed: InstalledState;
  source: SourceState;
}

export interface SkillsCheckData {
  lock: string;
  skills: CheckedSkill[];
  summary: Record<CheckVerdict, number>;
}

function verdict(installed: InstalledState, source: SourceState): CheckVerdict {
  if (installed.state === 'not-installed') return 'not-installed';
  if (source.state === 'gone') return 'source-gone';
  // A folder that cannot be read (a link out of the repository) is not what was installed either.
  if (installed.state === 'modified' || installed.state === 'unreadable') return 'modified';
  if (source.state === 'update-available') return 'update-available';
  return 'unchanged';
}

export async function skillsCheck(options: SkillsCheckOptions, ctx: CommandContext): Promise<CommandResult<SkillsCheckData>> {
  requireSquad(ctx.cwd);
  const lock = readSources(ctx.cwd);
  if (lock.problem !== undefined) {
    throw new SquadError('invalid-format', `${SKILL_LOCK_PATH} ${lock.problem}`, {
      hint: 'correct it, or add the skills again with "create-squad skills add <source> --force"',
      file: SKILL_LOCK_PATH,
    });
  }
  const names = options.names ?? [];
  const locked = await readLockedSkills(ctx.cwd, lock, names);
  const missing = names.filter((name) => !locked.some((skill) => skill.name === name || skill.key === name));
  if (missing.length > 0) {
    const known = Object.keys(lock.entries);
    throw new SquadError('not-found', `${SKILL_LOCK_PATH} records no skill named ${missing.map((name) => `"${name}"`).join(', ')}`, {
      hint: known.length > 0 ? `it records: ${known.join(', ')}` : 'skills add records each skill it installs there',
    });
  }
  const skills: CheckedSkill[] = [];
  for (const skill of locked) {
    const installed = installedState(skill);
    const source = await checkSource(ctx.cwd, lock, skill, ctx.env);
    skills.push({
      name: skill.name,
      ...(skill.agent === undefined ? {} : { agent: skill.agent }),
      key: skill.key,
      ...(skill.folder === undefined ? {} : { folder: skill.folder }),
      state: verdict(installed, source),
      installed,
      source,
    });
  }
  const count = (state: CheckVerdict) => skills.filter((skill) => skill.state === state).length;
  const summary = {
    unchanged: count('unchanged'),
    modified: count('modified'),
    'update-available': count('update-available'),
    'source-gone': count('source-gone'),
    'not-installed': count('not-installed'),
  };
  const warnings: Warning[] = lock.healed
    ? [
        warning(
          'skill-lock-healed',
          `${SKILL_LOCK_PATH} holds git conflict markers: read with both sides joined (the next "skills add", "update" or "remove" writes it clean)`,
          SKILL_LOCK_PATH,
        ),
      ]
    : [];
  return {
    data: { lock: SKILL_LOCK_PATH, skills, summary },
    exitCode: skills.every((skill) => skill.state === 'unchanged') ? 0 : 1,
    warnings,
    render(ui) {
      if (skills.length === 0) {
        ui.out(`${SKILL_LOCK_PATH} records no skills: "create-squad skills add <source>" records each skill it installs`);
        return;
      }
      for (const skill of skills) renderSkill(ui, skill);
      const others = (['modified', 'update-available', 'source-gone', 'not-installed'] as const)
        .filter((state) => summary[state] > 0)
        .map((state) => `${summary[state]} ${state.replace('-', ' ')}`);
      ui.out(`${plural(skills.length, 'skill')} checked: ${summary.unchanged} unchanged${others.length > 0 ? `, ${others.join(', ')}` : ''}`);
    },
  };
}

function renderSkill(ui: Parameters<CommandResult['render']>[0], skill: CheckedSkill): void {
  const shown = skill.agent === undefined ? skill.name : `${skill.name} (${skill.agent})`;
  const { installed, source } = skill;
  const sourceNote = source.state === 'not-checked' ? ` (source not checked: ${source.reason})` : '';
  switch (skill.state) {
    case 'unchanged':
      ui.success(`${shown}: unchanged${installed.state === 'no-hash' ? ' (the lock records no hash to compare with)' : ''}${sourceNote}`);
      break;
    case 'not-installed':
      ui.warn(`${shown}: not installed: ${SKILL_LOCK_PATH} records it, but no folder of it is there ("skills remove" forgets it; "skills add" installs it again)`);
      break;
    case 'source-gone':
      ui.warn(`${shown}: source gone: ${source.state === 'gone' ? source.reason : ''}`);
      break;
    case 'modified':
      ui.warn(`${shown}: modified here (${skill.folder}/)`);
      break;
    case 'update-available':
      ui.warn(
        `${shown}: update available: ${source.state === 'update-available' ? source.detail : ''} ("create-squad skills update ${skill.name}${skill.agent ? ` --agent ${skill.agent}` : ''}")`,
      );
      break;
  }
  if (installed.state === 'modified') {
    const lines = [...installed.changed.map((file) => `changed: ${file}`), ...installed.added.map((file) => `added: ${file}`), ...installed.removed.map((file) => `gone: ${file}`)];
    for (const line of lines) ui.out(`  ${line}`);
    if (lines.length === 0) ui.out('  its files hash differently from the lock (which keeps no hash per file to say which)');
    if (skill.state !== 'modified') ui.out('  and modified here');
  }
  if (skill.state === 'modified' && source.state === 'update-available') ui.out(`  and an update is available: ${source.detail}`);
  if (installed.state === 'unreadable') ui.out(`  could not read it: ${installed.reason}`);
}
