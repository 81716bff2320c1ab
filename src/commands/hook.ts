/**
 * `create-squad hook <event> [--guard deny|ask|warn]`: answers a Copilot hook. The host runs it with
 * the event's JSON on stdin and reads the answer on stdout. It fails open: whatever goes wrong (no
 * squad, a payload it does not know, a read that fails), it answers `{}` — the host goes on as if
 * there were no hook — and says why on stderr, which the host logs. A broken squad never stops a
 * session.
 */
import { SquadError, usageError } from '../core/base/errors.js';
import type { Warning } from '../core/base/warnings.js';
import { decidePreToolUse, hookAnswer, hostOf, mayConcernCoordinator, toolUseOf } from '../core/hooks/decide-hook.js';
import { DEFAULT_GUARD, GUARD_MODES, hookEventOf, type GuardMode } from '../core/base/hook-events.js';
import { readHookFacts } from '../core/hooks/hook-state.js';
import { buildSpawnPrompt } from '../core/prompt/spawn-prompt.js';
import type { CommandContext, CommandResult } from './context.js';

export interface HookOptions {
  event: string;
  guard?: string;
}

export async function hook(options: HookOptions, ctx: CommandContext): Promise<CommandResult<Record<string, unknown>>> {
  if (ctx.interactive)
    throw usageError(
      'hook reads the JSON a Copilot host sends on stdin',
      'Copilot runs it from .github/hooks/squad.json; to try it, pipe a payload: echo \'{"toolName":"create","toolArgs":{}}\' | create-squad hook preToolUse',
    );
  let answer: Record<string, unknown> = {};
  const warnings: Warning[] = [];
  try {
    answer = await answerHook(options, ctx);
  } catch (error) {
    const reason = error instanceof SquadError ? `${error.message}${error.hint ? ` (${error.hint})` : ''}` : error instanceof Error ? error.message : String(error);
    warnings.push({ code: 'hook-failed-open', message: `create-squad hook ${options.event}: ${reason}; answered {} so the session goes on as without the hook` });
    answer = {};
  }
  return {
    data: answer,
    exitCode: 0,
    warnings,
    render(ui) {
      ui.out(JSON.stringify(answer));
    },
  };
}

async function answerHook(options: HookOptions, ctx: CommandContext): Promise<Record<string, unknown>> {
  const named = hookEventOf(options.event);
  if (named === undefined)
    throw new SquadError('invalid-input', `"${options.event}" is not an event create-squad answers`, { hint: 'run "create-squad upgrade" to rewrite .github/hooks/squad.json' });
  const guard = guardMode(options.guard);
  const text = await ctx.readStdin();
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    throw new SquadError('invalid-input', 'the hook payload on stdin is not JSON');
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new SquadError('invalid-input', 'the hook payload is not a JSON object');
  const use = toolUseOf(payload as Record<string, unknown>);
  // Most calls (every member's, every read) concern no one: answered without reading the squad or the transcript.
  if (use === undefined || !mayConcernCoordinator(use)) return {};
  const host = hostOf(payload as Record<string, unknown>, named.host);
  const decision = decidePreToolUse(use, readHookFacts(ctx.cwd, payload as Record<string, unknown>, ctx.env, ctx.home, guard));
  if (decision.kind !== 'complete-spawn' || decision.task === undefined) return hookAnswer(decision, host);
  const spawn = await buildSpawnPrompt({ root: ctx.cwd, agent: decision.member, task: decision.task, home: ctx.home, env: ctx.env });
  return hookAnswer(decision, host, spawn.prompt);
}

function guardMode(given: string | undefined): GuardMode {
  if (given === undefined) return DEFAULT_GUARD;
  if ((GUARD_MODES as readonly string[]).includes(given)) return given as GuardMode;
  throw new SquadError('invalid-input', `--guard ${given} is not one of ${GUARD_MODES.join(', ')}`);
}
