/**
 * Upgrade's deciders with the file system switched off: the upgrade itself (with the skills in the
 * original Squad's style it makes standard), the move of a squad out of `.squad/`, and the skill
 * conversions, each equal to its planner and to the command, and each a plan the one applier
 * carries out.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { squadPaths } from '../../src/core/base/paths.js';
import { summarizeChanges } from '../../src/core/base/plan.js';
import { applyPlan } from '../../src/core/fs/apply-plan.js';
import { decideOriginalSkillConversions, planOriginalSkillConversions, readOriginalSkillFiles } from '../../src/core/squad/original/skill-migration.js';
import { decideSquadDirMigration, planSquadDirMigration, readSquadDirState } from '../../src/core/squad/original/squad-dir.js';
import { decideUpgrade, planUpgrade } from '../../src/core/scaffold/upgrade.js';
import { readUpgradeState } from '../../src/core/scaffold/upgrade-state.js';
import { cleanupTempDirs, hashTree, runCli, tempRepo, writeFiles } from '../helpers/cli.js';
import { withoutFileSystem, withoutFileSystemAsync } from '../helpers/no-fs.js';
import { writeOriginalSquad } from '../helpers/original-squad.js';
import { expectEqual } from '../helpers/fast-equal.js';

afterAll(cleanupTempDirs);

const now = new Date('2026-01-02T03:04:05Z');
const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

/** A squad the original Squad made in `.ai-team/`, with a member's own skill in its style too. */
function originalSquad(): string {
  const root = tempRepo();
  writeOriginalSquad(root);
  writeFiles(root, { '.ai-team/agents/parker/skills/dock-retries/SKILL.md': '# Dock Retries\n\nRetry a dock call three times, then mark the dock offline.\n' });
  return root;
}

describe('decideUpgrade', () => {
  it("plans the original Squad's skills made standard first, then the migrations that move them, off the disk, as planUpgrade does", async () => {
    const root = originalSquad();
    const whole = await planUpgrade(root, { now }); // first: the templates the migrations render are loaded (and kept) by then
    const state = await readUpgradeState(root, { now });
    const pure = await withoutFileSystemAsync(() => decideUpgrade(state, { now }));
    expectEqual(pure, whole);
    const converted = pure.originalSkills.map((c) => c.path);
    expect(converted).toContain('.ai-team/agents/parker/skills/dock-retries/SKILL.md');
    expect(converted).toContain('.ai-team/skills/dock-sync/SKILL.md');
    // Each conversion is a backup of the old text, then the new one, before any migration moves its folder.
    expect(pure.parts.originalSkills.map((c) => c.kind)).toEqual(converted.flatMap(() => ['backup', 'replace']));
    expect(pure.changes.slice(0, pure.parts.originalSkills.length)).toEqual(pure.parts.originalSkills);
    const moveOfDockSync = pure.changes.findIndex((c) => c.kind === 'move' && c.from === '.ai-team/skills/dock-sync');
    expect(moveOfDockSync).toBeGreaterThan(pure.changes.findIndex((c) => c.kind === 'replace' && c.path === '.ai-team/skills/dock-sync/SKILL.md'));
    // Lists kept for --json are the plan's own changes, summarised.
    expect(pure.created).toEqual(summarizeChanges(pure.parts.owned).created);
    expect(pure.learnedSkills).toBe((await planUpgrade(root, { now, migrations: [] })).learnedSkills);

    // The plan is what the command's dry run says, change for change.
    const dry = (await runCli(['upgrade', '--dry-run', '--json'], { cwd: root })).data<{ changes: ReturnType<typeof summarizeChanges> }>();
    const timeless = (summary: ReturnType<typeof summarizeChanges>) => JSON.parse(JSON.stringify(summary).replace(/\.ai-team\/backups\/[^/]+\//g, '.ai-team/backups/<time>/'));
    expect(timeless(dry.changes)).toEqual(timeless(summarizeChanges(pure.changes)));

    // Applied by the one applier: the member's agent was planned with the skill as converted, so nothing is left to do.
    applyPlan(root, pure, 'upgrading');
    expect(read(root, '.github/agents/parker.agent.md')).toContain('Retry a dock call three times');
    expect((await planUpgrade(root)).upToDate).toBe(true);
  });
});

describe("the original Squad's .squad/ folder", () => {
  function dotSquad(): string {
    const root = tempRepo();
    writeOriginalSquad(root, { dir: '.squad' });
    writeFiles(root, { '.squad/agents/Wash/charter.md': '# Wash — Pilot\n' });
    return root;
  }

  it('decideSquadDirMigration plans the move, the renames and the roster (backed up first) as changes, off the disk', () => {
    const root = dotSquad();
    const state = readSquadDirState(root);
    const plan = withoutFileSystem(() => decideSquadDirMigration(state, now));
    expectEqual(plan, planSquadDirMigration(root, now));
    const team = read(root, '.squad/team.md');
    expect(plan.changes).toEqual([
      { kind: 'move', from: '.squad', to: '.ai-team' },
      { kind: 'move', from: '.ai-team/agents/Wash', to: '.ai-team/agents/wash' },
      { kind: 'backup', path: plan.roster!.backup, of: squadPaths.team, content: team },
      { kind: 'replace', path: squadPaths.team, content: plan.roster!.content, base: team },
    ]);
    applyPlan(root, plan, 'upgrading');
    expect(read(root, plan.roster!.backup)).toBe(team);
    expect(read(root, squadPaths.team)).toBe(plan.roster!.content);
    expect(fs.existsSync(path.join(root, '.ai-team/agents/wash/charter.md'))).toBe(true);
    expect(fs.existsSync(path.join(root, '.squad'))).toBe(false);
  });

  it('a roster edited after the plan was made stops it before the move: the check sees through the move it comes after', () => {
    const root = dotSquad();
    const plan = decideSquadDirMigration(readSquadDirState(root), now);
    fs.appendFileSync(path.join(root, '.squad/team.md'), '\nA line added meanwhile.\n');
    const before = hashTree(root);
    expect(() => applyPlan(root, plan, 'upgrading')).toThrow(/\.ai-team\/team\.md changed while upgrading; nothing was written/);
    expect(hashTree(root)).toBe(before);
  });

  it('decideOriginalSkillConversions names each skill and its backup as they will be in .ai-team/, off the disk', () => {
    const root = dotSquad();
    const files = readOriginalSkillFiles(root, '.squad');
    const conversions = withoutFileSystem(() => decideOriginalSkillConversions(files, { dir: '.squad', now }));
    expectEqual(conversions, planOriginalSkillConversions(root, { dir: '.squad', now }));
    for (const conversion of conversions) {
      expect(conversion.path).toMatch(/^\.ai-team\/skills\//);
      expect(conversion.backup).toMatch(new RegExp(`^\\.ai-team/backups/[^/]+/${conversion.path.replace(/\./g, '\\.')}$`));
      expect(conversion.base).toBe(read(root, conversion.path.replace(/^\.ai-team\//, '.squad/')));
    }
  });
});
