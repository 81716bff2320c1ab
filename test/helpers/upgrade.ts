/** Squads made by older versions, for upgrade tests: copies of test/fixtures/upgrade/* plus user edits. */
import fs from 'node:fs';
import path from 'node:path';
import { COORDINATOR_PATH, MEMBER_FACING_BUILTIN_SKILLS, nativeTeamSkillDir, aiTeamSkillDir } from '../../src/core/base/paths.js';
import { REPO_ROOT, tempRepo } from './cli.js';

export const UPGRADE_FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'upgrade');

export type UpgradeFixture = 'v0.0.1' | 'original-squad';

/** A temporary git repository holding a copy of the fixture (file modes kept). */
export function fixtureRepo(name: UpgradeFixture): string {
  const root = tempRepo();
  fs.cpSync(path.join(UPGRADE_FIXTURES, name), root, { recursive: true });
  return root;
}

/** Folders and files of the team's own state and learned skills in the v0.0.1 fixture: never written by upgrade. */
export const V001_TEAM_PATHS = [
  '.ai-team/agents',
  '.ai-team/skills/team-conventions',
  '.ai-team/skills/squad-retired',
  '.ai-team/casting',
  '.ai-team/decisions',
  '.ai-team/log',
  '.ai-team/team.md',
  '.ai-team/routing.md',
  '.ai-team/decisions.md',
  '.ai-team/ceremonies.md',
] as const;

export const V001_EDITS = {
  coordinator: COORDINATOR_PATH,
  template: '.ai-team-templates/charter.md',
  skill: `${aiTeamSkillDir('squad-git-workflow')}/SKILL.md`,
  reference: `${aiTeamSkillDir('squad-code-review')}/references/checklist.md`,
} as const;

/** A file the user added inside a built-in skill. */
export const V001_USER_FILE = `${aiTeamSkillDir('squad-code-review')}/references/our-extra-rules.md`;

/**
 * What a user did after installing 0.0.1: edited the coordinator, a template, a built-in SKILL.md
 * (older than the shipped one) and a built-in reference; added a file inside a built-in skill.
 * Returns every edited file with its content.
 */
export function editV001(root: string): Map<string, Buffer> {
  const edits = new Map<string, Buffer>();
  for (const rel of Object.values(V001_EDITS)) {
    const abs = path.join(root, rel);
    fs.appendFileSync(abs, `\n<!-- our own note in ${rel} -->\n`);
    edits.set(rel, fs.readFileSync(abs));
  }
  fs.writeFileSync(path.join(root, V001_USER_FILE), '# Our extra rules\n\n- No TODOs in main.\n');
  edits.set(V001_USER_FILE, fs.readFileSync(path.join(root, V001_USER_FILE)));
  return edits;
}

/** Where a path of a squad made before 0.1.0 is after an upgrade: member-facing built-ins move to .github/skills/. */
export function afterUpgrade(relPath: string): string {
  for (const name of MEMBER_FACING_BUILTIN_SKILLS) {
    const from = aiTeamSkillDir(name);
    if (relPath === from || relPath.startsWith(`${from}/`)) return `${nativeTeamSkillDir(name)}${relPath.slice(from.length)}`;
  }
  return relPath;
}
