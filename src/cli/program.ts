/**
 * The command-line surface: every command, argument and flag. Command modules are imported only
 * when their command runs, so `--help` loads nothing but commander.
 */
import path from 'node:path';
import type { CommandContext, CommandResult } from '../commands/context.js';
import type { AskInit } from '../commands/init.js';
import { Command, Option } from './commander.js';
import { usageError } from '../core/base/errors.js';
import { DEFAULT_SKILLS_BUDGET } from '../core/base/prompt-limits.js';
import { DEFAULT_SPAWN_MODE, SPAWN_MODES, type SpawnMode } from '../core/base/spawn-modes.js';
import type { Io } from './io.js';
import type { CommonOptions } from './run.js';
import { shouldUseColor, type Ui } from './ui.js';

export const PROGRAM_NAME = 'create-squad';

/** init's questions on a terminal: `prompts` loads only when something is left to ask. */
const askOnTerminal: AskInit = async (questions) => (await import('./init-questions.js')).askWithPrompts(questions);

/**
 * Filled while the program runs: commander's output hook leaves a usage error here so `main` can
 * print it in its own format, and the command that ran leaves its exit code.
 */
export interface UsageErrorSink {
  message?: string;
  command?: string;
  exitCode?: 0 | 1;
}

type Opts = CommonOptions & Record<string, unknown>;

export function buildProgram(version: string, ui: Ui, sink: UsageErrorSink, io: Io): Command {
  const program = new Command(PROGRAM_NAME);

  /** Run a command through the runner, loaded (like the command itself) only when a command runs. */
  const execute = async (opts: Opts, command: (ctx: CommandContext) => Promise<CommandResult>): Promise<void> => {
    const run = await import('./run.js');
    sink.exitCode = await run.execute(opts, io, ui, command);
  };

  // Help's width and colours from `io` and the Ui's colour rule, not from process.stdout and stderr
  // as commander would ask: building those streams costs a run that prints to a pipe a few
  // milliseconds for nothing. A terminal's width; 80 (commander's own) elsewhere.
  const width = (isTTY: boolean | undefined, stream: () => NodeJS.WriteStream): number => (isTTY === true ? stream().columns : undefined) ?? 80;
  const configure = (cmd: Command): Command =>
    cmd.exitOverride().configureOutput({
      getOutHelpWidth: () => width(io.stdoutIsTTY, () => process.stdout),
      getErrHelpWidth: () => width(io.stderrIsTTY, () => process.stderr),
      getOutHasColors: () => shouldUseColor({ isTTY: io.stdoutIsTTY }, io.env),
      getErrHasColors: () => shouldUseColor({ isTTY: io.stderrIsTTY }, io.env),
      writeOut: (text) => ui.write(text),
      writeErr: (text) => {
        for (const line of text.replace(/\n$/, '').split('\n')) ui.note(line);
      },
      outputError: (text) => {
        sink.message = text
          .replace(/^error:\s*/i, '')
          .trim()
          .replace(/\s*\n\s*\(Did you mean (.+)\)$/, ' (did you mean $1)');
        sink.command = commandPath(cmd);
      },
    });

  /** A subcommand with the options every command has. */
  const sub = (parent: Command, spec: string, description: string, { json = true, isDefault = false } = {}): Command => {
    const cmd = configure(parent.command(spec, { isDefault }).description(description));
    cmd.option('--cwd <dir>', 'target repository (default: the current directory)');
    if (json) cmd.option('--json', 'print one JSON document on stdout');
    return cmd;
  };

  configure(program)
    .description('Give a repository an AI agent team that GitHub Copilot runs.')
    .version(version, '-v, --version', 'print the version (-V too)')
    .helpOption('-h, --help', 'show help')
    .helpCommand(false)
    .showSuggestionAfterError(true)
    .addHelpText(
      'after',
      `
Examples:
  $ npx create-squad init                    set up a squad in this repository
  $ create-squad skills list --agent keaton  skills one agent sees
  $ create-squad teach fenster "always use Tailwind CSS"
  $ create-squad prompt fenster --task "add OAuth login"

Exit codes: 0 success, 1 failure, 2 usage error. Set DEBUG=1 for stack traces, NO_COLOR=1 for plain output.`,
    );

  sub(program, 'init [dir]', 'scaffold a squad (.ai-team/ and the Copilot coordinator) in a repository (the default command)', { isDefault: true })
    .option('-y, --yes', 'use defaults, ask nothing')
    .option('--roles <list>', 'comma-separated roles (default: Lead,Core Dev,Tester); another name of a known role ("qa") is recorded under its title, with a note')
    .option('--allow-duplicate-roles', 'cast several members in one role when --roles names it more than once (refused otherwise)')
    .option('--universe <name>', 'casting universe for member names (default: "The Usual Suspects")')
    .option('--project <text>', 'what the project is (on an existing squad: changes it in team.md and the charters)')
    .option('--stack <text>', 'the technology stack (default for a new squad: read from package.json, pyproject.toml, go.mod, …)')
    .option('--owner <name>', 'who the squad works for (on an existing squad: changes it too)')
    .option('--no-team', 'infrastructure only: no cast members (Scribe is still created)')
    .option('--here', 'scaffold in this folder, not at the root of the enclosing git repository')
    .option('--mcp [hosts]', "register the squad's MCP server (create-squad mcp) for these hosts: vscode, copilot-cli, cloud-agent, comma-separated (default: all)")
    .option('--dry-run', 'print what would be created, write nothing')
    .option('--wait [seconds]', 'wait for another create-squad writing here to finish (default 60 s)')
    .addHelpText(
      'after',
      `
Without the word init (npx create-squad, npm init squad):
  - on a terminal it asks its questions first; without one (a script, CI, --json) it writes
    nothing unless --yes is given;
  - a word that names a command (status, list, remove, update, …) is never taken for a folder;
  - any other word is a new folder only outside a repository (npx create-squad my-app); inside one,
    write init <dir> or a path (./web).`,
    )
    .allowExcessArguments(true)
    .action(async (_dir: string | undefined, opts: Opts, cmd: Command) => {
      // `init` is the default command (`npx create-squad`, `npm init squad`): a mistyped command
      // must not become a folder of that name.
      const operands = cmd.args;
      if (program.args[0] !== 'init') {
        const { checkDefaultRun } = await import('./default-command.js');
        const start = path.resolve(io.cwd, opts.cwd ?? '.');
        checkDefaultRun({ operands, start, yes: opts.yes === true, json: opts.json === true, dryRun: opts.dryRun === true }, program, io);
      }
      if (operands.length > 1) {
        throw usageError(`too many arguments for 'init': ${operands.join(' ')}`, 'usage: create-squad init [dir]');
      }
      const { init } = await import('../commands/init.js');
      await execute(opts, (ctx) =>
        init(
          {
            ...(operands[0] === undefined ? {} : { dir: operands[0] }),
            ...(opts.roles === undefined ? {} : { roles: String(opts.roles) }),
            ...(opts.universe === undefined ? {} : { universe: String(opts.universe) }),
            ...(opts.project === undefined ? {} : { project: String(opts.project) }),
            ...(opts.stack === undefined ? {} : { stack: String(opts.stack) }),
            ...(opts.owner === undefined ? {} : { owner: String(opts.owner) }),
            team: opts.team !== false,
            ...(opts.allowDuplicateRoles === true ? { allowDuplicateRoles: true } : {}),
            here: opts.here === true,
            dryRun: opts.dryRun === true,
            ...(opts.mcp === undefined ? {} : { mcp: opts.mcp === true ? true : String(opts.mcp) }),
          },
          ctx,
          askOnTerminal,
        ),
      );
    });

  sub(program, 'hire <role>', 'add a member to the squad')
    .option('--name <name>', 'member name (default: the next name from the casting universe)')
    .option('--dry-run', 'print what would be created, write nothing')
    .option('--wait [seconds]', 'wait for another create-squad writing here to finish (default 60 s)')
    .action(async (role: string, opts: Opts) => {
      const { hire } = await import('../commands/hire.js');
      await execute(opts, (ctx) => hire({ role, ...(opts.name === undefined ? {} : { name: String(opts.name) }), dryRun: opts.dryRun === true }, ctx));
    });

  sub(program, 'members', 'list the members: name, role, status, own skills; and who retired').action(async (opts: Opts) => {
    const { members } = await import('../commands/members.js');
    await execute(opts, (ctx) => members(ctx));
  });

  sub(program, 'retire <member>', 'move a member to the alumni: off the roster and routing, files kept, name reserved')
    .option('--dry-run', 'print what would change, write nothing')
    .option('--wait [seconds]', 'wait for another create-squad writing here to finish (default 60 s)')
    .addHelpText(
      'after',
      `
The member's folder moves whole to .ai-team/agents/_alumni/ (history, charter, skills), with a
retirement.md that keeps the rows taken out of team.md and routing.md; team.md gets an Alumni line.
Work routed to the member routes to nobody until you give it to someone in routing.md.`,
    )
    .action(async (member: string, opts: Opts) => {
      const { retire } = await import('../commands/retire.js');
      await execute(opts, (ctx) => retire({ member, dryRun: opts.dryRun === true }, ctx));
    });

  sub(program, 'rehire <member>', 'bring a retired member back: folder, roster and routing rows as they were')
    .option('--dry-run', 'print what would change, write nothing')
    .option('--wait [seconds]', 'wait for another create-squad writing here to finish (default 60 s)')
    .action(async (member: string, opts: Opts) => {
      const { rehire } = await import('../commands/rehire.js');
      await execute(opts, (ctx) => rehire({ member, dryRun: opts.dryRun === true }, ctx));
    });

  sub(program, 'role <member> <role...>', "change a member's role (roster, routing, charter, casting; a history line)")
    .option('--dry-run', 'print what would change, write nothing')
    .option('--wait [seconds]', 'wait for another create-squad writing here to finish (default 60 s)')
    .addHelpText(
      'after',
      `
The role may be several words without quotes: create-squad role fenster Frontend Dev.
A charter you tailored keeps its text (only its title and Role line change, after a backup under
.ai-team/backups/); one create-squad wrote is written again for the new role.`,
    )
    .action(async (member: string, words: string[], opts: Opts) => {
      const { role } = await import('../commands/role.js');
      await execute(opts, (ctx) => role({ member, role: words.join(' '), dryRun: opts.dryRun === true }, ctx));
    });

  const skills = configure(program.command('skills').description('list, validate, add, update and remove Agent Skills')).helpCommand(false);
  sub(skills, 'list', 'list skills with scope, version, MCP servers and validity')
    .option('--agent <name>', 'only the skills this agent sees (built-in + team + its own)')
    .action(async (opts: Opts) => {
      const { skillsList } = await import('../commands/skills-list.js');
      await execute(opts, (ctx) => skillsList({ ...(opts.agent ? { agent: String(opts.agent) } : {}) }, ctx));
    });
  sub(skills, 'validate [paths...]', 'check skills against the Agent Skills standard (default: every skill of the squad)')
    .option('--strict', 'treat warnings as errors')
    .action(async (paths: string[], opts: Opts) => {
      const { skillsValidate } = await import('../commands/skills-validate.js');
      await execute(opts, (ctx) => skillsValidate({ paths, strict: opts.strict === true }, ctx));
    });
  sub(skills, 'test [name]', "run skills' deterministic tests (tests/cases/*.yaml in the skill folder); default: every skill that has some")
    .option('--agent <name>', "with a name: look the skill up among this agent's skills too")
    .option('--case <name>', 'only the case of this name (or file name without .yaml)')
    .addHelpText(
      'after',
      `
Each case runs one file of the skill's scripts/ with its arguments, as run_skill_script runs it: no
shell, in the repository folder, within its time limit (the case's timeout, else 30 s), and only
when .ai-team/skills-allowlist.json allows that script (a refused case says what to add). It passes
when the exit code and the output are as expected. Exit code 1 when any case does not pass.
Format: docs/skills.md, "Skill tests".`,
    )
    .action(async (name: string | undefined, opts: Opts) => {
      const { skillsTest } = await import('../commands/skills-test.js');
      await execute(opts, (ctx) =>
        skillsTest(
          {
            ...(name === undefined ? {} : { name }),
            ...(opts.agent ? { agent: String(opts.agent) } : {}),
            ...(opts.case === undefined ? {} : { case: String(opts.case) }),
          },
          ctx,
        ),
      );
    });
  sub(skills, 'stats', 'what the local usage log says: skills read most, never read, run and tested, median times')
    .addHelpText(
      'after',
      `
The usage log is off until you turn it on: CREATE_SQUAD_USAGE_LOG=1 in the environment create-squad
runs in (for the MCP server: its "env" in the host's configuration), or {"enabled": true} in
.ai-team/usage-log.json. It records names and timings only (never a task, query, argument, file
content or output) in .ai-team/usage-log.jsonl, which git ignores, and sends nothing anywhere.`,
    )
    .action(async (opts: Opts) => {
      const { skillsStats } = await import('../commands/skills-stats.js');
      await execute(opts, (ctx) => skillsStats(ctx));
    });
  sub(skills, 'add <source>', 'install skills from a folder (one skill or several) or a git repository, into the team or one agent')
    .option('--skill <name...>', 'from a folder or repository of several skills: the ones to add')
    .option('--all', 'from a folder or repository of several skills: add every one')
    .option('--ref <ref>', 'git source: the branch or tag (default: its default branch)')
    .option('--path <folder>', 'the folder inside the source that holds the skill or skills')
    .option('--agent <name>', "install into this agent's skills instead of the team's")
    .option('--force', 'replace an existing skill of the same name (it is backed up first)')
    .option('--dry-run', 'print what would be installed, write nothing')
    .option('--wait [seconds]', 'wait for another create-squad writing here to finish (default 60 s)')
    .addHelpText(
      'after',
      `
A source is a folder that exists here, else a git repository: a URL (https://, ssh://, file://,
git@host:owner/repo; #ref at the end for a branch or tag; a GitHub …/tree/<ref>/<path> page too) or
github:owner/repo[/path] (owner/repo[/path] when no such folder exists). The repository is cloned with
your git, shallow and without prompts, into a temporary folder; every skill is validated before
anything is written. Where each skill came from is recorded in .ai-team/skill-sources.json, for
"skills update". A skill already installed file for file is left as it is (no backup, even with --force).`,
    )
    .action(async (source: string, opts: Opts) => {
      const { skillsAdd } = await import('../commands/skills-add.js');
      await execute(opts, (ctx) =>
        skillsAdd(
          {
            source,
            ...(opts.agent ? { agent: String(opts.agent) } : {}),
            ...(Array.isArray(opts.skill) ? { skills: opts.skill.map(String) } : {}),
            all: opts.all === true,
            ...(opts.ref === undefined ? {} : { ref: String(opts.ref) }),
            ...(opts.path === undefined ? {} : { path: String(opts.path) }),
            force: opts.force === true,
            dryRun: opts.dryRun === true,
          },
          ctx,
        ),
      );
    });
  sub(skills, 'remove <name>', 'take a skill out of the team (or one agent): moved whole to .ai-team/backups/, never deleted')
    .option('--agent <name>', "remove it from this agent's skills instead of the team's")
    .option('--dry-run', 'print what would be moved, write nothing')
    .option('--wait [seconds]', 'wait for another create-squad writing here to finish (default 60 s)')
    .action(async (name: string, opts: Opts) => {
      const { skillsRemove } = await import('../commands/skills-remove.js');
      await execute(opts, (ctx) => skillsRemove({ name, ...(opts.agent ? { agent: String(opts.agent) } : {}), dryRun: opts.dryRun === true }, ctx));
    });
  sub(skills, 'update <name>', 'fetch a skill again from the source "skills add" recorded; the installed one is backed up first')
    .option('--agent <name>', "update this agent's skill instead of the team's")
    .option('--dry-run', 'print what would change, write nothing')
    .option('--wait [seconds]', 'wait for another create-squad writing here to finish (default 60 s)')
    .action(async (name: string, opts: Opts) => {
      const { skillsUpdate } = await import('../commands/skills-update.js');
      await execute(opts, (ctx) => skillsUpdate({ name, ...(opts.agent ? { agent: String(opts.agent) } : {}), dryRun: opts.dryRun === true }, ctx));
    });

  sub(program, 'teach [agent] [instruction]', 'teach an agent (or --team) a standing rule, or a procedure as a skill')
    .option('--team', 'teach the whole team (give only the instruction)')
    .option('--rule', "a standing rule, whatever the wording: into the member's charter (--team: .ai-team/rules.md)")
    .option('--skill', 'a procedure for some tasks, whatever the wording: a user-taught skill')
    .option('--name <slug>', 'skill name (implies --skill; default: derived from the instruction)')
    .option('--dry-run', 'print what would be written, write nothing')
    .option('--wait [seconds]', 'wait for another create-squad writing here to finish (default 60 s)')
    .addHelpText(
      'after',
      `
A standing rule ("always use tabs", "never commit to main", "use pnpm for installs", "prefer X",
"avoid Y") holds in every task: it is added to the member's charter under "## Standing rules" (with
--team, to .ai-team/rules.md), which every spawn sees; teaching it again changes nothing. A
procedure (steps, a how-to, "when you release, …") becomes a skill members open when a task matches.`,
    )
    .action(async (agent: string | undefined, instruction: string | undefined, opts: Opts) => {
      const { teach } = await import('../commands/teach.js');
      const args = [agent, instruction].filter((a): a is string => a !== undefined);
      await execute(opts, (ctx) =>
        teach(
          {
            args,
            team: opts.team === true,
            rule: opts.rule === true,
            skill: opts.skill === true,
            ...(opts.name === undefined ? {} : { name: String(opts.name) }),
            dryRun: opts.dryRun === true,
          },
          ctx,
        ),
      );
    });

  sub(program, 'prompt <agent>', 'render the spawn prompt for an agent and a task')
    .option('--task <text>', 'the task ("-" reads it from stdin)')
    .option('--task-file <path>', 'read the task from this file (no shell quoting needed)')
    .addOption(new Option('--mode <mode>', 'spawn mode').choices(SPAWN_MODES).default(DEFAULT_SPAWN_MODE))
    .option('--skill <name...>', 'skills to inline in lightweight mode')
    .option('--skills-budget <tokens>', `standard mode: tokens the skill list may take (default ${DEFAULT_SKILLS_BUDGET}); the most relevant skills are listed`)
    .option('--all-skills', 'standard mode: list every skill, whatever the budget')
    .action(async (agent: string, opts: Opts) => {
      const { prompt } = await import('../commands/prompt.js');
      await execute(opts, (ctx) =>
        prompt(
          {
            agent,
            task: opts.task === undefined ? undefined : String(opts.task),
            taskFile: opts.taskFile === undefined ? undefined : String(opts.taskFile),
            mode: opts.mode as SpawnMode | undefined, // one of SPAWN_MODES: commander checks the choices
            skills: Array.isArray(opts.skill) ? opts.skill.map(String) : [],
            skillsBudget: opts.skillsBudget === undefined ? undefined : String(opts.skillsBudget),
            allSkills: opts.allSkills === true,
          },
          ctx,
        ),
      );
    });

  sub(program, 'route [task]', 'suggest which agent, mode and skills fit a task ("-" reads it from stdin)')
    .option('--task-file <path>', 'read the task from this file (no shell quoting needed)')
    .action(async (task: string | undefined, opts: Opts) => {
      const { route } = await import('../commands/route.js');
      await execute(opts, (ctx) => route({ task, taskFile: opts.taskFile === undefined ? undefined : String(opts.taskFile) }, ctx));
    });

  sub(program, 'upgrade', 'refresh the files create-squad owns; never touches what the team learned')
    .option('--dry-run', 'print what would change, write nothing')
    .option('--wait [seconds]', 'wait for another create-squad writing here to finish (default 60 s)')
    .action(async (opts: Opts) => {
      const { upgrade } = await import('../commands/upgrade.js');
      await execute(opts, (ctx) => upgrade({ dryRun: opts.dryRun === true }, ctx));
    });

  sub(program, 'export', 'write the squad to a portable .squad file')
    .option('--out <file>', 'output file (default: squad-export.squad)')
    .option('--no-history', 'leave agent histories out')
    .option('--keep-private', 'do not redact e-mail addresses and credentials in histories')
    .option('--force', 'overwrite an existing output file')
    .option('--dry-run', 'print what would be exported, write nothing')
    .action(async (opts: Opts) => {
      const { exportCommand } = await import('../commands/export.js');
      await execute(opts, (ctx) =>
        exportCommand(
          {
            ...(opts.out === undefined ? {} : { out: String(opts.out) }),
            history: opts.history !== false,
            keepPrivate: opts.keepPrivate === true,
            force: opts.force === true,
            dryRun: opts.dryRun === true,
          },
          ctx,
        ),
      );
    });

  sub(program, 'import <file>', 'rebuild a squad from a .squad file')
    .option('--force', 'replace an existing squad (it is archived, never deleted)')
    .option('--dry-run', 'print what would be imported, write nothing')
    .option('--wait [seconds]', 'wait for another create-squad writing here to finish (default 60 s)')
    .action(async (file: string, opts: Opts) => {
      const { importCommand } = await import('../commands/import.js');
      await execute(opts, (ctx) => importCommand({ file, force: opts.force === true, dryRun: opts.dryRun === true }, ctx));
    });

  sub(program, 'doctor', "check the squad's health and say how to fix each finding").action(async (opts: Opts) => {
    const { doctor } = await import('../commands/doctor.js');
    await execute(opts, (ctx) => doctor(ctx));
  });

  sub(program, 'mcp', "serve the squad's skills, prompts and routing to Copilot as an MCP server (stdio)", { json: false })
    .addHelpText(
      'after',
      `
Started by an MCP client (VS Code, the Copilot CLI, the cloud agent), not by hand: it reads
JSON-RPC on stdin and writes only JSON-RPC on stdout until stdin closes. Tools: list_skills,
read_skill, build_spawn_prompt, route, teach, validate_skill, test_skill, run_skill_script
(scripts run only when .ai-team/skills-allowlist.json allows them). Registering it:
docs/commands.md.`,
    )
    .action(async (opts: Opts) => {
      const { mcp } = await import('../commands/mcp.js');
      await execute(opts, (ctx) => mcp(ctx));
    });

  return program;
}

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let current: Command | null = cmd; current; current = current.parent) names.unshift(current.name());
  return names.join(' ');
}
