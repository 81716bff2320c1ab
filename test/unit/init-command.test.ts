import fs from 'node:fs';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { CommandContext } from '../../src/commands/context.js';
import { init, type InitAnswers, type InitOptions, type InitQuestions } from '../../src/commands/init.js';
import { groupPaths } from '../../src/commands/format.js';
import { customRolesProblem } from '../../src/cli/init-questions.js';
import { SquadError } from '../../src/core/base/errors.js';
import { squadPaths } from '../../src/core/base/paths.js';
import { readRoster } from '../../src/core/roster/roster.js';
import { cleanupTempDirs, hashTree, tempDir, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

function context(cwd: string, interactive: boolean): CommandContext {
  return { cwd, startDir: cwd, invocationDir: cwd, json: false, interactive, env: {}, home: cwd, readStdin: async () => '' };
}

const defaults: InitOptions = { team: true, dryRun: false };

/** For runs that are not interactive: init never asks. */
const askNothing = async () => {
  throw new Error('init asked a question in a non-interactive run');
};

/** An `ask` that records the questions and answers with `answers`. */
function scripted(answers: Partial<InitAnswers>) {
  const calls: InitQuestions[] = [];
  const ask = async (questions: InitQuestions) => {
    calls.push(questions);
    return answers;
  };
  return { ask, calls };
}

describe('init (interactive, with injected answers)', () => {
  it('asks every question on a new repository and uses the answers', async () => {
    const root = tempDir();
    writeFiles(root, { 'package.json': JSON.stringify({ description: 'A todo app' }) });
    const { ask, calls } = scripted({ project: 'A todo app', stack: 'Svelte', owner: 'Ada', roles: ['Lead', 'Frontend Dev', 'Release Manager'], universe: 'Alien' });
    const result = await init(defaults, context(root, true), ask);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.ask).toEqual({ project: true, stack: true, owner: true, roles: true, universe: true });
    expect(calls[0]!.defaults).toMatchObject({ project: 'A todo app', roles: ['Lead', 'Core Dev', 'Tester'], universe: 'The Usual Suspects' });
    expect(calls[0]!.universes).toContain('The Usual Suspects');
    expect(calls[0]!.presets.map((p) => p.title)).toContain('Tester');
    expect(result.data.universe).toBe('Alien');
    expect(result.data.members.map((m) => `${m.name}:${m.role}`)).toEqual(['Ripley:Lead', 'Dallas:Frontend Dev', 'Kane:Release Manager', 'Scribe:Session Logger']);
    expect(readRoster(root).map((m) => m.displayName)).toEqual(['Ripley', 'Dallas', 'Kane', 'Scribe']);
    const team = fs.readFileSync(`${root}/${squadPaths.team}`, 'utf8');
    expect(team).toContain('- **Stack:** Svelte');
    expect(team).toContain('- **Owner:** Ada');
  });

  it('does not ask what a flag already answers', async () => {
    const root = tempDir();
    const { ask, calls } = scripted({ stack: 'Go' });
    await init({ ...defaults, project: 'CLI', owner: 'Ada', roles: 'Lead', universe: 'Firefly' }, context(root, true), ask);
    expect(calls[0]!.ask).toEqual({ project: false, stack: true, owner: false, roles: false, universe: false });
    expect(readRoster(root).map((m) => m.displayName)).toEqual(['Mal', 'Scribe']);
  });

  it('asks nothing when the squad is complete, or when not interactive', async () => {
    const root = tempDir();
    const first = scripted({});
    await init(defaults, context(root, false), first.ask);
    expect(first.calls).toHaveLength(0);
    const second = scripted({});
    const result = await init(defaults, context(root, true), second.ask);
    expect(second.calls).toHaveLength(0);
    expect(result.data.created).toEqual([]);
  });

  it('asks neither roles nor universe when the roster exists', async () => {
    const root = tempDir();
    await init(defaults, context(root, false), askNothing);
    fs.rmSync(`${root}/${squadPaths.routing}`);
    const { ask, calls } = scripted({});
    const result = await init(defaults, context(root, true), ask);
    expect(calls).toHaveLength(0);
    expect(result.data.created).toEqual([squadPaths.routing]);
  });

  it('writes nothing when the questions are cancelled', async () => {
    const root = tempDir();
    const target = `${root}/new-repo`;
    const cancel = async (): Promise<Partial<InitAnswers>> => {
      throw new SquadError('aborted', 'init cancelled; nothing was written');
    };
    await expect(init({ ...defaults, dir: 'new-repo' }, context(root, true), cancel)).rejects.toMatchObject({ code: 'aborted' });
    expect(fs.existsSync(target)).toBe(false);
    const before = hashTree(root);
    await expect(init(defaults, context(root, true), cancel)).rejects.toMatchObject({ code: 'aborted' });
    expect(hashTree(root)).toBe(before);
  });

  it('rejects an answer that makes the team invalid, writing nothing', async () => {
    const root = tempDir();
    const { ask } = scripted({ roles: [] });
    await expect(init(defaults, context(root, true), ask)).rejects.toMatchObject({ code: 'usage' });
    expect(fs.readdirSync(root)).toEqual([]);
  });
});

describe('the custom roles question', () => {
  it('checks the whole role list as init will, so a bad answer is asked again', () => {
    expect(customRolesProblem(['Lead'], '')).toBe(true);
    expect(customRolesProblem([], 'Release Manager, Designer')).toBe(true);
    expect(customRolesProblem([], ' , ')).toBe('Pick at least one role above, or name one here');
    expect(customRolesProblem(['Lead'], 'scribe')).toBe('Scribe is not a role to cast: every squad has one already — leave Scribe out of the roles');
    expect(customRolesProblem(['Lead'], 'x'.repeat(61))).toMatch(/^the role "x{20}…" is 61 characters; the limit is 60/);
  });
});

describe('groupPaths', () => {
  it('folds member folders, skills and casting into one line each, and names every other file', () => {
    expect(
      groupPaths([
        '.ai-team/agents/keaton/charter.md',
        '.ai-team/agents/keaton/history.md',
        '.ai-team/skills/squad-x/SKILL.md',
        '.ai-team/skills/squad-x/references/a.md',
        '.ai-team/casting/policy.json',
        '.ai-team-templates/team.md',
        '.ai-team-templates/routing.md',
        '.ai-team/team.md',
      ]),
    ).toEqual([
      { label: '.ai-team-templates/routing.md', count: 1 },
      { label: '.ai-team-templates/team.md', count: 1 },
      { label: '.ai-team/agents/keaton/', count: 2 },
      { label: '.ai-team/casting/', count: 1 },
      { label: '.ai-team/skills/squad-x/', count: 2 },
      { label: '.ai-team/team.md', count: 1 },
    ]);
  });
});

describe('init on a read-only target', () => {
  afterEach(() => vi.restoreAllMocks());
  const readOnly = () =>
    vi.spyOn(fs, 'accessSync').mockImplementation(() => {
      throw Object.assign(new Error('EROFS: read-only file system'), { code: 'EROFS' });
    });

  it('still runs a dry run and a re-run with nothing to do; refuses real writes, naming the read-only disk', async () => {
    const complete = tempDir();
    await init(defaults, context(complete, false), askNothing);
    const empty = tempDir();
    readOnly();
    const before = hashTree(complete);
    expect((await init(defaults, context(complete, false), askNothing)).data.created).toEqual([]);
    expect((await init({ ...defaults, dryRun: true }, context(empty, false), askNothing)).data.created.length).toBeGreaterThan(20);
    expect(hashTree(complete)).toBe(before);
    const error = await init(defaults, context(empty, false), askNothing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SquadError);
    expect((error as SquadError).message).toMatch(/^cannot write to .*: the file system is read-only$/);
    expect(fs.readdirSync(empty)).toEqual([]);
  });
});
