/**
 * The note that trust does not travel: an import of skills with scripts names them on one line,
 * the first few and "and N more", however many came; `--json` `scriptsToReview` lists every one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ImportData } from '../../src/commands/import.js';
import { SKILLS_ALLOWLIST_PATH } from '../../src/core/skills/script-plan.js';
import { cleanupTempDirs, runCli, tempDir, validSkill } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

const SCRIPT = { content: '#!/bin/sh\necho checked\n', encoding: 'utf8', mode: '755' };
const NOTE_END = `runs here until you read its scripts/ and allow it in ${SKILLS_ALLOWLIST_PATH} (docs/commands.md shows its shape)`;

/** A .squad file: `perAgent` skills with a script for each of `agents`, `team` team skills with one, and one skill without. */
function squadWithScripts(agents: readonly string[], perAgent: number, team: number): string {
  const skill = (name: string) => ({ skill_md: validSkill(name), scripts: { 'check.sh': SCRIPT } });
  const numbered = (stem: string, count: number) => Array.from({ length: count }, (_, i) => `${stem}-${String(i).padStart(2, '0')}`);
  const document = {
    squad_format_version: '1.1',
    agents: Object.fromEntries(
      agents.map((agent) => [
        agent,
        {
          charter: `# ${agent} — Core Dev\n`,
          skills: Object.fromEntries([...numbered(`${agent}-tool`, perAgent).map((name) => [name, skill(name)]), ['plain-notes', { skill_md: validSkill('plain-notes') }]]),
        },
      ]),
    ),
    team_skills: Object.fromEntries(numbered('shared-tool', team).map((name) => [name, skill(name)])),
  };
  const file = path.join(tempDir(), 'scripts.squad');
  fs.writeFileSync(file, JSON.stringify(document));
  return file;
}

describe('import: the note that trust does not travel', () => {
  it('names the first 8 skills with scripts and how many more on one line; --json lists every one', async () => {
    const file = squadWithScripts(['ada', 'kim'], 6, 3);
    const text = await runCli(['import', file], { cwd: tempDir() });
    expect(text.code).toBe(0);
    const noteLines = `${text.stdout}${text.stderr}`.split('\n').filter((line) => line.includes('trust does not travel'));
    expect(noteLines).toEqual([
      `⚠ trust does not travel: no script of ada-tool-00 (ada), ada-tool-01 (ada), ada-tool-02 (ada), ada-tool-03 (ada), ada-tool-04 (ada), ada-tool-05 (ada), kim-tool-00 (kim), kim-tool-01 (kim) and 7 more ${NOTE_END}; --json lists them all (scriptsToReview)`,
    ]);

    const json = await runCli(['import', file, '--json'], { cwd: tempDir() });
    const data = json.data<ImportData>();
    expect(data.scriptsToReview).toEqual([
      ...['00', '01', '02', '03', '04', '05'].map((n) => ({ name: `ada-tool-${n}`, scope: 'agent', agent: 'ada' })),
      ...['00', '01', '02', '03', '04', '05'].map((n) => ({ name: `kim-tool-${n}`, scope: 'agent', agent: 'kim' })),
      ...['00', '01', '02'].map((n) => ({ name: `shared-tool-${n}`, scope: 'team' })),
    ]);
    // The note in --json is the one the text shows; the skill without a script is in neither.
    expect(data.notes.filter((note) => note.startsWith('trust does not travel'))).toEqual([noteLines[0]!.slice('⚠ '.length)]);
    expect(data.skills.map((skill) => skill.name)).toContain('plain-notes');
  });

  it('names every skill, without the pointer to --json, when 8 or fewer have scripts', async () => {
    const data = (await runCli(['import', squadWithScripts(['ada'], 5, 3), '--json'], { cwd: tempDir() })).data<ImportData>();
    expect(data.scriptsToReview).toHaveLength(8);
    expect(data.notes.filter((note) => note.startsWith('trust does not travel'))).toEqual([
      `trust does not travel: no script of ada-tool-00 (ada), ada-tool-01 (ada), ada-tool-02 (ada), ada-tool-03 (ada), ada-tool-04 (ada), shared-tool-00 (team), shared-tool-01 (team), shared-tool-02 (team) ${NOTE_END}`,
    ]);
  });

  it('says nothing and lists nothing when no imported skill has scripts', async () => {
    const data = (await runCli(['import', squadWithScripts(['ada'], 0, 0), '--json'], { cwd: tempDir() })).data<ImportData>();
    expect(data.scriptsToReview).toEqual([]);
    expect(data.notes.some((note) => note.includes('trust does not travel'))).toBe(false);
  });
});
