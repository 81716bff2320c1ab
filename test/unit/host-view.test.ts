/** The Copilot CLI's loading rules as create-squad models them: each row is what CLI 1.0.102 did when measured. */
import { describe, expect, it } from 'vitest';
import { copilotCliView, describeHostView, hostViewOf, vscodeView } from '../../src/core/skills/host-view.js';

const loads = (as: string) => ({ loads: true, as });
const fails = (why: RegExp) => ({ loads: false, why: expect.stringMatching(why) });

describe('copilotCliView', () => {
  const rows: [string, Record<string, unknown>, unknown][] = [
    ['a standard skill', { name: 'api-style', description: 'x' }, loads('api-style')],
    ['no name: the folder', { description: 'x' }, loads('folder')],
    ['an empty name', { name: '', description: 'x' }, fails(/not be empty/)],
    ['a null name', { name: null, description: 'x' }, fails(/must be a string/)],
    ['a number for a name', { name: 123, description: 'x' }, fails(/must be a string/)],
    ['capitals kept', { name: 'Wrong-Case', description: 'x' }, loads('Wrong-Case')],
    ['padding trimmed', { name: '  padded  ', description: 'x' }, loads('padded')],
    ['runs of spaces become one hyphen', { name: 'a  b', description: 'x' }, loads('a-b')],
    ['colons, dots and underscores kept', { name: 'a:b.c_d', description: 'x' }, loads('a:b.c_d')],
    ['a leading hyphen', { name: '-lead', description: 'x' }, fails(/start with a letter or digit/)],
    ['a tab', { name: 'tab\tname', description: 'x' }, fails(/start with a letter or digit/)],
    ['65 characters', { name: 'a'.repeat(65), description: 'x' }, fails(/at most 64/)],
    ['64 characters after trimming', { name: `  ${'b'.repeat(64)} `, description: 'x' }, loads('b'.repeat(64))],
    ['no description', { name: 'n' }, loads('n')],
    ['a number for a description', { name: 'n', description: 42 }, fails(/description must be a string/)],
    ['1,024 characters of description', { name: 'n', description: 'y'.repeat(1024) }, loads('n')],
    ['1,025 characters of description', { name: 'n', description: 'y'.repeat(1025) }, fails(/at most 1024/)],
  ];
  for (const [title, frontmatter, expected] of rows) {
    it(title, () => expect(copilotCliView(frontmatter, undefined, 'folder')).toEqual(expected));
  }

  it('frontmatter that is not a mapping loads under the folder name; a broken one fails; an unmeasured one is not guessed', () => {
    expect(copilotCliView(undefined, 'frontmatter-not-mapping', 'folder')).toEqual(loads('folder'));
    for (const code of ['frontmatter-missing', 'frontmatter-unclosed', 'frontmatter-yaml']) {
      expect(copilotCliView(undefined, code, 'folder')).toEqual(fails(/malformed YAML frontmatter/));
    }
    expect(copilotCliView(undefined, 'frontmatter-too-large', 'folder')).toBeUndefined();
  });
});

describe('hostViewOf and its sentence', () => {
  it('says nothing for a valid skill directly in its folder', () => {
    expect(hostViewOf({ frontmatter: { name: 'x', description: 'd' }, errors: [], valid: true, dirName: 'x', nested: false })).toBeUndefined();
  });

  it('a nested valid skill: the CLI loads it, VS Code documents skills one level down', () => {
    const view = hostViewOf({ frontmatter: { name: 'x', description: 'd' }, errors: [], valid: true, dirName: 'x', nested: true })!;
    expect(view).toEqual({ copilotCli: loads('x'), vscode: { loads: false, why: expect.stringContaining('directly in the skills folder') }, standard: { valid: true } });
    expect(describeHostView(view, 'x')).toBe('the Copilot CLI loads it; VS Code may not (its documentation places each skill directly in the skills folder)');
  });

  it('an invalid name the CLI still loads', () => {
    const errors = [{ code: 'name-uppercase', field: 'name', message: 'm' }];
    const view = hostViewOf({ frontmatter: { name: 'Wrong-Case', description: 'd' }, errors, valid: false, dirName: 'wrong-case', nested: false })!;
    expect(describeHostView(view, 'wrong-case')).toBe(
      'the Copilot CLI loads it as "Wrong-Case"; VS Code may not (its documentation requires a lowercase name equal to the folder and a description); the Agent Skills standard refuses it',
    );
    expect(vscodeView(errors, false).loads).toBe(false);
  });
});
