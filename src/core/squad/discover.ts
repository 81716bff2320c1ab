/**
 * Skill discovery across three scopes:
 *
 *   built-in  .github/skills/squad-*             the ones create-squad ships or installed, upgradable:
 *             .ai-team/skills/squad-*            member-facing ones in the first folder, coordinator-only
 *                                                procedures in the second (installedBuiltinSkillDirs)
 *   team      .github/skills/*                   every agent sees these, and so does every Copilot host
 *             .agents/skills/*, .claude/skills/* kept by the user for other tools: read, never written
 *             .ai-team/skills/* (not built-in)   team skills of a squad not yet upgraded
 *   agent     .ai-team/agents/{name}/skills/*    learned by one agent
 *
 * Precedence, lowest first: built-in (wherever it lives), then team skills from the bottom of that
 * list to the top (`.github/skills/` wins among them), then an agent's own skills for that agent.
 * A built-in is listed once, as a built-in, never also as a team skill. A skill hidden by
 * one of the same name is reported. Only frontmatter is read. Missing folders mean "no skills".
 * Output order is deterministic.
 *
 * Only what is really inside the repository is read: a skill folder or a SKILL.md that is a link
 * out of it is never opened (the check is made on the opened file: confined.ts openConfined), and
 * the skill is left out of every listing and prompt and reported as refused instead.
 */
import path from 'node:path';
import { SquadError } from '../base/errors.js';
import type { Warning } from '../base/warnings.js';
import { isDirectory, isFile, pathProblem, readDirEntries, readDirNames } from '../fs/fs-safe.js';
import { FILE_MISSING, READ_REFUSED, inspectSkill, inspectSkillForListing, type SkillReport } from '../skills/inspect.js';
import { readStateText, type ReadConfinement } from '../fs/confined.js';
import { PlainSkillHead } from '../skills/plain-head.js';
import { NO_ISSUES } from '../skills/validate.js';
import { NO_SERVERS } from '../skills/skill-fields.js';
import { isValidName } from '../base/names.js';
import { compareCodePoints } from '../base/util.js';
import { LISTS_MANY_SKILLS, MANY_SKILLS, expectManyLongLivedObjects, noteManySkillsListed } from '../base/heap.js';
import { isConvertedLocation } from './original/skill-migration.js';
import { convertOriginalSkill } from './original/skills.js';
import { builtinSkillsIn, installedBuiltinSkillDirs } from './owned.js';
import { NATIVE_SKILL_DIRS, SKILL_FILE, agentSkillsDir, resolveIn, squadPaths } from '../base/paths.js';
import type { McpServerRequirement } from '../skills/skill-fields.js';

export type SkillScope = 'builtin' | 'team' | 'agent';

/**
 * Lowest precedence first: a later scope overrides an earlier one on a name clash. Discovery lists
 * skills in this order and applies overrides by it.
 */
export const SCOPE_PRECEDENCE: readonly SkillScope[] = ['builtin', 'team', 'agent'];

/**
 * A skill as discovery lists it: its report without the parsed frontmatter (every field a command
 * reads is typed below), so a listing of thousands keeps a small record per skill.
 */
export interface DiscoveredSkill extends Omit<SkillReport, 'frontmatter' | 'fields'> {
  scope: SkillScope;
  /** Owning agent, for agent-scope skills. */
  agent?: string;
  /** Repo-relative path of SKILL.md, with forward slashes. */
  location: string;
  description: string | undefined;
  version: string | undefined;
  /** `metadata.version` was written unquoted: YAML read it as a number (1.10 as 1.1). */
  versionUnquoted: boolean;
  author: string | undefined;
  mcpServers: McpServerRequirement[];
  disableModelInvocation: boolean;
}

export interface DiscoveryWarning extends Warning {
  code: 'no-skill-file' | 'skill-file-case' | 'skill-overridden' | 'skill-invalid' | 'skill-outside' | 'skill-file-outside';
  /** Repo-relative path the warning is about. */
  path: string;
  /** How to fix it, when the message does not say. */
  fix?: string;
}

const OUTSIDE_FIX = 'copy the skill into the repository (a symlink may point elsewhere in it), or remove the link';
/** What the Copilot CLI does with a skill linked out of the repository (1.0.102 loads a skill folder linked from outside). */
const COPILOT_FOLLOWS_LINKS = 'Copilot may still load it, as it follows links out of the repository';

/** A skill left unread because its folder or its SKILL.md is a link that leads outside the repository. */
export interface RefusedSkill {
  /** The skill's folder name. */
  name: string;
  scope: SkillScope;
  /** Owning agent, for agent-scope skills. */
  agent?: string;
  /** Repo-relative path of the link: the skill folder, or its SKILL.md. */
  location: string;
  /** Why it is not read. */
  reason: string;
  fix: string;
}

export interface Discovery {
  /** Visible skills: for one agent, after precedence; otherwise every skill in every scope. */
  skills: DiscoveredSkill[];
  /** Skills hidden by a higher-precedence skill of the same name (only when an agent is given). */
  overridden: DiscoveredSkill[];
  /** Skills left unread because they lead outside the repository; each also has a warning. */
  refused: RefusedSkill[];
  warnings: DiscoveryWarning[];
}

export interface DiscoverOptions {
  /** Resolve the skills one agent sees (built-in + team + its own). Without it, list all agents' skills. */
  agent?: string;
}

export function discoverSkills(root: string, options: DiscoverOptions = {}): Discovery {
  const warnings: DiscoveryWarning[] = [];
  const refused: RefusedSkill[] = [];
  const found: Found = { warnings, refused };
  const { agent } = options;
  if (agent !== undefined && !isValidName(agent)) {
    throw new SquadError('unknown-agent', `"${agent}" is not a valid agent name`, {
      hint: 'agent names are lowercase letters, digits and hyphens, as in .ai-team/agents/{name}/',
    });
  }

  // Every folder that holds team skills, lowest precedence first; the built-ins among them apart.
  const builtinDirs = installedBuiltinSkillDirs(root);
  const builtin: DiscoveredSkill[] = [];
  const team: DiscoveredSkill[] = [];
  for (const dir of [squadPaths.aiTeamSkills, ...[...NATIVE_SKILL_DIRS].reverse()]) {
    const builtinsHere = builtinSkillsIn(builtinDirs, dir);
    const scopeHere = (dirName: string): SkillScope => (builtinsHere.has(dirName) ? 'builtin' : 'team');
    for (const skill of scanSkillFolder(root, dir, found, scopeHere)) {
      (skill.scope === 'builtin' ? builtin : team).push(skill);
    }
  }
  builtin.sort((a, b) => compareCodePoints(a.dirName, b.dirName));

  const agents = agent === undefined ? listAgentSkillOwners(root) : [agent];
  const agentSkills = agents.flatMap((name) => scanSkillFolder(root, agentSkillsDir(name), found, () => 'agent', name));

  // Scopes in precedence order: a skill overrides the one of the same name from a lower scope that
  // its agent sees (built-in and team skills are seen by every agent; an agent skill only by its own).
  const byScope: Record<SkillScope, DiscoveredSkill[]> = { builtin, team, agent: agentSkills };
  const ordered = SCOPE_PRECEDENCE.flatMap((scope) => byScope[scope]);
  const seenByAll = new Map<string, DiscoveredSkill>();
  const overridden: DiscoveredSkill[] = [];
  for (const skill of ordered) {
    const hidden = seenByAll.get(skill.dirName);
    if (hidden) {
      warnings.push({
        code: 'skill-overridden',
        path: skill.location,
        message: `${skill.agent ?? 'the team'}'s skill "${skill.dirName}" overrides the ${hidden.scope} skill of the same name${hidden.scope === skill.scope ? ` at ${hidden.location}` : ''}`,
      });
      // One team skill hides another of its name for everyone; an agent's own skill hides a team
      // or built-in one only in that agent's view.
      if (agent !== undefined || skill.agent === undefined) overridden.push(hidden);
    }
    if (skill.agent === undefined) seenByAll.set(skill.dirName, skill);
  }

  const skills = ordered.filter((s) => !overridden.includes(s));
  for (const skill of skills) {
    if (!skill.valid) {
      warnings.push({
        code: 'skill-invalid',
        path: skill.location,
        message: `skill "${skill.dirName}" is invalid: ${skill.errors.map((e) => e.message).join('; ')}${originalStyleHint(root, skill)}`,
      });
    }
  }
  return { skills, overridden, refused, warnings };
}

/**
 * The own skills of member `agent` whose folder is at `relDir` (its folder among the alumni), as
 * discovery will list them once that folder is back at `.ai-team/agents/{agent}/`: what rehire
 * decides the member's agent from before it moves the folder.
 */
export function discoverOwnSkillsAt(root: string, relDir: string, agent: string): DiscoveredSkill[] {
  const from = `${relDir}/skills`;
  const to = agentSkillsDir(agent);
  const [fromAbs, toAbs] = [resolveIn(root, from), resolveIn(root, to)];
  return scanSkillFolder(root, from, { warnings: [], refused: [] }, () => 'agent', agent).map((skill) => ({
    ...skill,
    file: `${toAbs}${skill.file.slice(fromAbs.length)}`,
    dir: `${toAbs}${skill.dir.slice(fromAbs.length)}`,
    location: `${to}${skill.location.slice(from.length)}`,
  }));
}

/** For an invalid skill in the original Squad's style: how it becomes usable (upgrade converts it). */
function originalStyleHint(root: string, skill: DiscoveredSkill): string {
  if (!isConvertedLocation(skill.location)) return '';
  const text = readSkillText(root, skill.location);
  const converted = text === undefined ? undefined : convertOriginalSkill(text, skill.dirName);
  return converted === undefined ? '' : ` (it is in the original Squad's style: "create-squad upgrade" makes it standard)`;
}

/** The text of a listed skill's SKILL.md, confined like every read of it; undefined when it cannot be read (or leads outside since it was listed). */
function readSkillText(root: string, location: string): string | undefined {
  try {
    return readStateText(root, location);
  } catch {
    return undefined;
  }
}

/** Agents that have a skills folder, sorted. */
function listAgentSkillOwners(root: string): string[] {
  return readDirNames(resolveIn(root, squadPaths.agents)).filter((name) => isValidName(name) && isDirectory(resolveIn(root, agentSkillsDir(name))));
}

/** What a scan reports besides the skills it finds. */
interface Found {
  warnings: DiscoveryWarning[];
  refused: RefusedSkill[];
}

/**
 * The skills in `relDir`, of the scope `scopeOf` gives by folder name (and of `agent`, for an
 * agent's own), each made a record as soon as it is read, so what only the reading needed is freed
 * while it is young: a listing of thousands keeps nothing else. Symlinks are followed only while
 * they stay inside the repository: a skill folder (or the skills folder) linked from elsewhere is
 * skipped with a warning, as export does, and so is a skill whose SKILL.md is such a link; each
 * skill left out so is refused.
 */
function scanSkillFolder(root: string, relDir: string, { warnings, refused }: Found, scopeOf: (dirName: string) => SkillScope, agent?: string): DiscoveredSkill[] {
  const absDir = resolveIn(root, relDir);
  const found: DiscoveredSkill[] = [];
  const refuse = (dirName: string, rel: string, reason: string): void => {
    warnings.push({
      code: rel.endsWith(`/${SKILL_FILE}`) ? 'skill-file-outside' : 'skill-outside',
      path: rel,
      message: `${reason}: the skill is not used (${COPILOT_FOLLOWS_LINKS})`,
      fix: OUTSIDE_FIX,
    });
    refused.push({ name: dirName, scope: scopeOf(dirName), ...(agent === undefined ? {} : { agent }), location: rel, reason, fix: OUTSIDE_FIX });
  };
  const outside = (rel: string, dirName?: string): boolean => {
    const problem = pathProblem(root, rel, { allowFinalSymlink: true });
    if (problem === undefined || !problem.includes('outside')) return false;
    if (dirName === undefined) warnings.push({ code: 'skill-outside', path: rel, message: `${problem}: its skills are not used (${COPILOT_FOLLOWS_LINKS})`, fix: OUTSIDE_FIX });
    else refuse(dirName, rel, problem);
    return true;
  };
  if (outside(relDir)) return [];
  // Each skill folder below is, as this listing sees it, a real folder here or a link checked to
  // stay inside: only a SKILL.md that is itself a link pays for a real-path check (no extra system
  // call for the thousands of plain files of a large listing).
  const confinedTo: ReadConfinement = { root, folderInside: true };
  const entries = readDirEntries(absDir);
  // Plain frontmatter is read from its bytes only in a folder of many skills, where it saves time;
  // in a small squad it would only wake the optimising compiler (docs/budgets.md, "Tuning notes").
  const readsPlainHeads = entries.length >= LISTS_MANY_SKILLS;
  if (readsPlainHeads) noteManySkillsListed();
  if (entries.length >= MANY_SKILLS) expectManyLongLivedObjects();
  // A skill's three paths are one string: its SKILL.md path, of which the folder and (where the
  // separator is "/") the repo-relative location are pieces, not strings of their own. A listing
  // of thousands keeps all three for every skill.
  const locationInFile = path.sep === '/' && absDir.endsWith(`/${relDir}`) ? absDir.length - relDir.length : -1;
  for (const entry of entries) {
    // Joined by hand: the folder is already normalised and a name from readdir holds no separator
    // (path.join would normalise again, for each of thousands of skills).
    const file = `${absDir}${path.sep}${entry.name}${path.sep}${SKILL_FILE}`;
    const skillDir = file.slice(0, file.length - SKILL_FILE.length - 1);
    if (!entry.isDirectory() && !(entry.isSymbolicLink() && isDirectory(skillDir))) continue;
    if (entry.isSymbolicLink() && outside(`${relDir}/${entry.name}`, entry.name)) continue;
    // Open SKILL.md directly (one system call in the common case); work out why only if it is missing.
    const report = readsPlainHeads
      ? inspectSkillForListing(file, skillDir, entry.name, confinedTo)
      : inspectSkill(file, { readBody: false, dir: skillDir, dirName: entry.name, confinedTo });
    if (!(report instanceof PlainSkillHead) && report.errors[0]?.code === READ_REFUSED) {
      const rel = `${relDir}/${entry.name}/${SKILL_FILE}`;
      refuse(entry.name, rel, `${rel} is a symlink that leads outside the repository`);
      continue;
    }
    if (!(report instanceof PlainSkillHead) && report.errors[0]?.code === FILE_MISSING) {
      const shown = `${relDir}/${entry.name}`;
      const missing = missingSkillFile(skillDir, shown) ?? { code: 'no-skill-file' as const, path: shown, message: `${shown} has no SKILL.md` };
      warnings.push({ ...missing, message: `${missing.message}, skipped` });
      continue;
    }
    const location = locationInFile === -1 ? `${relDir}/${entry.name}/${SKILL_FILE}` : file.slice(locationInFile);
    found.push(toSkill(report, { file, dir: skillDir, dirName: entry.name, location }, scopeOf(entry.name), agent));
  }
  return found;
}

/** A skill as read for the listing: its report, or (plain frontmatter, valid with nothing to say) its plain head. */
type ListedSkill = SkillReport | PlainSkillHead;

/** Where a listed skill is: what its record holds besides what was read of it. */
interface SkillPaths {
  file: string;
  dir: string;
  dirName: string;
  /** Repo-relative SKILL.md path. */
  location: string;
}

function toSkill(listed: ListedSkill, { file, dir, dirName, location }: SkillPaths, scope: SkillScope, agent?: string): DiscoveredSkill {
  // Explicit literals of one shape, not spreads: discovery builds one per skill, thousands at a time.
  let skill: DiscoveredSkill;
  if (listed instanceof PlainSkillHead) {
    // Its strings were decoded from the bytes on their own: nothing holds a larger text alive.
    skill = {
      file,
      dir,
      dirName,
      name: dirName,
      valid: true,
      errors: NO_ISSUES,
      warnings: NO_ISSUES,
      scope,
      location,
      description: listed.description,
      version: listed.version,
      versionUnquoted: false,
      author: listed.author,
      mcpServers: NO_SERVERS,
      disableModelInvocation: false,
    };
  } else {
    const { fields } = listed;
    skill = {
      file,
      dir,
      dirName,
      // The folder's name when they agree (a valid skill's always do): no piece of the frontmatter's text.
      name: listed.name === dirName ? dirName : listed.name,
      valid: listed.valid,
      errors: listed.errors,
      warnings: listed.warnings,
      scope,
      location,
      description: fields.description === undefined ? undefined : ownString(fields.description),
      version: fields.version,
      versionUnquoted: fields.versionUnquoted,
      author: fields.author,
      mcpServers: fields.mcpServers,
      disableModelInvocation: fields.disableModelInvocation,
    };
  }
  if (agent !== undefined) skill.agent = agent;
  return skill;
}

/**
 * `text` as a string of its own. A value parsed out of a frontmatter is, in V8, a slice that keeps
 * the whole frontmatter's text alive; a listing keeps every description, so each would hold its
 * skill's whole frontmatter. Joining two pieces builds one new flat string: it holds only the
 * description, and ranking reads it faster than a slice.
 */
function ownString(text: string): string {
  return [text.slice(0, 1), text.slice(1)].join('');
}

/**
 * Why `skillDir` is not a skill (no SKILL.md, or only a lowercase skill.md), or undefined when it
 * has its SKILL.md. `shown` is how the folder is named in the message.
 */
export function missingSkillFile(skillDir: string, shown: string): { code: 'no-skill-file' | 'skill-file-case'; path: string; message: string } | undefined {
  if (isFile(path.join(skillDir, SKILL_FILE))) return undefined;
  if (isFile(path.join(skillDir, SKILL_FILE.toLowerCase()))) {
    return { code: 'skill-file-case', path: shown, message: `${shown} has skill.md; the standard file name is SKILL.md (rename it)` };
  }
  return { code: 'no-skill-file', path: shown, message: `${shown} has no SKILL.md` };
}
