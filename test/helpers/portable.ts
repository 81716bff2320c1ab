/** Squads to export and import in tests: a real `init` squad plus learned skills of every kind. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ARCHIVE_PREFIX, IMPORT_STAGING_PREFIX, agentSkillDir, historyPath, nativeTeamSkillDir } from '../../src/core/base/paths.js';
import { copyTree, hashTree, runCli, tempDir, tempRepo, validSkill, writeFiles } from './cli.js';

/** Bytes that are not UTF-8 (a PNG header and random bytes from a fixed seed). */
export const BINARY_ASSET = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe, 0x00, 0xc3]),
  crypto.createHash('sha512').update('asset').digest(),
]);

export const REACT_SKILL = 'react-component-patterns';
export const TEAM_SKILL = 'api-design';

/**
 * A squad made by `init --yes` (Keaton, Fenster, Hockney, Scribe) with: an agent skill with nested
 * references, an executable script, a binary asset, a BOM + CRLF text file and a dot-file; a team
 * skill; and a history with an e-mail address and a token in it.
 *
 * A fresh git repository each call: a copy of one such squad made once per test file (`init` and
 * the writes run once; copying the tree, modes and all, is far cheaper than running them again).
 */
export async function sourceSquad(): Promise<string> {
  if (sourceTemplate === undefined || !fs.existsSync(sourceTemplate)) sourceTemplate = await makeSourceSquad();
  const dir = tempDir('squad-repo-');
  copyTree(sourceTemplate, dir);
  return dir;
}

let sourceTemplate: string | undefined;

async function makeSourceSquad(): Promise<string> {
  const root = tempRepo();
  const init = await runCli(['init', '--yes', '--project', 'Dashboard', '--stack', 'React'], { cwd: root });
  if (init.code !== 0) throw new Error(init.stderr);
  const react = agentSkillDir('fenster', REACT_SKILL);
  writeFiles(root, {
    [`${react}/SKILL.md`]: validSkill(REACT_SKILL, 'React component patterns. Use when building React components.', 'metadata:\n  author: fenster\n  version: "1.2"'),
    [`${react}/references/hook-patterns.md`]: '# Hooks\n\nPrefer custom hooks.\n',
    [`${react}/references/deep/nested/state.md`]: '# State\n\nLift state up.\n',
    [`${react}/scripts/generate.sh`]: '#!/bin/sh\necho generate\n',
    [`${react}/assets/logo.png`]: BINARY_ASSET,
    [`${react}/notes/crlf.txt`]: '\uFEFFline one\r\nline two\r\n',
    [`${react}/.hidden-config`]: 'hidden=true\n',
    [`${nativeTeamSkillDir(TEAM_SKILL)}/SKILL.md`]: validSkill(TEAM_SKILL, 'API design rules. Use when adding endpoints.'),
    [`${nativeTeamSkillDir(TEAM_SKILL)}/references/errors.md`]: '# Errors\n\nUse problem+json.\n',
  });
  fs.chmodSync(path.join(root, react, 'scripts/generate.sh'), 0o755);
  const history = fs.readFileSync(path.join(root, historyPath('fenster')), 'utf8');
  fs.writeFileSync(
    path.join(root, historyPath('fenster')),
    history
      .replace(/(## Portable Knowledge\n\n)<!--.*-->/, '$1- Ada likes small pull requests.\n- Ask ada@example.com before a release.')
      .concat('\n- The orders API lives in src/api/orders.ts; deploy token: ghp_abcdefghijklmnopqrstuvwxyz0123456789AB\n'),
  );
  return root;
}

let sourceFile: string | undefined;

/**
 * A fresh copy of the `.squad` file `export` writes for the `sourceSquad()` squad: the export runs
 * once per test file. For tests where the file is only where an import starts from; tests of
 * export itself run it.
 */
export async function sourceExport(name = 'team.squad'): Promise<string> {
  if (sourceFile === undefined || !fs.existsSync(sourceFile)) {
    const out = path.join(tempDir(), 'team.squad');
    const result = await runCli(['export', '--out', out], { cwd: await sourceSquad() });
    if (result.code !== 0) throw new Error(`export: ${result.stderr}`);
    sourceFile = out;
  }
  const copy = path.join(tempDir(), name);
  fs.copyFileSync(sourceFile, copy);
  return copy;
}

/** Every file of a folder (paths, bytes, executable bits) as one hash. */
export function skillTreeHash(root: string, relDir: string): string {
  return hashTree(path.join(root, relDir));
}

/** The names at the top of a folder that are import staging or archive folders. */
export function debris(root: string): string[] {
  return fs.readdirSync(root).filter((name) => name.startsWith(IMPORT_STAGING_PREFIX) || name.startsWith(ARCHIVE_PREFIX));
}
