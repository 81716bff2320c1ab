/**
 * factsAfter (base/planned-facts.ts): the disk as a plan leaves it. A folder's names come from an
 * index of the planned paths built once, and a planned file's bytes are made only when asked:
 * these pin that both answer exactly what the planned changes say.
 */
import { describe, expect, it } from 'vitest';
import type { DiskFacts } from '../../src/core/base/disk-facts.js';
import type { Change } from '../../src/core/base/plan.js';
import { factsAfter } from '../../src/core/base/planned-facts.js';

/** A disk holding `folders` (repo-relative, each with the names given) and nothing else. */
function diskWith(folders: Record<string, string[]>): DiskFacts {
  const isFolder = (relPath: string) => relPath in folders;
  const isFileThere = (relPath: string) => Object.entries(folders).some(([dir, names]) => names.includes(relPath.slice(dir.length + 1)) && !isFolder(relPath));
  return {
    root: '/repo',
    blocked: () => undefined,
    exists: (relPath) => isFolder(relPath) || isFileThere(relPath),
    isFile: isFileThere,
    isDirectory: isFolder,
    kind: (relPath) => (isFolder(relPath) ? 'folder' : isFileThere(relPath) ? 'file' : 'missing'),
    bytes: (relPath) => (isFileThere(relPath) ? Buffer.from(`disk ${relPath}`) : undefined),
    mode: () => 0o644,
    names: (relPath) => folders[relPath] ?? [],
    missingOrEmpty: (relPath) => (folders[relPath] ?? []).length === 0,
  };
}

describe('factsAfter', () => {
  const disk = diskWith({ '.github': ['skills'], '.github/skills': ['kept'], '.github/skills/kept': ['SKILL.md'] });
  const changes: Change[] = [
    {
      kind: 'tree',
      path: '.ai-team',
      files: [
        { path: 'team.md', content: '# Team\n' },
        { path: 'agents/ada/skills/tool/SKILL.md', content: 'tool' },
        { path: 'agents/ada/skills/tool/references/deep/notes.md', content: new Uint8Array([1, 2]) },
        { path: 'skills/shared/SKILL.md', content: 'shared', mode: 0o755 },
      ],
    },
    { kind: 'create', path: '.github/agents/ada.agent.md', content: 'agent' },
    { kind: 'move', from: '.ai-team/skills/shared', to: '.github/skills/shared' },
    { kind: 'remove', path: '.ai-team/team.md' },
  ];
  const after = factsAfter(disk, changes);

  it('lists each folder with the disk names it keeps and every name the plan puts there, at any depth', () => {
    expect(after.names('.ai-team').sort()).toEqual(['agents', 'skills']);
    expect(after.names('.ai-team/agents/ada/skills/tool')).toEqual(['SKILL.md', 'references']);
    expect(after.names('.ai-team/agents/ada/skills/tool/references')).toEqual(['deep']);
    expect(after.names('.ai-team/skills')).toEqual([]);
    expect(after.names('.github').sort()).toEqual(['agents', 'skills']);
    expect(after.names('.github/skills').sort()).toEqual(['kept', 'shared']);
    expect(after.names('.github/skills/shared')).toEqual(['SKILL.md']);
    expect(after.names('.ai-team/agents/ada/skills/tool/SKILL.md')).toEqual([]);
    expect(after.isDirectory('.ai-team/agents/ada/skills/tool/references/deep')).toBe(true);
    expect(after.exists('.ai-team/team.md')).toBe(false);
  });

  it('answers a planned file with its content as bytes and its mode, a file on disk from the disk', () => {
    expect(after.bytes('.github/skills/shared/SKILL.md')).toEqual(Buffer.from('shared'));
    expect(after.mode('.github/skills/shared/SKILL.md')).toBe(0o755);
    expect(after.bytes('.ai-team/agents/ada/skills/tool/references/deep/notes.md')).toEqual(Buffer.from([1, 2]));
    expect(after.bytes('.github/agents/ada.agent.md')).toEqual(Buffer.from('agent'));
    expect(after.bytes('.github/skills/kept/SKILL.md')).toEqual(Buffer.from('disk .github/skills/kept/SKILL.md'));
    expect(after.bytes('.ai-team/team.md')).toBeUndefined();
  });
});
