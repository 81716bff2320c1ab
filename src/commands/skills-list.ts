/** `create-squad skills list [--agent N]`: every skill with its scope, version, MCP needs and validity. */
import { discoverSkills, type DiscoveredSkill, type RefusedSkill } from '../core/squad/discover.js';
import { hasSquad, requireAgent } from '../core/roster/roster.js';
import { squadPaths } from '../core/base/paths.js';
import { cliHint } from '../core/fs/version.js';
import { listingWarnings } from './skill-view.js';
import type { SkillIssue } from '../core/skills/validate.js';
import type { HostView } from '../core/skills/host-view.js';
import type { McpServerRequirement } from '../core/skills/skill.js';
import type { CommandContext, CommandResult } from './context.js';
import { formatScope, formatMcp, formatStatus } from './format.js';

export interface SkillsListOptions {
  agent?: string;
}

export interface ListedSkill {
  name: string;
  scope: DiscoveredSkill['scope'];
  agent?: string;
  version?: string;
  /** The version was written unquoted, so YAML read it as a number (`1.10` as "1.1"): shown as "1.1?". */
  versionUnquoted?: true;
  description?: string;
  location: string;
  mcpServers: McpServerRequirement[];
  disableModelInvocation: boolean;
  valid: boolean;
  errors: SkillIssue[];
  warnings: SkillIssue[];
  /** A project skill some Copilot host reads differently from create-squad: what each does with it. */
  hosts?: HostView;
}

export interface SkillsListData {
  agent?: string;
  skills: ListedSkill[];
  /** Locations of skills hidden for this agent by an agent skill of the same name. */
  overridden: string[];
  /** Skills never read because they link outside the repository: not used, each with why and its fix. */
  refused: RefusedSkill[];
}

export async function skillsList(options: SkillsListOptions, ctx: CommandContext): Promise<CommandResult<SkillsListData>> {
  const agent = options.agent === undefined ? undefined : requireAgent(ctx.cwd, options.agent).name;
  const squadExists = hasSquad(ctx.cwd);
  const initCommand = squadExists ? undefined : cliHint(ctx.cwd, 'init');
  const discovery = discoverSkills(ctx.cwd, agent === undefined ? {} : { agent });
  const skills = discovery.skills.map(toListed);
  const data: SkillsListData = {
    ...(agent === undefined ? {} : { agent }),
    skills,
    overridden: discovery.overridden.map((s) => s.location),
    refused: discovery.refused,
  };
  const { refused } = data;
  const warnings = listingWarnings(discovery);
  return {
    data,
    exitCode: 0,
    warnings,
    render(ui) {
      if (!squadExists) {
        ui.out(`No skills: there is no ${squadPaths.root}/ folder here. Run "${initCommand}" to create a squad.`);
        return;
      }
      if (skills.length === 0 && refused.length === 0) {
        ui.out(agent ? `${agent} sees no skills yet.` : 'This squad has no skills yet.');
      } else {
        ui.table(
          ['NAME', 'SCOPE', 'VERSION', 'MCP SERVERS', 'STATUS'],
          [
            ...skills.map((s) => [s.name, formatScope(s), formatVersion(s), formatMcp(s.mcpServers), formatStatus(s, ui.style)]),
            ...refused.map((s) => [s.name, formatScope(s), '-', '-', ui.style.red('✗ refused: links outside the repository')]),
          ],
        );
        const invalid = skills.filter((s) => !s.valid).length;
        ui.out();
        ui.out(
          `${skills.length} skill${skills.length === 1 ? '' : 's'}${agent ? ` visible to ${agent}` : ''}` +
            (invalid ? `, ${invalid} invalid (run "create-squad skills validate" for details)` : '') +
            (refused.length ? `, ${refused.length} refused (never read, not used)` : ''),
        );
        for (const skill of refused) ui.out(`  ${skill.name}: ${skill.reason}; ${skill.fix}`);
      }
    },
  };
}

function toListed(skill: DiscoveredSkill): ListedSkill {
  return {
    name: skill.dirName,
    scope: skill.scope,
    ...(skill.agent === undefined ? {} : { agent: skill.agent }),
    ...(skill.version === undefined ? {} : { version: skill.version }),
    ...(skill.versionUnquoted ? { versionUnquoted: true as const } : {}),
    ...(skill.description === undefined ? {} : { description: skill.description }),
    location: skill.location,
    mcpServers: skill.mcpServers,
    disableModelInvocation: skill.disableModelInvocation,
    valid: skill.valid,
    errors: skill.errors,
    warnings: skill.warnings,
    ...(skill.hosts === undefined ? {} : { hosts: skill.hosts }),
  };
}

/** The version column: "-" when there is none, "1.1?" when YAML read it as a number (it may have been 1.10). */
function formatVersion(skill: ListedSkill): string {
  if (skill.version === undefined) return '-';
  return skill.versionUnquoted ? `${skill.version}?` : skill.version;
}
