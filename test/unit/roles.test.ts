import { describe, expect, it } from 'vitest';
import { SquadError } from '../../src/core/base/errors.js';
import { MAX_ROLE_LENGTH, checkRoles, defaultRoles, findRolePreset, normalizeRole, rolePresets, splitRoleList } from '../../src/core/roster/roles.js';

function usage(fn: () => unknown): SquadError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SquadError);
    expect((error as SquadError).code).toBe('usage');
    return error as SquadError;
  }
  throw new Error('expected a usage error');
}

describe('role presets', () => {
  it('offers Lead, Core Dev and Tester by default, each with routing and charter text', () => {
    expect(defaultRoles()).toEqual(['Lead', 'Core Dev', 'Tester']);
    expect(rolePresets().length).toBeGreaterThanOrEqual(6);
    for (const preset of rolePresets()) {
      expect(preset.handles, preset.title).not.toBe('');
      expect(preset.responsibilities.length, preset.title).toBeGreaterThan(0);
    }
    // No title or alias names two presets.
    const keys = rolePresets().flatMap((p) => [...new Set([p.title, ...p.aliases].map((a) => a.toLowerCase()))]);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('finds presets by title or alias, case-insensitively', () => {
    expect(findRolePreset('qa')?.title).toBe('Tester');
    expect(findRolePreset('  TECH   lead ')?.title).toBe('Lead');
    expect(findRolePreset('Release Manager')).toBeUndefined();
    expect(normalizeRole('frontend')).toBe('Frontend Dev');
    expect(normalizeRole('  Release   Manager ')).toBe('Release Manager');
  });
});

describe('role lists', () => {
  it('splits and normalizes', () => {
    expect(splitRoleList('Lead, core dev,,  qa ,')).toEqual(['Lead', 'core dev', 'qa']);
    expect(checkRoles(splitRoleList('Lead, core dev,qa,Tester'))).toEqual(['Lead', 'Core Dev', 'Tester', 'Tester']);
  });

  it('rejects an empty list, an empty role, Scribe and over-long roles', () => {
    expect(usage(() => checkRoles([])).hint).toContain('--no-team');
    usage(() => checkRoles(['Lead', '  ']));
    expect(usage(() => checkRoles(['scribe'])).message).toContain('Scribe');
    usage(() => checkRoles(['x'.repeat(MAX_ROLE_LENGTH + 1)]));
  });
});
