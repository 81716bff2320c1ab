/**
 * A squad over several days: init → hire → teach → skills add (a folder of several, a git URL) →
 * retire → rehire → a role change → a context change → skills update and remove → upgrade →
 * export → import, checking roster, routing, charters and skills at each step.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { agentDir, alumniDir, charterPath, squadPaths } from '../../src/core/base/paths.js';
import { parseRoster } from '../../src/core/roster/roster.js';
import { parseProjectContext } from '../../src/core/scaffold/scaffold.js';
import { cleanupTempDirs, runCli, runOk, tempDir, tempRepo, validSkill, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

const run = runOk;

function git(cwd: string, ...args: string[]): void {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
}

const roster = (root: string) => parseRoster(read(root, squadPaths.team)).map((m) => `${m.displayName}:${m.role}`);
/** Route To and Role of each routing row. */
const routing = (root: string) =>
  read(root, squadPaths.routing)
    .split('\n')
    .filter((line) => /^\| (?!-|Work Type)/.test(line))
    .map((line) =>
      line
        .split('|')
        .slice(2, 4)
        .map((cell) => cell.trim())
        .join(':'),
    );
async function skills(root: string, agent?: string): Promise<string[]> {
  const data = (await run(root, ['skills', 'list', '--json', ...(agent ? ['--agent', agent] : [])])).data<{ skills: { name: string; scope: string }[] }>();
  return data.skills.filter((s) => s.scope !== 'builtin').map((s) => `${s.scope}:${s.name}`);
}

describe('a squad over several days', () => {
  it('keeps roster, routing, charters and skills right through every day-two command', async () => {
    const root = tempRepo();

    // Day one.
    await run(root, ['init', '--yes', '--project', 'A shop', '--stack', 'Node.js, Express', '--owner', 'Ada']);
    await run(root, ['hire', 'devops']);
    await run(root, ['teach', 'fenster', 'Always use Tailwind CSS for styling', '--skill']);
    await run(root, ['teach', 'fenster', 'Use tabs for indentation']);
    await run(root, ['teach', '--team', 'Never commit to main']);
    expect(read(root, charterPath('fenster'))).toContain('## Standing rules');
    expect(roster(root)).toEqual(['Keaton:Lead', 'Fenster:Core Dev', 'Hockney:Tester', 'McManus:DevOps', 'Scribe:Session Logger']);
    expect(routing(root)).toEqual(['Keaton:Lead', 'Fenster:Core Dev', 'Hockney:Tester', 'McManus:DevOps', 'Scribe:Session Logger']);

    // Skills from a shared folder and from a git repository.
    const shared = path.join(tempDir('squad-shared-'), 'skills');
    writeFiles(shared, { 'api-style/SKILL.md': validSkill('api-style'), 'sql-style/SKILL.md': validSkill('sql-style'), 'changelog/SKILL.md': validSkill('changelog') });
    await run(root, ['skills', 'add', shared, '--all']);
    const repo = tempDir('squad-git-');
    git(repo, 'init', '-q', '-b', 'main');
    writeFiles(repo, { 'skills/deploys/SKILL.md': validSkill('deploys'), 'skills/deploys/scripts/check.sh': '#!/bin/sh\n' });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'deploys');
    await run(root, ['skills', 'add', pathToFileURL(repo).href, '--agent', 'mcmanus']);
    expect(await skills(root, 'mcmanus')).toEqual(['team:api-style', 'team:changelog', 'team:sql-style', 'agent:deploys']);
    expect(await skills(root, 'fenster')).toContain('agent:tailwind-css-styling');

    // Day two: McManus retires, with what they learned.
    fs.appendFileSync(path.join(root, agentDir('mcmanus'), 'history.md'), '\n- Staging deploys first.\n');
    await run(root, ['retire', 'mcmanus']);
    expect(roster(root)).toEqual(['Keaton:Lead', 'Fenster:Core Dev', 'Hockney:Tester', 'Scribe:Session Logger']);
    expect(routing(root)).toEqual(['Keaton:Lead', 'Fenster:Core Dev', 'Hockney:Tester', 'Scribe:Session Logger']);
    expect(read(root, `${alumniDir('mcmanus')}/history.md`)).toContain('Staging deploys first.');
    expect(fs.existsSync(path.join(root, alumniDir('mcmanus'), 'skills/deploys/SKILL.md'))).toBe(true);
    expect(await skills(root)).not.toContain('agent:deploys');
    expect((await runCli(['prompt', 'mcmanus', '--task', 'deploy'], { cwd: root })).code).toBe(1);

    // … and comes back, as they were.
    await run(root, ['rehire', 'mcmanus']);
    expect(roster(root)).toEqual(['Keaton:Lead', 'Fenster:Core Dev', 'Hockney:Tester', 'McManus:DevOps', 'Scribe:Session Logger']);
    expect(routing(root)).toEqual(['Keaton:Lead', 'Fenster:Core Dev', 'Hockney:Tester', 'McManus:DevOps', 'Scribe:Session Logger']);
    expect(await skills(root, 'mcmanus')).toContain('agent:deploys');

    // Fenster moves to the frontend; the project moves to Python.
    await run(root, ['role', 'fenster', 'Frontend', 'Dev']);
    expect(roster(root)).toContain('Fenster:Frontend Dev');
    expect(routing(root)).toContain('Fenster:Frontend Dev');
    await run(root, ['init', '--stack', 'Python, FastAPI']);
    expect(parseProjectContext(read(root, squadPaths.team))).toEqual({ project: 'A shop', stack: 'Python, FastAPI', owner: 'Ada' });
    for (const member of ['keaton', 'fenster', 'hockney', 'mcmanus']) expect(read(root, charterPath(member))).toContain('- **Stack:** Python, FastAPI\n');
    expect(read(root, charterPath('fenster'))).toContain('# Fenster — Frontend Dev\n');
    expect(read(root, charterPath('fenster'))).toContain('- Use tabs for indentation.\n');

    // Skills change at their source; one is no longer wanted.
    writeFiles(shared, { 'api-style/SKILL.md': validSkill('api-style', 'Use when designing HTTP APIs (v2).') });
    await run(root, ['skills', 'update', 'api-style']);
    expect(read(root, '.github/skills/api-style/SKILL.md')).toContain('(v2)');
    await run(root, ['skills', 'remove', 'sql-style']);
    expect((await skills(root)).filter((s) => s.startsWith('team:'))).toEqual(['team:api-style', 'team:changelog']);

    // A new version of create-squad changes nothing the team made.
    await run(root, ['upgrade']);
    expect(roster(root)).toContain('Fenster:Frontend Dev');
    expect(read(root, charterPath('keaton'))).toContain('- **Stack:** Python, FastAPI\n');
    const doctor = (await runCli(['doctor', '--json'], { cwd: root })).data<{ findings: { severity: string }[] }>();
    expect(doctor.findings.filter((f) => f.severity === 'error')).toEqual([]);

    // The squad moves to another repository.
    const file = path.join(tempDir(), 'team.squad');
    await run(root, ['export', '--out', file]);
    const target = tempRepo();
    await run(target, ['import', file]);
    expect(roster(target)).toEqual(roster(root));
    expect(routing(target)).toEqual(routing(root));
    expect(read(target, charterPath('fenster'))).toBe(read(root, charterPath('fenster')));
    expect(read(target, squadPaths.rules)).toBe(read(root, squadPaths.rules));
    const prompt = (await run(target, ['prompt', 'fenster', '--task', 'style the cart'])).stdout;
    expect(prompt).toContain('- Never commit to main.');
    expect(prompt).toContain('- Use tabs for indentation.');
    expect(await skills(target, 'mcmanus')).toEqual(await skills(root, 'mcmanus'));
    expect(await skills(target, 'fenster')).toEqual(await skills(root, 'fenster'));
  });
});
