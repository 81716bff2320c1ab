/** The project context: changed on an existing squad by init's flags, read from manifests for a new one. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { InitData } from '../../src/commands/init.js';
import { charterPath, historyPath, squadPaths } from '../../src/core/base/paths.js';
import { parseProjectContext } from '../../src/core/scaffold/scaffold.js';
import { packageVersion } from '../../src/core/fs/version.js';
import { cleanupTempDirs, hashTree, initSquad, listFiles, runCli, runOk, tempDir, tempRepo, writeFiles } from '../helpers/cli.js';
import { debrisLeft } from '../helpers/debris.js';
import { matrixWrites } from '../helpers/kill-matrix.js';

afterAll(cleanupTempDirs);

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');
const BACKUPS = `${squadPaths.backups}/`;

const run = runOk;

async function squad(): Promise<string> {
  return initSquad(['--yes', '--project', 'A shop', '--stack', 'Node.js, Express', '--owner', 'Ada']);
}

function state(root: string): Record<string, string> {
  return Object.fromEntries(
    listFiles(root)
      .filter((rel) => !rel.startsWith(BACKUPS))
      .map((rel) => [rel, read(root, rel)]),
  );
}

describe('init --project/--stack/--owner on an existing squad', () => {
  it("changes team.md's context and the charters that say the same, after a backup of team.md", async () => {
    const root = await squad();
    const team = read(root, squadPaths.team);
    const histories = ['keaton', 'fenster', 'hockney'].map((m) => read(root, historyPath(m)));
    // A charter tailored by hand keeps its line.
    writeFiles(root, { [charterPath('hockney')]: read(root, charterPath('hockney')).replace('- **Stack:** Node.js, Express', '- **Stack:** Node.js, Express, Playwright') });

    const result = await run(root, ['init', '--stack', 'Python, FastAPI', '--owner', 'Grace', '--json']);
    const data = result.data<InitData>();
    expect(data.created).toEqual([]);
    expect(data.context).toMatchObject({
      changed: [
        { field: 'stack', from: 'Node.js, Express', to: 'Python, FastAPI' },
        { field: 'owner', from: 'Ada', to: 'Grace' },
      ],
      updated: [charterPath('keaton'), charterPath('fenster'), charterPath('hockney'), squadPaths.team],
    });
    expect(data.notes).toEqual([`${charterPath('hockney')}: its "Stack" line was changed by hand; it was left as it is`]);
    expect(read(root, data.context!.backup!)).toBe(team);
    expect(parseProjectContext(read(root, squadPaths.team))).toEqual({ project: 'A shop', stack: 'Python, FastAPI', owner: 'Grace' });
    expect(read(root, squadPaths.team)).toBe(team.replace('- **Stack:** Node.js, Express', '- **Stack:** Python, FastAPI').replace('- **Owner:** Ada', '- **Owner:** Grace'));
    expect(read(root, charterPath('keaton'))).toContain('- **Stack:** Python, FastAPI\n- **Works for:** Grace\n');
    expect(read(root, charterPath('hockney'))).toContain('- **Stack:** Node.js, Express, Playwright\n- **Works for:** Grace\n');
    expect(['keaton', 'fenster', 'hockney'].map((m) => read(root, historyPath(m)))).toEqual(histories);
    // A member hired now gets the new context.
    await run(root, ['hire', 'Designer']);
    expect(read(root, charterPath('mcmanus'))).toContain('- **Stack:** Python, FastAPI\n');

    const text = await run(root, ['init', '--project', 'A bakery', '--dry-run']);
    expect(text.stdout).toMatch(/^✓ Would update the project context in .+\n {2}Project: "A shop" → "A bakery"\n/);
    expect(text.stdout).toContain('Dry run: nothing was written.');
    const before = hashTree(root);
    const same = await run(root, ['init', '--stack', 'Python, FastAPI']);
    expect(same.stdout).toMatch(/^✓ Nothing to do: the squad is already complete/);
    expect(hashTree(root)).toBe(before);
  });

  it('clears a field with an empty value', async () => {
    const root = await squad();
    await run(root, ['init', '--owner', '']);
    expect(read(root, squadPaths.team)).toContain('- **Owner:** _not specified yet_\n');
    expect(read(root, charterPath('fenster'))).toContain('- **Works for:** _not specified yet_\n');
  });

  it('ends with the new context after a kill after any write', async () => {
    const base = await squad();
    const reference = tempDir('squad-copy-');
    fs.cpSync(base, reference, { recursive: true });
    await run(reference, ['init', '--project', 'A bakery']);
    const total = 5; // team.md's backup, three charters, team.md
    // A sample of the writes in `npm test`, every one with CREATE_SQUAD_MATRIX=full.
    for (const k of matrixWrites(total - 1, (last) => [1, Math.ceil(last / 2), last])) {
      const root = tempDir('squad-copy-');
      fs.cpSync(base, root, { recursive: true });
      expect((await runCli(['init', '--project', 'A bakery'], { cwd: root, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(k) } })).code, `k=${k}`).toBe(-1);
      const again = await runCli(['init', '--project', 'A bakery'], { cwd: root });
      expect(again.code, `k=${k}: ${again.stderr}`).toBe(0);
      expect(state(root), `k=${k}`).toEqual(state(reference));
      expect(
        listFiles(root).filter((rel) => rel.startsWith(BACKUPS)),
        `k=${k}`,
      ).toHaveLength(1);
      expect(debrisLeft(root), `k=${k}`).toEqual([]);
    }
    expect((await runCli(['init', '--project', 'A bakery'], { cwd: base, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(total + 1) } })).code).toBe(0);
  });
});

describe('init reads the stack of a new squad from the repository', () => {
  const cases: [Record<string, string>, string, string][] = [
    [{ 'package.json': JSON.stringify({ dependencies: { react: '19', next: '15' }, devDependencies: { typescript: '5' } }) }, 'TypeScript, Node.js, Next.js', 'package.json'],
    [{ 'package.json': '{"dependencies":{"express":"5"}}' }, 'JavaScript, Node.js, Express', 'package.json'],
    [{ 'pyproject.toml': '[project]\nname = "x"\ndependencies = ["fastapi>=0.1"]\n' }, 'Python, FastAPI', 'pyproject.toml'],
    [{ 'go.mod': 'module example.com/x\n\ngo 1.22\n' }, 'Go', 'go.mod'],
    [{ 'Cargo.toml': '[package]\nname = "x"\n' }, 'Rust', 'Cargo.toml'],
    [{ Gemfile: "gem 'rails', '~> 7'\n" }, 'Ruby, Rails', 'Gemfile'],
    [{ 'app.csproj': '<Project />\n' }, 'C#, .NET', 'app.csproj'],
    [{ 'go.mod': 'module x\n', 'package.json': '{}' }, 'JavaScript, Node.js, Go', 'package.json, go.mod'],
  ];
  it('from package.json, pyproject.toml, go.mod, Cargo.toml, …, and says so', async () => {
    for (const [files, stack, from] of cases) {
      const root = tempRepo();
      writeFiles(root, files);
      const data = (await run(root, ['init', '--yes', '--json'])).data<InitData>();
      expect(parseProjectContext(read(root, squadPaths.team)).stack, stack).toBe(stack);
      expect(read(root, charterPath('keaton'))).toContain(`- **Stack:** ${stack}\n`);
      expect(data.notes).toContain(`stack read from ${from}: ${stack} (give another with --stack)`);
    }
  });

  it('never over --stack, nor for a squad that has a team.md', async () => {
    const root = tempRepo();
    writeFiles(root, { 'go.mod': 'module x\n' });
    await run(root, ['init', '--yes', '--stack', 'Go, gRPC']);
    expect(parseProjectContext(read(root, squadPaths.team)).stack).toBe('Go, gRPC');
    const none = tempRepo();
    await run(none, ['init', '--yes']);
    writeFiles(none, { 'Cargo.toml': '[package]\n' });
    const again = (await run(none, ['init', '--yes', '--json'])).data<InitData>();
    expect(again.notes).toEqual([]);
    expect(parseProjectContext(read(none, squadPaths.team)).stack).toBe('');
  });
});

describe('import says where the project context came from', () => {
  it("names the other repository's context and the init command that changes it, with the stack read here", async () => {
    const source = await squad();
    const file = path.join(tempDir(), 'team.squad');
    await run(source, ['export', '--out', file]);
    const target = tempRepo();
    writeFiles(target, { 'pyproject.toml': '[project]\ndependencies = ["fastapi"]\n' });
    const result = await run(target, ['import', file]);
    expect(result.stdout).toContain(
      `(Project: A shop; Stack: Node.js, Express; Owner: Ada); for this repository run\n     npx create-squad@${packageVersion()} init --project "…" --stack "Python, FastAPI" --owner "…"  (it updates team.md and the charters)\n`,
    );
    const again = await runCli(['import', file, '--force', '--json'], { cwd: target });
    expect(again.data()).toMatchObject({ context: { project: 'A shop', stack: 'Node.js, Express', owner: 'Ada' }, detectedStack: 'Python, FastAPI' });
    await run(target, ['init', '--project', 'A bakery API', '--stack', 'Python, FastAPI']);
    expect(read(target, charterPath('fenster'))).toContain('- **Project:** A bakery API\n- **Stack:** Python, FastAPI\n');
  });
});
