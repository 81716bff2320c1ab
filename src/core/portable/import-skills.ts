/**
 * The squad's skills as discovery (squad/discover.ts) will list them once an import's plan is
 * applied: what the members' agents are generated from, decided before anything is written. The
 * skills the plan writes are read from its files; the skills in the folders import leaves as they
 * are (`.github/skills/`, `.agents/skills/`, `.claude/skills/`) are those discovery listed there
 * before. Scopes and precedence are discovery's: built-in, then team skills folder by folder (the
 * last folder wins), then each member's own.
 */
import type { DiskFacts } from '../base/disk-facts.js';
import { isValidName } from '../base/names.js';
import { NATIVE_SKILL_DIRS, SKILL_FILE, agentSkillsDir, resolveIn, squadPaths } from '../base/paths.js';
import type { FileContent } from '../base/plan.js';
import { compareCodePoints } from '../base/util.js';
import { FrontmatterError } from '../skills/frontmatter.js';
import { parseSkill } from '../skills/skill.js';
import { skillFields } from '../skills/skill-fields.js';
import { validateSkill, type SkillValidation } from '../skills/validate.js';
import type { DiscoveredSkill, SkillScope } from '../squad/discover.js';
import { builtinSkillsIn, type BuiltinPlacement } from '../squad/owned.js';
import { squadSkillsOf, type SquadSkills } from '../squad/agents/profile-input.js';

function text(content: FileContent): string {
  return typeof content === 'string' ? content : Buffer.from(content).toString('utf8');
}

/** A SKILL.md's frontmatter checked as `skills validate` checks it in the folder `dirName`, or what reading it threw. */
export type SkillReading = { validation: SkillValidation } | { error: unknown };

/** Reads a SKILL.md text for a folder name (see skillReader). */
export type SkillReader = (skillMd: string, dirName: string) => SkillReading;

/**
 * A SKILL.md read once per text and folder name, however often it is asked: an import's decision
 * asks of every skill it brings, for its notes and for its members' agents, and is made twice (the
 * read step records what it asks of the disk). Pure: the same text gives the same reading.
 */
export function skillReader(): SkillReader {
  const readings = new Map<string, Map<string, SkillReading>>();
  return (skillMd, dirName) => {
    let inFolder = readings.get(dirName);
    if (inFolder === undefined) readings.set(dirName, (inFolder = new Map()));
    let reading = inFolder.get(skillMd);
    if (reading === undefined) {
      try {
        reading = { validation: validateSkill({ frontmatter: parseSkill(skillMd).frontmatter, dirName }) };
      } catch (error) {
        reading = { error };
      }
      inFolder.set(skillMd, reading);
    }
    return reading;
  };
}

/** A skill the plan writes, as discovery would list it from its SKILL.md (frontmatter only). */
function plannedSkill(reading: SkillReading, root: string, dirName: string, location: string, scope: SkillScope, agent: string | undefined): DiscoveredSkill {
  const file = resolveIn(root, location);
  const dir = file.slice(0, file.length - SKILL_FILE.length - 1);
  let skill: DiscoveredSkill;
  if ('validation' in reading) {
    const result = reading.validation;
    const { fields } = result;
    skill = {
      file,
      dir,
      dirName,
      name: fields.name ?? dirName,
      valid: result.valid,
      errors: result.errors,
      warnings: result.warnings,
      scope,
      location,
      description: fields.description,
      version: fields.version,
      versionUnquoted: fields.versionUnquoted,
      author: fields.author,
      mcpServers: fields.mcpServers,
      disableModelInvocation: fields.disableModelInvocation,
    };
  } else {
    const { error } = reading;
    const fields = skillFields({});
    const message = error instanceof FrontmatterError ? error.detail : error instanceof Error ? error.message : String(error);
    skill = {
      file,
      dir,
      dirName,
      name: dirName,
      valid: false,
      errors: [{ code: error instanceof FrontmatterError ? error.issue : 'unreadable', message }],
      warnings: [],
      scope,
      location,
      description: undefined,
      version: undefined,
      versionUnquoted: false,
      author: undefined,
      mcpServers: fields.mcpServers,
      disableModelInvocation: false,
    };
  }
  if (agent !== undefined) skill.agent = agent;
  return skill;
}

export interface SkillsAfterInput {
  /** The repository as it will be (planned-facts.ts factsAfter). */
  disk: DiskFacts;
  /** Every file the plan writes, by its path once the plan is applied. */
  planned: ReadonlyMap<string, FileContent>;
  /** The skills discovery listed before, in the folders the plan leaves as they are. */
  kept: readonly DiscoveredSkill[];
  /** Where each built-in skill will live (owned.ts builtinSkillDirsOf on the new manifest). */
  builtins: BuiltinPlacement;
  /** How a planned SKILL.md is read (default: each read afresh). */
  read?: SkillReader;
}

/** The squad's skills (profile-input.ts SquadSkills) once the plan is applied. */
export function squadSkillsAfter({ disk, planned, kept, builtins, read = skillReader() }: SkillsAfterInput): SquadSkills {
  const keptAt = new Map(kept.map((skill) => [skill.location, skill]));
  const listed = (dir: string, scopeOf: (dirName: string) => SkillScope, agent?: string): DiscoveredSkill[] =>
    disk.names(dir).flatMap((dirName) => {
      const location = `${dir}/${dirName}/${SKILL_FILE}`;
      const content = planned.get(location);
      if (content !== undefined) return [plannedSkill(read(text(content), dirName), disk.root, dirName, location, scopeOf(dirName), agent)];
      const before = keptAt.get(location);
      return before === undefined ? [] : [{ ...before, scope: scopeOf(dirName) }];
    });

  const builtin: DiscoveredSkill[] = [];
  const team: DiscoveredSkill[] = [];
  for (const dir of [squadPaths.aiTeamSkills, ...[...NATIVE_SKILL_DIRS].reverse()]) {
    const builtinsHere = builtinSkillsIn(builtins, dir);
    for (const skill of listed(dir, (dirName) => (builtinsHere.has(dirName) ? 'builtin' : 'team'))) (skill.scope === 'builtin' ? builtin : team).push(skill);
  }
  builtin.sort((a, b) => compareCodePoints(a.dirName, b.dirName));
  const owners = disk.names(squadPaths.agents).filter((name) => isValidName(name) && disk.isDirectory(agentSkillsDir(name)));
  const own = owners.flatMap((name) => listed(agentSkillsDir(name), () => 'agent', name));

  // Discovery's precedence with no agent given: a team or built-in skill hides one of its name from a lower scope or folder.
  const ordered = [...builtin, ...team, ...own];
  const seenByAll = new Map<string, DiscoveredSkill>();
  const overridden: DiscoveredSkill[] = [];
  for (const skill of ordered) {
    const hidden = seenByAll.get(skill.dirName);
    if (hidden && skill.agent === undefined) overridden.push(hidden);
    if (skill.agent === undefined) seenByAll.set(skill.dirName, skill);
  }
  return squadSkillsOf({ skills: ordered.filter((skill) => !overridden.includes(skill)), overridden, refused: [], warnings: [] });
}
