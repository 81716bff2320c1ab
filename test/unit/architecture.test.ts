/**
 * The module map of CONTRIBUTING.md, enforced: the domain never reaches up into the CLI or the
 * commands, and commands take nothing from the CLI but the types of its printer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';

const SRC = path.join(REPO_ROOT, 'src');

function sources(folder: string): string[] {
  return fs
    .readdirSync(path.join(SRC, folder), { recursive: true, encoding: 'utf8' })
    .filter((rel) => rel.endsWith('.ts'))
    .map((rel) => path.join(SRC, folder, rel));
}

/** Every import of a file: its specifier, and whether it imports types only. */
function imports(file: string): { specifier: string; typeOnly: boolean }[] {
  const text = fs.readFileSync(file, 'utf8');
  const found = [...text.matchAll(/^\s*import\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => ({ specifier: m[2]!, typeOnly: m[1] !== undefined }));
  const dynamic = [...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => ({ specifier: m[1]!, typeOnly: false }));
  return [...found, ...dynamic];
}

function resolved(file: string, specifier: string): string {
  return path.relative(SRC, path.resolve(path.dirname(file), specifier)).split(path.sep).join('/');
}

describe('the module map', () => {
  it('src/core imports nothing from src/cli or src/commands', () => {
    const offending = sources('core').flatMap((file) =>
      imports(file)
        .filter(({ specifier }) => specifier.startsWith('.'))
        .map(({ specifier }) => `${path.relative(SRC, file)} → ${resolved(file, specifier)}`)
        .filter((edge) => /→ (cli|commands)\//.test(edge)),
    );
    expect(offending).toEqual([]);
  });

  it('src/commands imports from src/cli only types', () => {
    const offending = sources('commands').flatMap((file) =>
      imports(file)
        .filter(({ specifier, typeOnly }) => specifier.startsWith('.') && !typeOnly && resolved(file, specifier).startsWith('cli/'))
        .map(({ specifier }) => `${path.relative(SRC, file)} → ${resolved(file, specifier)}`),
    );
    expect(offending).toEqual([]);
  });
});
