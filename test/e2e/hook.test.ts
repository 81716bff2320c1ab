/**
 * `create-squad hook preToolUse`, run as a Copilot host runs it: the event's JSON on stdin, the
 * answer on stdout. The session's agent comes from its transcript, where the Copilot CLI keeps it
 * (`~/.copilot/session-state/<session>/events.jsonl`); here the test writes one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, runCli, tempDir, tempRepo } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

const SESSION = '0f3c8d2e-5b1a-4c9e-9d7f-2a6b8c4e1f00';

/** A HOME whose Copilot profile has a transcript of SESSION, running `agent` (none: plain Copilot). */
function home(agent?: string): string {
  const dir = tempDir('home-');
  const folder = path.join(dir, '.copilot', 'session-state', SESSION);
  fs.mkdirSync(folder, { recursive: true });
  const events = [
    { type: 'session.start', data: { sessionId: SESSION } },
    ...(agent === undefined ? [] : [{ type: 'subagent.selected', data: { agentName: agent, agentDisplayName: agent } }]),
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
});
