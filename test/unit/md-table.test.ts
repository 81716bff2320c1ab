import { describe, expect, it } from 'vitest';
import { findTable, formatTableRow, insertTableRecords, insertTableRows, tableRecords, tableRows } from '../../src/core/base/md-table.js';

const accept = (columns: string[]) => columns.includes('name');
const DOC = '# Title\n\n| Other | X |\n|---|---|\n| a | b |\n\n| Name | Role |\n|------|------|\n| Keaton | Lead |\n\nAfter.\n';

describe('markdown tables', () => {
  it('finds the first accepted table and its rows', () => {
    const lines = DOC.split('\n');
    expect(findTable(lines, accept)).toEqual({ columns: ['name', 'role'], heading: 'Title', headingLine: 0, headerLine: 6, firstRow: 8, end: 9 });
    expect(tableRows(DOC, accept)).toEqual({ columns: ['name', 'role'], rows: ['| Keaton | Lead |'] });
    expect(tableRows('no table', accept)).toBeUndefined();
  });

  it('inserts rows after the last row, keeping every existing byte', () => {
    const out = insertTableRows(DOC, accept, ['| Fenster | Dev |'])!;
    expect(out).toBe(DOC.replace('| Keaton | Lead |\n', '| Keaton | Lead |\n| Fenster | Dev |\n'));
    expect(out.replace('| Fenster | Dev |\n', '')).toBe(DOC);
  });

  it('keeps CRLF files CRLF, and handles a table at the end of a file without a newline', () => {
    const crlf = DOC.replace(/\n/g, '\r\n');
    expect(insertTableRows(crlf, accept, ['| F | D |'])).toBe(crlf.replace('| Keaton | Lead |\r\n', '| Keaton | Lead |\r\n| F | D |\r\n'));
    expect(insertTableRows('| Name | Role |\n|---|---|\n| K | L |', accept, ['| F | D |'])).toBe('| Name | Role |\n|---|---|\n| K | L |\n| F | D |\n');
    expect(insertTableRows('| Name | Role |\n|---|---|\n', accept, ['| F | D |'])).toBe('| Name | Role |\n|---|---|\n| F | D |\n');
  });

  it('inserts above the closing rows that must stay last, and only above a closing run', () => {
    const table = '| Name | Role |\n|---|---|\n| Keaton | Lead |\n| Scribe | Logger |\n| Ralph | Monitor |\n\nAfter.\n';
    const last = (record: Record<string, string>) => ['Scribe', 'Ralph'].includes(record.name!);
    expect(insertTableRecords(table, accept, [{ name: 'Fenster', role: 'Dev' }], last)).toBe(table.replace('| Scribe', '| Fenster | Dev |\n| Scribe'));
    const middle = '| Name | Role |\n|---|---|\n| Scribe | Logger |\n| Keaton | Lead |';
    expect(insertTableRecords(middle, accept, [{ name: 'F', role: 'D' }], last)).toBe(`${middle}\n| F | D |\n`);
    const only = '| Name | Role |\n|---|---|\n| Scribe | Logger |\n';
    expect(insertTableRecords(only, accept, [{ name: 'F', role: 'D' }], last)).toBe('| Name | Role |\n|---|---|\n| F | D |\n| Scribe | Logger |\n');
  });

  it('returns undefined when there is no such table', () => {
    expect(insertTableRows('| A | B |\n|---|---|\n', accept, ['| x |'])).toBeUndefined();
  });

  it('lays records out in the columns of the table they go into', () => {
    const doc = '| Role | Notes | Name |\n|---|---|---|\n| Lead |  | Keaton |\n';
    expect(tableRecords(doc, accept)).toEqual({ columns: ['role', 'notes', 'name'], records: [{ role: 'Lead', notes: '', name: 'Keaton' }] });
    expect(insertTableRecords(doc, accept, [{ name: 'Ann | B', role: 'Dev', status: 'dropped: no such column' }])).toBe(`${doc}| Dev |  | Ann \\| B |\n`);
    expect(insertTableRecords('no table', accept, [{ name: 'x' }])).toBeUndefined();
    expect(formatTableRow(['a\nb', 'c|d'])).toBe('| a b | c\\|d |');
  });
});
