/**
 * `create-squad teach <agent> "<instruction>" [--name slug]` and
 * `create-squad teach --team "<instruction>"`: turn a user's instruction into a standard skill.
 */
import { SquadError, usageError } from '../core/errors.js';
import { writeFileAtomic, resolveInside } from '../core/fs-safe.js';
import { SKILL_FILE, agentSkillDir, isBuiltinSkillName, teamSkillDir } from '../core/paths.js';
import { requireAgent, requireSquad } from '../core/roster.js';
import { buildTaughtSkill } from '../core/teach.js';
import fs from 'node:fs';
import type { CommandContext, CommandResult } from './context.js';

export interface TeachOptions {
  /** Positional arguments as given: [agent, instruction], or [instruction] with --team. */
  args: string[];
  team: boolean;
  name?: string;
  dryRun: boolean;
}

export interface TeachData {
  name: string;
  scope: 'team' | 'agent';
  agent?: string;
  path: string;
  description: string;
  dryRun: boolean;
}

export async function teach(options: TeachOptions, ctx: CommandContext): Promise<CommandResult<TeachData>> {
  const { agentArg, instruction } = splitArgs(options);
  requireSquad(ctx.cwd);
  const agent = agentArg === undefined ? undefined : requireAgent(ctx.cwd, agentArg);

  const skill = await buildTaughtSkill({
    instruction,
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(agent ? { agentDisplayName: agent.displayName } : {}),
  });
  if (!agent && isBuiltinSkillName(skill.name)) {
    throw new SquadError('CONFLICT', `"${skill.name}" uses the squad- prefix, which is reserved for built-in skills`, {
      hint: 'choose another name with --name',
    });
  }
  const dir = agent ? agentSkillDir(agent.name, skill.name) : teamSkillDir(skill.name);
  const file = `${dir}/${SKILL_FILE}`;
  if (fs.existsSync(resolveInside(ctx.cwd, dir, { allowFinalSymlink: true }))) {
    throw new SquadError('SKILL_EXISTS', `a skill named "${skill.name}" already exists at ${dir}`, {
      hint: 'pick another name with --name, or edit that SKILL.md to extend it',
    });
  }
  if (!options.dryRun) writeFileAtomic(ctx.cwd, file, skill.content, { exclusive: true });

  const data: TeachData = {
    name: skill.name,
    scope: agent ? 'agent' : 'team',
    ...(agent ? { agent: agent.name } : {}),
    path: file,
    description: skill.description,
    dryRun: options.dryRun,
  };
  return {
    data,
    exitCode: 0,
    render(ui) {
      const who = agent ? agent.displayName : 'the whole team';
      if (options.dryRun) {
        ui.out(`Dry run: would teach ${who} the skill "${skill.name}" at ${file}:`);
        ui.out();
        ui.write(skill.content);
        return;
      }
      ui.success(`Taught ${who} "${skill.name}": ${file}`);
      ui.out(`  Edit that file to refine the rule; agents read it when a task matches its description.`);
    },
  };
}

function splitArgs(options: TeachOptions): { agentArg: string | undefined; instruction: string } {
  const args = options.args;
  if (options.team) {
    if (args.length !== 1) {
      throw usageError(
        args.length === 0 ? 'missing the instruction to teach' : 'with --team, give only the instruction (no agent)',
        'usage: create-squad teach --team "<instruction>"',
      );
    }
    return { agentArg: undefined, instruction: args[0]! };
  }
  if (args.length !== 2) {
    throw usageError(
      args.length < 2 ? 'missing the agent or the instruction' : 'too many arguments (quote the instruction)',
      'usage: create-squad teach <agent> "<instruction>"  or  create-squad teach --team "<instruction>"',
    );
  }
  return { agentArg: args[0]!, instruction: args[1]! };
}
