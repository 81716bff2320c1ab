/**
 * What a hook reads of the squad and of the host's session: the members, the model of the member a
 * `task` call starts, and whether the session runs the squad's coordinator. The Copilot CLI's hook payloads do not say which custom agent the
 * session runs; its transcript does (`subagent.selected`, written before the first hook runs).
 */
import path from 'node:path';
import { COORDINATOR_PATH } from '../base/paths.js';
import { readTextIfExists } from '../fs/fs-safe.js';
import { readStateHead } from '../fs/confined.js';
import { listAgents } from '../roster/roster.js';
import { DEFAULT_GUARD, SPAWN_TOOL, type GuardMode } from '../base/hook-events.js';
import { readModelSources, resolveModel, type ModelChoice } from '../roster/models.js';
import { toolUseOf, type HookFacts } from './decide-hook.js';

/** How much of a session transcript a hook reads: its agent is chosen near the start, and again on each switch. */
const TRANSCRIPT_MAX_BYTES = 32 * 1024 * 1024;
/** A session id is a UUID: anything else never becomes part of a path. */
const SESSION_ID = /^[A-Za-z0-9-]{8,64}$/;

export function readHookFacts(root: string, payload: Record<string, unknown>, env: NodeJS.ProcessEnv, home: string, guard: GuardMode = DEFAULT_GUARD): HookFacts {
  const members = new Set(
    listAgents(root)
      .filter((agent) => agent.hasFolder && !agent.human)
      .map((agent) => agent.name),
  );
  return { root, members, coordinatorActive: sessionRunsCoordinator(root, payload, env, home), guard, models: spawnedModels(root, payload, members) };
}

/** The model of the member a `task` call starts (only that one's sources are read): empty for any other call. */
function spawnedModels(root: string, payload: Record<string, unknown>, members: ReadonlySet<string>): Map<string, ModelChoice> {
  const use = toolUseOf(payload);
  const member = use?.tool === SPAWN_TOOL ? use.args.agent_type : undefined;
  if (typeof member !== 'string' || !members.has(member)) return new Map();
  const { models, effort } = resolveModel(member, readModelSources(root, [member]));
  return new Map([[member, { models, ...(effort === undefined ? {} : { effort }) }]]);
}

/** The name the coordinator's agent file gives it (its frontmatter `name`), as the host reports it. */
function coordinatorName(root: string): string | undefined {
  const head = readStateHead(root, COORDINATOR_PATH, 4096);
  const name = head?.match(/^---\r?\n(?:.*\r?\n)*?name:\s*["']?([^"'\r\n]+?)["']?\s*\r?\n/)?.[1];
  return name ?? (head === undefined ? undefined : path.basename(COORDINATOR_PATH, '.agent.md'));
}

/**
 * Whether the session's own agent is the coordinator: the last agent its transcript records as
 * selected while no spawned subagent runs. No transcript (another host, a moved profile) means no:
 * a hook never limits a session it cannot place.
 */
export function sessionRunsCoordinator(root: string, payload: Record<string, unknown>, env: NodeJS.ProcessEnv, home: string): boolean {
  const coordinator = coordinatorName(root);
  if (coordinator === undefined) return false;
  const transcript = transcriptPath(payload, env, home);
  const text = transcript === undefined ? undefined : readTextIfExists(transcript, TRANSCRIPT_MAX_BYTES);
  if (text === undefined) return false;
  let selected: string | undefined;
  // A spawned member is selected too, between its `subagent.started` and `subagent.completed` (measured):
  // a selection while one runs is that member's, not the session's own agent.
  const running = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.includes('"subagent.')) continue;
    try {
      const event = JSON.parse(line) as { type?: string; data?: { agentName?: unknown; toolCallId?: unknown } };
      const call = typeof event.data?.toolCallId === 'string' ? event.data.toolCallId : undefined;
      if (event.type === 'subagent.started' && call !== undefined) running.add(call);
      else if (call !== undefined) running.delete(call);
      else if (running.size > 0) continue;
      else if (event.type === 'subagent.selected' && typeof event.data?.agentName === 'string') selected = event.data.agentName;
      else if (event.type === 'subagent.deselected') selected = undefined;
    } catch {
      // A line cut short while the host writes it: the ones before it still say who runs.
    }
  }
  const wanted = [coordinator, path.basename(COORDINATOR_PATH, '.agent.md')].map((name) => name.toLowerCase());
  return selected !== undefined && wanted.includes(selected.toLowerCase());
}

/** The session's transcript: given by some events, else where the Copilot CLI keeps it (`$COPILOT_HOME`, or `~/.copilot`). */
function transcriptPath(payload: Record<string, unknown>, env: NodeJS.ProcessEnv, home: string): string | undefined {
  const given = payload.transcriptPath ?? payload.transcript_path;
  if (typeof given === 'string' && path.isAbsolute(given)) return given;
  const session = payload.sessionId ?? payload.session_id;
  if (typeof session !== 'string' || !SESSION_ID.test(session)) return undefined;
  const copilotHome = env.COPILOT_HOME ?? path.join(home, '.copilot');
  return path.join(copilotHome, 'session-state', session, 'events.jsonl');
}
