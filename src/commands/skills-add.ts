/**
 * `create-squad skills add <source> [--skill N…|--all] [--ref R] [--path P] [--agent N] [--force]
 * [--dry-run]`: install standard skill folders into the team scope or one agent's scope, from a
 * folder (of one skill or several) or a git repository, after validating every one of them; the
 * source of each is recorded for `skills update`.
 */
import path from 'node:path';
import { reportProfileChanges, type ProfileChangeReport } from '../core/squad/agents/profile-sync.js';
import { requireSquad } from '../core/roster/roster.js';
import { readSkillSource } from '../core/skills/skill-install.js';
import { SKILL_LOCK_PATH, hashSkillFiles } from '../core/skills/skill-lock.js';
import {
  fetchSource,
  findSkills,
  leftBehindWarnings,
  parseSkillSource,
  pickSkills,
  readSources,
  recordChanges,
  recordWriteFailure,
  sourceRecord,
  type Fetched,
  type SkillSourceSpec,
  type SourceRecord,
} from '../core/skills/skill-sources.js';
import { decideSkillsAdd, type SkillToAdd, type SkillsAddPlan } from '../core/team/skill-change-plan.js';
import { readLandedSkills, readSkillsAddState } from '../core/team/skill-change-state.js';
import type { Warning } from '../core/base/warnings.js';
import { SquadError, isSquadError } from '../core/base/errors.js';
import type { SkillIssue } from '../core/skills/validate.js';
import type { CommandContext, CommandResult } from './context.js';
import { type ChangeReport, changeReport, renderChanges, runPlan } from './pipeline.js';
import { plural } from './format.js';
import { auditBeforeLanding, type Confirm, type LandingAudit } from './skills-audit.js';
import type { SkillAudit } from '../core/skills/audit.js';

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
  /** --yes: install even when the audit finds something to review. */
  yes?: boolean;
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

export interface SkillsAddData extends ChangeReport {
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
  /** What the audit found in each skill before it landed (skills-audit.ts auditBeforeLanding); always given. */
  audit?: SkillAudit[];
}

/** Every skill to add, fetched and validated, before anything is written. */
async function pickedSkills(options: SkillsAddOptions, ctx: CommandContext, spec: SkillSourceSpec, fetched: Fetched): Promise<SkillToAdd[]> {
  const found = pickSkills(findSkills(fetched.dir), options.source, options.skills ?? [], options.all === true);
  const picked: SkillToAdd[] = [];
  for (const skill of found) {
    const shown = spec.type === 'folder' ? shownFolder(options.source, fetched.dir, skill.dir) : `${options.source}${skill.dir === fetched.dir ? '' : `/${skill.name}`}`;
    const read = await readSkillSource(shown, skill.dir, ctx.env);
    // A skill at the root of a cloned repository has the clone's own .git beside it: not the skill's.
    const source = spec.type === 'git' ? { ...read, tree: { ...read.tree, git: read.tree.git.filter((entry) => entry !== '.git') } } : read;
    picked.push({ source, record: sourceRecord(ctx.cwd, spec, fetched, skill.dir, hashSkillFiles(read.dir, read.tree.files)) });
  }
  return picked;
}

/** How a skill inside the folder the user gave is named in messages: that folder, then its path inside. */
function shownFolder(given: string, root: string, dir: string): string {
  const inside = path.relative(root, dir).split(path.sep).join('/');
  return inside === '' ? given : `${given.replace(/[\\/]+$/, '')}/${inside}`;
}

export async function skillsAdd(options: SkillsAddOptions, ctx: CommandContext, confirm?: Confirm): Promise<CommandResult<SkillsAddData>> {
  requireSquad(ctx.cwd);
  const spec = parseSkillSource(options.source, ctx.invocationDir, {
    ...(options.ref === undefined ? {} : { ref: options.ref }),
    ...(options.path === undefined ? {} : { subpath: options.path }),
  });
  const fetched = await fetchSource(spec, ctx.env, ctx.cwd);
  let plan: SkillsAddPlan;
  let warnings: Warning[] = [];
  let audited: LandingAudit;
  try {
    const picked = await pickedSkills(options, ctx, spec, fetched);
    const landing = picked.map(({ source }) => ({ name: source.report.dirName, dir: source.dir, tree: source.tree }));
    audited = await auditBeforeLanding('skills add', landing, options, ctx, confirm);
    let planned: SkillsAddPlan | undefined;
    try {
      plan = await runPlan(ctx, {
        command: 'skills add',
        activity: 'adding skills',
        dryRun: options.dryRun,
        read: () => readSkillsAddState(ctx.cwd, picked, options.agent),
        decide: async (state) => (planned = await decideSkillsAdd(state, { force: options.force })),
      });
    } catch (error) {
      if (planned === undefined || options.dryRun) throw error;
      throw await failureAfterWrites(ctx, planned, error, options);
    }
  } finally {
    // After a good install a clone left behind is a warning; after a failure the failure is what counts.
    warnings = leftBehindWarnings(fetched.dispose());
  }
  const result = report(plan, options);
  return { ...result, data: { ...result.data, audit: audited.audits }, warnings: [...audited.warnings, ...warnings] };
}

/**
 * What to say when applying the plan failed after some of it was written (the record is its last
 * change): the skills all landed and only their record failed (bookkeeping-failed); or some landed
 * before a failure, which are recorded (best effort: running the command again records them too)
 * and named before it; else the failure as it is.
 */
async function failureAfterWrites(ctx: CommandContext, plan: SkillsAddPlan, error: unknown, options: SkillsAddOptions): Promise<unknown> {
  const several = plan.added.length > 1;
  const unrecorded = recordWriteFailure(error, whatLanded(plan.added), rerunCommand(options), several);
  if (unrecorded !== undefined) return unrecorded;
  if (!isSquadError(error)) return error;
  let landed: SkillsAddPlan['added'] = [];
  try {
    await runPlan(ctx, {
      command: 'skills add',
      activity: 'recording the sources of the skills added',
      dryRun: false,
      read: async () => ({ sources: readSources(ctx.cwd), landed: await readLandedSkills(ctx.cwd, plan.added) }),
      decide: (state) => {
        // Only when a skill was written before the failure: else nothing landed that the message would name.
        landed = state.landed.some(({ install }) => install.unchanged !== true) ? state.landed : [];
        return { changes: recordChanges(state.sources, Object.fromEntries(landed.map(({ skill, install }) => [install.destination, skill.record]))) };
      },
    });
  } catch {
    // the rerun the hint asks for records them
  }
  if (landed.length === 0) return error;
  return new SquadError(error.code, `${whatLanded(landed)}; then ${error.message}`, {
    hint: `${error.hint ?? 'put that right, then run the command again'} ("${rerunCommand(options)}" adds the rest)`,
    ...(error.file === undefined ? {} : { file: error.file }),
    cause: error,
  });
}

/** What an add that wrote its skills did, for the message when recording their sources fails. */
function whatLanded(added: SkillsAddPlan['added']): string {
  const where = ({ skill, install }: SkillsAddPlan['added'][number]) => `${skill.source.report.dirName} into ${install.destination}/`;
  const written = added.filter(({ install }) => install.unchanged !== true);
  if (written.length === 0) return `${added.map(({ skill, install }) => `${skill.source.report.dirName} is in ${install.destination}/`).join(', ')} already`;
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
  // The audit's consent, given once, holds for the rerun too.
  if (options.yes === true) words.push('--yes');
  return words.map(shellWord).join(' ');
}

function report(plan: SkillsAddPlan, options: SkillsAddOptions): CommandResult<SkillsAddData> {
  const agent = plan.member;
  const skills: AddedSkill[] = plan.added.map(({ skill, install }) => ({
    name: skill.source.report.dirName,
    destination: install.destination,
    files: install.files,
    ...(install.backup ? { backup: install.backup } : {}),
    unchanged: install.unchanged === true,
    skipped: install.skipped,
    git: install.git,
    warnings: skill.source.report.warnings,
    source: skill.record,
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
    ...(plan.recorded ? { recorded: SKILL_LOCK_PATH } : {}),
    agentProfiles: reportProfileChanges(plan.profiles),
    ...changeReport(plan, options.dryRun),
  };
  const names = skills.map((skill) => skill.name).join(', ');
  return {
    data,
    exitCode: 0,
    render(ui) {
      const who = agent ? `${agent.displayName}'s skills` : 'the team skills';
      for (const skill of skills) {
        if (skill.unchanged) {
          ui.success(`Skill "${skill.name}" is in ${who} already, file for file: ${skill.destination}/ (${plan.changes.length === 0 ? 'nothing to write' : 'left as it is'})`);
          if (skill.backup) ui.out(`  ${options.dryRun ? 'Would back up' : 'Backed up'} its old copy to ${skill.backup}/`);
          continue;
        }
        const verb = options.dryRun ? 'Would add' : 'Added';
        ui.success(`${verb} skill "${skill.name}" to ${who}: ${skill.destination}/ (${plural(skill.files.length, 'file')})`);
        if (skill.backup) ui.out(`  ${options.dryRun ? 'Would back up' : 'Backed up'} the previous version to ${skill.backup}/`);
        for (const file of skill.skipped) ui.warn(`${file} is a symlink or special file; not copied`);
        for (const entry of skill.git) ui.warn(`${entry} is git's own data; not copied`);
        for (const warning of skill.warnings) ui.warn(`${skill.name}: ${warning.message}`);
      }
      if (plan.recorded && !options.dryRun) ui.out(`  Source recorded in ${SKILL_LOCK_PATH}: "create-squad skills update <name>" fetches it again`);
      renderChanges(ui, plan, options.dryRun, { message: `chore(squad): add skill${skills.length > 1 ? 's' : ''} ${names}${agent ? ` to ${agent.name}` : ''}` });
    },
  };
}
