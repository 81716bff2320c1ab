/**
 * The command-line surface, as a table: every command with its arguments, options, what it
 * writes, how its options become the command's options object, and the import of its module.
 * command-table.ts turns the table into commander commands. Command modules are imported only
 * when their command runs, so `--help` loads nothing but commander.
 *
 * Each command's `load` stays written out here, one literal import of its module: the CLI bundler
 * (scripts/bundle-cli.mjs) finds the commands to bundle by reading those imports in this file.
 */
import path from 'node:path';
import type { AskInit } from '../commands/init.js';
import type { Confirm } from '../commands/skills-audit.js';
import { type TableEntry, command, dryRunOption, given, group, option, registerCommands, type ParsedOptions, type Precheck } from './command-table.js';
import { Command } from './commander.js';
import { usageError } from '../core/base/errors.js';
import { DEFAULT_SKILLS_BUDGET } from '../core/base/prompt-limits.js';
import { DEFAULT_SPAWN_MODE, SPAWN_MODES, type SpawnMode } from '../core/base/spawn-modes.js';
import { DEFAULT_GUARD, GUARD_MODES } from '../core/base/hook-events.js';
import type { Io } from './io.js';
import { shouldUseColor, type Ui } from './ui.js';

export const PROGRAM_NAME = 'create-squad';

const PROGRAM_SUMMARY = 'Give a repository an AI agent team that GitHub Copilot runs.';

const PROGRAM_HELP = `
Examples:
  $ npx create-squad init                    set up a squad in this repository
  $ create-squad skills list --agent keaton  skills one agent sees
  $ create-squad teach fenster "always use Tailwind CSS"
  $ create-squad prompt fenster --task "add OAuth login"

Exit codes: 0 success, 1 failure, 2 usage error. Set DEBUG=1 for stack traces, NO_COLOR=1 for plain output.`;

/** init's questions on a terminal: `prompts` loads only when something is left to ask. */
const askOnTerminal: AskInit = async (questions) => (await import('./init-questions.js')).askWithPrompts(questions);

/** The question `skills add` and `skills update` ask after the audit found something to review: `prompts` loads only then. */
const confirmOnTerminal: Confirm = async (question) => (await import('./confirm.js')).confirmWithPrompts(question);

/**
 * `init` is the default command (`npx create-squad`, `npm init squad`): a mistyped command must not
 * become a folder of that name, and a bare run without a terminal writes nothing without --yes.
 */
async function checkInitRun({ operands, parsed, program, io }: Precheck): Promise<void> {
  if (program.args[0] !== 'init') {
    const { checkDefaultRun } = await import('./default-command.js');
    const start = path.resolve(io.cwd, parsed.cwd ?? '.');
    checkDefaultRun({ operands, start, yes: parsed.yes === true, json: parsed.json === true, dryRun: parsed.dryRun === true }, program, io);
  }
  if (operands.length > 1) {
    throw usageError(`too many arguments for 'init': ${operands.join(' ')}`, 'usage: create-squad init [dir]');
  }
}

/** Every command, in the order `create-squad --help` lists them. */
export const COMMAND_TABLE: readonly TableEntry[] = [
  command({
    name: 'init',
    arguments: '[dir]',
    summary: 'scaffold a squad (.ai-team/ and the Copilot coordinator) in a repository (the default command)',
    options: [
      option('-y, --yes', 'use defaults, ask nothing'),
      option('--roles <list>', 'comma-separated roles (default: Lead,Core Dev,Tester); another name of a known role ("qa") is recorded under its title, with a note'),
      option('--allow-duplicate-roles', 'cast several members in one role when --roles names it more than once (refused otherwise)'),
      option('--universe <name>', 'casting universe for member names (default: "The Usual Suspects")'),
      option('--project <text>', 'what the project is (on an existing squad: changes it in team.md and the charters)'),
      option('--stack <text>', 'the technology stack (default for a new squad: read from package.json, pyproject.toml, go.mod, …)'),
      option('--owner <name>', 'who the squad works for (on an existing squad: changes it too)'),
      option('--no-team', 'infrastructure only: no cast members (Scribe is still created)'),
      option('--here', 'scaffold in this folder, not at the root of the enclosing git repository'),
      option('--mcp [hosts]', "register the squad's MCP server (create-squad mcp) for these hosts: vscode, copilot-cli, cloud-agent, comma-separated (default: all)"),
      dryRunOption('would be created'),
    ],
    writes: 'squad',
    help: `
Without the word init (npx create-squad, npm init squad):
  - on a terminal it asks its questions first; without one (a script, CI, --json) it writes
    nothing unless --yes is given;
  - a word that names a command (status, list, remove, update, …) is never taken for a folder;
  - any other word is a new folder only outside a repository (npx create-squad my-app); inside one,
    write init <dir> or a path (./web).`,
    isDefault: true,
    allowExcessArguments: true,
    check: checkInitRun,
    load: () => import('../commands/init.js'),
    run: ({ init }, { args: [dir], opts, ctx }) =>
      init(
        {
          ...given({
            dir,
            roles: opts.text('roles'),
            universe: opts.text('universe'),
            project: opts.text('project'),
            stack: opts.text('stack'),
            owner: opts.text('owner'),
            allowDuplicateRoles: opts.flag('allowDuplicateRoles') || undefined,
            mcp: opts.textOrTrue('mcp'),
          }),
          team: opts.unlessNegated('team'),
          here: opts.flag('here'),
          dryRun: opts.flag('dryRun'),
        },
        ctx,
        askOnTerminal,
      ),
  }),

  command({
    name: 'hire',
    arguments: '<role>',
    summary: 'add a member to the squad',
    options: [
      option('--name <name>', 'member name (default: the next name from the casting universe)'),
      option('--model <name...>', "the member's model, or a prioritized list (default: the squad's default, else the session's)"),
      dryRunOption('would be created'),
    ],
    writes: 'squad',
    load: () => import('../commands/hire.js'),
    run: ({ hire }, { args: [role], opts, ctx }) => hire({ role, ...given({ name: opts.text('name'), models: opts.list('model') }), dryRun: opts.flag('dryRun') }, ctx),
  }),

  command({
    name: 'members',
    summary: 'list the members: name, role, model, status, own skills; and who retired',
    writes: false,
    load: () => import('../commands/members.js'),
    run: ({ members }, { ctx }) => members(ctx),
  }),

  command({
    name: 'retire',
    arguments: '<member>',
    summary: 'move a member to the alumni: off the roster and routing, files kept, name reserved',
    options: [dryRunOption('would change')],
    writes: 'squad',
    help: `
The member's folder moves whole to .ai-team/agents/_alumni/ (history, charter, skills), with a
retirement.md that keeps the rows taken out of team.md and routing.md; team.md gets an Alumni line.
Work routed to the member routes to nobody until you give it to someone in routing.md.`,
    load: () => import('../commands/retire.js'),
    run: ({ retire }, { args: [member], opts, ctx }) => retire({ member, dryRun: opts.flag('dryRun') }, ctx),
  }),

  command({
    name: 'rehire',
    arguments: '<member>',
    summary: 'bring a retired member back: folder, roster and routing rows as they were',
    options: [dryRunOption('would change')],
    writes: 'squad',
    load: () => import('../commands/rehire.js'),
    run: ({ rehire }, { args: [member], opts, ctx }) => rehire({ member, dryRun: opts.flag('dryRun') }, ctx),
  }),

  command({
    name: 'role',
    arguments: '<member> <role...>',
    summary: "change a member's role (roster, routing, charter, casting; a history line)",
    options: [dryRunOption('would change')],
    writes: 'squad',
    help: `
The role may be several words without quotes: create-squad role fenster Frontend Dev.
A charter you tailored keeps its text (only its title and Role line change, after a backup under
.ai-team/backups/); one create-squad wrote is written again for the new role.`,
    load: () => import('../commands/role.js'),
    run: ({ role }, { args: [member, words], opts, ctx }) => role({ member, role: words.join(' '), dryRun: opts.flag('dryRun') }, ctx),
  }),

  command({
    name: 'model',
    arguments: '[member] [model...]',
    summary: "set the model a member runs on (a name or a prioritized list), or the squad's default",
    options: [
      option('--clear', "take the model out: the member inherits the squad's default, else the session's model"),
      option('--effort <level>', 'reasoning effort: low, medium or high'),
      option('--default', "set the squad's default (.ai-team/config.json) instead of a member's"),
      dryRunOption('would change'),
    ],
    writes: 'squad',
    help: `
Examples: create-squad model fenster claude-sonnet-4.5 gpt-5   (first choice, then a fallback)
          create-squad model scribe --effort low
          create-squad model --default claude-sonnet-4.5
Recorded in .ai-team/casting/registry.json (the squad's default in .ai-team/config.json) and written
into each member's agent in .github/agents/; unset means the session's model.`,
    load: () => import('../commands/model.js'),
    run: ({ model }, { args: [member, models], opts, ctx }) =>
      model({ ...given({ member, effort: opts.text('effort') }), models, clear: opts.flag('clear'), squadDefault: opts.flag('default'), dryRun: opts.flag('dryRun') }, ctx),
  }),

  group('skills', 'Agent Skills: list, add, update, remove, check, audit, validate, test and stats', [
    command({
      name: 'list',
      summary: 'list skills with scope, version, MCP servers and validity',
      options: [option('--agent <name>', 'only the skills this agent sees (built-in + team + its own)')],
      writes: false,
      load: () => import('../commands/skills-list.js'),
      run: ({ skillsList }, { opts, ctx }) => skillsList(given({ agent: opts.nonEmpty('agent') }), ctx),
    }),

    command({
      name: 'validate',
      arguments: '[paths...]',
      summary: 'check skills against the Agent Skills standard (default: every skill of the squad)',
      options: [option('--strict', 'treat warnings as errors')],
      writes: false,
      load: () => import('../commands/skills-validate.js'),
      run: ({ skillsValidate }, { args: [paths], opts, ctx }) => skillsValidate({ paths, strict: opts.flag('strict') }, ctx),
    }),

    command({
      name: 'test',
      arguments: '[name]',
      summary: "run skills' deterministic tests (tests/cases/*.yaml in the skill folder); default: every skill that has some",
      options: [
        option('--agent <name>', "with a name: look the skill up among this agent's skills too"),
        option('--case <name>', 'only the case of this name (or file name without .yaml)'),
      ],
      writes: false,
      help: `
Each case runs one file of the skill's scripts/ with its arguments, as run_skill_script runs it: no
shell, in the repository folder, within its time limit (the case's timeout, else 30 s), and only
when .ai-team/skills-allowlist.json allows that script (a refused case says what to add). It passes
when the exit code and the output are as expected. Exit code 1 when any case does not pass.
Format: docs/skills.md, "Skill tests".`,
      load: () => import('../commands/skills-test.js'),
      run: ({ skillsTest }, { args: [name], opts, ctx }) => skillsTest(given({ name, agent: opts.nonEmpty('agent'), case: opts.text('case') }), ctx),
    }),

    command({
      name: 'stats',
      summary: 'what the local usage log says: skills read most, never read, run and tested, median times',
      writes: false,
      help: `
The usage log is off until you turn it on: CREATE_SQUAD_USAGE_LOG=1 in the environment create-squad
runs in (for the MCP server: its "env" in the host's configuration), or {"enabled": true} in
.ai-team/usage-log.json. It records names and timings only (never a task, query, argument, file
content or output) in .ai-team/usage-log.jsonl, which git ignores, and sends nothing anywhere.`,
      load: () => import('../commands/skills-stats.js'),
      run: ({ skillsStats }, { ctx }) => skillsStats(ctx),
    }),

    command({
      name: 'add',
      arguments: '<source>',
      summary: 'install skills from a folder (one skill or several) or a git repository, into the team or one agent',
      options: [
        option('--skill <name...>', 'from a folder or repository of several skills: the ones to add'),
        option('--all', 'from a folder or repository of several skills: add every one'),
        option('--ref <ref>', 'git source: the branch or tag (default: its default branch)'),
        option('--path <folder>', 'the folder inside the source that holds the skill or skills'),
        option('--agent <name>', "install into this agent's skills instead of the team's"),
        option('--force', 'replace an existing skill of the same name (it is backed up first)'),
        option('-y, --yes', 'install even when the audit finds something to review (without a terminal it is refused otherwise)'),
        dryRunOption('would be installed'),
      ],
      writes: 'squad',
      help: `
A source is a folder that exists here, else a git repository: a URL (https://, ssh://, file://,
git@host:owner/repo; #ref at the end for a branch or tag; a GitHub …/tree/<ref>/<path> page too) or
github:owner/repo[/path] (owner/repo[/path] when no such folder exists). The repository is cloned with
your git, shallow and without prompts, into a temporary folder; every skill is validated before
anything is written. Where each skill came from is recorded in skills-lock.json (the skills
ecosystem's project lock), for "skills update" and "skills check". A skill already installed file
for file is left as it is (no backup, even with --force).
Before anything is written, the skills are audited (docs/skills.md, "The audit"): what needs review
is shown, then asked about on a terminal; without one (CI, a script, --json) only --yes installs it.`,
      load: () => import('../commands/skills-add.js'),
      run: ({ skillsAdd }, { args: [source], opts, ctx }) =>
        skillsAdd(
          {
            source,
            ...given({ agent: opts.nonEmpty('agent'), skills: opts.list('skill'), ref: opts.text('ref'), path: opts.text('path') }),
            all: opts.flag('all'),
            force: opts.flag('force'),
            yes: opts.flag('yes'),
            dryRun: opts.flag('dryRun'),
          },
          ctx,
          confirmOnTerminal,
        ),
    }),

    command({
      name: 'remove',
      arguments: '<name>',
      summary: 'take a skill out of the team (or one agent): moved whole to .ai-team/backups/, never deleted',
      options: [option('--agent <name>', "remove it from this agent's skills instead of the team's"), dryRunOption('would be moved')],
      writes: 'squad',
      load: () => import('../commands/skills-remove.js'),
      run: ({ skillsRemove }, { args: [name], opts, ctx }) => skillsRemove({ name, ...given({ agent: opts.nonEmpty('agent') }), dryRun: opts.flag('dryRun') }, ctx),
    }),

    command({
      name: 'update',
      arguments: '<name>',
      summary: 'fetch a skill again from the source "skills add" recorded; the installed one is backed up first',
      options: [
        option('--agent <name>', "update this agent's skill instead of the team's"),
        option('-y, --yes', 'update even when the audit finds something new to review (without a terminal it is refused otherwise)'),
        dryRunOption('would change'),
      ],
      writes: 'squad',
      load: () => import('../commands/skills-update.js'),
      run: ({ skillsUpdate }, { args: [name], opts, ctx }) =>
        skillsUpdate({ name, ...given({ agent: opts.nonEmpty('agent') }), yes: opts.flag('yes'), dryRun: opts.flag('dryRun') }, ctx, confirmOnTerminal),
    }),

    command({
      name: 'audit',
      arguments: '[names...]',
      summary: 'what installed skills hold that a reviewer should see: scripts and what they run, hidden text, blobs, declared servers and tools',
      writes: false,
      help: `
Every finding names its file and line. Rules and severities: docs/skills.md, "The audit"; no
network. Exit code 1 when a finding is high or medium (what skills add asks consent for), 0 otherwise.`,
      load: () => import('../commands/skills-audit.js'),
      run: ({ skillsAudit }, { args: [names], ctx }) => skillsAudit({ names }, ctx),
    }),

    command({
      name: 'check',
      arguments: '[names...]',
      summary: 'whether each skill in skills-lock.json is unchanged, modified here, has an update at its source, or lost its source',
      writes: false,
      help: `
A name is a skill's name, or <member>/<name> for a member's own skill; default: every skill the lock
records. Installed files are hashed as the lock hashes them (the files that differ are named); a
folder source is hashed too (offline), a git source asked with "git ls-remote" for the commit its
ref names now (offline for file://). Exit code 0 when every skill is unchanged, 1 otherwise.`,
      load: () => import('../commands/skills-check.js'),
      run: ({ skillsCheck }, { args: [names], ctx }) => skillsCheck({ names }, ctx),
    }),
  ]),

  command({
    name: 'teach',
    arguments: '[agent] [instruction]',
    summary: 'teach an agent (or --team) a standing rule, or a procedure as a skill',
    options: [
      option('--team', 'teach the whole team (give only the instruction)'),
      option('--rule', "a standing rule, whatever the wording: into the member's charter (--team: .ai-team/rules.md)"),
      option('--skill', 'a procedure for some tasks, whatever the wording: a user-taught skill'),
      option('--name <slug>', 'skill name (implies --skill; default: derived from the instruction)'),
      dryRunOption('would be written'),
    ],
    writes: 'squad',
    help: `
A standing rule ("always use tabs", "never commit to main", "use pnpm for installs", "prefer X",
"avoid Y") holds in every task: it is added to the member's charter under "## Standing rules" (with
--team, to .ai-team/rules.md), which every spawn sees; teaching it again changes nothing. A
procedure (steps, a how-to, "when you release, …") becomes a skill members open when a task matches.`,
    load: () => import('../commands/teach.js'),
    run: ({ teach }, { args: [agent, instruction], opts, ctx }) =>
      teach(
        {
          args: [agent, instruction].filter((word): word is string => word !== undefined),
          team: opts.flag('team'),
          rule: opts.flag('rule'),
          skill: opts.flag('skill'),
          ...given({ name: opts.text('name') }),
          dryRun: opts.flag('dryRun'),
        },
        ctx,
      ),
  }),

  command({
    name: 'prompt',
    arguments: '<agent>',
    summary: 'render the spawn prompt for an agent and a task',
    options: [
      option('--task <text>', 'the task ("-" reads it from stdin)'),
      option('--task-file <path>', 'read the task from this file (no shell quoting needed)'),
      option('--mode <mode>', 'spawn mode', { choices: SPAWN_MODES, default: DEFAULT_SPAWN_MODE }),
      option('--skill <name...>', 'skills to inline in lightweight mode'),
      option('--skills-budget <tokens>', `standard mode: tokens the skill list may take (default ${DEFAULT_SKILLS_BUDGET}); the most relevant skills are listed`),
      option('--all-skills', 'standard mode: list every skill, whatever the budget'),
    ],
    writes: false,
    load: () => import('../commands/prompt.js'),
    run: ({ prompt }, { args: [agent], opts, ctx }) =>
      prompt(
        {
          agent,
          task: opts.text('task'),
          taskFile: opts.text('taskFile'),
          mode: opts.text('mode') as SpawnMode | undefined, // one of SPAWN_MODES: commander checks the choices
          skills: opts.list('skill') ?? [],
          skillsBudget: opts.text('skillsBudget'),
          allSkills: opts.flag('allSkills'),
        },
        ctx,
      ),
  }),

  command({
    name: 'route',
    arguments: '[task]',
    summary: 'suggest which agent, mode and skills fit a task ("-" reads it from stdin)',
    options: [
      option('--task-file <path>', 'read the task from this file (no shell quoting needed)'),
      option('--label <label...>', "the issue's labels: squad:{member} routes to that member"),
    ],
    writes: false,
    load: () => import('../commands/route.js'),
    run: ({ route }, { args: [task], opts, ctx }) => route({ task, taskFile: opts.text('taskFile'), labels: opts.list('label') ?? [] }, ctx),
  }),

  command({
    name: 'upgrade',
    summary: 'refresh the files create-squad owns; never touches what the team learned',
    options: [dryRunOption('would change'), option('--from-state-branch', 'bring the histories and decisions squad-cli keeps on its squad-state branch into .ai-team/')],
    writes: 'squad',
    load: () => import('../commands/upgrade.js'),
    run: ({ upgrade }, { opts, ctx }) => upgrade({ dryRun: opts.flag('dryRun'), fromStateBranch: opts.flag('fromStateBranch') }, ctx),
  }),

  command({
    name: 'export',
    summary: 'write the squad to a portable .squad file',
    options: [
      option('--out <file>', 'output file (default: squad-export.squad; squad-export.json with --format squad-cli)'),
      option('--format <format>', 'squad (a .squad file, the default) or squad-cli (what squad-cli\'s "squad import" reads)'),
      option('--no-history', 'leave agent histories out'),
      option('--keep-private', 'do not redact e-mail addresses and credentials in histories'),
      option('--force', 'overwrite an existing output file'),
      dryRunOption('would be exported'),
    ],
    writes: 'file',
    load: () => import('../commands/export.js'),
    run: ({ exportCommand }, { opts, ctx }) =>
      exportCommand(
        {
          ...given({ out: opts.text('out'), format: opts.text('format') }),
          history: opts.unlessNegated('history'),
          keepPrivate: opts.flag('keepPrivate'),
          force: opts.flag('force'),
          dryRun: opts.flag('dryRun'),
        },
        ctx,
      ),
  }),

  command({
    name: 'import',
    arguments: '<file>',
    summary: 'rebuild a squad from a .squad file',
    options: [option('--force', 'replace an existing squad (it is archived, never deleted)'), dryRunOption('would be imported')],
    writes: 'squad',
    load: () => import('../commands/import.js'),
    run: ({ importCommand }, { args: [file], opts, ctx }) => importCommand({ file, force: opts.flag('force'), dryRun: opts.flag('dryRun') }, ctx),
  }),

  command({
    name: 'context',
    arguments: '[member]',
    summary: "measure each member's spawn context (charter, rules, skills, history, decisions) against its model's window",
    writes: false,
    help: `
Figures are the spawn prompt's own token estimates (about four characters per token) plus the files
the prompt has the member read (history.md, decisions.md). Windows, thresholds and how to change
them: docs/budgets.md, "Context windows".`,
    load: () => import('../commands/context-gauge.js'),
    run: ({ contextGauge }, { args: [member], ctx }) => contextGauge(given({ member }), ctx),
  }),

  command({
    name: 'compact',
    arguments: '[member]',
    summary: 'move older history entries and decisions into archive files beside them, byte for byte; merge the decisions inbox',
    options: [
      option('--decisions', 'only decisions.md (and the inbox merge), no history'),
      option('--keep <n>', 'entries kept in each history section and in decisions.md (default 20)'),
      dryRunOption('would move'),
    ],
    writes: 'squad',
    load: () => import('../commands/compact.js'),
    run: ({ compact }, { args: [member], opts, ctx }) =>
      compact({ ...given({ member, keep: opts.text('keep') }), decisions: opts.flag('decisions'), dryRun: opts.flag('dryRun') }, ctx),
  }),

  command({
    name: 'doctor',
    summary: "check the squad's health and say how to fix each finding",
    writes: false,
    load: () => import('../commands/doctor.js'),
    run: ({ doctor }, { ctx }) => doctor(ctx),
  }),

  command({
    name: 'hook',
    arguments: '<event>',
    summary: 'answer a Copilot hook: the host sends the event on stdin, reads the answer on stdout',
    // No choices here: a bad value must fail open like every other problem, not stop the host with a usage error.
    options: [option('--guard <mode>', `what the coordinator's file changes outside .ai-team/ get: ${GUARD_MODES.join(', ')} (default ${DEFAULT_GUARD})`)],
    writes: false,
    help: `
Run by a Copilot host from .github/hooks/squad.json, not by hand. preToolUse (VS Code: PreToolUse):
when the session runs the Squad coordinator, a member it starts with the task tool gets its spawn
prompt (charter, standing rules, skills, MCP needs) around the coordinator's words, and a file change
outside .ai-team/ is denied (--guard deny), put to the user (ask) or let through (warn) with the
reason to delegate. Members and other sessions are never limited. It fails open: on any problem it
answers {} and says why on stderr.`,
    load: () => import('../commands/hook.js'),
    run: ({ hook }, { args: [event], opts, ctx }) => hook({ event, guard: opts.text('guard') }, ctx),
  }),

  command({
    name: 'mcp',
    summary: "serve the squad's skills, prompts and routing to Copilot as an MCP server (stdio)",
    // Its tools that write (teach) take the squad lock themselves, waiting as commands/mcp/context.ts says.
    writes: false,
    json: false,
    help: `
Started by an MCP client (VS Code, the Copilot CLI, the cloud agent), not by hand: it reads
JSON-RPC on stdin and writes only JSON-RPC on stdout until stdin closes. Tools: list_skills,
read_skill, build_spawn_prompt, route, teach, validate_skill, test_skill, run_skill_script
(scripts run only when .ai-team/skills-allowlist.json allows them). Registering it:
docs/commands.md.`,
    load: () => import('../commands/mcp.js'),
    run: ({ mcp }, { ctx }) => mcp(ctx),
  }),
];

/**
 * Filled while the program runs: commander's output hook leaves a usage error here so `main` can
 * print it in its own format, and the command that ran leaves its exit code.
 */
export interface UsageErrorSink {
  message?: string;
  command?: string;
  exitCode?: 0 | 1;
}

export function buildProgram(version: string, ui: Ui, sink: UsageErrorSink, io: Io): Command {
  const program = new Command(PROGRAM_NAME);

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

  configure(program)
    .description(PROGRAM_SUMMARY)
    .version(version, '-v, --version', 'print the version (-V too)')
    .helpOption('-h, --help', 'show help')
    .helpCommand(false)
    .showSuggestionAfterError(true)
    .addHelpText('after', PROGRAM_HELP);

  registerCommands(COMMAND_TABLE, {
    program,
    io,
    configure,
    // The runner loads, like the command itself, only when a command runs.
    execute: async (parsed: ParsedOptions, run) => {
      sink.exitCode = await (await import('./run.js')).execute(parsed, io, ui, run);
    },
  });
  return program;
}

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let current: Command | null = cmd; current; current = current.parent) names.unshift(current.name());
  return names.join(' ');
}
