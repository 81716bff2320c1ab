#!/usr/bin/env node
// The markdown check `npm run lint` runs: every table in docs/*.md and README.md renders. GitHub's
// renderer (GFM) keeps a row's first cells and drops or pads the rest when its count differs from
// the header's, turns the text right after a table into a row, and renderers disagree on a table
// that follows a paragraph line directly; and a link to a heading that no longer exists (a heading
// renamed) opens the page at its top. Each of these is a finding, with its file and line.
// Usage: node scripts/check-markdown.mjs [files…] (default: docs/*.md and README.md). Exit 1 on a finding.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const FENCE = /^\s*(`{3,}|~{3,})/;
const DELIMITER_CELL = /^\s*:?-+:?\s*$/;
// A line that starts another block and so ends a table (a blank line ends one too).
const BLOCK_START = /^\s*(?:#{1,6}(?:\s|$)|>|`{3,}|~{3,})/;

/** The cells of a table row as GFM splits it: an optional pipe at each end; `\|` is a pipe inside a cell. */
export function tableCells(line) {
  let text = line.trim();
  if (text.startsWith('|')) text = text.slice(1);
  if (text.endsWith('|') && !text.endsWith('\\|')) text = text.slice(0, -1);
  return text.split(/(?<!\\)\|/);
}

function isDelimiterRow(line) {
  return line.includes('-') && /^[\s|:-]+$/.test(line) && tableCells(line).every((cell) => DELIMITER_CELL.test(cell));
}

/** For each line, whether it is a fence line or inside fenced code (what the other checks skip). */
function fencedLines(lines) {
  let fence;
  return lines.map((line) => {
    const opening = FENCE.exec(line);
    if (fence !== undefined) {
      if (opening && opening[1][0] === fence[0] && opening[1].length >= fence.length && line.trim() === opening[1]) fence = undefined;
      return true;
    }
    if (opening) fence = opening[1];
    return opening !== null;
  });
}

/** The findings of one markdown text: `{line, message}`, line numbers from 1. */
export function checkMarkdown(text) {
  const lines = text.split(/\r?\n/);
  const findings = [];
  const fenced = fencedLines(lines);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (fenced[i]) continue;
    const next = lines[i + 1];
    if (!line.includes('|') || next === undefined || !isDelimiterRow(next)) continue;

    const columns = tableCells(line).length;
    const delimiterCells = tableCells(next).length;
    if (delimiterCells !== columns) {
      findings.push({ line: i + 1, message: `table header has ${columns} cells but its delimiter row has ${delimiterCells}: it does not render as a table` });
    }
    const before = i > 0 ? lines[i - 1] : '';
    if (before.trim() !== '') {
      findings.push({ line: i + 1, message: 'table is not preceded by a blank line: it may render as part of the paragraph above' });
    }
    let row = i + 2;
    for (; row < lines.length && lines[row].trim() !== '' && !BLOCK_START.test(lines[row]); row++) {
      const cells = tableCells(lines[row]).length;
      if (cells !== columns) {
        findings.push({
          line: row + 1,
          message: `table row has ${cells} cells, its header ${columns} (a "|" inside a cell is written "\\|"; text right after a table needs a blank line)`,
        });
      }
    }
    i = row - 1;
  }
  return findings;
}

/** The anchor GitHub gives a heading: lowercase, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a markdown text's headings (outside fenced code), a repeated one numbered as GitHub numbers it. */
export function anchorsOf(text) {
  const anchors = new Set();
  const lines = text.split(/\r?\n/);
  const fenced = fencedLines(lines);
  for (const [index, line] of lines.entries()) {
    if (fenced[index]) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = headingAnchor(heading[1]);
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/**
 * The findings of the links of `file` (a path) to a heading, `[text](#anchor)` or
 * `[text](other.md#anchor)`, whose heading does not exist: GitHub then opens the page at its top.
 */
export function checkAnchors(file, text, readFile = (target) => fs.readFileSync(target, 'utf8')) {
  const findings = [];
  const lines = text.split(/\r?\n/);
  const fenced = fencedLines(lines);
  lines.forEach((line, index) => {
    if (fenced[index]) return;
    for (const [, target, anchor] of line.matchAll(/\]\(([^()\s#]*\.md|)#([^()\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue;
      const targetFile = target === '' ? file : path.resolve(path.dirname(file), target);
      let targetText;
      try {
        targetText = target === '' ? text : readFile(targetFile);
      } catch {
        findings.push({ line: index + 1, message: `link to ${target}: no such file` });
        continue;
      }
      if (!anchorsOf(targetText).has(decodeURIComponent(anchor))) {
        findings.push({ line: index + 1, message: `link to ${target}#${anchor}: no heading has that anchor` });
      }
    }
  });
  return findings;
}

/** The files the check reads by default: the docs and the README. */
export function defaultFiles(root) {
  const docs = fs
    .readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => path.join('docs', name));
  return [...docs, 'README.md'];
}

function main() {
  const root = fileURLToPath(new URL('../', import.meta.url));
  const given = process.argv.slice(2);
  const files = given.length > 0 ? given.map((file) => path.resolve(file)) : defaultFiles(root).map((file) => path.join(root, file));
  let count = 0;
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    for (const { line, message } of [...checkMarkdown(text), ...checkAnchors(file, text)].sort((a, b) => a.line - b.line)) {
      process.stderr.write(`${path.relative(process.cwd(), file) || file}:${line}: ${message}\n`);
      count++;
    }
  }
  if (count > 0) {
    process.stderr.write(`markdown check: ${count} ${count === 1 ? 'finding' : 'findings'} in ${files.length} files\n`);
    process.exitCode = 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) main();
