/**
 * `create-squad skills add <source> [--skill N…|--all] [--ref R] [--path P] [--agent N] [--force]
 * [--dry-run]`: install standard skill folders into the team scope or one agent's scope, from a
 * folder (of one skill or several) or a git repository, after validating every one of them; the
 * source of each is recorded for `skills update`.
 */
import path from 'node:path';
import { pendingSkill } from '../core/squad/agents/profile-input.js';
import { applyMemberProfiles, describeProfileChange, planSkillChangeProfiles, reportProfileChanges, type ProfileChangeReport } from '../core/squad/agents/profile-sync.js';
import { SKILL_FILE } from '../core/base/paths.js';
import { requireAgent, requireSquad } from '../core/squad/roster.js';
import { applySkillInstall, isInstalledCopy, planSkillInstall, readSkillSource, skillDestination, type InstallPlan, type SkillSource } from '../core/skills/skill-install.js';
import {
  SKILL_SOURCES_PATH,
  fetchSource,
  findSkills,
  leftBehindWarnings,
  parseSkillSource,
  pickSkills,
  readSources,
  recordSources,
  sourceRecord,
  writeSourcesAfter,
  type Fetched,
  type SkillSourceSpec,
  type SourcesFile,
  type SourceRecord,
} from '../core/skills/skill-sources.js';
import type { Warning } from '../core/base/warnings.js';
import { SquadError, isSquadError } from '../core/base/errors.js';
import { writeFileAtomic } from '../core/fs/fs-safe.js';
import type { SkillIssue } from '../core/skills/validate.js';
import type { CommandContext, CommandResult } from './context.js';
import { underSquadLock } from './pipeline.js';
import { plural } from './format.js';

export interface SkillsAddOptions {
  source: string;
  agent?: string;
  /** --skill: the skills to take from a folder of several. */
  skills?: string[];
  /** --all: every skill of a folder of several. */
  all?: boolean;
  /** --ref: branch or tag of a git source. */
  ref?: string;
  /** --path: folder inside the source. */
  path?: string;
  force: boolean;
  dryRun: boolean;
}

export interface AddedSkill {
  name: string;
  destination: string;
  files: string[];
  backup?: string;
  /** The destination held this very skill already: nothing was (or would be) written. */
  unchanged: boolean;
  skipped: string[];
  /** `.git` folders and files in the source, not copied. */
  git: string[];
  warnings: SkillIssue[];
  source: SourceRecord;
}

export interface SkillsAddData {
  /** The first (often the only) skill added, as before several could be. */
  name: string;
  scope: 'team' | 'agent';
  agent?: string;
  destination: string;
  files: string[];
  backup?: string;
  skipped: string[];
  git: string[];
  warnings: SkillIssue[];
  /** Every skill added. */
  skills: AddedSkill[];
  /** The file that records where each skill came from, when it changed. */
  recorded?: string;
  /** What happened to the members' Copilot agents (.github/agents/). */
  agentProfiles: ProfileChangeReport[];
  dryRun: boolean;
}

interface Picked {
  source: SkillSource;
  record: SourceRecord;
}

/** Every skill to add, fetched and validated, before anything is written. */
async function pickedSkills(options: SkillsAddOptions, ctx: CommandContext, spec: SkillSourceSpec, fetched: Fetched): Promise<Picked[]> {
  const found = pickSkills(findSkills(fetched.dir), options.source, options.skills ?? [], options.all === true);
  const picked: Picked[] = [];
  for (const skill of found) {
    const shown = spec.type === 'folder' ? shownFolder(options.source, fetched.dir, skill.dir) : `${options.source}${skill.dir === fetched.dir ? '' : `/${skill.name}`}`;
    const read = await readSkillSource(shown, skill.dir, ctx.env);
    // A skill at the root of a cloned repository has the clone's own .git beside it: not the skill's.
    const source = spec.type === 'git' ? { ...read, tree: { ...read.tree, git: read.tree.git.filter((entry) => entry !== '.git') } } : read;
    picked.push({ source, record: sourceRecord(ctx.cwd, spec, fetched, skill.dir) });
  }
  return picked;
}

/** How a skill inside the folder the user gave is named in messages: that folder, then its path inside. */
function shownFolder(given: string, root: string, dir: string): string {
  const inside = path.relative(root, dir).split(path.sep).join('/');
  return inside === '' ? given : `${given.replace(/[\\/]+$/, '')}/${inside}`;
}

export async function skillsAdd(options: SkillsAddOptions, ctx: CommandContext): Promise<CommandResult<SkillsAddData>> {
  requireSquad(ctx.cwd);
  const spec = parseSkillSource(options.source, ctx.invocationDir, {
    ...(options.ref === undefined ? {} : { ref: options.ref }),
    ...(options.path === undefined ? {} : { subpath: options.path }),
  });
  const fetched = await fetchSource(spec, ctx.env, ctx.cwd);
  let result: { agent: ReturnType<typeof requireAgent> | undefined; added: { picked: Picked; plan: InstallPlan }[]; recorded: boolean; agentProfiles: ProfileChangeReport[] };
  let warnings: Warning[] = [];
  try {
    const picked = await pickedSkills(options, ctx, spec, fetched);
    result = await underSquadLock(ctx, 'skills add', options.dryRun, async () => {
      const member = options.agent === undefined ? undefined : requireAgent(ctx.cwd, options.agent);
      const now = new Date();
      const added: { picked: Picked; plan: InstallPlan }[] = [];
      for (const one of picked) {
        const name = one.source.report.dirName;
        const destination = skillDestination(name, member?.name, 'rename the skill (its folder and its name field), or add it to one agent with --agent');
        const unchanged = await isInstalledCopy(ctx.cwd, destination, one.source);
        added.push({ picked: one, plan: planSkillInstall(ctx.cwd, one.source, destination, options.force, now, unchanged) });
      }
      const sources = readSources(ctx.cwd);
      const recordText = recordSources(sources, Object.fromEntries(added.map(({ picked: p, plan }) => [plan.destination, p.record])));
      const pending = added.map(({ picked: p, plan }) => pendingSkill(p.source.report, `${plan.destination}/${SKILL_FILE}`, member?.name));
      const profiles = await planSkillChangeProfiles(ctx.cwd, member?.name, { pending });
      if (!options.dryRun) {
        applyMemberProfiles(profiles);
        installAll(ctx.cwd, added, sources, options);
        if (recordText !== undefined) writeSourcesAfter(ctx.cwd, recordText, whatLanded(added), rerunCommand(options), added.length > 1);
      }
      return { agent: member, added, recorded: recordText !== undefined, agentProfiles: reportProfileChanges(profiles) };
    });
  } finally {
    // After a good install a clone left behind is a warning; after a failure the failure is what counts.
    warnings = leftBehindWarnings(fetched.dispose());
  }
  return { ...report(result.agent, result.added, result.recorded, result.agentProfiles, options), warnings };
}

/**
 * Install every planned skill, in order. When one fails after others landed, those are recorded
 * (best effort: running the command again records them too) and the failure says what landed first.
 */
function installAll(root: string, added: readonly { picked: Picked; plan: InstallPlan }[], sources: SourcesFile, options: SkillsAddOptions): void {
  const landed: { picked: Picked; plan: InstallPlan }[] = [];
  try {
    for (const one of added) {
      applySkillInstall(root, one.picked.source, one.plan);
      landed.push(one);
    }
  } catch (error) {
    if (landed.length === 0 || !isSquadError(error)) throw error;
    const text = recordSources(sources, Object.fromEntries(landed.map(({ picked, plan }) => [plan.destination, picked.record])));
    try {
      if (text !== undefined) writeFileAtomic(root, SKILL_SOURCES_PATH, text);
    } catch {
      // the rerun the hint asks for records them
    }
    throw new SquadError(error.code, `${whatLanded(landed)}; then ${error.message}`, {
      hint: `${error.hint ?? 'put that right, then run the command again'} ("${rerunCommand(options)}" adds the rest)`,
      ...(error.file === undefined ? {} : { file: error.file }),
      cause: error,
    });
  }
}

/** What an add that wrote its skills did, for the message when recording their sources fails. */
function whatLanded(added: readonly { picked: Picked; plan: InstallPlan }[]): string {
  const where = (one: { picked: Picked; plan: InstallPlan }) => `${one.picked.source.report.dirName} into ${one.plan.destination}/`;
  const written = added.filter((one) => one.plan.unchanged !== true);
  if (written.length === 0) return `${added.map((one) => `${one.picked.source.report.dirName} is in ${one.plan.destination}/`).join(', ')} already`;
  return `installed ${written.map(where).join(', ')}`;
}

/** A word as a POSIX shell reads it back: as it is when plain, else in single quotes. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-][\w@%+=:,./#~-]*$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The command that adds the same skills from the same source again (without --force: an identical skill is left as it is). */
function rerunCommand(options: SkillsAddOptions): string {
  const words = ['create-squad', 'skills', 'add', options.source];
  if (options.skills?.length) words.push('--skill', ...options.skills);
  if (options.all) words.push('--all');
  if (options.ref !== undefined) words.push('--ref', options.ref);
  if (options.path !== undefined) words.push('--path', options.path);
  if (options.agent !== undefined) words.push('--agent', options.agent);
  return words.map(shellWord).join(' ');
}

function report(
  agent: ReturnType<typeof requireAgent> | undefined,
  added: { picked: Picked; plan: InstallPlan }[],
  recorded: boolean,
  agentProfiles: ProfileChangeReport[],
  options: SkillsAddOptions,
): CommandResult<SkillsAddData> {
  const skills: AddedSkill[] = added.map(({ picked, plan }) => ({
    name: picked.source.report.dirName,
    destination: plan.destination,
    files: plan.files,
    ...(plan.backup ? { backup: plan.backup } : {}),
    unchanged: plan.unchanged === true,
    skipped: plan.skipped,
    git: plan.git,
    warnings: picked.source.report.warnings,
    source: picked.record,
  }));
  const first = skills[0]!;
  const data: SkillsAddData = {
    name: first.name,
    scope: agent ? 'agent' : 'team',
    ...(agent ? { agent: agent.name } : {}),
    destination: first.destination,
    files: first.files,
    ...(first.backup ? { backup: first.backup } : {}),
    skipped: first.skipped,
    git: first.git,
    warnings: first.warnings,
    skills,
    ...(recorded ? { recorded: SKILL_SOURCES_PATH } : {}),
    agentProfiles,
    dryRun: options.dryRun,
  };
  return {
    data,
    exitCode: 0,
    render(ui) {
      const who = agent ? `${agent.displayName}'s skills` : 'the team skills';
      for (const skill of skills) {
        if (skill.unchanged) {
          ui.success(`Skill "${skill.name}" is in ${who} already, file for file: ${skill.destination}/ (nothing to write)`);
          continue;
        }
        const verb = options.dryRun ? 'Would add' : 'Added';
        ui.success(`${verb} skill "${skill.name}" to ${who}: ${skill.destination}/ (${plural(skill.files.length, 'file')})`);
        if (skill.backup) ui.out(`  ${options.dryRun ? 'Would back up' : 'Backed up'} the previous version to ${skill.backup}/`);
        for (const file of skill.skipped) ui.warn(`${file} is a symlink or special file; not copied`);
        for (const entry of skill.git) ui.warn(`${entry} is git's own data; not copied`);
        for (const warning of skill.warnings) ui.warn(`${skill.name}: ${warning.message}`);
      }
      for (const change of agentProfiles) ui.out(`  ${describeProfileChange(change, options.dryRun)}`);
      if (recorded && !options.dryRun) ui.out(`  Source recorded in ${SKILL_SOURCES_PATH}: "create-squad skills update <name>" fetches it again`);
      if (options.dryRun) ui.out('Dry run: nothing was written.');
    },
  };
}
