/**
 * The kill and fault matrix of every writing command: killed after its k-th write, or with its
 * k-th write failing (a full disk, an I/O error), then run again, each ends in the state a run
 * that was never interrupted leaves: nothing lost, no debris, nothing different. A few k per
 * command in the usual run; every k with CREATE_SQUAD_MATRIX=full (.ci/run), which prints the
 * summary line "kill matrix: N runs, 0 lost, 0 debris, 0 different".
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, initSquad, runOk, tempDir, tempRepo, validSkill, writeFiles } from '../helpers/cli.js';
import { cleanRun, faultAndRerun, killAndRerun, sampledWrites, type MatrixCase, type MatrixOutcome } from '../helpers/kill-matrix.js';

const FULL = process.env.CREATE_SQUAD_MATRIX === 'full';
const totals = { runs: 0, lost: 0, debris: 0, different: 0 };

afterAll(async () => {
  // The line .ci/run shows: the matrix's measure, whatever its size.
  console.log(`kill matrix: ${totals.runs} runs, ${totals.lost} lost, ${totals.debris} debris, ${totals.different} different${FULL ? '' : ' (sampled)'}`);
  await cleanupTempDirs();
});

/** What a user has in the repository before create-squad runs: it must come through every run. */
const USER_FILES = { 'README.md': '# app\n', 'src/index.ts': 'export const answer = 42;\n', '.gitignore': 'node_modules/\n# mine\ndist\n' };

/** A copy of `template` (a repository made once per test file) in a new temporary folder. */
function copier(template: () => string): () => Promise<string> {
  return async () => {
    const copy = tempDir('squad-matrix-');
    fs.cpSync(template(), copy, { recursive: true, verbatimSymlinks: true });
    return copy;
  };
}

const made = new Map<string, string>();
/** A repository built once by `build` (from a fresh squad or an empty repository), then copied per run. */
function fixture(name: string): () => Promise<string> {
  return copier(() => {
    const root = made.get(name);
    if (root === undefined) throw new Error(`fixture ${name} was not built`);
    return root;
  });
}

async function squadWithUserFiles(): Promise<string> {
  const root = await initSquad(['--yes']);
  writeFiles(root, { 'README.md': USER_FILES['README.md'], 'src/index.ts': USER_FILES['src/index.ts'] });
  return root;
}

let skillSource = '';
let updateSource = '';
let squadFile = '';

const builders: Record<string, () => Promise<string>> = {
  empty: async () => {
    const root = tempRepo();
    writeFiles(root, USER_FILES);
    return root;
  },
  squad: squadWithUserFiles,
  retired: async () => {
    const root = await squadWithUserFiles();
    await runOk(root, ['retire', 'hockney']);
    return root;
  },
  withSkill: async () => {
    const root = await squadWithUserFiles();
    await runOk(root, ['skills', 'add', skillSource]);
    await runOk(root, ['skills', 'add', updateSource]);
    return root;
  },
  crowded: async () => {
    // What compact has to do: a long history, a long decisions file, two inbox files of one text.
    const root = await squadWithUserFiles();
    const entries = (count: number) => Array.from({ length: count }, (_, i) => `### 2026-01-${String(i + 1).padStart(2, '0')}: entry ${i}\n\nlearned ${i}\n\n`).join('');
    fs.appendFileSync(path.join(root, '.ai-team/agents/fenster/history.md'), `\n${entries(5)}`);
    fs.appendFileSync(path.join(root, '.ai-team/decisions.md'), `\n${entries(5)}`);
    writeFiles(root, {
      '.ai-team/decisions/inbox/fenster-tabs.md': '### 2026-02-01: Tabs\n\nUse tabs.\n',
      '.ai-team/decisions/inbox/keaton-tabs.md': '### 2026-02-01: Tabs\n\nUse tabs.\n',
    });
    return root;
  },
  older: async () => {
    // What upgrade has to do: squad-owned files missing, an edited built-in skill (backed up, then
    // replaced), ignore rules missing, a team skill where older versions kept them.
    const root = await squadWithUserFiles();
    fs.rmSync(path.join(root, '.ai-team-templates'), { recursive: true });
    fs.appendFileSync(path.join(root, '.github/skills/squad-code-review/SKILL.md'), '\nA local edit.\n');
    fs.writeFileSync(path.join(root, '.gitignore'), USER_FILES['.gitignore']);
    writeFiles(root, { '.ai-team/skills/api-notes/SKILL.md': validSkill('api-notes'), '.ai-team/skills/api-notes/references/a.md': '# a\n' });
    return root;
  },
};

const CASES: MatrixCase[] = [
  { name: 'init', prepare: fixture('empty'), args: ['init', '--yes'] },
  { name: 'hire', prepare: fixture('squad'), args: ['hire', 'Designer'] },
  { name: 'teach (a rule)', prepare: fixture('squad'), args: ['teach', 'fenster', 'Always use tabs for indentation', '--rule'] },
  {
    name: 'teach (a skill)',
    prepare: fixture('squad'),
    args: ['teach', 'fenster', 'When you release, tag the commit, then write the changelog', '--skill', '--name', 'release-steps'],
  },
  { name: 'retire', prepare: fixture('squad'), args: ['retire', 'hockney'] },
  { name: 'rehire', prepare: fixture('retired'), args: ['rehire', 'hockney'] },
  { name: 'role', prepare: fixture('squad'), args: ['role', 'fenster', 'Backend', 'Dev'] },
  { name: 'model', prepare: fixture('squad'), args: ['model', 'fenster', 'gpt-5', 'gpt-4.1', '--effort', 'high'] },
  { name: 'model --default', prepare: fixture('squad'), args: ['model', '--default', 'claude-sonnet-4.5'] },
  { name: 'skills add', prepare: fixture('squad'), args: ['skills', 'add', '{skill}'] },
  { name: 'skills update', prepare: fixture('withSkill'), args: ['skills', 'update', 'changelog'] },
  { name: 'skills remove', prepare: fixture('withSkill'), args: ['skills', 'remove', 'pdf'] },
  { name: 'upgrade', prepare: fixture('older'), args: ['upgrade'] },
  { name: 'compact', prepare: fixture('crowded'), args: ['compact', '--keep', '2'] },
  { name: 'export', prepare: fixture('withSkill'), args: ['export', '--out', 'team.squad'] },
  { name: 'import', prepare: fixture('empty'), args: ['import', '{squad}'] },
  { name: 'import --force', prepare: fixture('squad'), args: ['import', '{squad}', '--force'] },
];

beforeAll(async () => {
  const sources = tempDir('squad-matrix-sources-');
  skillSource = path.join(sources, 'pdf');
  writeFiles(skillSource, { 'SKILL.md': validSkill('pdf'), 'references/a.md': '# a\n', 'scripts/run.sh': '#!/bin/sh\necho run\n' });
  fs.chmodSync(path.join(skillSource, 'scripts/run.sh'), 0o755);
  updateSource = path.join(sources, 'changelog');
  writeFiles(updateSource, { 'SKILL.md': validSkill('changelog'), 'references/format.md': '# format\n' });
  for (const name of new Set(['empty', 'squad', 'retired', 'withSkill', 'older', 'crowded'])) made.set(name, await builders[name]!());
  // skills update has something to fetch: the source changed since it was added.
  writeFiles(updateSource, { 'SKILL.md': validSkill('changelog', 'Use when writing the changelog (v2).'), 'references/style.md': '# style\n' });
  // The .squad file import reads: a squad with a learned skill of the team and one of a member.
  const exporter = await initSquad(['--yes']);
  writeFiles(exporter, {
    '.github/skills/api-design/SKILL.md': validSkill('api-design'),
    '.ai-team/agents/fenster/skills/react/SKILL.md': validSkill('react'),
    '.ai-team/agents/fenster/skills/react/references/hooks.md': '# hooks\n',
  });
  squadFile = path.join(tempDir('squad-matrix-file-'), 'team.squad');
  await runOk(exporter, ['export', '--out', squadFile]);
});

function resolved(matrixCase: MatrixCase): MatrixCase {
  return { ...matrixCase, args: matrixCase.args.map((arg) => arg.replace('{skill}', skillSource).replace('{squad}', squadFile)) };
}

function tally(outcome: MatrixOutcome): void {
  totals.runs += 1;
  totals.lost += outcome.lost.length;
  totals.debris += outcome.debris.length;
  totals.different += outcome.different.length;
}

const CLEAN: MatrixOutcome = { lost: [], debris: [], different: [] };

describe('killed after any write, or failing at it, then run again: the state of a clean run', () => {
  for (const matrixCase of CASES) {
    it(
      matrixCase.name,
      async () => {
        const run = resolved(matrixCase);
        const clean = await cleanRun(run);
        expect(clean.writes, 'the command writes').toBeGreaterThan(0);
        const ks = sampledWrites(clean.writes);
        for (const k of ks) {
          const outcome = await killAndRerun(run, k, clean.writes, clean.state);
          tally(outcome);
          expect(outcome, `killed after write ${k} of ${clean.writes}`).toEqual(CLEAN);
        }
        // A full disk at one write (at every write with the full matrix, and an I/O error at the last).
        const faults: [number, string][] = FULL ? [...ks.map((k): [number, string] => [k, 'ENOSPC']), [clean.writes, 'EIO']] : [[Math.ceil(clean.writes / 2), 'ENOSPC']];
        for (const [k, code] of faults) {
          const outcome = await faultAndRerun(run, k, code, clean.state);
          tally(outcome);
          expect(outcome, `${code} at write ${k} of ${clean.writes}`).toEqual(CLEAN);
        }
      },
      FULL ? 30 * 60_000 : undefined,
    );
  }
});
