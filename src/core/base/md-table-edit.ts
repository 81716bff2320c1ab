/**
 * Changing rows of a markdown table in a squad's state file (the roster, the routing table) while
 * every other byte stays as it is: rows are taken out whole, and a changed row is written again
 * from its cells. md-table.ts finds the tables; this file edits them.
 */
import { findTable, formatTableRow, splitTableRow, type TableRecord } from './md-table.js';

/** How a table is chosen: md-table's findTable test, whatever context it is given. */
export type TableTest = Parameters<typeof findTable>[1];

/** One data row of a table: its raw line (no line ending) and its cells keyed by lowercased column. */
export interface TableRow {
  line: string;
  record: TableRecord;
}

/** The rows of the first table `accept` takes, with its header and separator lines as written. */
export interface TableSnapshot {
  /** The header line and the separator line, without line endings. */
  head: [string, string];
  columns: string[];
  rows: TableRow[];
}

function record(cells: readonly string[], columns: readonly string[]): TableRecord {
  return Object.fromEntries(columns.map((column, i) => [column, cells[i] ?? '']));
}

/** The first table `accept` takes in `text`, or undefined. */
export function readTable(text: string, accept: TableTest): TableSnapshot | undefined {
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  const table = findTable(lines, accept);
  if (!table) return undefined;
  const rows = lines.slice(table.firstRow, table.end).map((line) => ({ line, record: record(splitTableRow(line) ?? [], table.columns) }));
  return { head: [lines[table.headerLine]!, lines[table.headerLine + 1]!], columns: table.columns, rows };
}

/**
 * `text` with each data row of the first table `accept` takes passed through `change`: undefined
 * keeps the row byte for byte, null takes it out, a record writes it again from those cells (in the
 * table's column order). Undefined when there is no such table.
 */
export function editTableRows(
  text: string,
  accept: TableTest,
  change: (row: TableRow) => TableRecord | null | undefined,
): { text: string; removed: TableRow[]; changed: TableRow[] } | undefined {
  const lines = text.split('\n');
  const table = findTable(lines, accept);
  if (!table) return undefined;
  const removed: TableRow[] = [];
  const changed: TableRow[] = [];
  const out: string[] = [];
  lines.forEach((raw, index) => {
    if (index < table.firstRow || index >= table.end) {
      out.push(raw);
      return;
    }
    const cr = raw.endsWith('\r') ? '\r' : '';
    const line = raw.slice(0, raw.length - cr.length);
    const row = { line, record: record(splitTableRow(line) ?? [], table.columns) };
    const next = change(row);
    if (next === undefined) out.push(raw);
    else if (next === null) removed.push(row);
    else {
      const written = formatTableRow(table.columns.map((column) => next[column] ?? ''));
      if (written === line) out.push(raw);
      else {
        changed.push({ line: written, record: next });
        out.push(`${written}${cr}`);
      }
    }
  });
  return { text: out.join('\n'), removed, changed };
}

/** A small markdown table: the header and separator as given, then `rows`, each line ended with `eol`. */
export function tableText(head: readonly [string, string], rows: readonly string[], eol = '\n'): string {
  return [...head, ...rows].map((line) => `${line}${eol}`).join('');
}
