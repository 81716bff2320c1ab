/**
 * Markdown tables in the squad's state files (the roster in team.md, the routing table): find a
 * table by its header and add rows to it without changing a single existing byte.
 */
import { foldLines } from './util.js';

/** Cells of a table row (`| a | b |`), unescaping `\|`; undefined when the line is not a row. */
export function splitTableRow(line: string): string[] | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('|')) return undefined;
  const inner = trimmed.replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/** A table row (`| a | b |`) of `cells`, each one on one line with its pipes escaped. */
export function formatTableRow(cells: readonly string[]): string {
  return `| ${cells.map((cell) => foldLines(cell).replace(/\|/g, '\\|')).join(' | ')} |`;
}

/** A table row as cells keyed by lowercased column name. */
export type TableRecord = Record<string, string>;

/** True for a header separator row such as `|------|:---:|`. */
export function isTableSeparator(line: string): boolean {
  const cells = splitTableRow(line);
  return !!cells && cells.length > 0 && cells.every((cell) => /^:?-{1,}:?$/.test(cell));
}

/** Where a table stands in its file: the heading of the section it is in. */
export interface TableContext {
  /** Text of the nearest heading above the table (`## Members` → "Members"); undefined above any heading. */
  heading: string | undefined;
  /** Index of that heading's line; -1 above any heading. Tables of one section share it. */
  headingLine: number;
}

/** Which tables a caller wants: by their lowercased header cells, and where they stand. */
export type TableAccept = (columns: string[], context: TableContext) => boolean;

export interface TableLocation extends TableContext {
  /** Header cells, lowercased. */
  columns: string[];
  /** Index of the header line. */
  headerLine: number;
  /** Index of the first data line (right after the separator). */
  firstRow: number;
  /** Index just past the last data line. */
  end: number;
}

const HEADING = /^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Every table whose lowercased header cells (and context) satisfy `accept`, in file order; tables
 * inside fenced code blocks do not count. `lines` may keep their `\r` (rows are trimmed before
 * they are read).
 */
export function findTables(lines: readonly string[], accept: TableAccept): TableLocation[] {
  const found: TableLocation[] = [];
  let context: TableContext = { heading: undefined, headingLine: -1 };
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!.replace(/\r$/, '');
    const opener = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (opener !== undefined && opener[0] === fence[0] && opener.length >= fence.length && line.trim() === opener) fence = undefined;
      continue;
    }
    if (opener !== undefined) {
      fence = opener;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      context = { heading: heading[1]!, headingLine: i };
      continue;
    }
    const header = splitTableRow(line);
    if (!header || i + 1 >= lines.length || !isTableSeparator(lines[i + 1]!)) continue;
    const columns = header.map((cell) => cell.toLowerCase());
    let end = i + 2;
    while (end < lines.length && splitTableRow(lines[end]!)) end += 1;
    if (accept(columns, context)) found.push({ columns, ...context, headerLine: i, firstRow: i + 2, end });
    i = end - 1;
  }
  return found;
}

/** The first table `accept` accepts (see findTables). */
export function findTable(lines: readonly string[], accept: TableAccept): TableLocation | undefined {
  return findTables(lines, accept)[0];
}

/** Data rows of the first table accepted by `accept`, as raw lines (without line endings). */
export function tableRows(text: string, accept: TableAccept): { columns: string[]; rows: string[] } | undefined {
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  const table = findTable(lines, accept);
  return table && { columns: table.columns, rows: lines.slice(table.firstRow, table.end) };
}

/**
 * `text` with `rows` added after the last row of the first table accepted by `accept`, or above
 * its closing run of rows for which `keepLast` holds (the Scribe stays the roster's last row);
 * every existing byte is kept, and the file's line ending (LF or CRLF) is used for the new lines.
 * Undefined when there is no such table.
 */
export function insertTableRows(text: string, accept: TableAccept, rows: readonly string[], keepLast?: (cells: string[], columns: string[]) => boolean): string | undefined {
  const lines = text.split('\n');
  const table = findTable(lines, accept);
  if (!table) return undefined;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const added = rows.map((row) => `${row}${eol}`).join('');
  let at = table.end;
  while (keepLast && at > table.firstRow && keepLast(splitTableRow(lines[at - 1]!)!, table.columns)) at -= 1;
  if (at === lines.length) {
    // The table's last row is the file's last line, without a line ending.
    const body = text.endsWith('\n') ? text : `${text}${eol}`;
    return `${body}${added}`;
  }
  let offset = 0;
  for (let i = 0; i < at; i += 1) offset += lines[i]!.length + 1;
  return `${text.slice(0, offset)}${added}${text.slice(offset)}`;
}

/** Data rows of the first table accepted by `accept`, as records keyed by its (lowercased) columns. */
export function tableRecords(text: string, accept: TableAccept): { columns: string[]; records: TableRecord[] } | undefined {
  const table = tableRows(text, accept);
  if (!table) return undefined;
  const records = table.rows.map((row) => toRecord(splitTableRow(row) ?? [], table.columns));
  return { columns: table.columns, records };
}

/** The data rows of `table` (found in `lines`) as records keyed by its columns. */
export function locatedRecords(lines: readonly string[], table: TableLocation): TableRecord[] {
  return lines.slice(table.firstRow, table.end).map((row) => toRecord(splitTableRow(row) ?? [], table.columns));
}

/**
 * `text` with `records` added as rows of the first table accepted by `accept`, each cell in that
 * table's own column order (a column the record lacks stays empty, a key the table lacks is left
 * out); every existing byte is kept. Undefined when there is no such table.
 */
export function insertTableRecords(text: string, accept: TableAccept, records: readonly TableRecord[], keepLast?: (record: TableRecord) => boolean): string | undefined {
  const table = findTable(text.split('\n'), accept);
  if (!table) return undefined;
  const rows = records.map((record) => formatTableRow(table.columns.map((column) => record[column] ?? '')));
  return insertTableRows(text, accept, rows, keepLast && ((cells, columns) => keepLast(toRecord(cells, columns))));
}

function toRecord(cells: readonly string[], columns: readonly string[]): TableRecord {
  return Object.fromEntries(columns.map((column, i) => [column, cells[i] ?? '']));
}
