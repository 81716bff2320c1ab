import { describe, expect, it } from 'vitest';
import { coordinatorBodyLength, readCoordinatorStamp, splitCoordinator, stampCoordinator } from '../../src/core/squad/coordinator.js';
import { parseManifest, serializeManifest } from '../../src/core/squad/manifest.js';

const SOURCE = '---\nname: Squad\ndescription: Team coordinator\n---\n\n# Squad\n\nBody.\n';

describe('coordinator stamp', () => {
  it('stamps the version on the first body line and reads it back', () => {
    const stamped = stampCoordinator(SOURCE, '1.2.3');
    expect(stamped).toBe('---\nname: Squad\ndescription: Team coordinator\n---\n<!-- create-squad: 1.2.3 -->\n\n# Squad\n\nBody.\n');
    expect(readCoordinatorStamp(stamped)).toBe('1.2.3');
  });

  it('restamping replaces the old stamp instead of adding one', () => {
    const twice = stampCoordinator(stampCoordinator(SOURCE, '1.0.0'), '2.0.0');
    expect(twice.match(/create-squad:/g)).toHaveLength(1);
    expect(readCoordinatorStamp(twice)).toBe('2.0.0');
    expect(stampCoordinator(twice, '2.0.0')).toBe(twice);
  });

  it('has no stamp when none was written, and survives CRLF', () => {
    expect(readCoordinatorStamp(SOURCE)).toBeUndefined();
    expect(readCoordinatorStamp(stampCoordinator(SOURCE.replace(/\n/g, '\r\n'), '0.9.0'))).toBe('0.9.0');
  });

  it('measures the body after the frontmatter in characters', () => {
    expect(splitCoordinator(SOURCE).body).toBe('\n# Squad\n\nBody.\n');
    expect(coordinatorBodyLength('---\na: b\n---\né😀')).toBe(2);
  });
});

describe('manifest', () => {
  const hash = 'a'.repeat(64);

  it('serializes deterministically with sorted paths', () => {
    const a = serializeManifest({ schema: 1, version: '1.0.0', files: { 'b.md': hash, 'a.md': hash } });
    const b = serializeManifest({ schema: 1, version: '1.0.0', files: { 'a.md': hash, 'b.md': hash } });
    expect(a).toBe(b);
    expect(a.indexOf('a.md')).toBeLessThan(a.indexOf('b.md'));
    expect(parseManifest(a)).toEqual({ state: 'ok', manifest: { schema: 1, version: '1.0.0', files: { 'a.md': hash, 'b.md': hash } } });
  });

  it.each([
    ['{', /not valid JSON/],
    ['[]', /not a JSON object/],
    ['{"version": 1, "files": {}}', /version/],
    ['{"version": "1", "files": []}', /files/],
    ['{"version": "1", "files": {"a": "xyz"}}', /sha256/],
  ])('reports %s as invalid', (text, reason) => {
    const read = parseManifest(text);
    expect(read.state).toBe('invalid');
    expect(read.state === 'invalid' && read.reason).toMatch(reason);
  });
});
