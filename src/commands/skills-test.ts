/**
 * `create-squad skills test [name] [--agent N] [--case C]`: run skills' deterministic tests
 * (`tests/cases/*.yaml` in the skill folder) and report each case. Without a name, every skill of
 * the squad that has cases. The scripts are checked as run_skill_script checks them (the skill's
 * scripts/, the allowlist, no shell) and run confined (core/fs/sandbox.ts: a scratch copy of the
 * skill, a minimal environment, no network and the whole process tree killed where namespaces
 * allow), which the report states. Exit 1 when any case does not pass.
 */
import { SquadError } from '../core/base/errors.js';
import { discoverSkills, type DiscoveredSkill } from '../core/squad/discover.js';
import { requireSquad } from '../core/roster/roster.js';
import { DEFAULT_SCRIPT_LIMITS, readSkillsAllowlist, skillFolderOf, type ScriptLimits } from '../core/skills/skill-scripts.js';
import { SKILL_TEST_CASES_DIR, listCaseFiles, runSkillTests, testConfinement, type CaseStatus, type SkillCaseResult } from '../core/skills/skill-tests.js';
import type { Confinement } from '../core/fs/sandbox.js';
import { compareCodePoints } from '../core/base/util.js';
import { recordUsage } from '../core/skills/usage-log.js';
import type { CommandContext, CommandResult } from './context.js';
import { plural } from './format.js';
import { findSkill, skillsSeenBy } from './skill-view.js';

export interface SkillsTestOptions {
  /** One skill by name (else every skill with cases). */
  name?: string;
  /** With a name: look it up in this member's view. */
  agent?: string;
  /** Only the case of this name. */
  case?: string;
  /** Output limit per stream (tests shorten it). */
  limits?: Partial<Pick<ScriptLimits, 'maxOutputBytes'>>;
  signal?: AbortSignal;
}

export interface TestedSkill {
  name: string;
  scope: DiscoveredSkill['scope'];
  agent?: string;
  /** Repo-relative skill folder. */
  folder: string;
  cases: SkillCaseResult[];
  /** Case files left out (links out of the skill, too many). */
  refused: { file: string; reason: string }[];
}

export interface SkillsTestData {
  skills: TestedSkill[];
  summary: Record<CaseStatus, number> & { cases: number; skills: number };
  /** What every case's script was confined by on this machine. */
  confinement: Confinement;
}

/** The confinement in one line, saying plainly what is not confined here. */
export function describeConfinement(c: Confinement): string {
  const kept = `Scripts ran confined: ${c.cwd === 'scratch' ? 'a scratch copy of the skill' : 'the repository folder'}, a minimal environment, a temporary HOME`;
  const notHidden = 'files your user can reach are not hidden';
  if (c.processTree === 'namespace') {
    return `${kept}, ${c.network === 'off' ? 'no network' : 'the network on'}, the whole process tree killed at the time limit (${notHidden}).`;
  }
  const killed = c.processTree === 'group' ? 'only its process group killed at the time limit' : 'only the script killed at the time limit';
  return `${kept}; network NOT confined and ${killed} (no user namespaces here); ${notHidden}.`;
}

function hasCases(skill: DiscoveredSkill): boolean {
  const listing = listCaseFiles(skill.dir);
  return listing.files.length > 0 || listing.refused.length > 0;
}

/** The skills to test: the one named (which must have cases), or every skill of the squad that has some. */
function skillsToTest(ctx: CommandContext, options: SkillsTestOptions): DiscoveredSkill[] {
  if (options.name !== undefined) {
    const skill = findSkill(ctx.cwd, skillsSeenBy(ctx.cwd, options.agent), options.name);
    if (!hasCases(skill)) {
      throw new SquadError('not-found', `skill "${skill.dirName}" has no tests (no ${SKILL_TEST_CASES_DIR}/*.yaml in ${skillFolderOf(skill.location)})`, {
        hint: 'write one case per file in tests/cases/ (format: docs/skills.md, "Skill tests")',
      });
    }
    return [skill];
  }
  requireSquad(ctx.cwd);
  const seen = new Set<string>();
  return discoverSkills(ctx.cwd)
    .skills.filter((skill) => {
      if (seen.has(skill.dir)) return false;
      seen.add(skill.dir);
      return hasCases(skill);
    })
    .sort((a, b) => compareCodePoints(a.location, b.location));
}

export async function skillsTest(options: SkillsTestOptions, ctx: CommandContext): Promise<CommandResult<SkillsTestData>> {
  const targets = skillsToTest(ctx, options);
  const allowlist = readSkillsAllowlist(ctx.cwd);
  const limits = { ...DEFAULT_SCRIPT_LIMITS, ...options.limits };
  const skills: TestedSkill[] = [];
  for (const skill of targets) {
    const started = performance.now();
    const run = await runSkillTests(ctx.cwd, skill, allowlist, {
      env: ctx.env,
      limits,
      ...(options.case === undefined ? {} : { only: options.case }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    const passed = run.cases.filter((c) => c.status === 'passed').length;
    recordUsage(ctx.cwd, ctx.env, { event: 'tested', skill: skill.dirName, cases: run.cases.length, passed, via: ctx.via ?? 'cli', ms: Math.round(performance.now() - started) });
    skills.push({
      name: skill.dirName,
      scope: skill.scope,
      ...(skill.agent === undefined ? {} : { agent: skill.agent }),
      folder: skillFolderOf(skill.location),
      cases: run.cases,
      refused: run.refused,
    });
  }
  const all = skills.flatMap((skill) => skill.cases);
  if (options.case !== undefined && all.length === 0) {
    throw new SquadError('not-found', `no case "${options.case}" in ${options.name === undefined ? 'any skill' : `skill "${options.name}"`}`, {
      hint: `a case is named by its "name", or by its file name in ${SKILL_TEST_CASES_DIR}/ without .yaml`,
    });
  }
  const count = (status: CaseStatus) => all.filter((c) => c.status === status).length;
  const summary = { skills: skills.length, cases: all.length, passed: count('passed'), failed: count('failed'), refused: count('refused'), invalid: count('invalid') };
  const refusedFiles = skills.reduce((n, s) => n + s.refused.length, 0);
  return {
    data: { skills, summary, confinement: testConfinement() },
    exitCode: summary.passed === summary.cases && refusedFiles === 0 ? 0 : 1,
    render(ui) {
      const { style } = ui;
      if (skills.length === 0) {
        ui.note(`No skill has tests (${SKILL_TEST_CASES_DIR}/*.yaml in its folder).`);
        return;
      }
      for (const skill of skills) {
        ui.out(style.bold(skill.name), style.dim(`  ${skill.folder}`));
        for (const c of skill.cases) {
          const time = c.durationMs === undefined ? '' : style.dim(` (${c.durationMs} ms)`);
          const mark = c.status === 'passed' ? style.green('✓') : style.red('✗');
          const label = c.status === 'passed' || c.status === 'failed' ? '' : style.red(` ${c.status}`);
          ui.out('  ', mark, ' ', c.name, label, time);
          for (const failure of c.failures) ui.out('      ', failure);
          if (c.hint) ui.out('      ', style.dim(`fix: ${c.hint}`));
          if (c.status === 'failed' && c.stderr) ui.out('      ', style.dim(`stderr: ${c.stderr.trim().split('\n').slice(0, 3).join(' ⏎ ')}`));
        }
        for (const file of skill.refused) ui.out('  ', style.red('✗'), ' ', file.file, style.red(' refused'), `: ${file.reason}`);
      }
      ui.out();
      const problems = [summary.failed && `${summary.failed} failed`, summary.refused && `${summary.refused} refused`, summary.invalid && `${summary.invalid} invalid`].filter(
        Boolean,
      );
      ui.out(`${plural(summary.cases, 'case')} in ${plural(summary.skills, 'skill')}: ${summary.passed} passed${problems.length ? `, ${problems.join(', ')}` : ''}`);
      ui.out(style.dim(describeConfinement(testConfinement())));
    },
  };
}
