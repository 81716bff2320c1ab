/**
 * The squad tools: each runs the create-squad command of the same purpose and answers with the
 * document that command prints with --json, so a tool and the command never disagree.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { SquadError, usageError } from '../../core/base/errors.js';
import { pathProblem } from '../../core/fs/fs-safe.js';
import { DEFAULT_SKILLS_BUDGET } from '../../core/base/prompt-limits.js';
import { SPAWN_MODES } from '../../core/base/spawn-modes.js';
import { SKILLS_ALLOWLIST_PATH } from '../../core/skills/skill-scripts.js';
import { prompt } from '../prompt.js';
import { route } from '../route.js';
import { skillsTest } from '../skills-test.js';
import { skillsValidate } from '../skills-validate.js';
import { teach } from '../teach.js';
import { findSkill, skillsSeenBy, type ToolContext } from './context.js';
import { answer, jsonDocument, warningsOutput } from './results.js';

const okOutput = { ok: z.boolean().describe("What the command's exit code says: true for 0."), warnings: warningsOutput };

export function registerSquadTools(server: McpServer, tools: ToolContext): void {
  const ctx = tools.command;

  server.registerTool(
    'build_spawn_prompt',
    {
      title: 'Build a spawn prompt',
      description:
        'The prompt to spawn one squad member for one task, exactly as "create-squad prompt" renders it: charter, the skills to use, MCP needs and the task. Standard mode lists the skills for the member to read; lightweight mode inlines the given skills. archives gives the paths of the older history and decisions "create-squad compact" archived (read on demand), never their content.',
      inputSchema: {
        agent: z.string().min(1).max(100).describe('The member (folder or roster name).'),
        task: z
          .string()
          .min(1)
          .max(1024 * 1024)
          .describe('The task, as the member should receive it.'),
        mode: z.enum(SPAWN_MODES).optional().describe('standard (default) or lightweight.'),
        skills: z.array(z.string().min(1).max(200)).max(20).optional().describe('Lightweight mode: the skills to inline (route suggests them).'),
        skillsBudget: z
          .number()
          .int()
          .min(0)
          .max(999_999_999)
          .optional()
          .describe(`Standard mode: the tokens the skill list may take (default ${DEFAULT_SKILLS_BUDGET}); the skills that fit the task best are listed first.`),
        allSkills: z.boolean().optional().describe('Standard mode: list every skill, whatever the budget.'),
      },
      outputSchema: z.looseObject({
        ...okOutput,
        agent: z.string(),
        mode: z.enum(SPAWN_MODES),
        prompt: z.string(),
        archives: z.looseObject({ history: z.string().nullable(), decisions: z.string().nullable() }),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ agent, task, mode, skills, skillsBudget, allSkills }) =>
      answer(async () => {
        const options = { agent, task, mode, skills: skills ?? [], skillsBudget: skillsBudget === undefined ? undefined : String(skillsBudget), allSkills: allSkills === true };
        const result = await prompt(options, ctx);
        return { structured: jsonDocument(result), text: result.data.prompt };
      }),
  );

  server.registerTool(
    'route',
    {
      title: 'Route a task',
      description:
        'Which member should take a task, in which spawn mode, with which skills, and why: what "create-squad route --json" returns (the full ranking of members, the candidate skills and how clearly the best one wins).',
      inputSchema: {
        task: z
          .string()
          .min(1)
          .max(1024 * 1024)
          .describe('The task, in the words of whoever asked for it.'),
        labels: z.array(z.string().min(1).max(200)).max(50).optional().describe("The issue's labels: squad:{member} routes to that member."),
      },
      outputSchema: z.looseObject({
        ...okOutput,
        task: z.string(),
        agent: z.string().describe("The suggested member's folder name; empty when the squad has no members, or when a human is to be asked (see ask)."),
        mode: z.enum(SPAWN_MODES),
        skills: z.array(z.looseObject({ name: z.string() })),
        reason: z.string(),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ task, labels }) => answer(async () => ({ structured: jsonDocument(await route({ task, labels: labels ?? [] }, ctx)) })),
  );

  server.registerTool(
    'teach',
    {
      title: 'Teach a rule',
      description:
        'Teach one member or the whole team, as "create-squad teach" does (it holds the squad lock while it writes): a standing rule ("always …", "never …") goes where every spawn sees it, a procedure becomes a skill. Give "agent", or "team": true.',
      inputSchema: {
        instruction: z
          .string()
          .min(1)
          .max(64 * 1024)
          .describe('The rule, in the user\'s words ("always use Tailwind CSS").'),
        agent: z.string().min(1).max(100).optional().describe('The member to teach (folder or roster name).'),
        team: z.boolean().optional().describe('Teach the whole team instead of one member.'),
        name: z.string().min(1).max(64).optional().describe('The skill name (default: derived from the instruction); implies kind "skill".'),
        kind: z.enum(['rule', 'skill']).optional().describe('"rule": a standing rule every spawn sees; "skill": a procedure for some tasks (default: told from the wording).'),
        dryRun: z.boolean().optional().describe('Return what would be written, write nothing.'),
      },
      outputSchema: z.looseObject({
        ...okOutput,
        kind: z.enum(['rule', 'skill']),
        name: z.string().optional(),
        rule: z.string().optional(),
        scope: z.enum(['team', 'agent']),
        path: z.string(),
        description: z.string().optional(),
        dryRun: z.boolean(),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ instruction, agent, team, name, kind, dryRun }) =>
      answer(async () => {
        const args = teachArguments(instruction, agent, team === true);
        const result = await tools.oneAtATime(() =>
          teach({ args, team: team === true, ...(name === undefined ? {} : { name }), rule: kind === 'rule', skill: kind === 'skill', dryRun: dryRun === true }, ctx),
        );
        return { structured: jsonDocument(result) };
      }),
  );

  server.registerTool(
    'validate_skill',
    {
      title: 'Validate skills',
      description:
        'Check skills against the Agent Skills standard, as "create-squad skills validate" does: one skill by name, a skill folder by its path in the repository, or (with neither) every skill of the squad. ok is false when a skill is invalid.',
      inputSchema: {
        name: z.string().min(1).max(200).optional().describe('A skill the member (or the team) sees, by name.'),
        agent: z.string().min(1).max(100).optional().describe("With name: look the skill up in this member's view."),
        path: z.string().min(1).max(1000).optional().describe('A skill folder, SKILL.md or folder of skills, relative to the repository.'),
        strict: z.boolean().optional().describe('Treat warnings as errors.'),
      },
      outputSchema: z.looseObject({
        ...okOutput,
        strict: z.boolean(),
        skills: z.array(z.looseObject({ path: z.string(), name: z.string(), valid: z.boolean() })),
        summary: z.looseObject({ checked: z.number().int(), valid: z.number().int(), invalid: z.number().int() }),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ name, agent, path, strict }) =>
      answer(async () => {
        const paths = validationPaths(ctx.cwd, name, agent, path);
        return { structured: jsonDocument(await skillsValidate({ paths, strict: strict === true }, ctx)) };
      }),
  );
}

/** Register test_skill: a skill's deterministic tests, as "create-squad skills test --json" runs them. */
export function registerTestTool(server: McpServer, tools: ToolContext): void {
  const ctx = tools.command;
  server.registerTool(
    'test_skill',
    {
      title: 'Test a skill',
      description: `Run a skill's deterministic tests (tests/cases/*.yaml in its folder), as "create-squad skills test --json" does: each case runs one file of the skill's scripts/ (only when ${SKILLS_ALLOWLIST_PATH} allows it), without a shell, and is checked against its expected exit code and output. ok is false when any case does not pass. Without a name: every skill that has tests.`,
      inputSchema: {
        name: z.string().min(1).max(200).optional().describe('The skill name, as list_skills gives it.'),
        agent: z.string().min(1).max(100).optional().describe("With name: look the skill up in this member's view."),
        case: z.string().min(1).max(200).optional().describe('Only the case of this name (or file name without .yaml).'),
      },
      outputSchema: z.looseObject({
        ...okOutput,
        skills: z.array(
          z.looseObject({
            name: z.string(),
            folder: z.string(),
            cases: z.array(z.looseObject({ name: z.string(), status: z.enum(['passed', 'failed', 'refused', 'invalid']), failures: z.array(z.string()) })),
          }),
        ),
        summary: z.looseObject({
          skills: z.number().int(),
          cases: z.number().int(),
          passed: z.number().int(),
          failed: z.number().int(),
          refused: z.number().int(),
          invalid: z.number().int(),
        }),
      }),
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    },
    ({ name, agent, case: only }, extra) =>
      answer(async () => {
        if (agent !== undefined && name === undefined) throw usageError('"agent" goes with "name"', "give the skill's name too, or leave both out to test every skill");
        const result = await skillsTest(
          {
            ...(name === undefined ? {} : { name }),
            ...(agent === undefined ? {} : { agent }),
            ...(only === undefined ? {} : { case: only }),
            limits: { maxOutputBytes: tools.scriptLimits.maxOutputBytes },
            signal: extra.signal,
          },
          ctx,
        );
        return { structured: jsonDocument(result) };
      }),
  );
}

/** teach's positional arguments: [agent, instruction], or [instruction] for the team. */
function teachArguments(instruction: string, agent: string | undefined, team: boolean): string[] {
  if (team && agent !== undefined) throw usageError('give "agent" or "team", not both', 'a rule for one member: agent; for everyone: team: true');
  if (team) return [instruction];
  if (agent === undefined) throw usageError('missing the member to teach', 'give "agent" (a member), or "team": true to teach everyone');
  return [agent, instruction];
}

/** What validate_skill checks: a skill by name, a path inside the repository, or everything ([]). */
function validationPaths(root: string, name: string | undefined, agent: string | undefined, given: string | undefined): string[] {
  if (name !== undefined && given !== undefined) throw usageError('give "name" or "path", not both', 'a skill by its name, or a folder by its path');
  if (name !== undefined) return [findSkill(root, skillsSeenBy(root, agent), name).location];
  if (given === undefined) return [];
  const rel = given.trim().replace(/\/+$/, '');
  const problem = pathProblem(root, rel, { allowFinalSymlink: true });
  if (problem) {
    throw new SquadError('unsafe-path', `refusing to read ${JSON.stringify(given)}: ${problem}`, { hint: 'give a path inside the repository, relative to its root' });
  }
  return [rel];
}
