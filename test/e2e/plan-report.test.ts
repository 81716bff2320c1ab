/**
 * What a writing command says is what it does. For each writing command, on several squads (fresh,
 * grown, an older create-squad's, the original Squad's): its `--dry-run --json` changes, its real
 * `--json` changes, its text output and its commit hint are compared with what the real run changed
 * on disk, file by file. Every changed file is named by a change, every change names something
 * that changed, the dry run says the same as the real run, and `git add -A --` of the hint covers
 * every change.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChangeSummary } from '../../src/core/base/plan.js';
import { ALUMNI_DIR, squadPaths } from '../../src/core/base/paths.js';
import { cleanupTempDirs, initSquad, runCli, runOk, tempDir, tempRepo, validSkill, writeFiles } from '../helpers/cli.js';
import { writeOriginalSquad } from '../helpers/original-squad.js';
import { sourceExport, sourceSquad } from '../helpers/portable.js';
import { fixtureRepo } from '../helpers/upgrade.js';
import { normalized, stampless } from '../helpers/changes.js';

afterAll(cleanupTempDirs);

/** Every entry below `root` but git's own folder: a file by its mode and bytes, a link by its target, a folder as such. */
function snapshot(root: string): Map<string, string> {
  const entries = new Map<string, string>();
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (child === '.git') continue;
      const abs = path.join(root, child);
      if (entry.isSymbolicLink()) entries.set(child, `link:${fs.readlinkSync(abs)}`);
      else if (entry.isDirectory()) {
        entries.set(child, 'folder');
        walk(child);
      } else {
        const mode = fs.statSync(abs).mode & 0o777;
        entries.set(child, `${mode.toString(8)}:${crypto.createHash('sha256').update(fs.readFileSync(abs)).digest('hex')}`);
      }
    }
  };
  walk('');
  return entries;
}

/** The files and links that differ between two snapshots (folders only when made or removed empty). */
function changedOnDisk(before: Map<string, string>, after: Map<string, string>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  const changed = [...paths].filter((p) => before.get(p) !== after.get(p));
  // A folder counts only when nothing below it changed (an empty folder made or removed).
  return changed.filter((p) => !changed.some((q) => q.startsWith(`${p}/`))).sort();
}

/** Every path a change names (a move by both ends, a backup by its copy). */
function namedPaths(changes: ChangeSummary): string[] {
  return [...changes.created, ...changes.replaced, ...changes.moved.flatMap((m) => [m.from, m.to]), ...changes.backedUp.map((b) => b.backup), ...changes.removed];
}

const within = (p: string, parent: string) => p === parent || p.startsWith(`${parent}/`);

/** A path is shown by itself, or within a folder of two levels or more shown as a group ("x/y/"). */
function shownIn(text: string, p: string): boolean {
  if (text.includes(p)) return true;
  const parts = p.split('/');
  return parts.slice(2).some((_, i) => new RegExp(`(^|\\s)${escapeRegExp(parts.slice(0, i + 2).join('/'))}/(\\s|$)`, 'm').test(text));
}

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Scenario {
  name: string;
  /** A repository ready for the command. */
  setup: () => Promise<string>;
  args: (root: string) => string[] | Promise<string[]>;
  /** The dry run lists only the first of two steps (the real run lists both). */
  dryRunListsFirstStepOnly?: boolean;
}

/** The first member of a fresh squad's roster that is not Scribe. */
function aMember(root: string): string {
  return fs
    .readdirSync(path.join(root, squadPaths.agents))
    .filter((name) => !name.startsWith('_') && name !== 'scribe')
    .sort()[0]!;
}

async function withAddedSkill(): Promise<{ root: string; source: string }> {
  const root = await initSquad();
  const source = path.join(tempDir(), 'release-notes');
  writeFiles(source, { 'SKILL.md': validSkill('release-notes', 'Release notes. Use when writing release notes.'), 'references/style.md': '# Style\n' });
  await runOk(root, ['skills', 'add', source]);
  return { root, source };
}

const SCENARIOS: Scenario[] = [
  { name: 'init in an empty repository', setup: async () => tempRepo(), args: () => ['init', '--yes'] },
  {
    name: 'init --mcp on a complete squad',
    // create-squad installed in the repository: the entries run it (init --mcp refuses without).
    setup: async () => {
      const root = await initSquad();
      writeFiles(root, { 'node_modules/.bin/create-squad': '#!/bin/sh\n' });
      return root;
    },
    args: () => ['init', '--yes', '--mcp', 'vscode,cli'],
  },
  { name: 'hire', setup: () => initSquad(), args: () => ['hire', 'Tester'] },
  { name: 'hire on a grown squad', setup: () => sourceSquad(), args: () => ['hire', 'Designer', '--name', 'Ada'] },
  { name: 'retire', setup: () => initSquad(), args: (root) => ['retire', aMember(root)] },
  {
    name: 'rehire',
    setup: async () => {
      const root = await initSquad();
      await runOk(root, ['retire', aMember(root)]);
      return root;
    },
    args: (root) => ['rehire', fs.readdirSync(path.join(root, ALUMNI_DIR)).sort()[0]!],
  },
  { name: 'role', setup: () => initSquad(), args: (root) => ['role', aMember(root), 'Security', 'Reviewer'] },
  { name: 'model', setup: () => initSquad(), args: (root) => ['model', aMember(root), 'gpt-5', '--effort', 'low'] },
  { name: 'model --default', setup: () => initSquad(), args: () => ['model', '--default', 'claude-sonnet-4.5'] },
  { name: 'teach a rule', setup: () => initSquad(), args: (root) => ['teach', aMember(root), 'Always run the linter before committing', '--rule'] },
  { name: 'teach the team a rule', setup: () => initSquad(), args: () => ['teach', '--team', 'Never push to main directly', '--rule'] },
  { name: 'teach a skill', setup: () => initSquad(), args: (root) => ['teach', aMember(root), 'When deploying, first run the smoke tests, then tag the release', '--skill'] },
  {
    name: 'skills add',
    setup: async () => {
      const root = await initSquad();
      writeFiles(root, { 'incoming/triage/SKILL.md': validSkill('triage', 'Bug triage. Use when sorting new issues.') });
      return root;
    },
    args: (root) => ['skills', 'add', path.join(root, 'incoming/triage')],
  },
  {
    name: 'skills update',
    setup: async () => {
      const { root, source } = await withAddedSkill();
      writeFiles(source, { 'references/style.md': '# Style\n\nShort lines.\n' });
      return root;
    },
    args: () => ['skills', 'update', 'release-notes'],
  },
  { name: 'skills remove', setup: async () => (await withAddedSkill()).root, args: () => ['skills', 'remove', 'release-notes'] },
  {
    name: 'compact',
    setup: async () => {
      const root = await initSquad();
      const entries = Array.from({ length: 4 }, (_, i) => `### 2026-01-0${i + 1}: entry ${i}\n\nlearned ${i}\n\n`).join('');
      fs.appendFileSync(path.join(root, squadPaths.decisions), `\n${entries}`);
      fs.appendFileSync(path.join(root, `${squadPaths.agents}/${aMember(root)}/history.md`), `\n${entries}`);
      writeFiles(root, { [`${squadPaths.decisionsInbox}/${aMember(root)}-tabs.md`]: '### 2026-02-01: Tabs\n\nUse tabs.\n' });
      return root;
    },
    args: () => ['compact', '--keep', '1'],
  },
  { name: 'upgrade an older create-squad squad', setup: async () => fixtureRepo('v0.0.1'), args: () => ['upgrade'] },
  { name: "upgrade the original Squad's .ai-team squad", setup: async () => fixtureRepo('original-squad'), args: () => ['upgrade'] },
  {
    name: "upgrade the original Squad's .squad squad",
    setup: async () => {
      const root = tempRepo();
      writeOriginalSquad(root, { dir: '.squad' });
      return root;
    },
    args: () => ['upgrade'],
    // The upgrade is decided once .squad/ has moved: a dry run lists the move and what comes with it, and says to run again after it.
    dryRunListsFirstStepOnly: true,
  },
  {
    name: 'import into an empty repository',
    setup: async () => tempRepo(),
    args: async () => ['import', await sourceExport()],
  },
];

/** Two identical repositories for a scenario: one for JSON runs, one for the text run. */
async function twoCopies(scenario: Scenario): Promise<[string, string]> {
  const root = await scenario.setup();
  const copy = tempDir('squad-repo-');
  fs.cpSync(root, copy, { recursive: true, verbatimSymlinks: true });
  return [root, copy];
}

describe('every writing command reports exactly what it changes', () => {
  it.each(SCENARIOS)('$name', async (scenario) => {
    const [root, textRoot] = await twoCopies(scenario);
    const args = await scenario.args(root);
    const before = snapshot(root);

    const dry = await runCli([...args, '--dry-run', '--json'], { cwd: root });
    expect(dry.code, dry.stderr).toBe(0);
    expect(snapshot(root)).toEqual(before);
    const real = await runCli([...args, '--json'], { cwd: root });
    expect(real.code, real.stderr).toBe(0);
    const onDisk = changedOnDisk(before, snapshot(root));

    const dryData = dry.data<{ changes: ChangeSummary; commit: string[]; dryRun: boolean }>();
    const data = real.data<{ changes: ChangeSummary; commit: string[]; dryRun: boolean }>();
    expect(dryData.dryRun).toBe(true);
    expect(data.dryRun).toBe(false);
    if (scenario.dryRunListsFirstStepOnly) {
      const real = namedPaths(normalized(data.changes));
      expect(namedPaths(normalized(dryData.changes)).filter((p) => !real.includes(p))).toEqual([]);
    } else {
      expect(normalized(dryData.changes)).toEqual(normalized(data.changes));
      expect(dryData.commit).toEqual(data.commit);
    }

    const named = namedPaths(data.changes);
    // Every file changed on disk is named by a change, and every change names something that changed.
    expect(onDisk.filter((p) => !named.some((n) => within(p, n)))).toEqual([]);
    // A path may also be a step on the way: a file changed where a later move takes it from, or one
    // removed from a folder the same plan created (import's marker of an unfinished import).
    const transient = [...data.changes.moved.map((m) => m.from), ...data.changes.removed.filter((r) => data.changes.created.some((c) => within(r, c) && r !== c))];
    expect(named.filter((n) => !onDisk.some((p) => within(p, n)) && !transient.some((t) => within(n, t)))).toEqual([]);
    // `git add -A --` of the hint takes every change.
    expect(onDisk.filter((p) => !data.commit.some((c) => within(p, c)))).toEqual([]);

    // The text run says the same: each changed path, and the commit hint of exactly those paths.
    const text = await runCli(await scenario.args(textRoot), { cwd: textRoot });
    expect(text.code, text.stderr).toBe(0);
    const stripped = text.stdout.replace(new RegExp(`${squadPaths.backups}/[^/\\s]+/`, 'g'), `${squadPaths.backups}/<time>/`);
    for (const p of named) expect(shownIn(stripped, stampless(p)), p).toBe(true);
    if (data.commit.length > 0) expect(text.stdout).toContain(`git add -A -- ${data.commit.join(' ')}`);
    else expect(text.stdout).not.toContain('git add');
  });
});
