import { describe, expect, it } from 'vitest';
import { closestMatch, editDistance } from '../../src/core/base/edit-distance.js';

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['abc', '', 3],
    ['upgrade', 'uprade', 1],
    ['init', 'inti', 2],
    ['kitten', 'sitting', 3],
  ])('%j vs %j = %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe('closestMatch', () => {
  const commands = ['init', 'hire', 'skills', 'teach', 'prompt', 'route', 'upgrade', 'export', 'import', 'doctor'];
  it('suggests a command within distance 2', () => {
    expect(closestMatch('uprade', commands)).toBe('upgrade');
    expect(closestMatch('DOCTR', commands)).toBe('doctor');
    expect(closestMatch('exprt', commands)).toBe('export');
  });
  it('suggests nothing for a word far from every command', () => {
    expect(closestMatch('my-app', commands)).toBeUndefined();
    expect(closestMatch('frobnicate', commands)).toBeUndefined();
  });
});
