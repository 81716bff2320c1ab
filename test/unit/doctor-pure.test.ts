/**
 * Doctor reads once, then decides: every check group runs on the state `readDoctorState` read, with
 * the file system switched off (each function of node:fs throws), and says exactly what the whole
 * doctor says.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { FINDING_CODES, isKnownFindingCode } from '../../src/core/doctor/catalog.js';
import { SQUAD_CHECKS, diagnose, runDoctor } from '../../src/core/doctor/doctor.js';
import { readDoctorState } from '../../src/core/doctor/read.js';
import { readSquadState } from '../../src/core/squad/state.js';
import { cleanupTempDirs, runOk, skillMd, tempRepo, validSkill, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

/** Run `fn` with every function of node:fs (and fs.promises) throwing. */
function withoutFileSystem<T>(fn: () => T): T {
  const spies = [
    ...Object.keys(fs).filter((key) => typeof (fs as unknown as Record<string, unknown>)[key] === 'function' && /^[a-z]/.test(key)),
  ].map((key) =>
    vi.spyOn(fs as unknown as Record<string, () => unknown>, key).mockImplementation(() => {
      throw new Error(`a check touched the file system: fs.${key}`);
    }),
  );
  const promiseSpies = Object.keys(fs.promises)
    .filter((key) => typeof (fs.promises as unknown as Record<string, unknown>)[key] === 'function')
    .map((key) =>
      vi.spyOn(fs.promises as unknown as Record<string, () => unknown>, key).mockImplementation(() => {
        throw new Error(`a check touched the file system: fs.promises.${key}`);
      }),
    );
  try {
    return fn();
  } finally {
    for (const spy of [...spies, ...promiseSpies]) spy.mockRestore();
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

  it('without a squad, the one finding says so, also without the file system', async () => {
    const root = tempRepo();
    const state = await readDoctorState(root);
    const report = withoutFileSystem(() => diagnose(state));
    expect(report.findings.map((f) => f.code)).toEqual(['no-squad']);
  });

  it('reports only codes its catalog lists', async () => {
    const root = await troubledSquad();
    const report = await runDoctor(root, { home: path.join(root, 'no-home'), env: {} });
    for (const finding of report.findings) expect(isKnownFindingCode(finding.code), finding.code).toBe(true);
    expect(Object.keys(FINDING_CODES).length).toBeGreaterThan(40);
  });
});
