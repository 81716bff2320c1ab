/**
 * The skill tools: discover (list_skills), read with progressive disclosure (read_skill), run a
 * script the user allowed (run_skill_script).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import type { DiscoveredSkill } from '../../core/squad/discover.js';
import { readStateText } from '../../core/fs/confined.js';
import { MAX_LISTED_SKILL_RESOURCES, SKILL_RESOURCE_MAX_BYTES, listSkillResources, readSkillResource } from '../../core/skills/skill-resources.js';
import { rankSkills } from '../../core/squad/skill-rank.js';
import { MAX_SCRIPT_ARGUMENTS, MAX_SCRIPT_TIMEOUT_MS, SKILLS_ALLOWLIST_PATH, runSkillScript, type ScriptRun } from '../../core/skills/skill-scripts.js';
import { SKILL_RESOURCE_DIRS } from '../../core/base/paths.js';
import { recordUsage } from '../../core/skills/usage-log.js';
import { findSkill, skillsSeenBy, type ToolContext } from './context.js';
import { answer, warningsOutput } from './results.js';

/** SKILL.md larger than this is refused (the standard asks for well under 5,000 tokens). */
const SKILL_MD_MAX_BYTES = 1024 * 1024;

const agentInput = z
  .string()
  .min(1)
  .max(100)
  .optional()
  .describe("The member whose view to use (folder or roster name): built-in, team and that member's own skills. Without it: the skills every member sees.");

const skillOutput = z.looseObject({
  name: z.string(),
  description: z.string(),
  scope: z.enum(['builtin', 'team', 'agent']),
  location: z.string(),
  mcpServers: z.array(z.looseObject({ name: z.string(), optional: z.boolean() })),
  valid: z.boolean(),
});

interface ListedSkill extends Record<string, unknown> {
  name: string;
  description: string;
  scope: DiscoveredSkill['scope'];
  agent?: string;
  location: string;
  mcpServers: DiscoveredSkill['mcpServers'];
  valid: boolean;
  /** `disable-model-invocation`: only a person starts it. */
  modelInvocable: boolean;
  /** With a query: the relevance score and the query words the skill matched. */
  score?: number;
  matched?: string[];
}

function listed(skill: DiscoveredSkill): ListedSkill {
  return {
    name: skill.dirName,
    description: skill.description ?? '',
    scope: skill.scope,
    ...(skill.agent === undefined ? {} : { agent: skill.agent }),
    location: skill.location,
    mcpServers: skill.mcpServers,
    valid: skill.valid,
    modelInvocable: !skill.disableModelInvocation,
  };
}

/** Every skill that matches `query`, best first, with its score and matched words (the ranking routing uses). */
function ranked(query: string, skills: readonly DiscoveredSkill[]): ListedSkill[] {
  return rankSkills(query, skills).map((hit) => ({ ...listed(hit.skill), score: Math.round(hit.score * 1000) / 1000, matched: hit.terms }));
}

export function registerSkillTools(server: McpServer, tools: ToolContext): void {
  const root = tools.command.cwd;
  const env = tools.command.env;

  server.registerTool(
    'list_skills',
    {
      title: 'List skills',
      description:
        "The Agent Skills a squad member can use: name, description, scope (builtin, team, agent), location and the MCP servers each needs. With a query, only the skills that match it, best first, with the words they matched (the ranking create-squad's routing uses). Read one with read_skill.",
      inputSchema: {
        agent: agentInput,
        query: z.string().max(4000).optional().describe('What the work is about, in a few words or the task itself: ranks the skills by relevance.'),
      },
      outputSchema: {
        agent: z.string().optional(),
        query: z.string().optional(),
        skills: z.array(skillOutput),
        total: z.number().int().describe('How many skills the member sees in all (with a query, more than the matches).'),
        warnings: warningsOutput,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ agent, query }) =>
      answer(() => {
        const started = performance.now();
        const view = skillsSeenBy(root, agent);
        const wanted = query?.trim();
        const skills = wanted ? ranked(wanted, view.skills) : view.skills.map(listed);
        recordUsage(root, env, {
          event: 'listed',
          skills: skills.map((s) => s.name),
          ...(view.agent === undefined ? {} : { agent: view.agent }),
          via: 'mcp',
          ms: Math.round(performance.now() - started),
        });
        return {
          structured: {
            ...(view.agent === undefined ? {} : { agent: view.agent }),
            ...(wanted ? { query: wanted } : {}),
            skills,
            total: view.skills.length,
            warnings: view.warnings,
          },
        };
      }),
  );

  server.registerTool(
    'read_skill',
    {
      title: 'Read a skill',
      description: `A skill's SKILL.md (its instructions), with the list of its other files (${SKILL_RESOURCE_DIRS.map((d) => `${d}/`).join(', ')}). Give "file" to read one of those (at most ${SKILL_RESOURCE_MAX_BYTES / 1024} KB of it; binary files as base64). Nothing outside the skill folder is ever read.`,
      inputSchema: {
        name: z.string().min(1).max(200).describe('The skill name, as list_skills gives it.'),
        agent: agentInput,
        file: z
          .string()
          .min(1)
          .max(1000)
          .optional()
          .describe('A file of the skill, relative to its folder, as the file list shows it ("references/api.md"). Without it: SKILL.md and the file list.'),
      },
      outputSchema: {
        name: z.string(),
        scope: z.enum(['builtin', 'team', 'agent']),
        location: z.string(),
        path: z.string().describe('The file returned, relative to the skill folder.'),
        bytes: z.number().int(),
        encoding: z.enum(['utf8', 'base64']),
        content: z.string(),
        truncated: z.boolean(),
        files: z.array(z.object({ path: z.string(), bytes: z.number().int() })).optional(),
        filesTruncated: z.boolean().optional(),
        filesRefused: z.array(z.object({ path: z.string(), reason: z.string() })).optional(),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ name, agent, file }) =>
      answer(() => {
        const started = performance.now();
        const skill = findSkill(root, skillsSeenBy(root, agent), name);
        const about = { name: skill.dirName, scope: skill.scope, location: skill.location };
        const logRead = (path?: string) =>
          recordUsage(root, env, {
            event: 'read',
            skill: skill.dirName,
            ...(path === undefined ? {} : { file: path }),
            ...(agent === undefined ? {} : { agent }),
            via: 'mcp',
            ms: Math.round(performance.now() - started),
          });
        if (file !== undefined) {
          const read = readSkillResource(skill.dir, file);
          logRead(read.path);
          return { structured: { ...about, ...read }, text: read.encoding === 'utf8' ? read.content : undefined };
        }
        const content = readStateText(root, skill.location, SKILL_MD_MAX_BYTES) ?? '';
        const listing = listSkillResources(skill.dir);
        logRead();
        return {
          structured: {
            ...about,
            path: 'SKILL.md',
            bytes: Buffer.byteLength(content),
            encoding: 'utf8',
            content,
            truncated: false,
            files: listing.files,
            filesTruncated: listing.truncated,
            ...(listing.refused.length > 0 ? { filesRefused: listing.refused } : {}),
          },
          text: fileListNote(
            content,
            listing.files.map((f) => f.path),
            listing.truncated,
          ),
        };
      }),
  );

  server.registerTool(
    'run_skill_script',
    {
      title: 'Run a skill script',
      description: `Run one file of a skill's scripts/ folder with arguments (no shell: an argument array), in the repository folder, within a time limit and an output limit, with a minimal environment (no inherited variables such as tokens) and a temporary HOME; everything it started is killed with it where the system allows (confinement says what applied). Off by default: only scripts the user allowed in ${SKILLS_ALLOWLIST_PATH} run; a refusal says how to allow one.`,
      inputSchema: {
        skill: z.string().min(1).max(200).describe('The skill name, as list_skills gives it.'),
        script: z.string().min(1).max(1000).describe('The script, relative to the skill folder ("scripts/extract.py"); the scripts/ prefix may be left out.'),
        arguments: z.array(z.string()).max(MAX_SCRIPT_ARGUMENTS).optional().describe('Arguments, one string each, passed as they are (never through a shell).'),
        agent: agentInput,
        timeoutSeconds: z
          .number()
          .positive()
          .max(MAX_SCRIPT_TIMEOUT_MS / 1000)
          .optional()
          .describe('Kill the script after this many seconds (default 60).'),
      },
      outputSchema: {
        skill: z.string(),
        skillFolder: z.string(),
        script: z.string(),
        args: z.array(z.string()),
        exitCode: z.number().int().nullable(),
        signal: z.string().nullable(),
        timedOut: z.boolean(),
        cancelled: z.boolean(),
        durationMs: z.number(),
        stdout: z.string(),
        stderr: z.string(),
        stdoutBytes: z.number().int(),
        stderrBytes: z.number().int(),
        stdoutTruncated: z.boolean(),
        stderrTruncated: z.boolean(),
        confinement: z.object({
          network: z.enum(['off', 'on']),
          processTree: z.enum(['namespace', 'group', 'process']),
          env: z.literal('minimal'),
          home: z.literal('temporary'),
          cwd: z.enum(['scratch', 'repository']),
        }),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    },
    ({ skill, script, arguments: args, agent, timeoutSeconds }, extra) =>
      answer(async () => {
        const found = findSkill(root, skillsSeenBy(root, agent), skill);
        const limits = timeoutSeconds === undefined ? tools.scriptLimits : { ...tools.scriptLimits, timeoutMs: Math.round(timeoutSeconds * 1000) };
        const run = await runSkillScript(root, found, script, args ?? [], { env: tools.command.env, limits, signal: extra.signal });
        recordUsage(root, env, { event: 'run', skill: found.dirName, script: run.script, exitCode: run.exitCode, via: 'mcp', ms: run.durationMs });
        return { structured: { ...run }, text: describeRun(run), failed: run.exitCode !== 0 };
      }),
  );
}

/** SKILL.md, then the names of the skill's other files, so a model knows what it may ask for. */
function fileListNote(content: string, files: string[], truncated: boolean): string {
  if (files.length === 0) return content;
  const more = truncated ? `\n(the list stops at ${MAX_LISTED_SKILL_RESOURCES} files)` : '';
  return `${content.replace(/\n*$/, '\n')}\n---\nFiles of this skill (read one with read_skill and "file"):\n${files.map((f) => `- ${f}`).join('\n')}${more}\n`;
}

/** A script run in words, then its output. */
function describeRun(run: ScriptRun): string {
  const how = run.timedOut
    ? 'was killed at the time limit'
    : run.cancelled
      ? 'was cancelled'
      : run.exitCode === null
        ? `was killed (${run.signal})`
        : `exited with code ${run.exitCode}`;
  const cut = (truncated: boolean, bytes: number) => (truncated ? ` (cut: ${bytes} bytes in all)` : '');
  return [
    `${run.skillFolder}/${run.script} ${how} after ${run.durationMs} ms.`,
    `stdout${cut(run.stdoutTruncated, run.stdoutBytes)}:`,
    run.stdout,
    `stderr${cut(run.stderrTruncated, run.stderrBytes)}:`,
    run.stderr,
  ].join('\n');
}
