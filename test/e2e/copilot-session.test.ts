/**
 * Whole Copilot CLI sessions in a squad, against a scripted stand-in model (test/helpers/copilot-session.ts):
 * what the coordinator can do and what a member it spawns is given, shown by the requests each agent
 * sends. Run by scripts/host-check.mjs, which installs the CLI; skipped, saying so, without it.
 *
 * With the squad's hooks (`.github/hooks/squad.json`, written by init), the coordinator's own file
 * change is denied and a member started with a bare prompt still gets its charter; without them the
 * same sessions show the failures the original Squad's users report.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOOKS_FILE_PATH } from '../../src/core/base/hook-events.js';
import { PACKAGE_ROOT } from '../../src/core/base/paths.js';
import { cleanupTempDirs, runCli, tempRepo } from '../helpers/cli.js';
import { COPILOT_CLI, runSession, squadAgentOf, textOf, type ModelRequest, type SessionScript } from '../helpers/copilot-session.js';

afterAll(cleanupTempDirs);

const CHARTER_MARK = 'Fenster keeps every endpoint paginated by cursor';
const SOURCE = 'export const health = () => "ok";\n';

/** A fresh squad whose repository installs this create-squad (linked, as npm would): the one the hooks file starts. */
async function squad(options: { hooks: boolean }): Promise<string> {
  const root = tempRepo();
  expect((await runCli(['init', '--yes'], { cwd: root })).code).toBe(0);
  // A phrase only Fenster's charter holds: a request that carries it carries the charter.
  fs.appendFileSync(path.join(root, '.ai-team/agents/fenster/charter.md'), `\n## House rule\n\n${CHARTER_MARK}.\n`);
  fs.mkdirSync(path.join(root, 'src'));
  fs.mkdirSync(path.join(root, 'node_modules', '.bin'), { recursive: true });
  fs.symlinkSync(PACKAGE_ROOT, path.join(root, 'node_modules', 'create-squad'));
  fs.symlinkSync(path.join('..', 'create-squad', 'bin', 'create-squad.cjs'), path.join(root, 'node_modules', '.bin', 'create-squad'));
  if (!options.hooks) fs.rmSync(path.join(root, HOOKS_FILE_PATH));
  return root;
}

const everything = (request: ModelRequest) => [request.system, ...request.messages.map(textOf)].join('\n');
const toolResults = (request: ModelRequest) => request.messages.filter((m) => m.role === 'tool').map(textOf);

/** The coordinator writes src/health.ts itself, then starts Fenster with a one-line prompt; Fenster writes the file. */
function delegationScript(root: string): SessionScript {
  const target = path.join(root, 'src', 'health.ts');
  return {
    agentOf: squadAgentOf(['fenster']),
    steps: {
      root: [
        { tool: 'create', args: { path: target, file_text: '// the coordinator wrote this\n' } },
        { tool: 'task', args: { description: 'Health endpoint', name: 'fenster', agent_type: 'fenster', prompt: 'Add a health endpoint.' } },
        { text: 'Done.' },
      ],
      fenster: [{ tool: 'create', args: { path: target, file_text: SOURCE } }, { text: 'Added it.' }],
    },
  };
}

describe.skipIf(!COPILOT_CLI)('real Copilot CLI sessions in a squad', () => {
  it("with the squad's hooks: the coordinator's own change is denied, Fenster starts with his charter and writes the file", async () => {
    const root = await squad({ hooks: true });
    const session = await runSession({ repo: root, agent: 'squad', prompt: 'Add a health endpoint', script: delegationScript(root), env: { npm_config_offline: 'true' } });
    expect(session.code, session.stderr).toBe(0);
    const coordinator = session.requests.filter((r) => r.agent === 'root');
    const denial = toolResults(coordinator[1]!).join('\n');
    expect(denial).toContain('The Squad coordinator delegates: a change to src/health.ts is a member');
    expect(denial).toContain('create-squad route');
    const member = session.requests.find((r) => r.agent === 'fenster');
    expect(member, `agents seen: ${session.requests.map((r) => r.agent).join(', ')}`).toBeDefined();
    expect(everything(member!)).toContain(CHARTER_MARK);
    expect(everything(member!)).toContain('YOUR CHARTER (.ai-team/agents/fenster/charter.md)');
    expect(everything(member!)).toContain('Add a health endpoint.');
    // The member is not limited: its create went through.
    expect(fs.readFileSync(path.join(root, 'src', 'health.ts'), 'utf8')).toBe(SOURCE);
  }, 180_000);

  it('without them: the coordinator writes source files itself, and Fenster starts without his charter', async () => {
    const root = await squad({ hooks: false });
    const session = await runSession({ repo: root, agent: 'squad', prompt: 'Add a health endpoint', script: delegationScript(root), env: { npm_config_offline: 'true' } });
    expect(session.code, session.stderr).toBe(0);
    const coordinator = session.requests.filter((r) => r.agent === 'root');
    expect(coordinator[0]?.tools).toEqual(expect.arrayContaining(['task', 'create']));
    expect(toolResults(coordinator[1]!).join('\n')).not.toContain('delegates');
    const member = session.requests.find((r) => r.agent === 'fenster');
    expect(member, `agents seen: ${session.requests.map((r) => r.agent).join(', ')}`).toBeDefined();
    expect(member!.system).toContain('.ai-team/agents/fenster/charter.md');
    expect(everything(member!)).not.toContain(CHARTER_MARK);
  }, 180_000);

  it('with the hooks, a plain Copilot session (no --agent) is never limited', async () => {
    const root = await squad({ hooks: true });
    const target = path.join(root, 'src', 'plain.ts');
    const session = await runSession({
      repo: root,
      prompt: 'Add a file',
      script: { agentOf: () => 'root', steps: { root: [{ tool: 'create', args: { path: target, file_text: SOURCE } }, { text: 'Done.' }] } },
      env: { npm_config_offline: 'true' },
    });
    expect(session.code, session.stderr).toBe(0);
    expect(fs.readFileSync(target, 'utf8')).toBe(SOURCE);
  }, 180_000);

  it("a member's recorded model and effort reach its spawn through the hook; a model the coordinator names is kept", async () => {
    const run = async (hooks: boolean) => {
      const root = await squad({ hooks });
      expect((await runCli(['model', 'fenster', 'member-first', 'member-fallback', '--effort', 'high'], { cwd: root })).code).toBe(0);
      const spawn = { description: 'Review', name: 'fenster', agent_type: 'fenster', prompt: 'Review the parser.' };
      const script: SessionScript = {
        agentOf: squadAgentOf(['fenster']),
        // Two spawns: one naming no model (the coordinator forgot), one naming its own pick.
        steps: { root: [{ tool: 'task', args: spawn }, { tool: 'task', args: { ...spawn, model: 'coordinator-pick' } }, { text: 'Done.' }], fenster: [{ text: 'Reviewed.' }] },
      };
      const session = await runSession({ repo: root, agent: 'squad', prompt: 'Review the parser', script, env: { npm_config_offline: 'true' } });
      expect(session.code, session.stderr).toBe(0);
      const members = session.requests.filter((r) => r.agent === 'fenster');
      return members.map((r) => ({ model: r.model, effort: r.reasoningEffort, charter: everything(r).includes('YOUR CHARTER (.ai-team/agents/fenster/charter.md)') }));
    };
    // With the hook: the first choice of the member's list and its effort; the coordinator's own pick wins, the effort still added.
    // The second spawn is completed too: the hook still knows the session runs the coordinator after a member ran.
    expect(await run(true)).toEqual([
      { model: 'member-first', effort: 'high', charter: true },
      { model: 'coordinator-pick', effort: 'high', charter: true },
    ]);
    // Without it the CLI still starts Fenster on his agent's `model` (its first), but the effort never reaches him.
    expect(await run(false)).toEqual([
      { model: 'member-first', effort: undefined, charter: false },
      { model: 'coordinator-pick', effort: undefined, charter: false },
    ]);
  }, 240_000);
});
