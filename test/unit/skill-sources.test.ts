import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SquadError, isSquadError } from '../../src/core/base/errors.js';
import { SKILL_LOCK_PATH, emptyLock, parseLock } from '../../src/core/skills/skill-lock.js';
import { findRecord, parseSkillSource, readSources, recordChanges, recordWriteFailure, recordedSpec, type SourcesFile } from '../../src/core/skills/skill-sources.js';

const here = fs.mkdtempSync(path.join(os.tmpdir(), 'squad-sources-'));
fs.mkdirSync(path.join(here, 'owner', 'repo'), { recursive: true });
afterAll(() => fs.rmSync(here, { recursive: true, force: true }));

describe('parseSkillSource', () => {
  it('reads GitHub shorthands, URLs, pages, refs and folders inside', () => {
    const gh = (repo: string) => `https://github.com/${repo}.git`;
    expect(parseSkillSource('anthropics/skills', here)).toEqual({ type: 'git', url: gh('anthropics/skills'), subpath: '', shorthand: true });
    expect(parseSkillSource('anthropics/skills/document-skills/pdf#main', here)).toEqual({
      type: 'git',
      url: gh('anthropics/skills'),
      subpath: 'document-skills/pdf',
      ref: 'main',
      shorthand: true,
    });
    expect(parseSkillSource('github:owner/repo', here)).toEqual({ type: 'git', url: gh('owner/repo'), subpath: '' });
    expect(parseSkillSource('https://github.com/o/r/tree/v2/skills/pdf', here)).toEqual({ type: 'git', url: gh('o/r'), ref: 'v2', subpath: 'skills/pdf' });
    expect(parseSkillSource('https://github.com/o/r/blob/main/skills/pdf/SKILL.md', here)).toEqual({ type: 'git', url: gh('o/r'), ref: 'main', subpath: 'skills/pdf' });
    expect(parseSkillSource('https://git.example.com/team/skills.git#beta', here, { subpath: 'a/b/' })).toEqual({
      type: 'git',
      url: 'https://git.example.com/team/skills.git',
      ref: 'beta',
      subpath: 'a/b',
    });
    expect(parseSkillSource('git@github.com:o/r.git', here, { ref: 'v1' })).toEqual({ type: 'git', url: 'git@github.com:o/r.git', ref: 'v1', subpath: '' });
    expect(parseSkillSource('file:///srv/skills.git', here)).toEqual({ type: 'git', url: 'file:///srv/skills.git', subpath: '' });
  });

  it('takes a folder that exists over a shorthand, and refuses what is neither', () => {
    expect(parseSkillSource('owner/repo', here)).toEqual({ type: 'folder', dir: path.join(here, 'owner', 'repo') });
    expect(parseSkillSource('owner', here, { subpath: 'repo' })).toEqual({ type: 'folder', dir: path.join(here, 'owner', 'repo') });
    expect(() => parseSkillSource('owner', here, { ref: 'main' })).toThrow(/--ref is for a git source/);
    expect(() => parseSkillSource('./missing/skill', here)).toThrow(/does not exist/);
    expect(() => parseSkillSource('nothing', here)).toThrow(/does not exist/);
    expect(() => parseSkillSource('--upload-pack=x', here)).toThrow(/is not a skill source/);
    expect(() => parseSkillSource('o/r', here, { subpath: '../../etc' })).toThrow('--path "../../etc" climbs out of the source with ".."');
  });

  it('holds --path, the path in the text, the ref and the URL to one rule each', () => {
    const refused = (given: string, options: { ref?: string; subpath?: string } = {}) => {
      try {
        parseSkillSource(given, here, options);
      } catch (error) {
        if (isSquadError(error)) return `${error.code}: ${error.message}`;
        throw error;
      }
      return 'accepted';
    };
    expect(refused('o/r', { subpath: '/etc' })).toBe('usage: --path "/etc" is absolute: a folder inside the source is given relative to its top');
    expect(refused('o/r', { subpath: 'C:/Windows' })).toBe('usage: --path "C:/Windows" is absolute: a folder inside the source is given relative to its top');
    expect(refused('owner', { subpath: '../..' })).toBe('usage: --path "../.." climbs out of the source with ".."');
    expect(refused('github:o/r/a/../../..')).toBe('usage: the path inside the repository in "github:o/r/a/../../.." climbs out of the source with ".."');
    expect(refused('https://github.com/o/r/tree/main/%2e%2e/x')).toBe(
      'usage: the path inside the repository in "https://github.com/o/r/tree/main/%2e%2e/x" climbs out of the source with ".."',
    );
    expect(refused('o/r', { ref: '--upload-pack=x' })).toBe('usage: --ref "--upload-pack=x" starts with "-"');
    expect(refused('o/r#a..b')).toBe('usage: the ref in "o/r#a..b" is not a branch or tag name git accepts ("..")');
    expect(refused('o/r', { ref: 'x\u001b[31m' })).toBe('usage: --ref "x\\u001b[31m" contains a control character (U+001B)');
    expect(refused('o/r', { ref: 'v1.2' })).toBe('accepted');
    expect(refused('o/r', { ref: 'feature/one' })).toBe('accepted');
  });
});

describe('findRecord', () => {
  const file = (skills: Record<string, Record<string, unknown>>): SourcesFile => ({ ...emptyLock(), text: '', entries: skills });
  const hash = 'e'.repeat(64);
  const good = {
    source: 'https://example.com/s.git',
    sourceUrl: 'https://example.com/s.git',
    sourceType: 'git',
    skillPath: 'skills/pdf/SKILL.md',
    computedHash: hash,
    createSquad: { commit: 'a'.repeat(40) },
  };
  const refusal = (entry: unknown) => {
    try {
      findRecord(file({ pdf: entry as Record<string, unknown> }), '.github/skills/pdf');
    } catch (error) {
      if (isSquadError(error)) return `${error.code}: ${error.message} — ${error.hint}`;
      throw error;
    }
    return 'accepted';
  };
  const fix = (field: string) =>
    `correct its "${field}", or remove that entry and add the skill again with "create-squad skills add <source> --force" to record it anew; nothing was written`;

  it('reads an entry as a record, a GitHub one by owner/repo, and none for a skill without one', () => {
    expect(findRecord(file({ pdf: good }), '.github/skills/pdf')).toEqual({
      source: 'https://example.com/s.git --path skills/pdf',
      type: 'git',
      url: 'https://example.com/s.git',
      subpath: 'skills/pdf',
      commit: 'a'.repeat(40),
      hash: { computedHash: hash, files: {} },
    });
    expect(findRecord(file({ pdf: { source: 'acme/skills', ref: 'v1', sourceType: 'github', skillPath: 'SKILL.md', computedHash: hash } }), '.github/skills/pdf')).toMatchObject({
      type: 'git',
      url: 'https://github.com/acme/skills.git',
      ref: 'v1',
      subpath: '',
    });
    // A member's own skill is kept under <member>/<name>.
    expect(findRecord(file({ 'fenster/pdf': good }), '.ai-team/agents/fenster/skills/pdf')).toMatchObject({ url: 'https://example.com/s.git' });
    expect(findRecord(file({ 'fenster/pdf': good }), '.github/skills/pdf')).toBeUndefined();
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'squad-recorded-'));
    try {
      const root = path.join(base, 'repo');
      fs.mkdirSync(path.join(base, 'shared', 'pdf'), { recursive: true });
      fs.mkdirSync(root);
      // A relative record is resolved against the repository root, an absolute one taken as it is.
      expect(recordedSpec(root, findRecord(file({ x: { source: '../shared/pdf', sourceType: 'local', computedHash: hash } }), 'x')!, 'x')).toEqual({
        type: 'folder',
        dir: path.join(base, 'shared', 'pdf'),
      });
      const absolute = path.join(base, 'shared', 'pdf');
      expect(recordedSpec(root, findRecord(file({ x: { source: absolute, sourceType: 'local', computedHash: hash } }), 'x')!, 'x')).toEqual({ type: 'folder', dir: absolute });
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  it('holds every recorded field to the rule it obeys when typed, naming the file, the entry and the field', () => {
    const at = 'skills-lock.json: the entry of "pdf":';
    expect(refusal({ ...good, skillPath: '../../outside/SKILL.md' })).toBe(
      `invalid-format: ${at} "skillPath" "../../outside/SKILL.md" climbs out of the source with ".." — ${fix('skillPath')}`,
    );
    expect(refusal({ ...good, skillPath: '/etc/SKILL.md' })).toBe(
      `invalid-format: ${at} "skillPath" "/etc/SKILL.md" is absolute: a folder inside the source is given relative to its top — ${fix('skillPath')}`,
    );
    expect(refusal({ ...good, skillPath: 'a\\..\\..' })).toMatch(/"skillPath" "a\\\\\.\.\\\\\.\." climbs out/);
    expect(refusal({ ...good, sourceUrl: 'ext::sh -c touch% x' })).toBe(`invalid-format: ${at} "sourceUrl" "ext::sh -c touch% x" contains a space — ${fix('sourceUrl')}`);
    expect(refusal({ ...good, sourceUrl: undefined, source: '/srv/skills.git' })).toBe(
      `invalid-format: ${at} "source" "/srv/skills.git" is not a git URL (https://, ssh://, git://, file:// or user@host:path) — ${fix('source')}`,
    );
    expect(refusal({ ...good, ref: '-b' })).toBe(`invalid-format: ${at} "ref" "-b" starts with "-" — ${fix('ref')}`);
    expect(refusal({ ...good, createSquad: { commit: 'HEAD' } })).toBe(
      `invalid-format: ${at} "commit" "HEAD" is not a commit id (40 or 64 lowercase hex digits) — ${fix('commit')}`,
    );
    expect(refusal({ ...good, computedHash: 'abc' })).toBe(`invalid-format: ${at} "computedHash" "abc" is not a SHA-256 hash (64 lowercase hex digits) — ${fix('computedHash')}`);
    expect(refusal({ ...good, source: 'x\u001b]0;owned\u0007' })).toBe(
      `invalid-format: ${at} "source" "x\\u001b]0;owned\\u0007" contains a control character (U+001B) — ${fix('source')}`,
    );
    expect(refusal({ ...good, sourceType: 'well-known' })).toBe(
      `invalid-format: skills-lock.json: the entry of "pdf" has the source type "well-known": create-squad fetches folders and git repositories only — update that skill with the tool that added it (npx skills update); nothing was written`,
    );
    expect(refusal({ ...good, skillPath: 7 })).toBe(`invalid-format: ${at} "skillPath" is not text — ${fix('skillPath')}`);
    expect(refusal({ ...good, sourceType: undefined })).toBe(`invalid-format: ${at} "sourceType" is missing — ${fix('sourceType')}`);
  });

  it('refuses a file that is not JSON when a record is read from it', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'squad-records-'));
    fs.writeFileSync(path.join(root, 'skills-lock.json'), '{"skills": ');
    expect(() => findRecord(readSources(root), '.github/skills/pdf')).toThrow('skills-lock.json: the file is not valid JSON');
    fs.rmSync(root, { recursive: true, force: true });
  });
});

describe('recording sources as a change of the plan', () => {
  const record = { source: '../shared/pdf', type: 'folder' as const, path: '../shared/pdf', hash: { computedHash: 'e'.repeat(64), files: { 'SKILL.md': 'e'.repeat(64) } } };

  it('creates the lock when there is none, replaces it while it holds what was read, and changes nothing otherwise', () => {
    const none: SourcesFile = emptyLock();
    const [created] = recordChanges(none, { '.github/skills/pdf': record });
    expect(created).toEqual({ kind: 'create', path: SKILL_LOCK_PATH, content: expect.stringContaining('"source": "../shared/pdf"') });
    const text = (created as { content: string }).content;
    const there: SourcesFile = parseLock(text);
    expect(recordChanges(there, { '.github/skills/pdf': record })).toEqual([]);
    expect(recordChanges(there, { '.github/skills/docx': { ...record, source: '../shared/docx', path: '../shared/docx' } })).toEqual([
      { kind: 'replace', path: SKILL_LOCK_PATH, content: expect.stringContaining('"docx": {'), base: text },
    ]);
    // Nothing to record (a failed add where no skill landed) is no change, not an empty file.
    expect(recordChanges(none, {})).toEqual([]);
  });

  it('says a failed write of the record as bookkeeping-failed, and leaves every other failure as it is', () => {
    const full = new SquadError('not-writable', `cannot write ${SKILL_LOCK_PATH}: the disk is full`);
    expect(recordWriteFailure(full, 'installed pdf into .github/skills/pdf/', 'create-squad skills add ../pdf')).toMatchObject({
      code: 'bookkeeping-failed',
      message: `installed pdf into .github/skills/pdf/; could not record its source in ${SKILL_LOCK_PATH}: the disk is full`,
      hint: 'free some space and run "create-squad skills add ../pdf" again to record it',
      file: SKILL_LOCK_PATH,
    });
    const denied = new SquadError('not-writable', `cannot write ${SKILL_LOCK_PATH}: permission denied (EROFS)`);
    expect(recordWriteFailure(denied, 'done', 'again', true)?.hint).toBe(`make ${SKILL_LOCK_PATH} writable and run "again" again to record them`);
    // The file changed since it was read: the applier's conflict says what was written.
    expect(recordWriteFailure(new SquadError('conflict', `${SKILL_LOCK_PATH} changed while adding skills; nothing was written`), 'done', 'again')).toBeUndefined();
    expect(recordWriteFailure(new SquadError('not-writable', 'cannot write .github/skills/pdf/SKILL.md: the disk is full'), 'done', 'again')).toBeUndefined();
    expect(recordWriteFailure(new Error('boom'), 'done', 'again')).toBeUndefined();
  });
});
