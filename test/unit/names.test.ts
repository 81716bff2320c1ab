import { describe, expect, it } from 'vitest';
import { MAX_NAME_LENGTH, folderNameProblem, isValidName, memberNameProblem, nameProblems, slugify } from '../../src/core/base/names.js';

describe('name rules', () => {
  it.each(['a', 'pdf', 'git-workflow', 'squad-code-review', 'a1', '1a', 'x-1-y', 'a'.repeat(MAX_NAME_LENGTH)])('accepts %s', (name) => {
    expect(nameProblems(name)).toEqual([]);
    expect(isValidName(name)).toBe(true);
  });

  it.each([
    ['', 'name-empty'],
    ['a'.repeat(MAX_NAME_LENGTH + 1), 'name-too-long'],
    ['PDF', 'name-uppercase'],
    ['Git-Workflow', 'name-uppercase'],
    ['git_workflow', 'name-invalid-chars'],
    ['git workflow', 'name-invalid-chars'],
    ['git.workflow', 'name-invalid-chars'],
    ['café', 'name-invalid-chars'],
    ['../escape', 'name-invalid-chars'],
    ['-leading', 'name-edge-hyphen'],
    ['trailing-', 'name-edge-hyphen'],
    ['double--hyphen', 'name-double-hyphen'],
  ])('rejects %j with %s', (name, code) => {
    expect(nameProblems(name).map((p) => p.code)).toContain(code);
    expect(isValidName(name)).toBe(false);
  });

  it('reports every broken rule at once', () => {
    const codes = nameProblems('-Bad--Name_').map((p) => p.code);
    expect(codes).toEqual(['name-uppercase', 'name-invalid-chars', 'name-edge-hyphen', 'name-double-hyphen']);
  });
});

describe('slugify', () => {
  it('turns text into a valid name', () => {
    expect(slugify('Always use Tailwind CSS!')).toBe('always-use-tailwind-css');
    expect(slugify('  Crème brûlée -- recipes ')).toBe('creme-brulee-recipes');
    expect(slugify('日本語')).toBe('');
  });

  it('cuts on a word boundary within the limit', () => {
    const slug = slugify('alpha beta gamma delta', 12);
    expect(slug).toBe('alpha-beta');
    expect(isValidName(slugify('word '.repeat(40)))).toBe(true);
    expect(slugify('x'.repeat(100)).length).toBe(MAX_NAME_LENGTH);
  });
});

describe('folder names', () => {
  it('adds the device names Windows reserves to the name rules', () => {
    expect(folderNameProblem('keaton')).toBeUndefined();
    expect(folderNameProblem('connie')).toBeUndefined();
    expect(folderNameProblem('con', 'agent name')).toBe('agent name "con" is a device name Windows reserves');
    for (const name of ['aux', 'nul', 'prn', 'com1', 'lpt9']) expect(folderNameProblem(name)).toMatch(/device name Windows reserves/);
    expect(folderNameProblem('Con')).toBe('name "Con" must be lowercase');
  });

  it('refuses a member name with a control character, a path separator, or a reserved folder', () => {
    expect(memberNameProblem('Dave Kujan')).toBeUndefined();
    expect(memberNameProblem('a/b')).toBe('contains a path separator (/ or \\)');
    expect(memberNameProblem('a\u0007')).toMatch(/^contains a control character/);
    expect(memberNameProblem('Con')).toBe('cannot be used: its folder name "con" is a device name Windows reserves');
    expect(memberNameProblem('LPT1')).toMatch(/its folder name "lpt1" is a device name/);
    expect(memberNameProblem('!!!')).toBeUndefined(); // no folder at all: the caller says so
  });
});
