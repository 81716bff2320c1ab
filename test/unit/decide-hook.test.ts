/** What `hook preToolUse` decides, from the payload and the squad, with the file system switched off. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decidePreToolUse, hookAnswer, hostOf, spawnModelArgs, spawnPromptMarker, toolUseOf, type HookFacts } from '../../src/core/hooks/decide-hook.js';
import { hookEventOf } from '../../src/core/base/hook-events.js';
import { withoutFileSystem } from '../helpers/no-fs.js';

const ROOT = path.resolve('/repo');
const facts = (over: Partial<HookFacts> = {}): HookFacts => ({
  root: ROOT,
  members: new Set(['fenster', 'scribe']),
  coordinatorActive: true,
  guard: 'deny',
  models: new Map(),
  ...over,
});
const decide = (payload: Record<string, unknown>, over: Partial<HookFacts> = {}) => withoutFileSystem(() => decidePreToolUse(toolUseOf(payload)!, facts(over)));
const create = (file: string, extra: Record<string, unknown> = {}) => ({ sessionId: 's', cwd: ROOT, toolName: 'create', toolArgs: { path: file, file_text: 'x' }, ...extra });

describe('the coordinator guard', () => {
  it('denies a file change outside .ai-team/, naming the file and what to do instead', () => {
    const decision = decide(create(path.join(ROOT, 'src', 'health.ts')));
    expect(decision).toEqual({ kind: 'guard', mode: 'deny', reason: expect.stringContaining("a change to src/health.ts is a member's work") });
    expect(decision.kind === 'guard' && decision.reason).toContain('create-squad route');
    expect(hookAnswer(decision, 'copilot-cli')).toEqual({ permissionDecision: 'deny', permissionDecisionReason: expect.any(String) });
  });

  it('lets the coordinator write its own state, and a relative path is read from the payload cwd', () => {
    expect(decide(create(path.join(ROOT, '.ai-team', 'decisions', 'inbox', 'a.md')))).toEqual({ kind: 'pass' });
    expect(decide(create('.ai-team/log/session.md'))).toEqual({ kind: 'pass' });
    expect(decide(create('.ai-team-not/x.md')).kind).toBe('guard');
    expect(decide(create(path.join(ROOT, '.ai-team', '..', 'src', 'x.ts'))).kind).toBe('guard');
  });

  it('never limits a member, another session, or a tool that changes no file', () => {
    expect(decide(create(path.join(ROOT, 'src', 'x.ts'), { agentType: 'fenster' }))).toEqual({ kind: 'pass' });
    expect(decide(create(path.join(ROOT, 'src', 'x.ts')), { coordinatorActive: false })).toEqual({ kind: 'pass' });
    expect(decide({ cwd: ROOT, toolName: 'view', toolArgs: { path: path.join(ROOT, 'src') } })).toEqual({ kind: 'pass' });
    expect(decide({ cwd: ROOT, toolName: 'bash', toolArgs: { command: 'npx create-squad route "x"' } })).toEqual({ kind: 'pass' });
  });

  it('asks or warns when the guard says so, and answers VS Code in its shape', () => {
    const ask = decide(create(path.join(ROOT, 'src', 'x.ts')), { guard: 'ask' });
    expect(hookAnswer(ask, 'copilot-cli')).toMatchObject({ permissionDecision: 'ask' });
    const warn = decide(create(path.join(ROOT, 'src', 'x.ts')), { guard: 'warn' });
    expect(hookAnswer(warn, 'copilot-cli')).toMatchObject({ permissionDecision: 'allow', permissionDecisionReason: expect.stringContaining('delegates') });
    const vscode = withoutFileSystem(() => decidePreToolUse(toolUseOf({ cwd: ROOT, tool_name: 'createFile', tool_input: { filePath: path.join(ROOT, 'src', 'x.ts') } })!, facts()));
    expect(hookAnswer(vscode, 'vscode')).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: expect.any(String) } });
  });
});

describe("a member's spawn", () => {
  const task = (args: Record<string, unknown>) => ({ cwd: ROOT, toolName: 'task', toolArgs: { description: 'Health endpoint', name: 'fenster', ...args } });

  it('is completed with its spawn prompt when the coordinator sent only its own words', () => {
    const decision = decide(task({ agent_type: 'fenster', prompt: 'Add a health endpoint.' }));
    expect(decision).toEqual({ kind: 'complete-spawn', member: 'fenster', task: 'Add a health endpoint.', set: {}, args: expect.objectContaining({ agent_type: 'fenster' }) });
    expect(hookAnswer(decision, 'copilot-cli', 'THE PROMPT')).toEqual({
      permissionDecision: 'allow',
      modifiedArgs: { description: 'Health endpoint', name: 'fenster', agent_type: 'fenster', prompt: 'THE PROMPT' },
    });
  });

  it('is left as it is when it already carries the spawn prompt, starts no member, or the session is not the coordinator', () => {
    expect(decide(task({ agent_type: 'fenster', prompt: `${spawnPromptMarker('fenster')}:\n…` }))).toEqual({ kind: 'pass' });
    expect(decide(task({ agent_type: 'general-purpose', prompt: 'x' }))).toEqual({ kind: 'pass' });
    expect(decide(task({ agent_type: 'fenster', prompt: 'x' }), { coordinatorActive: false })).toEqual({ kind: 'pass' });
  });

  it('takes the description as the task when the prompt is empty', () => {
    expect(decide(task({ agent_type: 'fenster', prompt: '' }))).toMatchObject({ kind: 'complete-spawn', task: 'Health endpoint' });
  });
});

describe("a member's model on its spawn", () => {
  const task = (args: Record<string, unknown>) => ({ cwd: ROOT, toolName: 'task', toolArgs: { description: 'Review', name: 'fenster', agent_type: 'fenster', ...args } });
  const onModel = { models: new Map([['fenster', { models: ['model-first', 'model-fallback'], effort: 'high' as const }]]) };
  const complete = `${spawnPromptMarker('fenster')}:\n…`;

  it("a call that names no model gets the first of the member's list and its effort, beside the completed prompt", () => {
    const decision = decide(task({ prompt: 'Review the parser.' }), onModel);
    expect(decision).toMatchObject({ kind: 'complete-spawn', task: 'Review the parser.', set: { model: 'model-first', reasoning_effort: 'high' } });
    expect(hookAnswer(decision, 'copilot-cli', 'THE PROMPT')).toEqual({
      permissionDecision: 'allow',
      modifiedArgs: { description: 'Review', name: 'fenster', agent_type: 'fenster', prompt: 'THE PROMPT', model: 'model-first', reasoning_effort: 'high' },
    });
  });

  it('a call that already carries the spawn prompt gains only the model: its prompt is left as it is', () => {
    const decision = decide(task({ prompt: complete }), onModel);
    expect(decision).toMatchObject({ kind: 'complete-spawn', task: undefined });
    expect(hookAnswer(decision, 'copilot-cli')).toEqual({
      permissionDecision: 'allow',
      modifiedArgs: { description: 'Review', name: 'fenster', agent_type: 'fenster', prompt: complete, model: 'model-first', reasoning_effort: 'high' },
    });
  });

  it('a model or effort the call chose is kept, each on its own; an empty one counts as none', () => {
    expect(decide(task({ prompt: complete, model: 'chosen', reasoning_effort: 'low' }), onModel)).toEqual({ kind: 'pass' });
    expect(decide(task({ prompt: complete, model: 'chosen' }), onModel)).toMatchObject({ set: { reasoning_effort: 'high' } });
    expect(decide(task({ prompt: complete, reasoning_effort: 'low' }), onModel)).toMatchObject({ set: { model: 'model-first' } });
    expect(decide(task({ prompt: complete, model: '  ' }), onModel)).toMatchObject({ set: { model: 'model-first', reasoning_effort: 'high' } });
  });

  it("a member on the session's model, a member with an effort only, and a call outside the coordinator", () => {
    expect(decide(task({ prompt: complete }))).toEqual({ kind: 'pass' });
    expect(decide(task({ prompt: complete }), { models: new Map([['fenster', { models: [], effort: 'low' as const }]]) })).toMatchObject({ set: { reasoning_effort: 'low' } });
    expect(decide(task({ prompt: 'x' }), { ...onModel, coordinatorActive: false })).toEqual({ kind: 'pass' });
    expect(spawnModelArgs({ model: 7 }, { models: ['m'] })).toEqual({ model: 'm' });
  });
});

describe('payloads', () => {
  it('reads arguments sent as a JSON string, and tells VS Code by its snake_case fields', () => {
    expect(decide({ cwd: ROOT, toolName: 'create', toolArgs: JSON.stringify({ path: path.join(ROOT, 'src', 'x.ts') }) }).kind).toBe('guard');
    expect(hostOf({ tool_name: 'createFile' }, 'copilot-cli')).toBe('vscode');
    expect(hostOf({ toolName: 'create' }, 'copilot-cli')).toBe('copilot-cli');
  });
});

describe('the events', () => {
  it('are named as each host names them', () => {
    expect(hookEventOf('preToolUse')).toEqual({ event: 'preToolUse', host: 'copilot-cli' });
    expect(hookEventOf('PreToolUse')).toEqual({ event: 'preToolUse', host: 'vscode' });
    expect(hookEventOf('pretooluse')).toBeUndefined();
  });
});
