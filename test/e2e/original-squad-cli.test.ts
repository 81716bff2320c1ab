/**
 * The way to squad-cli and back (issue 30): `export --format squad-cli` writes the export squad-cli
 * 0.10's `squad import` reads (its `.squad/` paths, its fields), what it has no place for listed;
 * importing such a file points its `.squad/` paths at `.ai-team/` as upgrade does, and says so.
 * With CREATE_SQUAD_SQUAD_CLI naming squad-cli 0.10's executable (its `dist/cli-entry.js`, run
 * with CREATE_SQUAD_SQUAD_CLI_NODE when given: squad-cli needs Node 22.5 or later), the same is
 * checked against squad-cli itself, and squads squad-cli makes (plain, `--state-backend orphan`,
 * `--sdk`) are upgraded; without it those tests are skipped, with a note (scripts/host-check.mjs
 * installs squad-cli in a temporary folder and runs them).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, initSquad, listFiles, runCli, runOk, tempDir, tempRepo, validSkill, writeFiles } from '../helpers/cli.js';
import { hasStaleSquadPath } from '../../src/core/squad/original/stale-paths.js';

afterAll(cleanupTempDirs);

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');
const DECISIONS = '# Decisions\n\n### 2026-03-01: Ship weekly\n**By:** Keaton\n**What:** Releases go out on Thursdays; see `.ai-team/agents/keaton/history.md`.\n';

/** A create-squad squad with decisions, an inbox note, a team skill and a member's skill with a reference file. */
async function squadToShare(): Promise<string> {
  const root = await initSquad(['--yes']);
  writeFiles(root, {
    '.ai-team/decisions.md': DECISIONS,
    '.ai-team/decisions/inbox/fenster-note.md': '### A note still in the inbox\n',
    '.github/skills/release-notes/SKILL.md': validSkill('release-notes', 'Use when writing release notes.'),
    '.ai-team/agents/fenster/skills/cache-keys/SKILL.md': validSkill('cache-keys', 'Use when naming cache keys.'),
    '.ai-team/agents/fenster/skills/cache-keys/references/keys.md': '# Keys\n',
    '.ai-team/agents/keaton/history.md': '# Keaton\n\n## Portable Knowledge\n\n- Small pull requests get merged.\n\n## Learnings\n\n- This project deploys on Thursdays.\n',
  });
  return root;
}

/** The members of `init --yes`, by folder and role. */
const MEMBERS = ['keaton: Lead', 'fenster: Core Dev', 'hockney: Tester', 'scribe: Session Logger'];

interface SquadCliExport {
  version: string;
  agents: Record<string, { charter?: string; history?: string }>;
  casting: Record<string, unknown>;
  skills: string[];
  team_md?: string;
  routing_md?: string;
  decisions_md?: string;
}

async function exportForSquadCli(root: string, out: string): Promise<{ file: SquadCliExport; data: Record<string, unknown> }> {
  const result = await runCli(['export', '--format', 'squad-cli', '--out', out, '--json'], { cwd: root });
  expect(result.code, result.stderr).toBe(0);
  return { file: JSON.parse(fs.readFileSync(out, 'utf8')), data: JSON.parse(result.stdout).data };
}

/** Team text of a squad in `.ai-team/` that still names a `.squad/` path (backups left out). */
function staleTexts(root: string): string[] {
  return listFiles(root).filter(
    (rel) => rel.endsWith('.md') && rel.startsWith('.ai-team/') && !/^\.ai-team\/(backups|templates)\//.test(rel) && hasStaleSquadPath(read(root, rel)),
  );
}

describe('export --format squad-cli', () => {
  it("writes squad-cli's export: version 1.0, .squad/ paths, SKILL.md texts; what it cannot hold is listed", async () => {
    const root = await squadToShare();
    const out = path.join(tempDir(), 'squad-export.json');
    const { file, data } = await exportForSquadCli(root, out);
    expect(file.version).toBe('1.0');
    expect(Object.keys(file.agents).sort()).toEqual(['fenster', 'hockney', 'keaton', 'scribe']);
    expect(file.team_md).toContain('`.squad/agents/keaton/charter.md`');
    expect(file.team_md).not.toContain('.ai-team/');
    expect(file.decisions_md).toBe(DECISIONS.replace('.ai-team/', '.squad/'));
    expect(file.agents.keaton!.history).toContain('- Small pull requests get merged.');
    expect(file.agents.keaton!.history).toContain('- This project deploys on Thursdays.');
    expect(file.casting).toHaveProperty('registry');
    // Team skills and the members' skills, as SKILL.md texts (squad-cli names each from its frontmatter).
    expect(file.skills.map((text) => /^name: (.+)$/m.exec(text)?.[1]).sort()).toEqual(['cache-keys', 'release-notes']);
    expect(data.format).toBe('squad-cli');
    const leftOut = (data.squadCli as { leftOut: { what: string }[] }).leftOut.map((left) => left.what);
    expect(leftOut).toEqual(expect.arrayContaining(['decisions/inbox/ (1 file)', "fenster's skill cache-keys: 1 file besides SKILL.md"]));
  });

  it('an unknown format is a usage error, and nothing is written', async () => {
    const root = await initSquad(['--yes']);
    const out = path.join(tempDir(), 'x.json');
    const result = await runCli(['export', '--format', 'zip', '--out', out], { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown export format "zip"');
    expect(fs.existsSync(out)).toBe(false);
  });

  it('imported back by create-squad: members, skills and decisions kept, every .squad/ path pointed at .ai-team/, and import says so', async () => {
    const root = await squadToShare();
    const out = path.join(tempDir(), 'squad-export.json');
    await exportForSquadCli(root, out);
    const target = tempRepo();
    const imported = await runCli(['import', out, '--json'], { cwd: target });
    expect(imported.code, imported.stderr).toBe(0);
    const notes: string[] = JSON.parse(imported.stdout).data.notes;
    expect(notes.some((note) => note.startsWith('the squad lived in .squad/: ') && note.includes('team_md: 4'))).toBe(true);
    expect(staleTexts(target)).toEqual([]);
    expect(read(target, '.ai-team/decisions.md')).toBe(DECISIONS);
    expect(read(target, '.ai-team/team.md')).toContain('`.ai-team/agents/keaton/charter.md`');
    const members = await runOk(target, ['members', '--json']);
    expect(JSON.parse(members.stdout).data.members.map((m: { folder: string; role: string }) => `${m.folder}: ${m.role}`)).toEqual(MEMBERS);
    const skills = await runOk(target, ['skills', 'list', '--json']);
    expect(JSON.parse(skills.stdout).data.skills.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(['release-notes', 'cache-keys']));
  });
});

// squad-cli itself, when installed outside this repository.
const SQUAD_CLI = process.env.CREATE_SQUAD_SQUAD_CLI;
const SQUAD_CLI_NODE = process.env.CREATE_SQUAD_SQUAD_CLI_NODE;
if (!SQUAD_CLI)
  console.warn(
    'skipping the tests against squad-cli itself: set CREATE_SQUAD_SQUAD_CLI to its dist/cli-entry.js (and CREATE_SQUAD_SQUAD_CLI_NODE to a Node 22.5 or later), or run scripts/host-check.mjs',
  );

function squadCli(cwd: string, args: string[]): { status: number | null; out: string } {
  const [command, prefix] = SQUAD_CLI_NODE ? [SQUAD_CLI_NODE, [SQUAD_CLI!]] : [SQUAD_CLI!, []];
  const run = spawnSync(command, [...prefix, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', CI: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

/** A git repository with one commit, as squad-cli's init expects. */
function gitRepo(): string {
  const root = tempRepo();
  const git = (args: string[]) => spawnSync('git', ['-C', root, '-c', 'user.name=Fixture', '-c', 'user.email=fixture@example.org', ...args], { encoding: 'utf8' });
  fs.writeFileSync(path.join(root, 'README.md'), '# Tides\n');
  git(['add', '-A']);
  git(['commit', '-qm', 'start']);
  return root;
}

describe.skipIf(!SQUAD_CLI)('against squad-cli 0.10 itself', () => {
  it('create-squad → squad-cli → create-squad keeps members, skills and decisions', async () => {
    const root = await squadToShare();
    const out = path.join(tempDir(), 'squad-export.json');
    await exportForSquadCli(root, out);
    const middle = gitRepo();
    const imported = squadCli(middle, ['import', out]);
    expect(imported.status, imported.out).toBe(0);
    expect(read(middle, '.squad/decisions.md')).toBe(DECISIONS.replace('.ai-team/', '.squad/'));
    const exported = squadCli(middle, ['export']);
    expect(exported.status, exported.out).toBe(0);
    const back = tempRepo();
    const result = await runCli(['import', path.join(middle, 'squad-export.json'), '--json'], { cwd: back });
    expect(result.code, result.stderr).toBe(0);
    expect(read(back, '.ai-team/decisions.md')).toBe(DECISIONS);
    expect(staleTexts(back)).toEqual([]);
    const members = await runOk(back, ['members', '--json']);
    expect(JSON.parse(members.stdout).data.members.map((m: { folder: string; role: string }) => `${m.folder}: ${m.role}`)).toEqual(MEMBERS);
    const skills = await runOk(back, ['skills', 'list', '--json']);
    expect(JSON.parse(skills.stdout).data.skills.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(['release-notes', 'cache-keys']));
  });

  it('a squad made with --state-backend orphan: upgrade --from-state-branch brings its histories and decisions; no .squad/ left in the text', async () => {
    const root = gitRepo();
    const init = squadCli(root, ['init', '--no-workflows', '--state-backend', 'orphan']);
    expect(init.status, init.out).toBe(0);
    expect(fs.existsSync(path.join(root, '.squad/decisions.md'))).toBe(false);
    const result = await runCli(['upgrade', '--from-state-branch', '--json'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    const squadDir = JSON.parse(result.stdout).data.squadDir;
    expect(squadDir.fromStateBranch.map((file: { path: string }) => file.path)).toEqual(expect.arrayContaining(['.ai-team/decisions.md', '.ai-team/agents/rai/history.md']));
    expect(squadDir.notes.some((note: string) => note.startsWith("squad-cli's git hooks stay in place"))).toBe(true);
    expect(fs.existsSync(path.join(root, '.ai-team/decisions.md'))).toBe(true);
    expect(staleTexts(root)).toEqual([]);
  });

  it('a squad made with --sdk: upgrade refuses with the choice and writes nothing', async () => {
    const root = gitRepo();
    const init = squadCli(root, ['init', '--no-workflows', '--sdk']);
    expect(init.status, init.out).toBe(0);
    const before = listFiles(root);
    const result = await runCli(['upgrade', '--json'], { cwd: root });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).error.message).toContain("squad-cli's SDK mode");
    expect(listFiles(root)).toEqual(before);
  });
});
