/**
 * The one plan type and its applier: what a report derives from a plan (summary, paths, commit
 * hint, lines) and what applyPlan does with each kind of change, including refusing to write over
 * a file that changed since the plan was made.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Change, changeLines, changedPaths, commitHint, commitPathsOf, summarizeChanges } from '../../src/core/base/plan.js';
import { applyPlan } from '../../src/core/fs/apply-plan.js';
import { listTree } from '../../src/core/fs/tree.js';
import { cleanupTempDirs, hashTree, tempDir, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

const PLAN: Change[] = [
  { kind: 'backup', path: '.ai-team/.backups/t/.ai-team/team.md', of: '.ai-team/team.md', content: 'old' },
  { kind: 'replace', path: '.ai-team/team.md', content: 'new', base: 'old' },
  { kind: 'create', path: '.github/agents/kaylee.agent.md', content: 'agent' },
  { kind: 'move', from: '.ai-team/agents/wash', to: '.ai-team/agents/_alumni/wash' },
  { kind: 'tree', path: '.github/skills/deploy', files: [{ path: 'SKILL.md', content: 'skill' }] },
  { kind: 'remove', path: 'notes.md' },
];

describe('what a report derives from a plan', () => {
  it('summarizes each kind of change, sorted', () => {
    expect(summarizeChanges(PLAN)).toEqual({
      created: ['.github/agents/kaylee.agent.md', '.github/skills/deploy'],
      replaced: ['.ai-team/team.md'],
      moved: [{ from: '.ai-team/agents/wash', to: '.ai-team/agents/_alumni/wash' }],
      backedUp: [{ path: '.ai-team/team.md', backup: '.ai-team/.backups/t/.ai-team/team.md' }],
      removed: ['notes.md'],
    });
  });

  it('names every path once, a move by both ends, and commits folders of the squad and .github whole', () => {
    expect(changedPaths(PLAN)).toEqual([
      '.ai-team/.backups/t/.ai-team/team.md',
      '.ai-team/agents/_alumni/wash',
      '.ai-team/agents/wash',
      '.ai-team/team.md',
      '.github/agents/kaylee.agent.md',
      '.github/skills/deploy',
      'notes.md',
    ]);
    expect(commitPathsOf(PLAN)).toEqual(['.ai-team', '.github/agents', '.github/skills', 'notes.md']);
    expect(commitHint(PLAN, 'chore(squad): x')).toBe('git add -A -- .ai-team .github/agents .github/skills notes.md && git commit -m "chore(squad): x"');
    expect(commitHint([], 'chore(squad): x')).toBeUndefined();
  });

  it('says each change as done, or as it would be done in a dry run', () => {
    expect(changeLines(PLAN, false)).toEqual([
      'moved     .ai-team/agents/wash → .ai-team/agents/_alumni/wash',
      'backed up .ai-team/team.md → .ai-team/.backups/t/.ai-team/team.md',
      'created   .github/agents/kaylee.agent.md',
      'created   .github/skills/deploy',
      'updated   .ai-team/team.md',
      'removed   notes.md',
    ]);
    expect(changeLines(PLAN, true)[0]).toBe('would move      .ai-team/agents/wash → .ai-team/agents/_alumni/wash');
  });
});

describe('applyPlan', () => {
  it('carries out every kind of change in order', async () => {
    const root = tempDir();
    const source = tempDir();
    writeFiles(source, { 'SKILL.md': 'copied skill', 'scripts/run.sh': '#!/bin/sh\n' });
    fs.chmodSync(path.join(source, 'scripts/run.sh'), 0o755);
    const walked = await listTree(source);
    writeFiles(root, { '.ai-team/team.md': 'old', '.ai-team/agents/wash/charter.md': 'wash', 'notes.md': 'bye' });
    applyPlan(
      root,
      {
        changes: [
          ...PLAN.filter((c) => c.kind !== 'tree'),
          { kind: 'tree', path: '.github/skills/deploy', files: walked.files.map((file) => ({ path: file.path, copy: { dir: source, file } })) },
        ],
      },
      'testing',
    );
    expect(read(root, '.ai-team/.backups/t/.ai-team/team.md')).toBe('old');
    expect(read(root, '.ai-team/team.md')).toBe('new');
    expect(read(root, '.github/agents/kaylee.agent.md')).toBe('agent');
    expect(read(root, '.ai-team/agents/_alumni/wash/charter.md')).toBe('wash');
    expect(fs.existsSync(path.join(root, '.ai-team/agents/wash'))).toBe(false);
    expect(read(root, '.github/skills/deploy/SKILL.md')).toBe('copied skill');
    expect(fs.statSync(path.join(root, '.github/skills/deploy/scripts/run.sh')).mode & 0o777).toBe(0o755);
    expect(fs.existsSync(path.join(root, 'notes.md'))).toBe(false);
    expect(fs.readdirSync(path.join(root, '.github/skills'))).toEqual(['deploy']); // no staging folder left
  });

  it('writes nothing when a file to replace changed since the plan was made', () => {
    const root = tempDir();
    writeFiles(root, { '.ai-team/team.md': 'edited meanwhile' });
    const before = hashTree(root);
    expect(() => applyPlan(root, { changes: PLAN.slice(0, 3) }, 'testing')).toThrow(
      expect.objectContaining({ code: 'conflict', message: '.ai-team/team.md changed while testing; nothing was written' }),
    );
    expect(hashTree(root)).toBe(before);
  });

  it('refuses a path out of the repository before the first write', () => {
    const root = tempDir();
    const before = hashTree(root);
    expect(() =>
      applyPlan(
        root,
        {
          changes: [
            { kind: 'create', path: 'a.md', content: 'a' },
            { kind: 'create', path: '../outside.md', content: 'b' },
          ],
        },
        'testing',
      ),
    ).toThrow(expect.objectContaining({ code: 'unsafe-path' }));
    expect(hashTree(root)).toBe(before);
  });

  it('never replaces a file with a create, and stops at a move whose source is gone', () => {
    const root = tempDir();
    writeFiles(root, { 'a.md': 'mine' });
    expect(() => applyPlan(root, { changes: [{ kind: 'create', path: 'a.md', content: 'theirs' }] }, 'testing')).toThrow(expect.objectContaining({ code: 'file-exists' }));
    expect(read(root, 'a.md')).toBe('mine');
    expect(() => applyPlan(root, { changes: [{ kind: 'move', from: 'gone', to: 'there' }] }, 'testing')).toThrow(
      expect.objectContaining({ code: 'conflict', message: 'gone changed while testing; nothing was written' }),
    );
  });

  it('refuses a folder whose file names leave it, before the first write', () => {
    const root = tempDir();
    const before = hashTree(root);
    const changes: Change[] = [
      { kind: 'create', path: 'a.md', content: 'a' },
      { kind: 'tree', path: 'skills/x', files: [{ path: '../../escape.md', content: 'new' }] },
    ];
    expect(() => applyPlan(root, { changes }, 'testing')).toThrow(expect.objectContaining({ code: 'unsafe-path' }));
    expect(hashTree(root)).toBe(before);
  });

  it('moves a folder aside only once the folder replacing it is staged: a failed copy leaves the old one in place', async () => {
    const root = tempDir();
    const source = tempDir();
    writeFiles(root, { 'skills/x/SKILL.md': 'old skill' });
    writeFiles(source, { 'SKILL.md': 'new skill' });
    const walked = await listTree(source);
    fs.writeFileSync(path.join(source, 'SKILL.md'), 'changed after the walk, longer than before');
    const before = hashTree(root);
    const changes: Change[] = [
      { kind: 'move', from: 'skills/x', to: 'backups/x' },
      { kind: 'tree', path: 'skills/x', files: walked.files.map((file) => ({ path: file.path, copy: { dir: source, file } })) },
    ];
    expect(() => applyPlan(root, { changes }, 'testing')).toThrow(expect.objectContaining({ code: 'unsafe-path', message: expect.stringContaining('changed after it was read') }));
    expect(hashTree(root)).toBe(before);
  });
});
