/**
 * Read once, then decide: doctor's check groups and the scaffold planner run on the state their read
 * step read, with the file system switched off (each function of node:fs throws), and say exactly
 * what the whole command says.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { FINDING_CODES, isKnownFindingCode } from '../../src/core/doctor/catalog.js';
import { SQUAD_CHECKS, diagnose, runDoctor } from '../../src/core/doctor/doctor.js';
import { readDoctorState } from '../../src/core/doctor/read.js';
import { readSquadState } from '../../src/core/squad/state.js';
import { decideScaffold, planScaffold } from '../../src/core/squad/scaffold.js';
import { decideHire, planHire, readHireState } from '../../src/core/squad/hire.js';
import { readScaffoldState, scaffoldStateFromFiles } from '../../src/core/squad/scaffold-state.js';
import { shippedOwnedFiles } from '../../src/core/squad/owned.js';
import { packageVersion } from '../../src/core/fs/version.js';
import { cleanupTempDirs, runOk, skillMd, tempRepo, validSkill, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

/** Make every function of node:fs (and fs.promises) throw; returns the switch back on. */
function switchOffFileSystem(): () => void {
  const off = <O extends object>(object: O, shown: string) =>
    Object.keys(object)
      .filter((key) => typeof (object as Record<string, unknown>)[key] === 'function' && /^[a-z]/.test(key))
      .map((key) =>
        vi.spyOn(object as Record<string, () => unknown>, key).mockImplementation(() => {
          throw new Error(`a check touched the file system: ${shown}${key}`);
        }),
      );
  const spies = [...off(fs, 'fs.'), ...off(fs.promises, 'fs.promises.')];
  return () => {
    for (const spy of spies) spy.mockRestore();
  };
}

/** Run `fn` with the file system switched off. */
function withoutFileSystem<T>(fn: () => T): T {
  const restore = switchOffFileSystem();
  try {
    return fn();
  } finally {
    restore();
  }
}

/** withoutFileSystem for an async `fn`: the switch stays off until it settles. */
async function withoutFileSystemAsync<T>(fn: () => Promise<T>): Promise<T> {
  const restore = switchOffFileSystem();
  try {
    return await fn();
  } finally {
    restore();
  }
}

/** A squad with something for most check groups to say. */
async function troubledSquad(): Promise<string> {
  const root = tempRepo();
  await runOk(root, ['init', '--yes', '--project', 'Pure doctor']);
  const [member] = fs.readdirSync(path.join(root, '.ai-team/agents')).filter((name) => !name.startsWith('_') && name !== 'scribe');
  fs.rmSync(path.join(root, `.ai-team/agents/${member}/history.md`));
  fs.rmSync(path.join(root, '.ai-team/routing.md'));
  writeFiles(root, {
    '.ai-team/agents/Bad Name/charter.md': '# a folder no command sees\n',
    '.github/skills/broken/SKILL.md': skillMd('name: Broken_Name\ndescription: x'),
    '.github/skills/needs-db/SKILL.md': validSkill('needs-db', 'Use when querying the database.', 'metadata:\n  mcp-servers:\n    - name: postgres\n'),
    '.ai-team/decisions/.tmp-123-abc': 'half written',
    '.ai-team/casting/registry.json': '{"members": [{"name": 3}]}',
  });
  fs.appendFileSync(path.join(root, '.github/agents/squad.agent.md'), '\nedited by hand\n');
  return root;
}

describe('doctor: read once, then pure checks', () => {
  it('every check group runs without the file system and agrees with runDoctor', async () => {
    const root = await troubledSquad();
    const options = { home: path.join(root, 'no-home'), env: {} };
    const whole = await runDoctor(root, options);
    const state = await readDoctorState(root, options);
    const pure = withoutFileSystem(() => diagnose(state));
    expect(pure).toEqual(whole);
    // The squad above gives most groups something to say: the test is not vacuous.
    const codes = new Set(pure.findings.map((f) => f.code));
    for (const code of ['history-missing', 'layout-missing', 'agent-folder-invalid-name', 'casting-member-invalid', 'skill-name-invalid-chars']) {
      if (!codes.has(code)) expect([...codes]).toContain(code);
    }
    expect(pure.findings.length).toBeGreaterThan(5);
    for (const check of SQUAD_CHECKS) withoutFileSystem(() => check(state));
    // The switch is real: the core's modules share this node:fs object.
    expect(() => withoutFileSystem(() => readSquadState(root))).toThrow(/touched the file system/);
  });

  it('without a squad, the verdict is the no-squad error, also without the file system', async () => {
    const root = tempRepo();
    const state = await readDoctorState(root);
    expect(() => withoutFileSystem(() => diagnose(state))).toThrow(expect.objectContaining({ code: 'no-squad' }));
  });

  it('reports only codes its catalog lists', async () => {
    const root = await troubledSquad();
    const report = await runDoctor(root, { home: path.join(root, 'no-home'), env: {} });
    for (const finding of report.findings) expect(isKnownFindingCode(finding.code), finding.code).toBe(true);
    expect(Object.keys(FINDING_CODES).length).toBeGreaterThan(40);
  });
});

describe('init: read once, then plan without the disk', () => {
  it('decideScaffold plans from what readScaffoldState read, with node:fs off, exactly as planScaffold does', async () => {
    const root = await troubledSquad();
    const now = new Date('2026-01-02T03:04:05Z');
    const version = packageVersion();
    const owned = await shippedOwnedFiles(version);
    const whole = await planScaffold(root, { now, version });
    const state = readScaffoldState(root, owned);
    // Templates compile once per process: the first plan warmed them, as the command's own run would.
    const pure = await withoutFileSystemAsync(() => decideScaffold(state, { now, version }, owned));
    expect(pure).toEqual(whole);
    expect(pure.files.map((f) => f.path)).toContain('.ai-team/routing.md'); // removed above: planned again
  });

  it('plans a squad given only as files, as import does, without writing anywhere', async () => {
    const version = packageVersion();
    const owned = await shippedOwnedFiles(version);
    await planScaffold(tempRepo(), { version }); // warm the templates
    const state = scaffoldStateFromFiles('/nowhere', [
      {
        path: '.ai-team/team.md',
        data: '# Team\n\n## Members\n\n| Name | Role | Charter | Status |\n|---|---|---|---|\n| Ada | Lead | `.ai-team/agents/ada/charter.md` | ✅ Active |\n',
      },
      { path: '.ai-team/agents/ada/charter.md', data: '# Ada\n' },
    ]);
    const plan = await withoutFileSystemAsync(() => decideScaffold(state, { team: false, version }, owned));
    const paths = plan.files.map((f) => f.path);
    expect(paths).toContain('.ai-team/agents/ada/history.md');
    expect(paths).not.toContain('.ai-team/agents/ada/charter.md');
    expect(plan.skipped).toContain('.ai-team/team.md');
  });
});

describe('hire: read once, then plan without the disk', () => {
  it('decideHire plans from what readHireState read, with node:fs off, exactly as planHire does', async () => {
    const root = tempRepo();
    await runOk(root, ['init', '--yes']);
    const now = new Date('2026-01-02T03:04:05Z');
    const whole = await planHire(root, { role: 'Tester', now });
    const state = readHireState(root);
    const pure = await withoutFileSystemAsync(() => decideHire(state, { role: 'Tester', now }));
    expect(pure).toEqual(whole);
    expect(pure.created.some((p) => p.endsWith('/charter.md'))).toBe(true);
  });
});
