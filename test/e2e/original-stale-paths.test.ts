/**
 * The original Squad's users keep function after the move out of `.squad/` (issue 30): upgrade
 * points the team's `.squad/` paths at `.ai-team/` (each file backed up), reads and moves
 * squad-cli's `.copilot/skills/`, and marks squad-cli's coordinator-only skills; doctor names any
 * `.squad/` path left and a `.squad/` recreated beside the squad, with fixes that keep the team.
 * Over a squad written here in our own words reproducing each structure, and over the real squads
 * in ../shared/data/original-squad/ (skipped, with a note, when absent).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, listFiles, runCli, tempRepo, writeFiles } from '../helpers/cli.js';
import { HAS_ORIGINAL_DATA, fileContents, lostFiles, noteMissingData, originalUpgrade, type OriginalSquadName } from '../helpers/original-data.js';
import { hasStaleSquadPath } from '../../src/core/squad/original/stale-paths.js';
import { observeWrites } from '../../src/core/fs/fs-safe.js';
import { debrisLeft } from '../helpers/debris.js';
import { matrixWrites } from '../helpers/kill-matrix.js';

afterAll(cleanupTempDirs);
noteMissingData("the stale-path tests on the original Squad's real squads");

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');
const exists = (root: string, rel: string) => fs.existsSync(path.join(root, rel));

interface Finding {
  code: string;
  path?: string;
  message: string;
  fix: string;
  severity: string;
}

async function doctor(root: string): Promise<Finding[]> {
  const result = await runCli(['doctor', '--json'], { cwd: root });
  return JSON.parse(result.stdout).data.findings as Finding[];
}

/** The team's Markdown that still names a `.squad/` path: in `.ai-team/` (backups and squad-cli's templates left out) and the team skills. */
function staleTexts(root: string): string[] {
  return listFiles(root).filter(
    (rel) =>
      rel.endsWith('.md') &&
      ((rel.startsWith('.ai-team/') && !rel.startsWith('.ai-team/backups/') && !rel.startsWith('.ai-team/templates/')) ||
        /^\.(github|copilot)\/skills\/[^/]+\/SKILL\.md$/.test(rel)) &&
      hasStaleSquadPath(read(root, rel)),
  );
}

/** Team skills as `skills list --json` lists them. */
async function listedSkills(root: string): Promise<{ name: string; location: string; scope: string; disableModelInvocation: boolean }[]> {
  const result = await runCli(['skills', 'list', '--json'], { cwd: root });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout).data.skills;
}

/** The skills a member's prompt offers (names from its `<available_skills>` block). */
async function offeredSkills(root: string, member: string): Promise<string[]> {
  const result = await runCli(['prompt', member, '--task', 'Look over the login form'], { cwd: root });
  expect(result.code, result.stderr).toBe(0);
  const block = result.stdout.split('<available_skills>')[1]?.split('</available_skills>')[0] ?? '';
  return [...block.matchAll(/<name>([^<]+)<\/name>/g)].map((match) => match[1]!);
}

const CHARTER = `# Vasquez — Backend Dev

## Collaboration

Before starting work, read \`.squad/decisions.md\` for the team's decisions.
After a decision others should know, write it to \`.squad/decisions/inbox/vasquez-{slug}.md\`.
My notes live in .squad/agents/Vasquez/notes.md; a peer squad keeps its own ../peer/.squad/team.md.
A file called team.squad/ is no path of ours, and neither is the word .squad alone.
`;

/** A squad laid out as squad-cli leaves it, in our own words: each structure the issue names. */
function squadCliFixture(): string {
  const root = tempRepo();
  writeFiles(root, {
    '.squad/team.md': `# Team

## Members

| Name | Role | Charter | Status |
|------|------|---------|--------|
| Vasquez | Backend Dev | \`.squad/agents/Vasquez/charter.md\` | ✅ Active |
| Hicks | Tester | \`.squad/agents/hicks/charter.md\` | ✅ Active |
| Scribe | Session Logger | \`.squad/agents/scribe/charter.md\` | 📋 Silent |
`,
    '.squad/routing.md': '# Routing\n\n| Work | Who |\n|---|---|\n| API | Vasquez |\n\nLog each routing in `.squad/orchestration-log/`.\n',
    '.squad/ceremonies.md': '# Ceremonies\n\nA retro when no log in .squad/log/ is younger than a week.\n',
    '.squad/decisions.md': '# Decisions\n',
    '.squad/decisions/inbox/.gitkeep': '',
    '.squad/agents/Vasquez/charter.md': CHARTER,
    '.squad/agents/Vasquez/history.md': '# History\n\n## Learnings\n\nWrote the first entry to .squad/decisions/inbox/.\n',
    '.squad/agents/hicks/charter.md': '# Hicks — Tester\n\nRead `.squad/routing.md` before testing.\n',
    '.squad/agents/hicks/history.md': '# History\n',
    '.squad/agents/scribe/charter.md': '# Scribe\n\n- `.squad/log/`: the session logs\n',
    '.squad/agents/scribe/history.md': '# History\n',
    '.squad/auditor/policy.md': '# Audit policy\n\nEvery finding goes to `.squad/auditor/trail.md`.\n',
    '.squad/templates/charter.md': '# {Name}\n\nWrite to `.squad/decisions/inbox/`.\n',
    '.squad/skills/api-errors/SKILL.md': '---\nname: api-errors\ndescription: Shape every API error the same way.\n---\n\nRecord new error codes in `.squad/decisions/inbox/`.\n',
    // squad-cli's coordinator-only procedures, with its own field; one already standard otherwise.
    '.github/skills/coordinator-init-mode/SKILL.md':
      '---\nname: "coordinator-init-mode"\ndescription: "How the coordinator sets up a team when there is none."\nallowedTools: []\nconfidence: high\ndomain: squad-internals\n---\n\nLoad this when `.squad/team.md` is missing.\n',
    '.github/skills/squad/SKILL.md': '---\nname: squad\ndescription: The menu of what the squad can do.\nuser-invocable: true\nallowedTools: []\n---\n\nShow the menu.\n',
    // A team skill whose text names .squad/, and a skill of the user's named like a coordinator one but without squad-cli's field.
    '.github/skills/reflect/SKILL.md': '---\nname: reflect\ndescription: Capture what the team learned after a correction.\n---\n\nAppend to `.squad/agents/{agent}/history.md`.\n',
    '.github/skills/squad-help/SKILL.md': '---\nname: squad-help\ndescription: Our own help page for the login flow.\n---\n\nHelp.\n',
    // Learned skills squad-cli's `squad import` put in .copilot/skills/, one whose name .github/skills/ already has.
    '.copilot/skills/form-validation/SKILL.md':
      '---\nname: form-validation\ndescription: Validate every login form field before submit.\n---\n\nKeep the rules in `.squad/decisions.md`.\n',
    '.copilot/skills/reflect/SKILL.md': '---\nname: reflect\ndescription: An older copy of reflect.\n---\n\nOld.\n',
  });
  return root;
}

describe('a squad-cli squad (our fixture): upgrade keeps function, doctor stays true', () => {
  it('before upgrade, .copilot/skills/ is read as the lowest team-skill folder', async () => {
    const root = squadCliFixture();
    fs.renameSync(path.join(root, '.squad'), path.join(root, '.ai-team'));
    const skills = await listedSkills(root);
    expect(skills.find((skill) => skill.name === 'form-validation')?.location).toBe('.copilot/skills/form-validation/SKILL.md');
    // .github/skills/ wins over .copilot/skills/ on a name both have.
    expect(skills.filter((skill) => skill.name === 'reflect').map((skill) => skill.location)).toEqual(['.github/skills/reflect/SKILL.md']);
    const findings = await doctor(root);
    const stale = findings.filter((finding) => finding.code === 'squad-path-stale');
    expect(stale.map((finding) => finding.path)).toEqual(
      expect.arrayContaining(['.ai-team/agents/Vasquez/charter.md', '.ai-team/auditor/policy.md', '.github/skills/reflect/SKILL.md', '.copilot/skills/form-validation/SKILL.md']),
    );
    const charter = stale.find((finding) => finding.path === '.ai-team/agents/Vasquez/charter.md')!;
    expect(charter.severity).toBe('warning');
    expect(charter.message).toContain('lines 5, 6, 7');
    expect(charter.fix).toContain('create-squad upgrade');
    expect(stale.map((finding) => finding.path)).not.toContain('.ai-team/templates/charter.md');
    // squad-cli's coordinator-only skills are named once each, with upgrade as the fix; the user's skill of such a name is not.
    const coordinatorOnly = findings.filter((finding) => finding.code === 'skill-coordinator-only');
    expect(coordinatorOnly.map((finding) => finding.path).sort()).toEqual(['.github/skills/coordinator-init-mode/SKILL.md', '.github/skills/squad/SKILL.md']);
    expect(coordinatorOnly[0]!.fix).toContain('create-squad upgrade');
    expect(findings.filter((finding) => finding.path === '.github/skills/squad/SKILL.md').map((finding) => finding.code)).toEqual(['skill-coordinator-only']);
  });

  it('upgrade points every .squad/ path at .ai-team/, backs each file up first, lists it, and a rerun finds nothing left', async () => {
    const root = squadCliFixture();
    const before = fileContents(root);
    const result = await runCli(['upgrade', '--json'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    const data = JSON.parse(result.stdout).data;
    const rewritten: { path: string; backup: string; paths: number }[] = data.squadDir.stalePaths;
    expect(rewritten.map((file) => file.path)).toEqual(
      expect.arrayContaining([
        '.ai-team/agents/vasquez/charter.md',
        '.ai-team/agents/vasquez/history.md',
        '.ai-team/agents/hicks/charter.md',
        '.ai-team/agents/scribe/charter.md',
        '.ai-team/auditor/policy.md',
        '.ai-team/ceremonies.md',
        '.ai-team/routing.md',
      ]),
    );
    for (const file of rewritten) expect(read(root, file.backup)).toBe(before.get(file.path.replace('.ai-team/', '.squad/').replace('/vasquez/', '/Vasquez/'))!.toString('utf8'));
    // Only path references change; the renamed member folder is named as it now is.
    expect(read(root, '.ai-team/agents/vasquez/charter.md')).toBe(
      CHARTER.replaceAll('`.squad/decisions', '`.ai-team/decisions').replace('.squad/agents/Vasquez/notes.md', '.ai-team/agents/vasquez/notes.md'),
    );
    expect(read(root, '.ai-team/team.md')).not.toContain('.squad/');
    // squad-cli's copy of its templates is not the team's text.
    expect(read(root, '.ai-team/templates/charter.md')).toContain('`.squad/decisions/inbox/`');
    // Skills: one write each, with their paths, and reported.
    const skills: { path: string; changes: string[] }[] = data.originalSkills;
    expect(skills.find((skill) => skill.path === '.github/skills/reflect/SKILL.md')?.changes).toEqual(['1 .squad/ path → .ai-team/']);
    expect(staleTexts(root)).toEqual([]);
    expect(lostFiles(before, root)).toEqual([]);
    expect((await doctor(root)).filter((finding) => finding.code === 'squad-path-stale')).toEqual([]);

    const again = await runCli(['upgrade', '--json'], { cwd: root });
    expect(JSON.parse(again.stdout).data.upToDate).toBe(true);
  });

  it("upgrade moves .copilot/skills/ to .github/skills/ like a team skill (a name already taken stays, with a note), and members' prompts offer it", async () => {
    const root = squadCliFixture();
    const result = await runCli(['upgrade', '--json'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    const data = JSON.parse(result.stdout).data;
    expect(data.changes.moved).toContainEqual({ from: '.copilot/skills/form-validation', to: '.github/skills/form-validation' });
    expect(read(root, '.github/skills/form-validation/SKILL.md')).toContain('`.ai-team/decisions.md`');
    expect(exists(root, '.copilot/skills/reflect/SKILL.md')).toBe(true);
    expect(data.notes.join('\n')).toContain('.copilot/skills/reflect/ stays where it is: .github/skills/reflect/ already exists');
    expect(await offeredSkills(root, 'hicks')).toContain('form-validation');
  });

  it("upgrade marks squad-cli's coordinator-only skills: never offered to members, and doctor has nothing to say about them", async () => {
    const root = squadCliFixture();
    const result = await runCli(['upgrade', '--json'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    const skills = await listedSkills(root);
    const byName = (name: string) => skills.find((skill) => skill.name === name)!;
    expect(byName('coordinator-init-mode').disableModelInvocation).toBe(true);
    expect(byName('squad').disableModelInvocation).toBe(true);
    // A skill of the user's with one of those names, without squad-cli's field, is left as it is.
    expect(byName('squad-help').disableModelInvocation).toBe(false);
    const init = read(root, '.github/skills/coordinator-init-mode/SKILL.md');
    expect(init).toContain('disable-model-invocation: true');
    expect(init.endsWith('\n\nLoad this when `.ai-team/team.md` is missing.\n')).toBe(true);
    expect(read(root, '.github/skills/squad/SKILL.md')).toBe(
      '---\nname: "squad"\ndescription: "The menu of what the squad can do."\nuser-invocable: true\ndisable-model-invocation: true\nmetadata:\n  allowedTools: ""\n---\n\nShow the menu.\n',
    );
    const offered = await offeredSkills(root, 'hicks');
    expect(offered).not.toContain('coordinator-init-mode');
    expect(offered).not.toContain('squad');
    const findings = await doctor(root);
    expect(findings.filter((finding) => finding.path?.includes('/coordinator-init-mode/') || finding.path?.includes('/squad/'))).toEqual([]);
  });

  it('killed after any write of the move and its rewrites, the next upgrade finishes the job: the same tree as a clean run, nothing lost', async () => {
    const reference = squadCliFixture();
    let total = 0;
    observeWrites((count) => {
      total = count;
    });
    try {
      expect((await runCli(['upgrade'], { cwd: reference })).code).toBe(0);
    } finally {
      observeWrites(undefined);
    }
    const expected = new Map([...fileContents(reference)].filter(([rel]) => !rel.startsWith('.ai-team/backups/')));
    // The move, the rename, team.md and the team's text come first (22 writes): a few of them, then the middle and the last of the
    // rest; every write with CREATE_SQUAD_MATRIX=full (.ci/run).
    for (const k of matrixWrites(total, (last) => [1, 8, 15, 22, Math.round((22 + last) / 2), last])) {
      const root = squadCliFixture();
      const pristine = fileContents(root);
      const killed = await runCli(['upgrade'], { cwd: root, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: String(k) } });
      expect(killed.code, `k=${k}: not killed`).toBe(-1);
      const again = await runCli(['upgrade'], { cwd: root });
      expect(again.code, `k=${k}: ${again.stderr}`).toBe(0);
      const after = new Map([...fileContents(root)].filter(([rel]) => !rel.startsWith('.ai-team/backups/')));
      expect([...after.keys()], `k=${k}`).toEqual([...expected.keys()]);
      for (const [rel, bytes] of expected) expect(after.get(rel)?.equals(bytes), `k=${k}: ${rel}`).toBe(true);
      expect(lostFiles(pristine, root), `k=${k}`).toEqual([]);
      expect(debrisLeft(root), `k=${k}`).toEqual([]);
      expect(staleTexts(root), `k=${k}`).toEqual([]);
    }
  }, 300_000);

  it('a .squad/ recreated after the move: doctor and upgrade name its files to merge into .ai-team/, never a fix that discards the team', async () => {
    const root = squadCliFixture();
    expect((await runCli(['upgrade'], { cwd: root })).code).toBe(0);
    writeFiles(root, { '.squad/decisions/inbox/vasquez-retry.md': '# Retry the payment call\n' });
    const findings = await doctor(root);
    const recreated = findings.find((finding) => finding.code === 'squad-dir-recreated')!;
    expect(recreated.severity).toBe('error');
    expect(recreated.message).toContain('1 file: .squad/decisions/inbox/vasquez-retry.md');
    expect(recreated.fix).toContain('keep .ai-team/');
    expect(recreated.fix).not.toMatch(/move \.ai-team\/ aside/);
    expect(findings.map((finding) => finding.code)).not.toContain('two-squads');

    const tree = fileContents(root);
    const refused = await runCli(['upgrade'], { cwd: root });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('.squad/decisions/inbox/vasquez-retry.md');
    expect(refused.stderr).not.toMatch(/move \.ai-team\/ aside/);
    expect(fileContents(root)).toEqual(tree);
  });

  it('a .squad/ with a team.md of its own beside .ai-team/ is still two teams', async () => {
    const root = squadCliFixture();
    expect((await runCli(['upgrade'], { cwd: root })).code).toBe(0);
    writeFiles(root, { '.squad/team.md': '# Team\n' });
    expect((await doctor(root)).map((finding) => finding.code)).toContain('two-squads');
  });
});

describe('a squad that never lived in .squad/', () => {
  it('keeps what its text says about .squad/: upgrade writes none of it, doctor names none of it', async () => {
    const root = squadCliFixture();
    fs.rmSync(path.join(root, '.squad'), { recursive: true });
    const init = await runCli(['init', '--yes'], { cwd: root });
    expect(init.code, init.stderr).toBe(0);
    const decision = '\n### Plan the move\n\nWhen the product moves to `.squad/`, block `.squad/**` in CI.\n';
    fs.appendFileSync(path.join(root, '.ai-team/decisions.md'), decision);
    const before = read(root, '.ai-team/decisions.md');
    expect((await runCli(['upgrade'], { cwd: root })).code).toBe(0);
    expect(read(root, '.ai-team/decisions.md')).toBe(before);
    expect(read(root, '.github/skills/reflect/SKILL.md')).toContain('`.squad/agents/{agent}/history.md`');
    expect((await doctor(root)).map((finding) => finding.code)).not.toContain('squad-path-stale');
  });
});

/** The real squads, and whether the original Squad kept each in `.squad/`. */
const REAL_SQUADS: [OriginalSquadName, boolean][] = [
  ['v05', true],
  ['h1', true],
  ['s1', false],
  ['s2real', false],
];

describe.skipIf(!HAS_ORIGINAL_DATA)("the original Squad's real squads: after upgrade no text of a moved team names .squad/", () => {
  it.each(REAL_SQUADS)('%s', async (name, moved) => {
    // The upgrade of the squad as unpacked, made once for the run (original-data and route-original share it).
    const upgraded = await originalUpgrade(name);
    const before = upgraded.pristineFiles;
    const staleBefore = staleTexts(upgraded.pristine);
    const result = upgraded.upgrade;
    expect(result.code, result.stderr).toBe(0);
    const root = upgraded.upgradedCopy();
    // A squad that was never in .squad/ (s2real's own team discussed that move in its logs) keeps its text as it was.
    if (moved) expect(staleTexts(root)).toEqual([]);
    else {
      expect(result.stdout).not.toContain('"stalePaths"');
      for (const rel of staleBefore) expect(read(root, rel), rel).toBe(before.get(rel)!.toString('utf8'));
    }
    expect(lostFiles(before, root)).toEqual([]);
    const findings = await doctor(root);
    expect(findings.filter((finding) => ['squad-path-stale', 'squad-dir-recreated', 'two-squads'].includes(finding.code))).toEqual([]);
    const skills = await listedSkills(root);
    const coordinatorOnly = skills.filter((skill) =>
      ['coordinator-init-mode', 'coordinator-response-mode', 'coordinator-source-of-truth', 'squad', 'squad-help', 'squad-version-check'].includes(skill.name),
    );
    for (const skill of coordinatorOnly) expect(skill.disableModelInvocation, skill.name).toBe(true);
    // No finding about a coordinator-only skill is left (the one squad-cli never made standard included).
    expect(
      findings.filter((finding) =>
        coordinatorOnly.some((skill) => finding.path?.startsWith(skill.location.replace(/SKILL\.md$/, '')) || finding.message.includes(skill.location.replace(/\/SKILL\.md$/, ''))),
      ),
    ).toEqual([]);
    expect((await runCli(['upgrade', '--json'], { cwd: root })).code).toBe(0);
  });
});
