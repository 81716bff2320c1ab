import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSkillSource } from '../../src/core/skills/skill-sources.js';

const here = fs.mkdtempSync(path.join(os.tmpdir(), 'squad-sources-'));
fs.mkdirSync(path.join(here, 'owner', 'repo'), { recursive: true });

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
    expect(() => parseSkillSource('o/r', here, { subpath: '../../etc' })).toThrow(/climbs out of it/);
  });
});
