/**
 * Skill discovery across three scopes:
 *
 *   built-in  .github/skills/squad-*             the ones create-squad ships or installed, upgradable:
 *             .ai-team/skills/squad-*            member-facing ones in the first folder, coordinator-only
 *                                                procedures in the second (installedBuiltinSkillDirs)
 *   team      .github/skills/*                   every agent sees these, and so does every Copilot host
 *             .agents/skills/*, .claude/skills/* kept by the user for other tools: read, never written
 *             .ai-team/skills/* (not built-in)   team skills of a squad not yet upgraded
 *             .copilot/skills/*                  skills squad-cli's `squad import` learned (upgrade moves them)
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
import type { Dirent } from 'node:fs';
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
import { COPILOT_SKILLS_DIR } from './original/stale-paths.js';
import { builtinSkillsIn, installedBuiltinSkillDirs } from './owned.js';
import { NATIVE_SKILL_DIRS, SKILL_FILE, TEAM_SKILLS_DIR, agentSkillsDir, isIgnoredEntry, resolveIn, squadPaths } from '../base/paths.js';
import { SKILL_NESTING_MAX_DEPTH } from '../base/limits.js';
import { describeHostView, hostViewOf, type HostView } from '../skills/host-view.js';
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
  /**
   * A project skill (in `.github/`, `.agents/` or `.claude/skills/`) some host reads differently
   * from create-squad: nested, invalid, or hidden from the Copilot CLI by one of the same name.
   */
  hosts?: HostView;
}

export interface DiscoveryWarning extends Warning {
  code:
    | 'no-skill-file'
    | 'skill-file-case'
    | 'skill-overridden'
    | 'skill-invalid'
    | 'skill-outside'
    | 'skill-file-outside'
    | 'skill-host-differs'
    | 'skill-set-aside'
    | 'skills-folder-is-skill';
  /** Repo-relative path the warning is about. */
  path: string;
  /** How to fix it, when the message does not say. */
  fix?: string;
}

const OUTSIDE_FIX = 'copy the skill into the repository (a symlink may point elsewhere in it), or remove the link';
/** What the Copilot CLI does with a project skill linked out of the repository (measured: 1.0.102 loads a folder or a SKILL.md linked from outside). */
const COPILOT_FOLLOWS_LINKS = 'the Copilot CLI still loads it: it follows links out of the repository';

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
  for (const dir of [COPILOT_SKILLS_DIR, squadPaths.aiTeamSkills, ...[...NATIVE_SKILL_DIRS].reverse()]) {
    const builtinsHere = builtinSkillsIn(builtinDirs, dir);
    const scopeHere = (dirName: string): SkillScope => (builtinsHere.has(dirName) ? 'builtin' : 'team');
    const native = (NATIVE_SKILL_DIRS as readonly string[]).includes(dir);
    for (const skill of scanSkillFolder(root, dir, found, scopeHere, undefined, native)) {
      (skill.scope === 'builtin' ? builtin : team).push(skill);
    }
  }
  noteCopilotNameClashes(team);
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
    if (skill.hosts !== undefined && (skill.valid || skill.hosts.copilotCli.loads)) {
      warnings.push({
        code: 'skill-host-differs',
        path: skill.location,
        message: `skill ${skill.location.slice(0, -SKILL_FILE.length - 1)}: ${describeHostView(skill.hosts, skill.dirName)}`,
        fix: hostFix(skill),
      });
    }
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
function scanSkillFolder(root: string, relDir: string, { warnings, refused }: Found, scopeOf: (dirName: string) => SkillScope, agent?: string, native = false): DiscoveredSkill[] {
  const absDir = resolveIn(root, relDir);
  const found: DiscoveredSkill[] = [];
  const refuse = (dirName: string, rel: string, reason: string): void => {
    warnings.push({
      code: rel.endsWith(`/${SKILL_FILE}`) ? 'skill-file-outside' : 'skill-outside',
      path: rel,
      message: native ? `${reason}: create-squad does not use it, but ${COPILOT_FOLLOWS_LINKS}` : `${reason}: the skill is not used`,
      fix: OUTSIDE_FIX,
    });
    refused.push({ name: dirName, scope: scopeOf(dirName), ...(agent === undefined ? {} : { agent }), location: rel, reason, fix: OUTSIDE_FIX });
  };
  const outside = (rel: string, dirName?: string): boolean => {
    const problem = pathProblem(root, rel, { allowFinalSymlink: true });
    if (problem === undefined || !problem.includes('outside')) return false;
    if (dirName === undefined) {
      const message = native ? `${problem}: create-squad does not use its skills, but ${COPILOT_FOLLOWS_LINKS}` : `${problem}: its skills are not used`;
      warnings.push({ code: 'skill-outside', path: rel, message, fix: OUTSIDE_FIX });
    } else refuse(dirName, rel, problem);
    return true;
  };
  if (outside(relDir)) return [];
  // Each skill folder below is, as this listing sees it, a real folder here or a link checked to
  // stay inside: only a SKILL.md that is itself a link pays for a real-path check (no extra system
  // call for the thousands of plain files of a large listing).
  const confinedTo: ReadConfinement = { root, folderInside: true };
  // One listing: a project folder's set-aside ("_") folders are looked at too, then left out.
  const listed = readDirEntries(absDir, { includeIgnored: native });
  const entries = native ? listed.filter((entry) => !isIgnoredEntry(entry.name)) : listed;
  const wholeFolderSkill = native && noteProjectFolderQuirks(absDir, relDir, listed, warnings);
  // Plain frontmatter is read from its bytes only in a folder of many skills, where it saves time;
  // in a small squad it would only wake the optimising compiler (docs/budgets.md, "Tuning notes").
  const readsPlainHeads = entries.length >= LISTS_MANY_SKILLS;
  if (readsPlainHeads) noteManySkillsListed();
  if (entries.length >= MANY_SKILLS) expectManyLongLivedObjects();
  // A skill's three paths are one string: its SKILL.md path, of which the folder and (where the
  // separator is "/") the repo-relative location are pieces, not strings of their own. A listing
  // of thousands keeps all three for every skill.
  const locationInFile = path.sep === '/' && absDir.endsWith(`/${relDir}`) ? absDir.length - relDir.length : -1;

  /** The skills of one folder of `relDir` (`depth` levels below it), or below it for a project folder. */
  const scanEntries = (absHere: string, relHere: string, here: readonly Dirent[], depth: number): number => {
    let count = 0;
    for (const entry of here) {
      // Joined by hand: the folder is already normalised and a name from readdir holds no separator
      // (path.join would normalise again, for each of thousands of skills).
      const file = `${absHere}${path.sep}${entry.name}${path.sep}${SKILL_FILE}`;
      const skillDir = file.slice(0, file.length - SKILL_FILE.length - 1);
      if (!entry.isDirectory() && !(entry.isSymbolicLink() && isDirectory(skillDir))) continue;
      if (entry.isSymbolicLink() && outside(`${relHere}/${entry.name}`, entry.name)) continue;
      // Open SKILL.md directly (one system call in the common case); work out why only if it is missing.
      const report = readsPlainHeads
        ? inspectSkillForListing(file, skillDir, entry.name, confinedTo)
        : inspectSkill(file, { readBody: false, dir: skillDir, dirName: entry.name, confinedTo });
      if (!(report instanceof PlainSkillHead) && report.errors[0]?.code === READ_REFUSED) {
        const rel = `${relHere}/${entry.name}/${SKILL_FILE}`;
        refuse(entry.name, rel, `${rel} is a symlink that leads outside the repository`);
        continue;
      }
      if (!(report instanceof PlainSkillHead) && report.errors[0]?.code === FILE_MISSING) {
        const shown = `${relHere}/${entry.name}`;
        // As the Copilot CLI does, a project folder without SKILL.md may group skills in sub-folders.
        if (native && depth < SKILL_NESTING_MAX_DEPTH && scanEntries(skillDir, shown, readDirEntries(skillDir), depth + 1) > 0) continue;
        const missing = missingSkillFile(skillDir, shown) ?? { code: 'no-skill-file' as const, path: shown, message: `${shown} has no SKILL.md` };
        const cli = native && missing.code === 'skill-file-case' ? ', skipped, as the Copilot CLI skips it' : ', skipped';
        warnings.push({ ...missing, message: `${missing.message}${cli}` });
        continue;
      }
      const location = depth === 0 && locationInFile !== -1 ? file.slice(locationInFile) : `${relHere}/${entry.name}/${SKILL_FILE}`;
      const skill = toSkill(report, { file, dir: skillDir, dirName: entry.name, location }, scopeOf(entry.name), agent);
      if (native && (depth > 0 || !(report instanceof PlainSkillHead))) {
        // A plain head is a valid skill: its view depends only on where it is.
        const hosts =
          report instanceof PlainSkillHead
            ? hostViewOf({ frontmatter: {}, errors: NO_ISSUES, valid: true, dirName: entry.name, nested: true })
            : hostViewOf({ frontmatter: report.frontmatter, errors: report.errors, valid: report.valid, dirName: entry.name, nested: depth > 0 });
        if (hosts !== undefined) skill.hosts = hosts;
      }
      found.push(skill);
      count++;
    }
    return count;
  };
  scanEntries(absDir, relDir, entries, 0);
  return native ? asCopilotLoadsFolder(relDir, found, wholeFolderSkill, warnings) : found;
}

/**
 * A project folder as the Copilot CLI loads it: of two skills with one folder name (in different
 * groups) the first by path (code points) is used, by create-squad too; under a SKILL.md at the
 * folder's top it loads none of them.
 */
function asCopilotLoadsFolder(relDir: string, found: DiscoveredSkill[], wholeFolderSkill: boolean, warnings: DiscoveryWarning[]): DiscoveredSkill[] {
  const first = firstByPath(found, (skill) => skill.dirName);
  const kept = found.filter((skill) => first.get(skill.dirName) === skill);
  for (const skill of found) {
    if (first.get(skill.dirName) === skill) continue;
    warnings.push({
      code: 'skill-overridden',
      path: skill.location,
      message: `the team skill "${skill.dirName}" at ${first.get(skill.dirName)!.location} comes first, so the one here is not used (nor loaded by the Copilot CLI)`,
    });
  }
  if (wholeFolderSkill) {
    const why = `${relDir}/${SKILL_FILE} makes it load ${relDir}/ as one skill`;
    for (const skill of kept) hideFromCopilot(skill, why);
  }
  return kept;
}

/**
 * For each key (undefined: none), the skill the Copilot CLI takes first: the least location in
 * code-point order. Linear; only names held by several skills are compared.
 */
function firstByPath(skills: readonly DiscoveredSkill[], keyOf: (skill: DiscoveredSkill) => string | undefined): Map<string, DiscoveredSkill> {
  const first = new Map<string, DiscoveredSkill>();
  for (const skill of skills) {
    const key = keyOf(skill);
    if (key === undefined) continue;
    const held = first.get(key);
    if (held === undefined || compareCodePoints(skill.location, held.location) < 0) first.set(key, skill);
  }
  return first;
}

/**
 * What create-squad and the Copilot CLI read differently in a project skills folder: a SKILL.md at
 * its top (the CLI then takes the whole folder for one skill and none of those inside it; returned),
 * and a folder create-squad sets aside by its leading "_" that the CLI still loads.
 */
function noteProjectFolderQuirks(absDir: string, relDir: string, listed: readonly Dirent[], warnings: DiscoveryWarning[]): boolean {
  const wholeFolderSkill = isFile(path.join(absDir, SKILL_FILE));
  if (wholeFolderSkill) {
    warnings.push({
      code: 'skills-folder-is-skill',
      path: `${relDir}/${SKILL_FILE}`,
      message: `${relDir}/${SKILL_FILE} makes the Copilot CLI load all of ${relDir}/ as one skill and none of the skills inside it`,
      fix: `move ${relDir}/${SKILL_FILE} into a folder of its own, such as ${relDir}/<name>/${SKILL_FILE}`,
    });
  }
  for (const entry of listed) {
    if (!entry.name.startsWith('_') || !entry.isDirectory() || !isFile(path.join(absDir, entry.name, SKILL_FILE))) continue;
    const rel = `${relDir}/${entry.name}`;
    warnings.push({
      code: 'skill-set-aside',
      path: rel,
      message: `${rel} is set aside by create-squad (its name starts with "_"), but the Copilot CLI loads it`,
      fix: `rename the folder without the "_" to use it everywhere, or move it out of ${relDir}/ to set it aside everywhere`,
    });
  }
  return wholeFolderSkill;
}

/**
 * The Copilot CLI loads one skill per name, the first of its project folders in turn, within one
 * the first by path: a team skill of a name it already loaded is hidden from it, though
 * create-squad lists it by its folder.
 */
function noteCopilotNameClashes(team: readonly DiscoveredSkill[]): void {
  const loadedAs = (skill: DiscoveredSkill) => (skill.hosts === undefined ? skill.dirName : skill.hosts.copilotCli.loads ? skill.hosts.copilotCli.as : undefined);
  const firstOfName = new Map<string, DiscoveredSkill>();
  for (const dir of NATIVE_SKILL_DIRS) {
    const here = team.filter((skill) => skill.location.startsWith(`${dir}/`));
    for (const [name, skill] of firstByPath(here, loadedAs)) if (!firstOfName.has(name)) firstOfName.set(name, skill);
  }
  for (const skill of team) {
    const name = loadedAs(skill);
    const first = name === undefined ? undefined : firstOfName.get(name);
    // Discovery's own precedence already hides a skill of the same folder name (skill-overridden).
    if (first === undefined || first === skill || first.dirName === skill.dirName) continue;
    hideFromCopilot(skill, `another skill named "${name}" (${first.location}) loads first`);
  }
}

/** Record that the Copilot CLI does not load `skill`, for `why`; what the other hosts do stays. */
function hideFromCopilot(skill: DiscoveredSkill, why: string): void {
  skill.hosts = { copilotCli: { loads: false, why }, vscode: skill.hosts?.vscode ?? { loads: true }, standard: skill.hosts?.standard ?? { valid: skill.valid } };
}

/** How to make a skill that some host reads differently read the same everywhere. */
function hostFix(skill: DiscoveredSkill): string {
  const dir = skill.location.slice(0, -SKILL_FILE.length - 1);
  if (skill.hosts?.copilotCli.loads === false) return 'give one of the two skills another name';
  if (!skill.valid) return `make it standard: "create-squad skills validate ${dir}" names each problem`;
  const top = NATIVE_SKILL_DIRS.find((native) => dir.startsWith(`${native}/`)) ?? TEAM_SKILLS_DIR;
  return `move it to ${top}/${skill.dirName}/ for VS Code, or keep it if the team uses only the Copilot CLI`;
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
