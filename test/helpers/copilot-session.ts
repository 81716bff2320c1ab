/**
 * Real Copilot CLI sessions, offline: the CLI (CREATE_SQUAD_COPILOT_CLI, installed into a temporary
 * folder by scripts/host-check.mjs, never a dependency) runs a whole prompt-mode session against a
 * stand-in model on 127.0.0.1 that answers from a script, and every request it receives is kept:
 * what each agent (the root session, each subagent) was given — its system prompt, messages, tools.
 *
 * The stand-in is bounded: loopback only, a request and body cap, and it closes by itself after a
 * time limit. A session gets a clean HOME that trusts the repository; the CLI's unpacked runtime is
 * cached once per test run (XDG_CACHE_HOME), which halves each session's start.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { tempDir } from './cli.js';

export const COPILOT_CLI = process.env.CREATE_SQUAD_COPILOT_CLI;

/** One message of a chat-completions request, as the CLI sends it. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content?: string | { type: string; text?: string }[] | null;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** A model request the stand-in received, parsed. */
export interface ModelRequest {
  /** Who asked, as the script's `agentOf` named it. */
  agent: string;
  system: string;
  messages: ChatMessage[];
  tools: string[];
  /** The model the CLI asked for (the session's, or the one its agent or spawn chose) and the effort, when it sent one. */
  model: string;
  reasoningEffort?: string;
}

/** What the scripted model answers: text, or one tool call (then the CLI runs it and asks again). */
export type Step = { text: string } | { tool: string; args: Record<string, unknown> };

export interface SessionScript {
  /** The steps of each agent, in order; an agent whose steps ran out says "Done." */
  steps: Record<string, Step[]>;
  /** Which agent a request comes from (a key of `steps`), from what it carries. */
  agentOf(request: Omit<ModelRequest, 'agent'>): string;
}

/** Limits that keep a stand-in from outliving or outgrowing its test. */
const STAND_IN = { maxRequests: 200, maxBodyBytes: 16 * 1024 * 1024, lifetimeMs: 180_000 };

export function textOf(message: ChatMessage): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => part.text ?? '').join('');
}

interface StandIn {
  baseUrl: string;
  requests: ModelRequest[];
  close(): Promise<void>;
}

/** A scripted OpenAI-compatible model on 127.0.0.1 (streamed chat completions). */
export async function startStandIn(script: SessionScript): Promise<StandIn> {
  const requests: ModelRequest[] = [];
  const taken = new Map<string, number>();
  let calls = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= STAND_IN.maxBodyBytes) chunks.push(chunk);
    });
    req.on('end', () => {
      if (!req.url?.endsWith('/chat/completions')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'stand-in', object: 'model' }] }));
        return;
      }
      if (size > STAND_IN.maxBodyBytes || requests.length >= STAND_IN.maxRequests) {
        res.writeHead(413).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        model: string;
        reasoning_effort?: string;
        messages: ChatMessage[];
        tools?: { function: { name: string } }[];
      };
      const parsed = {
        system: body.messages[0]?.role === 'system' ? textOf(body.messages[0]) : '',
        messages: body.messages,
        tools: (body.tools ?? []).map((t) => t.function.name),
        model: body.model,
        ...(body.reasoning_effort === undefined ? {} : { reasoningEffort: body.reasoning_effort }),
      };
      const agent = script.agentOf(parsed);
      requests.push({ agent, ...parsed });
      const index = taken.get(agent) ?? 0;
      taken.set(agent, index + 1);
      const step = script.steps[agent]?.[index] ?? { text: 'Done.' };
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const chunk = (delta: Record<string, unknown>, finish: string | null) =>
        res.write(
          `data: ${JSON.stringify({ id: `stand-in-${++calls}`, object: 'chat.completion.chunk', created: 0, model: 'stand-in', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
        );
      if ('tool' in step) {
        chunk(
          { role: 'assistant', tool_calls: [{ index: 0, id: `call_${calls + 1}`, type: 'function', function: { name: step.tool, arguments: JSON.stringify(step.args) } }] },
          null,
        );
        chunk({}, 'tool_calls');
      } else {
        chunk({ role: 'assistant', content: step.text }, null);
        chunk({}, 'stop');
      }
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const timer = setTimeout(() => server.close(), STAND_IN.lifetimeMs);
  timer.unref();
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let sharedCache: string | undefined;

export interface SessionResult {
  code: number | null;
  stdout: string;
  stderr: string;
  requests: ModelRequest[];
}

/**
 * `copilot -p <prompt> --allow-all-tools [--agent <agent>]` in `repo` against the stand-in playing
 * `script`: a clean HOME that trusts `repo`, no GitHub servers, a time limit.
 */
export async function runSession(options: {
  repo: string;
  prompt: string;
  agent?: string;
  script: SessionScript;
  timeoutMs?: number;
  /** More environment for the CLI and the hooks it runs. */
  env?: Record<string, string>;
}): Promise<SessionResult> {
  const cli = COPILOT_CLI;
  if (cli === undefined) throw new Error('CREATE_SQUAD_COPILOT_CLI is not set: skip the test instead');
  const home = tempDir('copilot-home-');
  fs.mkdirSync(path.join(home, '.copilot'));
  fs.writeFileSync(path.join(home, '.copilot', 'config.json'), JSON.stringify({ trustedFolders: [options.repo] }));
  sharedCache ??= tempDir('copilot-cache-');
  const standIn = await startStandIn(options.script);
  try {
    const args = ['-p', options.prompt, '--allow-all-tools', ...(options.agent === undefined ? [] : ['--agent', options.agent])];
    const child = spawn(cli, args, {
      cwd: options.repo,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        XDG_CACHE_HOME: sharedCache,
        COPILOT_PROVIDER_BASE_URL: standIn.baseUrl,
        COPILOT_MODEL: 'stand-in',
        COPILOT_OFFLINE: 'true',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString('utf8')));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 90_000);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    return { code, stdout, stderr, requests: standIn.requests };
  } finally {
    await standIn.close();
  }
}

/** `agentOf` for a squad: a member's requests carry its charter's path in their system prompt. */
export function squadAgentOf(members: readonly string[]): SessionScript['agentOf'] {
  return ({ system }) => members.find((folder) => system.includes(`.ai-team/agents/${folder}/charter.md`)) ?? 'root';
}
