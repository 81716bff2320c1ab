/**
 * skills-lock.json, the project lock: written by skills add/update/remove in the ecosystem's format,
 * byte-stable, healed from git conflict markers; read when another tool wrote it; moved into from
 * .ai-team/skill-sources.json by upgrade; carried by export/import; checked by `skills check` (each
 * of its states) and by doctor. Git sources are local bare repositories (file:// URLs): no network.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SkillsCheckData } from '../../src/commands/skills-check.js';
import { type CliResult, cleanupTempDirs, hashTree, initSquad, listFiles, runCli, runOk, tempDir, validSkill, writeFiles } from '../helpers/cli.js';
import { commitAndPush, git, gitSource } from '../helpers/git-source.js';

afterAll(cleanupTempDirs);

/** The data of a `--json` run that ran (exit 0 or 1 with a report, not an error). */
function reportOf<T extends object>(result: CliResult): T {
  const envelope = result.envelope<T>();
  if (!('data' in envelope)) throw new Error(`not a report: ${JSON.stringify(envelope)}`);
  return envelope.data;
}

const LOCK = 'skills-lock.json';
const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');
const lockOf = (root: string) => JSON.parse(read(root, LOCK)) as { version: number; skills: Record<string, Record<string, unknown>> };
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

async function check(root: string, ...names: string[]) {
  const result = await runCli(['skills', 'check', ...names, '--json'], { cwd: root });
  return { code: result.code, data: reportOf<SkillsCheckData>(result) };
}

describe('skills add writes skills-lock.json in the ecosystem format', () => {
  it('records a folder source with the folder hash, each file hash, and writes nothing when added again', async () => {
    const root = await initSquad(['--yes']);
    const skill = validSkill('pdf');
    writeFiles(root, { 'shared/pdf/SKILL.md': skill, 'shared/pdf/references/notes.md': '# notes\n' });
    await runOk(root, ['skills', 'add', 'shared/pdf']);
    // The ecosystem's hash: SHA-256 over each file's path then its bytes, in path order.
    const whole = createHash('sha256').update('references/notes.md').update('# notes\n').update('SKILL.md').update(skill).digest('hex');
    const text = read(root, LOCK);
    expect(text).toBe(
      `${JSON.stringify(
        {
          version: 1,
          skills: {
            pdf: {
              source: './shared/pdf',
              sourceType: 'local',
              computedHash: whole,
              createSquad: { files: { 'SKILL.md': sha(skill), 'references/notes.md': sha('# notes\n') } },
            },
          },
        },
        null,
        2,
      )}\n`,
    );
    const before = hashTree(root);
    const again = await runOk(root, ['skills', 'add', 'shared/pdf', '--json']);
    expect(again.data<{ changes: { created: string[]; replaced: string[] } }>().changes).toMatchObject({ created: [], replaced: [] });
    expect(hashTree(root)).toBe(before);
    expect(listFiles(root)).not.toContain('.ai-team/skill-sources.json');
  });

  it('records a git source with its URL, ref, path and commit; a member skill under <member>/<name>; remove drops the entry', async () => {
    const root = await initSquad(['--yes']);
    const { url, work } = gitSource({ 'skills/lint/SKILL.md': validSkill('lint'), 'skills/fmt/SKILL.md': validSkill('fmt') });
    const commit = git(work, 'rev-parse', 'HEAD');
    await runOk(root, ['skills', 'add', `${url}#main`, '--skill', 'lint']);
    await runOk(root, ['skills', 'add', url, '--skill', 'fmt', '--agent', 'fenster']);
    const lock = lockOf(root);
    expect(Object.keys(lock.skills)).toEqual(['fenster/fmt', 'lint']);
    expect(lock.skills.lint).toEqual({
      source: url,
      sourceUrl: url,
      ref: 'main',
      sourceType: 'git',
      skillPath: 'skills/lint/SKILL.md',
      computedHash: createHash('sha256').update('SKILL.md').update(validSkill('lint')).digest('hex'),
      createSquad: { commit, files: { 'SKILL.md': sha(validSkill('lint')) } },
    });
    expect(lock.skills['fenster/fmt']).toMatchObject({ source: url, sourceType: 'git', skillPath: 'skills/fmt/SKILL.md' });
    // Field order is the ecosystem's, then create-squad's own.
    expect(Object.keys(lock.skills.lint!)).toEqual(['source', 'sourceUrl', 'ref', 'sourceType', 'skillPath', 'computedHash', 'createSquad']);

    await runOk(root, ['skills', 'remove', 'lint']);
    expect(Object.keys(lockOf(root).skills)).toEqual(['fenster/fmt']);
    const update = await runCli(['skills', 'update', 'lint'], { cwd: root });
    expect(update.code).not.toBe(0);
  });
});

describe('skills check', () => {
  it('says unchanged, modified here (naming the files), update available, and source gone', async () => {
    const root = await initSquad(['--yes']);
    const { url, work } = gitSource({ 'lint/SKILL.md': validSkill('lint') });
    writeFiles(root, { 'shared/pdf/SKILL.md': validSkill('pdf'), 'shared/docs/SKILL.md': validSkill('docs') });
    const outside = tempDir('squad-lock-outside-');
    writeFiles(outside, { 'gone/SKILL.md': validSkill('gone') });
    await runOk(root, ['skills', 'add', url, '--path', 'lint']);
    await runOk(root, ['skills', 'add', 'shared/pdf']);
    await runOk(root, ['skills', 'add', 'shared/docs']);
    await runOk(root, ['skills', 'add', path.join(outside, 'gone')]);

    const clean = await check(root);
    expect(clean.code).toBe(0);
    expect(clean.data.skills.map((s) => [s.name, s.state])).toEqual([
      ['docs', 'unchanged'],
      ['gone', 'unchanged'],
      ['lint', 'unchanged'],
      ['pdf', 'unchanged'],
    ]);

    // Modified here: a file edited and one added in the installed copy.
    writeFiles(root, { '.github/skills/pdf/SKILL.md': `${validSkill('pdf')}\nLocal note.\n`, '.github/skills/pdf/extra.md': 'x\n' });
    // Update available: the git source's branch moved; the folder source's files changed.
    const moved = commitAndPush(work, { 'lint/SKILL.md': `${validSkill('lint')}\nMore.\n` });
    writeFiles(root, { 'shared/docs/SKILL.md': `${validSkill('docs')}\nNewer.\n` });
    // Source gone: the folder it was added from is no more.
    fs.rmSync(path.join(outside, 'gone'), { recursive: true });

    const after = await check(root);
    expect(after.code).toBe(1);
    const by = Object.fromEntries(after.data.skills.map((s) => [s.name, s]));
    expect(by.pdf!.state).toBe('modified');
    expect(by.pdf!.installed).toEqual({ state: 'modified', changed: ['SKILL.md'], added: ['extra.md'], removed: [] });
    expect(by.lint!.state).toBe('update-available');
    expect(by.lint!.source).toMatchObject({ state: 'update-available', commit: moved });
    expect(by.docs!.state).toBe('update-available');
    expect(by.gone!.state).toBe('source-gone');
    expect(after.data.summary).toEqual({ unchanged: 0, modified: 1, 'update-available': 2, 'source-gone': 1, 'not-installed': 0 });

    const text = await runCli(['skills', 'check', 'pdf'], { cwd: root });
    expect(text.code).toBe(1);
    expect(text.stderr).toContain('pdf: modified here (.github/skills/pdf/)');
    expect(text.stdout).toContain('  changed: SKILL.md');
    expect(text.stdout).toContain('  added: extra.md');

    // A git source whose repository is gone.
    fs.rmSync(path.join(path.dirname(work), 'skills.git'), { recursive: true });
    expect((await check(root, 'lint')).data.skills[0]!.state).toBe('source-gone');

    const unknown = await runCli(['skills', 'check', 'nope'], { cwd: root });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('skills-lock.json records no skill named "nope"');

    // doctor reports the modified skill, offline.
    const doctor = await runCli(['doctor', '--json'], { cwd: root });
    const findings = reportOf<{ findings: { code: string; path?: string; message: string }[] }>(doctor).findings;
    expect(findings.filter((f) => f.code === 'skill-lock-modified')).toEqual([
      expect.objectContaining({ path: '.github/skills/pdf', message: expect.stringContaining('SKILL.md, extra.md (added)') }),
    ]);
  });

  it('reads a lock another tool wrote: a skill in .agents/skills/, no create-squad fields', async () => {
    const root = await initSquad(['--yes']);
    const skill = validSkill('review');
    writeFiles(root, { '.agents/skills/review/SKILL.md': skill });
    const hash = createHash('sha256').update('SKILL.md').update(skill).digest('hex');
    writeFiles(root, {
      [LOCK]: `${JSON.stringify({ version: 1, skills: { review: { source: 'acme/skills', ref: 'v1', sourceType: 'github', skillPath: 'skills/review/SKILL.md', computedHash: hash } } }, null, 2)}\n`,
    });
    const clean = await check(root);
    expect(clean.data.skills).toEqual([
      expect.objectContaining({
        name: 'review',
        folder: '.agents/skills/review',
        state: 'unchanged',
        source: { state: 'not-checked', reason: expect.stringContaining('no commit') },
      }),
    ]);
    writeFiles(root, { '.agents/skills/review/SKILL.md': `${skill}\nchanged\n` });
    const edited = await check(root);
    expect(edited.data.skills[0]!.installed).toEqual({ state: 'modified', changed: [], added: [], removed: [] });
    expect((await runCli(['skills', 'check'], { cwd: root })).stdout).toContain('which keeps no hash per file');
  });
});

describe('git conflict markers', () => {
  const entry = (n: string) => `    "${n}": {\n      "source": "./shared/${n}",\n      "sourceType": "local",\n      "computedHash": "${'a'.repeat(64)}"\n    }`;

  it('are healed on read, both sides joined, and written clean by the next add', async () => {
    const root = await initSquad(['--yes']);
    writeFiles(root, {
      [LOCK]: `{\n  "version": 1,\n  "skills": {\n<<<<<<< HEAD\n${entry('one')}\n=======\n${entry('two')}\n>>>>>>> topic\n  }\n}\n`,
      'shared/three/SKILL.md': validSkill('three'),
    });
    const checked = await runCli(['skills', 'check', '--json'], { cwd: root });
    expect(checked.envelope().warnings.map((w) => w.code)).toEqual(['skill-lock-healed']);
    expect(reportOf<SkillsCheckData>(checked).skills.map((s) => [s.name, s.state])).toEqual([
      ['one', 'not-installed'],
      ['two', 'not-installed'],
    ]);
    await runOk(root, ['skills', 'add', 'shared/three']);
    const text = read(root, LOCK);
    expect(text).not.toContain('<<<<<<<');
    expect(Object.keys(lockOf(root).skills)).toEqual(['one', 'three', 'two']);
  });

  it('are refused, naming the skill, when both sides changed the same one', async () => {
    const root = await initSquad(['--yes']);
    const other = entry('one').replace('a'.repeat(64), 'b'.repeat(64));
    writeFiles(root, { [LOCK]: `{\n  "version": 1,\n  "skills": {\n<<<<<<< HEAD\n${entry('one')}\n=======\n${other}\n>>>>>>> topic\n  }\n}\n` });
    const result = await runCli(['skills', 'check'], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('skills-lock.json: both sides of a git conflict changed the skill "one"');
  });
});

describe('upgrade and export/import', () => {
  it('upgrade moves .ai-team/skill-sources.json into the lock, hashed as installed, and backs the old file up', async () => {
    const root = await initSquad(['--yes']);
    writeFiles(root, { 'shared/pdf/SKILL.md': validSkill('pdf') });
    await runOk(root, ['skills', 'add', 'shared/pdf']);
    const expected = read(root, LOCK);
    fs.rmSync(path.join(root, LOCK));
    writeFiles(root, {
      '.ai-team/skill-sources.json': `${JSON.stringify({ schema: 1, skills: { '.github/skills/pdf': { source: 'shared/pdf', type: 'folder', path: 'shared/pdf' }, '.github/skills/gone': { source: 'x', type: 'folder' } } }, null, 2)}\n`,
    });
    // Before the upgrade, update says where the records are and what moves them.
    const early = await runCli(['skills', 'update', 'pdf'], { cwd: root });
    expect(early.stderr.trim()).toBe(
      '✗ no source is recorded for .github/skills/pdf — run "create-squad upgrade": it moves the records of .ai-team/skill-sources.json into skills-lock.json',
    );
    const upgraded = await runOk(root, ['upgrade', '--json']);
    expect(read(root, LOCK)).toBe(expected);
    expect(listFiles(root)).not.toContain('.ai-team/skill-sources.json');
    expect(listFiles(root).filter((rel) => rel.endsWith('/skill-sources.json'))).toEqual([expect.stringMatching(/^\.ai-team\/backups\/[^/]+\/\.ai-team\/skill-sources\.json$/)]);
    expect(JSON.stringify(upgraded.data())).toContain('the record of .github/skills/gone: that skill is no longer installed');
    // Run again: nothing left to move.
    const before = hashTree(root);
    const again = await runOk(root, ['upgrade', '--json']);
    expect(JSON.stringify(again.data())).not.toContain('skill-sources');
    expect(read(root, LOCK)).toBe(expected);
    expect(before).toBe(hashTree(root));
  });

  it('upgrade killed between the lock and the move: the rerun writes nothing more to the lock and moves the old file', async () => {
    const root = await initSquad(['--yes']);
    writeFiles(root, { 'shared/pdf/SKILL.md': validSkill('pdf') });
    await runOk(root, ['skills', 'add', 'shared/pdf']);
    const expected = read(root, LOCK);
    // What the kill leaves: the lock written, the old file still there.
    writeFiles(root, {
      '.ai-team/skill-sources.json': `${JSON.stringify({ schema: 1, skills: { '.github/skills/pdf': { source: 'shared/pdf', type: 'folder', path: 'shared/pdf' } } })}\n`,
    });
    await runOk(root, ['upgrade']);
    expect(read(root, LOCK)).toBe(expected);
    expect(listFiles(root)).not.toContain('.ai-team/skill-sources.json');
  });

  it('export carries each skill with its lock entry, and import writes them into the lock of the new repository', async () => {
    const root = await initSquad(['--yes']);
    const { url } = gitSource({ 'lint/SKILL.md': validSkill('lint') });
    await runOk(root, ['skills', 'add', url, '--path', 'lint']);
    await runOk(root, ['skills', 'add', url, '--path', 'lint', '--agent', 'keaton']);
    const entries = lockOf(root).skills;
    const file = path.join(tempDir('squad-lock-export-'), 'team.squad');
    await runOk(root, ['export', '--out', file]);
    const target = tempDir('squad-lock-import-');
    git(target, 'init', '-q');
    writeFiles(target, { [LOCK]: `${JSON.stringify({ version: 1, skills: { theirs: { source: 'o/r', sourceType: 'github', computedHash: 'c'.repeat(64) } } }, null, 2)}\n` });
    await runOk(target, ['import', file]);
    expect(lockOf(target).skills).toEqual({ ...entries, theirs: { source: 'o/r', sourceType: 'github', computedHash: 'c'.repeat(64) } });
    expect((await check(target)).data.skills.filter((s) => s.name === 'lint').map((s) => s.state)).toEqual(['unchanged', 'unchanged']);

    // A file of an older create-squad carries the record of .ai-team/skill-sources.json: it becomes a lock entry (its hash left to the next update).
    const commit = (entries.lint!.createSquad as { commit: string }).commit;
    const document = JSON.parse(fs.readFileSync(file, 'utf8'));
    document.team_skills.lint.source = { source: `${url} --path lint`, type: 'git', url, subpath: 'lint', commit };
    fs.writeFileSync(file, JSON.stringify(document));
    const older = tempDir('squad-lock-import-old-');
    git(older, 'init', '-q');
    await runOk(older, ['import', file]);
    expect(lockOf(older).skills.lint).toEqual({ source: url, sourceUrl: url, sourceType: 'git', skillPath: 'lint/SKILL.md', computedHash: '', createSquad: { commit } });
    const fromOlder = (await check(older, 'keaton/lint', 'lint')).data.skills.map((s) => [s.key, s.state, s.installed.state]);
    expect(fromOlder).toEqual([
      ['keaton/lint', 'unchanged', 'unchanged'],
      ['lint', 'unchanged', 'no-hash'],
    ]);
  });
});
