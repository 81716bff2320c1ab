/**
 * skills add, update and remove read once, then decide with the file system switched off: each
 * decider, given what its read step read, plans exactly the changes the whole command reports and
 * makes; one skill's install decision, case by case; and how a skill's script may run, decided
 * from the facts its read step read, as the whole check decides it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Change, type ChangeSummary, summarizeChanges } from '../../src/core/base/plan.js';
import { readSkillSource, type SkillSource } from '../../src/core/skills/skill-install.js';
import { decideSkillInstall } from '../../src/core/skills/skill-install-plan.js';
import { decideScriptCommand, decideSkillScript, normalizeScriptPath, scriptOfCommand } from '../../src/core/skills/script-plan.js';
import { planScriptCommand, planSkillScript, readScriptFacts } from '../../src/core/skills/skill-scripts.js';
import { findRecord, readSources, sourceRecord } from '../../src/core/skills/skill-sources.js';
import { SKILL_LOCK_PATH, hashSkillFiles } from '../../src/core/skills/skill-lock.js';
import { decideSkillsAdd, decideSkillsRemove, decideSkillsUpdate, type SkillToAdd } from '../../src/core/team/skill-change-plan.js';
import { readSkillsAddState, readSkillsRemoveState, readSkillsUpdateState } from '../../src/core/team/skill-change-state.js';
import { cleanupTempDirs, runOk, tempDir, validSkill, writeFiles } from '../helpers/cli.js';
import { sharedInitSquad as initSquad } from '../helpers/shared-init.js';
import { withoutFileSystem, withoutFileSystemAsync } from '../helpers/no-fs.js';
import { normalized, stampless } from '../helpers/changes.js';

afterAll(cleanupTempDirs);

/** A skill that opens an MCP server, so adding or removing it changes the agents of those who see it. */
function serverSkill(name: string, server: string): string {
  return validSkill(name, `Use when working on ${name}.`, `metadata:\n  mcp-servers:\n    - name: ${server}\n      reason: read the data\n`);
}

/** The skills in `dir` to add, as the command reads them (a folder source). */
async function toAdd(root: string, dir: string, names: string[]): Promise<SkillToAdd[]> {
  return Promise.all(
    names.map(async (name) => {
      const skillDir = path.join(dir, name);
      const source = await readSkillSource(skillDir, skillDir);
      return { source, record: sourceRecord(root, { type: 'folder', dir: skillDir }, { dir: skillDir, dispose: () => undefined }, skillDir) };
    }),
  );
}

function copyOf(root: string): string {
  const copy = tempDir('squad-copy-');
  fs.cpSync(root, copy, { recursive: true, verbatimSymlinks: true });
  return copy;
}

describe('skills add: read once, then decide off the disk', () => {
  it('plans the agents, the replaced skill moved to its backup, the new skills placed whole and the record: what the command does', async () => {
    const root = await initSquad();
    const dir = tempDir('squad-shared-');
    writeFiles(dir, {
      'db-notes/SKILL.md': serverSkill('db-notes', 'postgres'),
      'db-notes/references/tables.md': '# tables\n',
      'api-style/SKILL.md': validSkill('api-style', 'Use when designing APIs (v2).'),
    });
    // One skill there already, another version: replaced with --force, after its backup.
    writeFiles(root, { '.github/skills/api-style/SKILL.md': validSkill('api-style') });
    const copy = copyOf(root);

    const state = await readSkillsAddState(root, await toAdd(root, dir, ['api-style', 'db-notes']), undefined);
    const plan = await withoutFileSystemAsync(() => decideSkillsAdd(state, { force: true }));
    const kinds = plan.changes.map((change) => `${change.kind} ${'path' in change ? change.path : `${change.from} → ${stampless(change.to)}`}`);
    expect(kinds.filter((line) => !line.includes('.github/agents/'))).toEqual([
      'move .github/skills/api-style → .ai-team/backups/<time>/.github/skills/api-style',
      'tree .github/skills/api-style',
      'tree .github/skills/db-notes',
      `create ${SKILL_LOCK_PATH}`,
    ]);
    // Every member sees a team skill: each agent now opens the server, written before the skills.
    expect(kinds.slice(0, kinds.length - 4).every((line) => line.startsWith('replace .github/agents/'))).toBe(true);
    expect(kinds.length).toBeGreaterThan(4);
    const tree = plan.changes.find((change): change is Extract<Change, { kind: 'tree' }> => change.kind === 'tree' && change.path === '.github/skills/db-notes')!;
    expect(tree.files.map((file) => file.path)).toEqual(['SKILL.md', 'references/tables.md']);

    const whole = (await runOk(copy, ['skills', 'add', dir, '--all', '--force', '--json'])).data<{ changes: ChangeSummary }>();
    expect(normalized(summarizeChanges(plan.changes))).toEqual(normalized(whole.changes));
  });

  it('refuses off the disk what the command refuses: another skill there without --force, a reserved name', async () => {
    const root = await initSquad();
    const dir = tempDir('squad-shared-');
    writeFiles(dir, { 'api-style/SKILL.md': validSkill('api-style', 'Use when designing APIs (v2).'), 'squad-mine/SKILL.md': validSkill('squad-mine') });
    writeFiles(root, { '.github/skills/api-style/SKILL.md': validSkill('api-style') });
    const exists = await readSkillsAddState(root, await toAdd(root, dir, ['api-style']), undefined);
    await expect(withoutFileSystemAsync(() => decideSkillsAdd(exists, { force: false }))).rejects.toMatchObject({
      code: 'skill-exists',
      message: 'a skill already exists at .github/skills/api-style',
    });
    const reserved = await readSkillsAddState(root, await toAdd(root, dir, ['squad-mine']), undefined);
    await expect(withoutFileSystemAsync(() => decideSkillsAdd(reserved, { force: true }))).rejects.toMatchObject({ code: 'conflict' });
  });

  it('decides nothing for a skill there file for file, but its record', async () => {
    const root = await initSquad();
    const dir = tempDir('squad-shared-');
    writeFiles(dir, { 'api-style/SKILL.md': validSkill('api-style') });
    writeFiles(root, { '.github/skills/api-style/SKILL.md': validSkill('api-style') });
    const state = await readSkillsAddState(root, await toAdd(root, dir, ['api-style']), undefined);
    const plan = await withoutFileSystemAsync(() => decideSkillsAdd(state, { force: false }));
    expect(plan.added.map(({ install }) => install.unchanged)).toEqual([true]);
    expect(plan.changes.map((change) => change.kind)).toEqual(['create']);
    expect(readSources(root).text).toBeUndefined();
  });
});

describe('skills update and remove: read once, then decide off the disk', () => {
  async function withAdded(): Promise<{ root: string; dir: string }> {
    const root = await initSquad();
    const dir = tempDir('squad-shared-');
    writeFiles(dir, { 'db-notes/SKILL.md': serverSkill('db-notes', 'postgres'), 'db-notes/references/a.md': '# a\n' });
    await runOk(root, ['skills', 'add', path.join(dir, 'db-notes'), '--agent', 'fenster']);
    return { root, dir };
  }

  it('update: the agent, the installed skill backed up by a move, the new one placed whole', async () => {
    const { root, dir } = await withAdded();
    writeFiles(dir, { 'db-notes/SKILL.md': validSkill('db-notes', 'Use when working on databases.') });
    const copy = copyOf(root);
    const skillDir = path.join(dir, 'db-notes');
    const source = await readSkillSource(skillDir, skillDir);
    const recorded = findRecord(readSources(root), '.ai-team/agents/fenster/skills/db-notes')!;
    const state = await readSkillsUpdateState(root, { name: 'db-notes', agent: 'fenster' }, source, {
      ...sourceRecord(root, { type: 'folder', dir: skillDir }, { dir: skillDir, dispose: () => undefined }, skillDir, hashSkillFiles(source.dir, source.tree.files)),
      source: recorded.source,
    });
    const plan = await withoutFileSystemAsync(() => decideSkillsUpdate(state));
    // The lock's entry changes last: the new files' hash.
    expect(plan.changes.map((change) => change.kind)).toEqual(['replace', 'move', 'tree', 'replace']);
    expect(plan.changes[3]).toMatchObject({ path: SKILL_LOCK_PATH });
    expect(plan.changes[0]).toMatchObject({ path: '.github/agents/fenster.agent.md' });
    const whole = (await runOk(copy, ['skills', 'update', 'db-notes', '--agent', 'fenster', '--json'])).data<{ changes: ChangeSummary }>();
    expect(normalized(summarizeChanges(plan.changes))).toEqual(normalized(whole.changes));
  });

  it('remove: the agent, its source record forgotten, then the skill moved whole into the backups', async () => {
    const { root } = await withAdded();
    const copy = copyOf(root);
    const state = await readSkillsRemoveState(root, { name: 'db-notes', agent: 'Fenster' });
    const plan = await withoutFileSystemAsync(() => decideSkillsRemove(state));
    expect(plan.changes).toEqual([
      expect.objectContaining({ kind: 'replace', path: '.github/agents/fenster.agent.md' }),
      expect.objectContaining({ kind: 'replace', path: SKILL_LOCK_PATH }),
      { kind: 'move', from: '.ai-team/agents/fenster/skills/db-notes', to: plan.backup },
    ]);
    const whole = (await runOk(copy, ['skills', 'remove', 'db-notes', '--agent', 'fenster', '--json'])).data<{ changes: ChangeSummary }>();
    expect(normalized(summarizeChanges(plan.changes))).toEqual(normalized(whole.changes));
  });
});

describe('decideSkillInstall', () => {
  const source: SkillSource = {
    dir: '/outside/api-style',
    report: { dirName: 'api-style' } as SkillSource['report'],
    tree: { files: [{ path: 'SKILL.md', size: 10, executable: false, dev: 1, ino: 2 }], skipped: ['link'], git: [] },
  };
  const now = new Date('2026-01-02T03:04:05Z');

  it('places a new skill whole, copying the walked files', () => {
    const plan = withoutFileSystem(() => decideSkillInstall(source, '.github/skills/api-style', { unchanged: false, isSource: false }, false, now));
    expect(plan).toMatchObject({ destination: '.github/skills/api-style', files: ['SKILL.md'], skipped: ['link'] });
    expect(plan.backup).toBeUndefined();
    expect(plan.changes).toEqual([{ kind: 'tree', path: '.github/skills/api-style', files: [{ path: 'SKILL.md', copy: { dir: source.dir, file: source.tree.files[0] } }] }]);
  });

  it('moves the skill it replaces to its backup first, only with force', () => {
    const installed = { unchanged: false, replaces: '.github/skills/api-style', isSource: false };
    expect(() => withoutFileSystem(() => decideSkillInstall(source, '.github/skills/api-style', installed, false, now))).toThrow(
      expect.objectContaining({ code: 'skill-exists', message: 'a skill already exists at .github/skills/api-style' }),
    );
    const plan = withoutFileSystem(() => decideSkillInstall(source, '.github/skills/api-style', installed, true, now));
    expect(plan.backup).toMatch(/^\.ai-team\/backups\/[^/]+\/\.github\/skills\/api-style$/);
    // Right before the tree that takes its place: moved aside once the new skill is staged, moved back if the rename fails.
    expect(plan.changes.map((change) => change.kind)).toEqual(['move', 'tree']);
    expect(plan.changes[0]).toEqual({ kind: 'move', from: '.github/skills/api-style', to: plan.backup });
  });

  it('places a team skill before moving its old copy in .ai-team/skills/ to the backups, and with force clears one left behind', () => {
    const legacy = '.ai-team/skills/api-style';
    const plan = withoutFileSystem(() => decideSkillInstall(source, '.github/skills/api-style', { unchanged: false, replaces: legacy, legacy, isSource: false }, true, now));
    expect(plan.changes).toEqual([expect.objectContaining({ kind: 'tree', path: '.github/skills/api-style' }), { kind: 'move', from: legacy, to: plan.backup }]);
    // Killed between the two: the skill is in place, its old copy is not yet in the backups.
    const left = { unchanged: true, legacy, isSource: false };
    expect(withoutFileSystem(() => decideSkillInstall(source, '.github/skills/api-style', left, false, now)).changes).toEqual([]);
    const cleared = withoutFileSystem(() => decideSkillInstall(source, '.github/skills/api-style', left, true, now));
    expect(cleared).toMatchObject({ unchanged: true, replaces: legacy });
    expect(cleared.changes).toEqual([{ kind: 'move', from: legacy, to: cleared.backup }]);
  });

  it('writes nothing for the same skill, and refuses to replace the folder it is added from', () => {
    expect(withoutFileSystem(() => decideSkillInstall(source, '.github/skills/api-style', { unchanged: true, isSource: false }, false, now)).changes).toEqual([]);
    expect(() =>
      withoutFileSystem(() => decideSkillInstall(source, '.github/skills/api-style', { unchanged: false, replaces: '.github/skills/api-style', isSource: true }, true, now)),
    ).toThrow(expect.objectContaining({ code: 'conflict', message: '.github/skills/api-style is the skill being added' }));
  });
});

describe('how a script runs: read once, then decide off the disk', () => {
  /** A skill in the repository with a script of each kind, and a link out of it; its allowlist. */
  function scriptSkill(): { root: string; skill: { dirName: string; dir: string; location: string } } {
    const root = tempDir('squad-scripts-');
    const outside = tempDir('squad-outside-');
    writeFiles(outside, { 'steal.sh': 'echo no\n' });
    const location = '.github/skills/pdf/SKILL.md';
    writeFiles(root, {
      [location]: validSkill('pdf'),
      '.github/skills/pdf/scripts/extract.py': 'print(1)\n',
      '.github/skills/pdf/scripts/tool': '#!/bin/sh\necho 1\n',
      '.github/skills/pdf/scripts/plain': 'not executable\n',
      '.github/skills/pdf/scripts/run.bat': 'echo 1\n',
    });
    fs.chmodSync(path.join(root, '.github/skills/pdf/scripts/tool'), 0o755);
    fs.symlinkSync(path.join(outside, 'steal.sh'), path.join(root, '.github/skills/pdf/scripts/steal.sh'));
    return { root, skill: { dirName: 'pdf', dir: path.join(root, '.github/skills/pdf'), location } };
  }

  /** The whole check's verdict (its plan, or what it threw) as a value, to compare. */
  function verdict<T>(run: () => T): T | { code: unknown; message: unknown } {
    try {
      return run();
    } catch (error) {
      return { code: (error as { code?: unknown }).code, message: (error as Error).message };
    }
  }

  it('decideSkillScript on the facts read says what planSkillScript says, script by script', () => {
    const { root, skill } = scriptSkill();
    const all = new Map([['.github/skills/pdf', 'all' as const]]);
    const some = new Map([['.github/skills/pdf', new Set(['scripts/extract.py'])]]);
    const given = ['extract.py', 'scripts/tool', 'plain', 'run.bat', 'steal.sh', 'missing.sh', '../SKILL.md', 'scripts', ''];
    for (const allowlist of [all, some, new Map()]) {
      for (const script of given) {
        const facts = readScriptFacts(root, skill, normalizeScriptPath(script));
        const pure = withoutFileSystem(() => verdict(() => decideSkillScript(facts, skill, script, allowlist)));
        expect(pure, script).toEqual(verdict(() => planSkillScript(root, skill, script, allowlist)));
      }
    }
    // The cases above reach every outcome: a plan, the allowlist's refusal, confinement's, not-found.
    const facts = readScriptFacts(root, skill, 'scripts/extract.py');
    expect(withoutFileSystem(() => decideSkillScript(facts, skill, 'extract.py', all))).toMatchObject({ script: 'scripts/extract.py', realScript: 'scripts/extract.py' });
    expect(withoutFileSystem(() => verdict(() => decideSkillScript(facts, skill, 'extract.py', new Map())))).toMatchObject({ code: 'not-allowed' });
    const link = readScriptFacts(root, skill, 'scripts/steal.sh');
    expect(withoutFileSystem(() => verdict(() => decideSkillScript(link, skill, 'steal.sh', all)))).toEqual({
      code: 'unsafe-path',
      message: `refusing to run "scripts/steal.sh" of skill "pdf": it leads outside the skill's scripts/ folder`,
    });
  });

  it('decideScriptCommand on the facts read says what planScriptCommand says', () => {
    const { root, skill } = scriptSkill();
    const all = new Map([['.github/skills/pdf', 'all' as const]]);
    const commands = [['python3', 'scripts/extract.py', '--x'], ['scripts/tool', 'a', 'b'], ['node', 'scripts/extract.py'], ['cat', '/etc/passwd'], ['scripts/steal.sh'], []];
    for (const words of commands) {
      const facts = readScriptFacts(root, skill, normalizeScriptPath(scriptOfCommand(words) ?? ''));
      const pure = withoutFileSystem(() => verdict(() => decideScriptCommand(facts, skill, words, all)));
      expect(pure, words.join(' ')).toEqual(verdict(() => planScriptCommand(root, skill, words, all)));
    }
    const facts = readScriptFacts(root, skill, 'scripts/extract.py');
    expect(withoutFileSystem(() => decideScriptCommand(facts, skill, ['python3', 'scripts/extract.py', '--x'], all))).toMatchObject({
      args: ['--x'],
      script: 'scripts/extract.py',
    });
  });
});
