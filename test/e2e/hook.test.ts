/**
 * `create-squad hook preToolUse`, run as a Copilot host runs it: the event's JSON on stdin, the
 * answer on stdout. The session's agent comes from its transcript, where the Copilot CLI keeps it
 * (`~/.copilot/session-state/<session>/events.jsonl`); here the test writes one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOOKS_INSTALL_FIX, HOOKS_NOT_INSTALLED } from '../../src/core/base/hook-events.js';
import { cleanupTempDirs, runCli, tempDir, tempRepo } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

const SESSION = '0f3c8d2e-5b1a-4c9e-9d7f-2a6b8c4e1f00';

/** A HOME whose Copilot profile has a transcript of SESSION, running `agent` (none: plain Copilot), then `later` events. */
function home(agent?: string, later: { type: string; data: Record<string, unknown> }[] = []): string {
  const dir = tempDir('home-');
  const folder = path.join(dir, '.copilot', 'session-state', SESSION);
  fs.mkdirSync(folder, { recursive: true });
  const events = [
    { type: 'session.start', data: { sessionId: SESSION } },
    ...(agent === undefined ? [] : [{ type: 'subagent.selected', data: { agentName: agent, agentDisplayName: agent } }]),
    ...later,
  ];
  fs.writeFileSync(path.join(folder, 'events.jsonl'), `${events.map((e) => JSON.stringify(e)).join('\n')}\n`);
  return dir;
}

async function squad(): Promise<string> {
  const root = tempRepo();
  expect((await runCli(['init', '--yes'], { cwd: root })).code).toBe(0);
  fs.appendFileSync(path.join(root, '.ai-team/agents/fenster/charter.md'), '\nFenster keeps every endpoint paginated by cursor.\n');
  return root;
}

async function hook(root: string, payload: unknown, env: Record<string, string>, args: string[] = []) {
  const input = typeof payload === 'string' ? payload : JSON.stringify({ sessionId: SESSION, timestamp: 1, cwd: root, ...(payload as object) });
  const run = await runCli(['hook', 'preToolUse', ...args], { cwd: root, env, input });
  expect(run.code, run.stderr).toBe(0);
  return { answer: JSON.parse(run.stdout) as Record<string, unknown>, stderr: run.stderr };
}

describe('hook preToolUse', () => {
  it('in a coordinator session: a source change is denied with what to do; its own state is not', async () => {
    const root = await squad();
    const env = { HOME: home('Squad') };
    const denied = await hook(root, { toolName: 'create', toolArgs: { path: path.join(root, 'src', 'app.ts'), file_text: 'x' } }, env);
    expect(denied.answer).toEqual({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('create-squad route') });
    const own = await hook(root, { toolName: 'edit', toolArgs: { path: path.join(root, '.ai-team', 'decisions.md') } }, env);
    expect(own.answer).toEqual({});
    const asked = await hook(root, { toolName: 'create', toolArgs: { path: path.join(root, 'README.md') } }, env, ['--guard', 'ask']);
    expect(asked.answer).toMatchObject({ permissionDecision: 'ask' });
  });

  it('in a coordinator session: a member started with a bare prompt gets its whole spawn prompt, the task kept', async () => {
    const root = await squad();
    const { answer } = await hook(
      root,
      { toolName: 'task', toolArgs: { description: 'Health endpoint', name: 'fenster', agent_type: 'fenster', prompt: 'Add a health endpoint.' } },
      { HOME: home('Squad') },
    );
    const args = answer.modifiedArgs as Record<string, string>;
    expect(answer.permissionDecision).toBe('allow');
    expect(args).toMatchObject({ agent_type: 'fenster', name: 'fenster', description: 'Health endpoint' });
    expect(args.prompt).toContain('YOUR CHARTER (.ai-team/agents/fenster/charter.md)');
    expect(args.prompt).toContain('Fenster keeps every endpoint paginated by cursor.');
    expect(args.prompt).toContain('Add a health endpoint.');
  });

  it("in a coordinator session: a member's recorded model goes to its spawn when the call names none; a model the call names is kept", async () => {
    const root = await squad();
    expect((await runCli(['model', 'fenster', 'model-first', 'model-fallback', '--effort', 'high'], { cwd: root })).code).toBe(0);
    expect((await runCli(['model', '--default', 'squad-wide'], { cwd: root })).code).toBe(0);
    const env = { HOME: home('Squad') };
    const spawn = (member: string, extra: Record<string, unknown> = {}) => ({
      toolName: 'task',
      toolArgs: { description: 'Review', name: member, agent_type: member, prompt: 'Review the parser.', ...extra },
    });
    const bare = (await hook(root, spawn('fenster'), env)).answer.modifiedArgs as Record<string, string>;
    expect(bare).toMatchObject({ model: 'model-first', reasoning_effort: 'high' });
    expect(bare.prompt).toContain('YOUR CHARTER (.ai-team/agents/fenster/charter.md)');
    // A prompt create-squad already made is left as it is: the call gains only the model.
    const { stdout: made } = await runCli(['prompt', 'fenster', '--task', 'Review the parser.'], { cwd: root, env });
    const complete = (await hook(root, spawn('fenster', { prompt: made }), env)).answer;
    expect(complete.modifiedArgs).toEqual({ ...spawn('fenster', { prompt: made }).toolArgs, model: 'model-first', reasoning_effort: 'high' });
    const chosen = (await hook(root, spawn('fenster', { model: 'the-users-pick' }), env)).answer.modifiedArgs as Record<string, string>;
    expect(chosen).toMatchObject({ model: 'the-users-pick', reasoning_effort: 'high' });
    // A member without a model of its own runs on the squad's default (the one rule of roster/models.ts).
    expect((await hook(root, spawn('hockney'), env)).answer.modifiedArgs).toMatchObject({ model: 'squad-wide' });
    expect((await hook(root, spawn('hockney', { prompt: made.replaceAll('fenster', 'hockney'), model: 'x' }), env)).answer).toEqual({});
  });

  it('after the coordinator spawned a member, the session is still the coordinator: the transcript selects the member only while it runs', async () => {
    const root = await squad();
    // As the Copilot CLI 1.0.102 records a spawn (measured): started, the member selected, completed; no deselection.
    const spawned = (call: string) => [
      { type: 'subagent.started', data: { toolCallId: call, agentName: 'fenster' } },
      { type: 'subagent.selected', data: { agentName: 'fenster', agentDisplayName: 'fenster' } },
      { type: 'subagent.completed', data: { toolCallId: call, agentName: 'fenster' } },
    ];
    const change = { toolName: 'create', toolArgs: { path: path.join(root, 'src', 'app.ts') } };
    expect((await hook(root, change, { HOME: home('Squad', [...spawned('call_1'), ...spawned('call_2')]) })).answer).toMatchObject({ permissionDecision: 'deny' });
    // A member that is still running when the transcript ends (a background spawn) does not place the session either.
    const running = spawned('call_3').slice(0, 2);
    expect((await hook(root, change, { HOME: home('Squad', running) })).answer).toMatchObject({ permissionDecision: 'deny' });
    // The user switching agents is still read: a later selection outside any spawn.
    expect((await hook(root, change, { HOME: home('Squad', [...spawned('call_4'), { type: 'subagent.selected', data: { agentName: 'Plan' } }]) })).answer).toEqual({});
  });

  it('in any other session, or for a member, nothing is limited', async () => {
    const root = await squad();
    const change = { toolName: 'create', toolArgs: { path: path.join(root, 'src', 'app.ts') } };
    expect((await hook(root, change, { HOME: home() })).answer).toEqual({});
    expect((await hook(root, change, { HOME: home('Plan') })).answer).toEqual({});
    expect((await hook(root, { ...change, agentType: 'fenster', agentId: 'a1' }, { HOME: home('Squad') })).answer).toEqual({});
    // COPILOT_HOME moves the profile, and with it the transcript.
    const moved = tempDir('copilot-home-');
    fs.cpSync(path.join(home('Squad'), '.copilot'), moved, { recursive: true });
    expect((await hook(root, change, { HOME: tempDir(), COPILOT_HOME: moved })).answer).toMatchObject({ permissionDecision: 'deny' });
  });

  it('fails open: a payload it cannot read, an unknown event, a bad guard, no squad — {} and the reason on stderr', async () => {
    const root = await squad();
    const env = { HOME: home('Squad') };
    const garbled = await hook(root, '{not json', env);
    expect(garbled.answer).toEqual({});
    expect(garbled.stderr).toContain('the hook payload on stdin is not JSON; answered {} so the session goes on as without the hook');
    const unknown = await runCli(['hook', 'postToolUse'], { cwd: root, env, input: '{}' });
    expect([unknown.code, JSON.parse(unknown.stdout)]).toEqual([0, {}]);
    expect(unknown.stderr).toContain('"postToolUse" is not an event create-squad answers');
    const guard = await hook(root, { toolName: 'create', toolArgs: { path: path.join(root, 'x') } }, env, ['--guard', 'loud']);
    expect(guard.answer).toEqual({});
    const empty = tempRepo();
    expect((await hook(empty, { toolName: 'create', toolArgs: { path: path.join(empty, 'x') } }, env)).answer).toEqual({});
  });

  it('the hooks file: init writes it, doctor reports one edited or broken, upgrade backs it up and restores it', async () => {
    const root = await squad();
    const file = path.join(root, '.github', 'hooks', 'squad.json');
    const written = JSON.parse(fs.readFileSync(file, 'utf8')) as { version: number; hooks: Record<string, { bash: string; powershell: string }[]> };
    expect(written.version).toBe(1);
    // Only the repository's own install, started directly: a host runs hooks unattended, so they never download; always exit 0.
    expect(written.hooks.preToolUse?.[0]?.bash).toBe('if [ -x node_modules/.bin/create-squad ]; then node_modules/.bin/create-squad hook preToolUse; fi || true');
    expect(JSON.stringify(written)).not.toContain('npx');
    expect(written.hooks.preToolUse?.[0]?.powershell).toMatch(/; exit 0$/);
    const findings = async () =>
      (await runCli(['doctor', '--json'], { cwd: root })).data<{ findings: { code: string; severity: string }[] }>().findings.filter((f) => f.code.startsWith('hooks-'));
    expect(await findings()).toEqual([]);
    fs.writeFileSync(file, '{"version": 1, "hooks": {}}\n');
    expect(await findings()).toEqual([expect.objectContaining({ code: 'hooks-edited', severity: 'warning' })]);
    fs.writeFileSync(file, '{ not json');
    expect(await findings()).toEqual([expect.objectContaining({ code: 'hooks-invalid', severity: 'error' })]);
    const upgrade = await runCli(['upgrade'], { cwd: root });
    expect(upgrade.stdout).toMatch(/backed up \.github\/hooks\/squad\.json → \.ai-team\/backups\/.+\/\.github\/hooks\/squad\.json/);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(written);
    expect(await findings()).toEqual([]);
  });

  it('without create-squad installed the hooks do nothing: init says so in one line, doctor reports it in a Node project', async () => {
    const note = `  Note: ${HOOKS_NOT_INSTALLED}; ${HOOKS_INSTALL_FIX}.\n`;
    const bare = tempRepo();
    const made = await runCli(['init', '--yes'], { cwd: bare });
    expect(made.stdout.endsWith(note), made.stdout).toBe(true);
    expect(made.stdout.split(HOOKS_NOT_INSTALLED)).toHaveLength(2);
    const hookFindings = async (root: string) =>
      (await runCli(['doctor', '--json'], { cwd: root }))
        .data<{ findings: { code: string; severity: string; fix: string }[] }>()
        .findings.filter((f) => f.code.startsWith('hooks-'));
    // Outside a Node project doctor leaves it to init's line.
    expect(await hookFindings(bare)).toEqual([]);
    fs.writeFileSync(path.join(bare, 'package.json'), '{"name": "shop", "devDependencies": {"vitest": "^4.0.0"}}\n');
    expect(await hookFindings(bare)).toEqual([
      { severity: 'warning', code: 'hooks-not-installed', message: HOOKS_NOT_INSTALLED, fix: HOOKS_INSTALL_FIX, path: '.github/hooks/squad.json' },
    ]);
    // Listed in package.json: `npm install` links it, so neither init nor doctor says anything.
    fs.writeFileSync(path.join(bare, 'package.json'), '{"name": "shop", "devDependencies": {"create-squad": "file:vendor/create-squad.tgz"}}\n');
    expect(await hookFindings(bare)).toEqual([]);
    const declared = tempRepo();
    fs.copyFileSync(path.join(bare, 'package.json'), path.join(declared, 'package.json'));
    expect((await runCli(['init', '--yes'], { cwd: declared })).stdout).not.toContain(HOOKS_NOT_INSTALLED);
    // Installed (the executable npm links) without a package.json entry, as `npm link create-squad` leaves it.
    const linked = tempRepo();
    fs.mkdirSync(path.join(linked, 'node_modules', '.bin'), { recursive: true });
    fs.writeFileSync(path.join(linked, 'node_modules', '.bin', 'create-squad'), '#!/bin/sh\n', { mode: 0o755 });
    fs.writeFileSync(path.join(linked, 'package.json'), '{"name": "shop"}\n');
    expect((await runCli(['init', '--yes'], { cwd: linked })).stdout).not.toContain(HOOKS_NOT_INSTALLED);
    expect(await hookFindings(linked)).toEqual([]);
    // A dry run writes no hooks file: nothing to say.
    expect((await runCli(['init', '--yes', '--dry-run'], { cwd: tempRepo() })).stdout).not.toContain(HOOKS_NOT_INSTALLED);
  });
});
