/**
 * export → import → export is a fixed point: the second export is the first, byte for byte, once
 * the one field that must differ is masked (`exported_at`, the time of each export). Nothing under
 * `.ai-team/` is left out without a reason in `skipped`; decisions, the inbox, standing rules and
 * the skills' source records travel; trust (the script allowlist) stays, and import says what to review.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExportData } from '../../src/commands/export.js';
import type { ImportData } from '../../src/commands/import.js';
import { agentSkillDir, aiTeamSkillDir, charterPath, historyPath, squadPaths } from '../../src/core/base/paths.js';
import { CASTING_FILES, TEAM_FILES } from '../../src/core/portable/squad-format.js';
import { SKILLS_ALLOWLIST_PATH } from '../../src/core/skills/script-plan.js';
import { SKILL_LOCK_PATH } from '../../src/core/skills/skill-lock.js';
import { cleanupTempDirs, initSquad, listFiles, runCli, runOk, tempDir, tempRepo, validSkill, writeFiles } from '../helpers/cli.js';
import { HAS_ORIGINAL_DATA, ORIGINAL_DATA_DIR, noteMissingData, originalExport } from '../helpers/original-data.js';

afterAll(cleanupTempDirs);

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

/** The one field two exports of the same squad may differ in: when each was made. */
const maskTime = (text: string) => text.replace(/"exported_at": "[^"]*"/, '"exported_at": "<time>"');

async function exportFrom(root: string): Promise<{ text: string; data: ExportData }> {
  const out = path.join(tempDir(), 'squad.squad');
  const result = await runCli(['export', '--out', out, '--json'], { cwd: root });
  expect(result.code, result.stderr).toBe(0);
  return { text: fs.readFileSync(out, 'utf8'), data: result.data<ExportData>() };
}

/**
 * A fresh repository named `name`: a squad whose team.md names no project is exported under its
 * repository's folder name, so the trips of one squad go to folders of one name.
 */
function repoNamed(name: string): string {
  const root = path.join(tempDir(), name);
  fs.renameSync(tempRepo(), root);
  return root;
}

async function importFile(file: string, name = 'trip-target'): Promise<{ root: string; data: ImportData }> {
  const root = repoNamed(name);
  const result = await runCli(['import', file, '--json'], { cwd: root });
  expect(result.code, result.stderr).toBe(0);
  return { root, data: result.data<ImportData>() };
}

/** Export `text` (a .squad file's text) into a fresh repository, then export that again. */
async function tripOf(text: string, name = 'trip-target'): Promise<{ root: string; data: ImportData; again: { text: string; data: ExportData } }> {
  const file = path.join(tempDir(), 'trip.squad');
  fs.writeFileSync(file, text);
  const imported = await importFile(file, name);
  return { ...imported, again: await exportFrom(imported.root) };
}

const DECISIONS = '# Decisions\n\n### 2026-01-05: Use PostgreSQL\n**By:** Keaton\n**What:** one database for every service.\n';
const INBOX = '### Prefer small pull requests\n**By:** Fenster\n';

/** A squad with decisions, an inbox, a standing rule, skills from a recorded source (nested files, team and agent) and an allowlist. */
async function busySquad(): Promise<string> {
  // team.md names no project yet: the squad is exported under its folder's name, the same for every trip.
  const root = path.join(tempDir(), 'trip-target');
  fs.renameSync(await initSquad(['--yes']), root);
  const shared = path.join(tempDir('squad-shared-'), 'skills');
  writeFiles(shared, {
    'api-style/SKILL.md': validSkill('api-style'),
    'api-style/references/deep/er/notes.md': '# Notes\n',
    'api-style/scripts/lint.sh': '#!/bin/sh\necho ok\n',
    'db-notes/SKILL.md': validSkill('db-notes'),
    'db-notes/assets/schema.sql': 'create table t (id int);\n',
  });
  await runOk(root, ['skills', 'add', shared, '--skill', 'api-style']);
  await runOk(root, ['skills', 'add', shared, '--skill', 'db-notes', '--agent', 'fenster']);
  await runOk(root, ['teach', '--team', '--rule', 'Every change comes with a test.']);
  writeFiles(root, {
    [squadPaths.decisions]: DECISIONS,
    [`${squadPaths.decisionsInbox}/fenster-small-prs.md`]: INBOX,
    [SKILLS_ALLOWLIST_PATH]: `${JSON.stringify({ skills: { '.github/skills/api-style': { scripts: 'all' } } })}\n`,
    [`${squadPaths.log}/2026-01-05-session.md`]: '# Session\n',
    '.ai-team/agents/fenster/history.md': `${read(root, '.ai-team/agents/fenster/history.md')}\n## Learnings\n\n### The build\n\nRuns with make.\n`,
    '.ai-team/notes.txt': 'something of my own\n',
    // An older copy of api-style that .github/skills/api-style wins over.
    '.ai-team/skills/api-style/SKILL.md': validSkill('api-style', 'Use when designing APIs (old copy).'),
  });
  return root;
}

describe('export → import → export', () => {
  it('of a squad with decisions, inbox, rules, sources and nested skills: the second export is the first, byte for byte', async () => {
    const root = await busySquad();
    const first = await exportFrom(root);
    const document = JSON.parse(first.text);
    expect(document.team.decisions_md).toBe(DECISIONS);
    expect(document.team.rules_md).toContain('Every change comes with a test.');
    expect(document.decisions_inbox).toEqual({ 'fenster-small-prs.md': INBOX });
    expect(document.team_skills['api-style'].source).toMatchObject({ sourceType: 'local' });
    expect(document.team_skills['api-style'].references).toHaveProperty(['deep/er/notes.md']);
    expect(document.agents.fenster.skills['db-notes'].source).toMatchObject({ sourceType: 'local' });
    // Everything under .ai-team/ that stays has its reason.
    const skipped = new Map(first.data.skipped.map((skip) => [skip.path, skip.reason]));
    expect(skipped.get(SKILLS_ALLOWLIST_PATH)).toMatch(/^trust stays with each repository/);
    expect(skipped.get(squadPaths.manifest)).toMatch(/^create-squad's record/);
    expect(skipped.get(squadPaths.log)).toBe("this repository's session logs; they stay with it");
    expect(skipped.get('.ai-team/notes.txt')).toBe('not part of a .squad file; not exported');
    expect(skipped.get('.ai-team/skills/api-style')).toBe('.github/skills/api-style/ has the same name and wins (as Copilot and create-squad read them); not exported');
    expect(first.data.skills.filter((skill) => skill.name === 'api-style')).toHaveLength(1);
    expect(skipped.get(`${squadPaths.decisionsInbox}/.gitkeep`)).toBe('an empty-folder placeholder; import creates its own');
    // Every file under .ai-team/ travels (in the document) or is listed in skipped, itself or a folder holding it.
    const travels = [
      ...Object.values(TEAM_FILES),
      ...Object.values(CASTING_FILES),
      ...Object.keys(document.decisions_inbox).map((name) => `${squadPaths.decisionsInbox}/${name}`),
      ...Object.keys(document.agents).flatMap((name) => [
        charterPath(name),
        historyPath(name),
        ...Object.keys(document.agents[name].skills).map((skill) => agentSkillDir(name, skill)),
      ]),
      ...[...Object.keys(document.team_skills), ...first.data.builtinSkills].map(aiTeamSkillDir),
    ];
    const covered = (rel: string, folders: readonly string[]) => folders.some((folder) => rel === folder || rel.startsWith(`${folder}/`));
    const silent = listFiles(path.join(root, squadPaths.root))
      .map((rel) => `${squadPaths.root}/${rel}`)
      .filter((rel) => !covered(rel, travels) && !covered(rel, [...skipped.keys()]));
    expect(silent).toEqual([]);

    const trip = await tripOf(first.text);
    expect(read(trip.root, squadPaths.decisions)).toBe(DECISIONS);
    expect(read(trip.root, `${squadPaths.decisionsInbox}/fenster-small-prs.md`)).toBe(INBOX);
    expect(read(trip.root, squadPaths.rules)).toBe(read(root, squadPaths.rules));
    expect(JSON.parse(read(trip.root, SKILL_LOCK_PATH))).toEqual(JSON.parse(read(root, SKILL_LOCK_PATH)));
    expect(fs.existsSync(path.join(trip.root, SKILLS_ALLOWLIST_PATH))).toBe(false);
    expect(trip.data.notes).toContain(
      `trust does not travel: no script of api-style (team) runs here until you read its scripts/ and allow it in ${SKILLS_ALLOWLIST_PATH} (docs/commands.md shows its shape)`,
    );
    // The history carries its learnings once, under one heading, at the level they had.
    const history = read(trip.root, '.ai-team/agents/fenster/history.md');
    expect(history).toContain('## Project Learnings (from ');
    expect(history).toContain('\n### Learnings\n\n#### The build\n\nRuns with make.\n');

    // (So every further trip gives this file again: the same file imports into the same squad.)
    expect(maskTime(trip.again.text)).toBe(maskTime(first.text));
  });

  it("carries the skills' sources: skills update in the new repository fetches from where the skill was added", async () => {
    const work = path.join(tempDir('squad-git-'), 'work');
    writeFiles(work, { 'pdf/SKILL.md': validSkill('pdf') });
    for (const args of [
      ['init', '-q', '-b', 'main'],
      ['add', '-A'],
      ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-qm', 'skills'],
    ]) {
      expect(spawnSync('git', args, { cwd: work }).status).toBe(0);
    }
    const root = await initSquad(['--yes']);
    await runOk(root, ['skills', 'add', pathToFileURL(work).href, '--path', 'pdf']);
    const { text } = await exportFrom(root);
    const trip = await tripOf(text);
    const update = await runCli(['skills', 'update', 'pdf', '--json'], { cwd: trip.root });
    expect(update.code, update.stderr).toBe(0);
    expect(update.data<{ unchanged: boolean }>().unchanged).toBe(true);
  });
});

const ORIGINAL_EXPORTS = HAS_ORIGINAL_DATA
  ? fs
      .readdirSync(ORIGINAL_DATA_DIR)
      .filter((file) => /\.json(?:\.gz)?$/.test(file))
      .sort()
  : [];
noteMissingData('the round trips of the original Squad exports');

describe.skipIf(!HAS_ORIGINAL_DATA)('export → import → export of each original Squad export in ../shared/data/original-squad', () => {
  it.each(ORIGINAL_EXPORTS)('%s: imported, exported, imported and exported again, the two exports are one', async (file) => {
    const imported = await importFile(originalExport(file), 'original-app');
    const first = await exportFrom(imported.root);
    const trip = await tripOf(first.text, 'original-app');
    expect(maskTime(trip.again.text)).toBe(maskTime(first.text));
    // Nothing is left behind without a reason.
    for (const skip of [...first.data.skipped, ...trip.again.data.skipped]) expect(skip.reason, skip.path).not.toBe('');
  });
});
