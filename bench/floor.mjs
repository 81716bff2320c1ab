#!/usr/bin/env node
/**
 * The floor the benchmark measures create-squad against: the least a program can do to offer a
 * folder of Agent Skills to a model. It lists the skill folders, reads the first kilobyte of each
 * SKILL.md and prints one `<skill>` line each; no parsing, no validation, no ranking.
 *
 *   node bench/floor.mjs <skills folder>...
 */
import fs from 'node:fs';
import path from 'node:path';

const buffer = Buffer.allocUnsafe(1024);
const lines = ['<available_skills>'];
for (const dir of process.argv.slice(2)) {
  let names;
  try {
    names = fs.readdirSync(dir).sort();
  } catch {
    continue;
  }
  for (const name of names) {
    const file = path.join(dir, name, 'SKILL.md');
    let fd;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      continue;
    }
    const n = fs.readSync(fd, buffer, 0, 1024, 0);
    fs.closeSync(fd);
    lines.push(`<skill><name>${name}</name><head>${n}</head><location>${file}</location></skill>`);
  }
}
lines.push('</available_skills>');
process.stdout.write(`${lines.join('\n')}\n`);
