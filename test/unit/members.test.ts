import { describe, expect, it } from 'vitest';
import { addAlumniLine, alumniLines, removeAlumniLines } from '../../src/core/roster/members.js';
import { editTableRows, readTable } from '../../src/core/base/md-table-edit.js';

const member = '- McManus — DevOps — retired 2026-01-02, files in .ai-team/agents/_alumni/mcmanus/';

describe('the Alumni section', () => {
  it('is made at the end, read back, and taken away again byte for byte', () => {
    for (const eol of ['\n', '\r\n']) {
      for (const team of [
        `# Team${eol}${eol}text${eol}`,
        `# Team${eol}${eol}text`,
        `# Team${eol}${eol}## Alumni${eol}${eol}- Kobayashi — DevOps — retired 2025-05-05${eol}${eol}## Notes${eol}${eol}kept${eol}`,
      ]) {
        const added = addAlumniLine(team, member);
        expect(added.split(eol).join('\n').includes('\r'), JSON.stringify(added)).toBe(false);
        const lines = alumniLines(added);
        const mine = lines.find((line) => line.name === 'McManus')!;
        expect(mine).toMatchObject({ role: 'DevOps', retired: '2026-01-02' });
        const removed = removeAlumniLines(added, [mine.index]);
        expect(removed, JSON.stringify(team)).toBe(team.endsWith(eol) || team.includes('Alumni') ? team : `${team}${eol}`);
      }
    }
  });

  it('keeps a section that still lists someone, or holds text of its own', () => {
    const team = `# Team\n\n## Alumni\n\nThey left on good terms.\n`;
    const added = addAlumniLine(team, member);
    expect(added).toBe(`# Team\n\n## Alumni\n\nThey left on good terms.\n${member}\n`);
    expect(removeAlumniLines(added, [alumniLines(added)[0]!.index])).toBe(team);
  });
});

describe('table rows', () => {
  it('takes rows out and writes changed ones again, keeping every other byte and the line endings', () => {
    const text = 'intro\r\n\r\n| Name | Role |\r\n|---|:---:|\r\n| A  | x |\r\n| B | y |\r\n\r\nafter\r\n';
    const edited = editTableRows(
      text,
      (columns) => columns.includes('name'),
      (row) => (row.record.name === 'A' ? null : { ...row.record, role: 'z|w' }),
    )!;
    expect(edited.text).toBe('intro\r\n\r\n| Name | Role |\r\n|---|:---:|\r\n| B | z\\|w |\r\n\r\nafter\r\n');
    expect(edited.removed.map((row) => row.line)).toEqual(['| A  | x |']);
    expect(readTable(edited.text, (columns) => columns.includes('name'))!.rows.map((row) => row.record)).toEqual([{ name: 'B', role: 'z|w' }]);
  });
});
