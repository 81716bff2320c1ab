/**
 * Skill discovery across the three scopes of SPEC §3.
 *
 *   built-in  .ai-team/skills/squad-*            shipped by create-squad, upgradable
 *   team      .ai-team/skills/*                  every agent sees these
 *   agent     .ai-team/agents/{name}/skills/*    learned by one agent
 *
 * Precedence: an agent skill overrides a team or built-in skill of the same name for that agent.
 * Only frontmatter is read. Missing folders mean "no skills". Output order is deterministic.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SquadError } from './errors.js';
import { isDirectory, isFile } from './fs-safe.js';
import { inspectSkill, type SkillReport } from './inspect.js';
import { isValidName } from './names.js';
import {
  SKILL_FILE,
  agentSkillsDir,
  isBuiltinSkillName,
  isIgnoredEntry,
  resolveIn,
  squadPaths,
  toRepoRelative,
} from './paths.js';
import {
  isModelInvocationDisabled,
  mcpServers,
  skillMetadata,
  skillVersion,
  stringField,
  type McpServerRequirement,
} from './skill.js';
import { compareCodePoints } from './util.js';

export type SkillScope = 'builtin' | 'team' | 'agent';

/** Lowest precedence first: a later scope overrides an earlier one on a name clash. */
export const SCOPE_PRECEDENCE: readonly SkillScope[] = ['builtin', 'team', 'agent'];

export interface DiscoveredSkill extends SkillReport {
  scope: SkillScope;
  /** Owning agent, for agent-scope skills. */
  agent?: string;
  /** Repo-relative path of SKILL.md, with forward slashes. */
  location: string;
  description: string | undefined;
  version: string | undefined;
  author: string | undefined;
  mcpServers: McpServerRequirement[];
  disableModelInvocation: boolean;
}

export interface DiscoveryWarning {
  code: 'no-skill-file' | 'skill-file-case' | 'skill-overridden' | 'skill-invalid';
  message: string;
  /** Repo-relative path the warning is about. */
  path: string;
}

export interface Discovery {
  /** Visible skills: for one agent, after precedence; otherwise every skill in every scope. */
  skills: DiscoveredSkill[];
  /** Skills hidden by a higher-precedence skill of the same name (only when an agent is given). */
  overridden: DiscoveredSkill[];
  warnings: DiscoveryWarning[];
}

export interface DiscoverOptions {
  /** Resolve the skills one agent sees (built-in + team + its own). Without it, list all agents' skills. */
  agent?: string;
}

export function discoverSkills(root: string, options: DiscoverOptions = {}): Discovery {
  const warnings: DiscoveryWarning[] = [];
  const { agent } = options;
  if (agent !== undefined && !isValidName(agent)) {
    throw new SquadError('UNKNOWN_AGENT', `"${agent}" is not a valid agent name`, {
      hint: 'agent names are lowercase letters, digits and hyphens, as in .ai-team/agents/{name}/',
    });
  }

  const teamFolder = scanSkillFolder(root, squadPaths.teamSkills, warnings);
  const builtin = teamFolder.filter((s) => isBuiltinSkillName(s.dirName)).map((s) => toSkill(root, s, 'builtin'));
  const team = teamFolder.filter((s) => !isBuiltinSkillName(s.dirName)).map((s) => toSkill(root, s, 'team'));

  const agents = agent === undefined ? listAgentSkillOwners(root) : [agent];
  const agentSkills = agents.flatMap((name) =>
    scanSkillFolder(root, agentSkillsDir(name), warnings).map((s) => toSkill(root, s, 'agent', name)),
  );

  const shared = new Map([...builtin, ...team].map((s) => [s.dirName, s]));
  const overridden: DiscoveredSkill[] = [];
  for (const skill of agentSkills) {
    const hidden = shared.get(skill.dirName);
    if (!hidden) continue;
    warnings.push({
      code: 'skill-overridden',
      path: skill.location,
      message: `${skill.agent}'s skill "${skill.dirName}" overrides the ${hidden.scope} skill of the same name`,
    });
    if (agent !== undefined) overridden.push(hidden);
  }

  const skills = [...builtin, ...team, ...agentSkills].filter((s) => !overridden.includes(s));
  for (const skill of skills) {
    if (!skill.valid) {
      warnings.push({
        code: 'skill-invalid',
        path: skill.location,
        message: `skill "${skill.dirName}" is invalid: ${skill.errors.map((e) => e.message).join('; ')}`,
      });
    }
  }
  return { skills, overridden, warnings };
}

/** Agents that have a skills folder, sorted. */
function listAgentSkillOwners(root: string): string[] {
  return readDirNames(resolveIn(root, squadPaths.agents)).filter(
    (name) => isValidName(name) && isDirectory(resolveIn(root, agentSkillsDir(name))),
  );
}

function scanSkillFolder(root: string, relDir: string, warnings: DiscoveryWarning[]): SkillReport[] {
  const absDir = resolveIn(root, relDir);
  const found: SkillReport[] = [];
  for (const dirName of readDirNames(absDir)) {
    const skillDir = path.join(absDir, dirName);
    if (!isDirectory(skillDir)) continue;
    const skillFile = path.join(skillDir, SKILL_FILE);
    if (!isFile(skillFile)) {
      const relPath = `${relDir}/${dirName}`;
      if (isFile(path.join(skillDir, SKILL_FILE.toLowerCase()))) {
        warnings.push({
          code: 'skill-file-case',
          path: relPath,
          message: `${relPath} has skill.md; the standard file name is SKILL.md (rename it), skipped`,
        });
      } else {
        warnings.push({ code: 'no-skill-file', path: relPath, message: `${relPath} has no SKILL.md, skipped` });
      }
      continue;
    }
    found.push(inspectSkill(skillFile, { readBody: false }));
  }
  return found;
}

function toSkill(
  root: string,
  scanned: SkillReport,
  scope: SkillScope,
  agent?: string,
): DiscoveredSkill {
  const fm = scanned.frontmatter ?? {};
  return {
    ...scanned,
    scope,
    ...(agent === undefined ? {} : { agent }),
    location: toRepoRelative(root, scanned.file),
    description: stringField(fm, 'description'),
    version: skillVersion(fm),
    author: stringField(skillMetadata(fm), 'author'),
    mcpServers: mcpServers(fm),
    disableModelInvocation: isModelInvocationDisabled(fm),
  };
}

/** Entry names of a folder, without ignored ones, sorted by code point; [] when it does not exist. */
export function readDirNames(absDir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(absDir);
  } catch {
    return [];
  }
  return names.filter((name) => !isIgnoredEntry(name)).sort(compareCodePoints);
}
