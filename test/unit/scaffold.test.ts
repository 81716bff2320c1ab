import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SquadError } from '../../src/core/base/errors.js';
import { parseManifest } from '../../src/core/squad/manifest.js';
import { shippedOwnedFiles } from '../../src/core/squad/owned.js';
import { agentDir, alumniDir, charterPath, decisionInboxPath, historyPath, squadPaths } from '../../src/core/base/paths.js';
import { formatTableRow } from '../../src/core/base/md-table.js';
import { parseRoster } from '../../src/core/roster/roster.js';
import {
  SCRIBE_MEMBER,
  STATE_TEMPLATES,
  UNION_MERGE_PATTERNS,
  parseProjectContext,
  planGitattributes,
  planScaffold,
  plannedChanges,
  renderMemberRows,
  type ScaffoldPlan,
} from '../../src/core/scaffold/scaffold.js';
import { applyPlan } from '../../src/core/fs/apply-plan.js';
import { renderTemplate } from '../../src/core/fs/templates.js';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/cli.js';
import { teamStateLayout } from '../helpers/layout.js';

afterAll(cleanupTempDirs);

const NOW = new Date('2026-11-22T10:00:00Z');

/** Write a scaffold plan as init does: its files as changes, through the one applier. */
function apply(plan: ScaffoldPlan): void {
  applyPlan(plan.root, { changes: plannedChanges(plan.files) }, 'init was running');
}

function content(plan: ScaffoldPlan, relPath: string): string {
  const file = plan.files.find((f) => f.path === relPath);
  if (!file) throw new Error(`${relPath} is not in the plan`);
  return file.content.toString();
}

describe('planScaffold on an empty folder', () => {
  it('plans every file of the layout, team.md last, and writes nothing', async () => {
    const root = tempDir();
    const plan = await planScaffold(root, { now: NOW, project: 'A dashboard', stack: 'React', owner: 'Brady' });
    expect(fs.readdirSync(root)).toEqual([]);
    const paths = plan.files.map((f) => f.path);
    for (const expected of [...teamStateLayout(['keaton', 'fenster', 'hockney']), squadPaths.coordinator]) {
      expect(paths).toContain(expected);
    }
    expect(paths).not.toContain(historyPath('scribe'));
    expect(paths.at(-1)).toBe(squadPaths.team);
    expect(paths.indexOf(squadPaths.castingRegistry)).toBeLessThan(paths.indexOf(charterPath('keaton')));
    expect(plan.skipped).toEqual([]);
    expect(plan.teamSource).toBe('cast');
    expect(plan.members).toEqual([
      { name: 'Keaton', role: 'Lead', folder: 'keaton' },
      { name: 'Fenster', role: 'Core Dev', folder: 'fenster' },
      { name: 'Hockney', role: 'Tester', folder: 'hockney' },
      { name: 'Scribe', role: 'Session Logger', folder: 'scribe' },
    ]);
  });

  it('writes a roster parseRoster reads back, with the project context', async () => {
    const plan = await planScaffold(tempDir(), { now: NOW, project: 'A | dashboard', stack: 'React\nNode', owner: 'Brady' });
    const team = content(plan, squadPaths.team);
    expect(parseRoster(team).map((m) => [m.name, m.displayName, m.role, m.charter])).toEqual([
      ['keaton', 'Keaton', 'Lead', charterPath('keaton')],
      ['fenster', 'Fenster', 'Core Dev', charterPath('fenster')],
      ['hockney', 'Hockney', 'Tester', charterPath('hockney')],
      ['scribe', 'Scribe', 'Session Logger', charterPath('scribe')],
    ]);
    expect(parseProjectContext(team)).toEqual({ project: 'A | dashboard', stack: 'React Node', owner: 'Brady' });
    expect(content(plan, historyPath('keaton'))).toContain('- **Stack:** React Node');
    expect(content(plan, charterPath('fenster'))).toContain('- **Works for:** Brady');
  });

  it('treats the "not specified" placeholder as empty', async () => {
    const team = content(await planScaffold(tempDir(), { now: NOW }), squadPaths.team);
    expect(team).toContain('_not specified yet_');
    expect(parseProjectContext(team)).toEqual({ project: '', stack: '', owner: '' });
  });

  it('records the cast in the registry and history', async () => {
    const plan = await planScaffold(tempDir(), { now: NOW, roles: ['Lead', 'qa'], universe: 'firefly' });
    expect(JSON.parse(content(plan, squadPaths.castingRegistry)).members).toEqual([
      { name: 'Mal', folder: 'mal', role: 'Lead', universe: 'Firefly' },
      { name: 'Zoe', folder: 'zoe', role: 'Tester', universe: 'Firefly' },
    ]);
    expect(JSON.parse(content(plan, squadPaths.castingHistory)).events[0]).toEqual({
      at: NOW.toISOString(),
      event: 'cast',
      name: 'Mal',
      folder: 'mal',
      role: 'Lead',
      universe: 'Firefly',
    });
    expect(JSON.parse(content(plan, squadPaths.castingPolicy)).universe).toBe('Firefly');
  });

  it('plans every squad-owned file and a manifest of exactly those', async () => {
    const plan = await planScaffold(tempDir(), { now: NOW });
    const owned = await shippedOwnedFiles();
    const manifest = parseManifest(content(plan, squadPaths.manifest));
    expect(manifest.state).toBe('ok');
    expect(manifest.state === 'ok' && Object.keys(manifest.manifest.files).sort()).toEqual(owned.map((f) => f.path).sort());
  });

  it('casts nobody with team: false, but still creates Scribe', async () => {
    const plan = await planScaffold(tempDir(), { now: NOW, team: false });
    expect(plan.teamSource).toBe('none');
    expect(plan.members).toEqual([{ name: 'Scribe', role: 'Session Logger', folder: 'scribe' }]);
    expect(parseRoster(content(plan, squadPaths.team)).map((m) => m.name)).toEqual(['scribe']);
    expect(JSON.parse(content(plan, squadPaths.castingRegistry)).members).toEqual([]);
  });

  it('rejects bad input before planning anything', async () => {
    const root = tempDir();
    await expect(planScaffold(root, { universe: '***' })).rejects.toMatchObject({ code: 'usage' });
    await expect(planScaffold(root, { roles: [] })).rejects.toMatchObject({ code: 'usage' });
    await expect(planScaffold(root, { roles: ['Lead'], team: false })).rejects.toBeInstanceOf(SquadError);
  });
});

describe('planScaffold on an existing squad', () => {
  it('plans nothing after applying a plan, and skips everything', async () => {
    const root = tempDir();
    const first = await planScaffold(root, { now: NOW });
    apply(first);
    const second = await planScaffold(root, { now: NOW });
    expect(second.files).toEqual([]);
    expect(second.skipped.sort()).toEqual(first.files.map((f) => f.path).sort());
    expect(second.teamSource).toBe('roster');
    expect(second.members).toEqual(first.members);
    expect(second.notes).toEqual([]);
  });

  it('keeps an existing roster, casts nobody new, and says why --roles did not apply', async () => {
    const root = tempDir();
    writeFiles(root, {
      [squadPaths.team]: '# Team\n\n- **Project:** Legacy app\n\n| Name | Role |\n|---|---|\n| Dallas | Captain |\n',
    });
    const plan = await planScaffold(root, { now: NOW, roles: ['Lead'] });
    expect(plan.teamSource).toBe('roster');
    expect(plan.members.map((m) => m.name)).toEqual(['Dallas', 'Scribe']);
    expect(plan.files.map((f) => f.path)).toContain(charterPath('dallas'));
    expect(content(plan, historyPath('dallas'))).toContain('- **Project:** Legacy app');
    expect(plan.skipped).toContain(squadPaths.team);
    expect(plan.notes.join('\n')).toMatch(/--roles was not applied/);
    const registry = JSON.parse(content(plan, squadPaths.castingRegistry));
    expect(registry.members).toEqual([{ name: 'Dallas', folder: 'dallas', role: 'Captain', universe: null }]);
    expect(JSON.parse(content(plan, squadPaths.castingHistory)).events[0].event).toBe('adopted');
  });

  it('rebuilds a lost team.md from the registry with the same names', async () => {
    const root = tempDir();
    apply(await planScaffold(root, { now: NOW, roles: ['Lead', 'Designer'], universe: 'The Matrix' }));
    fs.rmSync(path.join(root, squadPaths.team));
    fs.rmSync(path.join(root, historyPath('trinity')));
    const plan = await planScaffold(root, { now: NOW });
    expect(plan.teamSource).toBe('registry');
    expect(plan.files.map((f) => f.path).sort()).toEqual([historyPath('trinity'), squadPaths.team].sort());
    expect(parseRoster(content(plan, squadPaths.team)).map((m) => `${m.displayName}:${m.role}`)).toEqual(['Neo:Lead', 'Trinity:Designer', 'Scribe:Session Logger']);
  });

  it('leaves retired members (moved to the alumni folder) out of a rebuilt roster', async () => {
    const root = tempDir();
    apply(await planScaffold(root, { now: NOW, roles: ['Lead', 'Designer'], universe: 'The Matrix' }));
    fs.rmSync(path.join(root, squadPaths.team));
    fs.mkdirSync(path.join(root, alumniDir('')), { recursive: true });
    fs.renameSync(path.join(root, agentDir('trinity')), path.join(root, alumniDir('trinity')));
    const plan = await planScaffold(root, { now: NOW });
    expect(plan.teamSource).toBe('registry');
    expect(plan.files.map((f) => f.path)).toEqual([squadPaths.team]);
    expect(parseRoster(content(plan, squadPaths.team)).map((m) => m.displayName)).toEqual(['Neo', 'Scribe']);
    expect(plan.notes).toContain('left out of the rebuilt roster, retired (in .ai-team/agents/_alumni/, or marked retired in .ai-team/casting/registry.json): Trinity');
  });

  it('does not cast names of folders that already exist', async () => {
    const root = tempDir();
    writeFiles(root, { [charterPath('keaton')]: '# my own Keaton\n' });
    const plan = await planScaffold(root, { now: NOW });
    expect(plan.members.map((m) => m.name)).toEqual(['Fenster', 'Hockney', 'McManus', 'Scribe']);
  });

  it('claims only the squad-owned files that match what is shipped', async () => {
    const root = tempDir();
    writeFiles(root, {
      [squadPaths.coordinator]: '---\nname: Mine\n---\nmy own coordinator\n',
      '.ai-team-templates/charter.md': fs.readFileSync(path.join('templates', 'squad', 'charter.md.hbs')),
    });
    const plan = await planScaffold(root, { now: NOW });
    const manifest = parseManifest(content(plan, squadPaths.manifest));
    const files = manifest.state === 'ok' ? manifest.manifest.files : {};
    expect(files).not.toHaveProperty(squadPaths.coordinator);
    expect(files).toHaveProperty('.ai-team-templates/charter.md');
    expect(plan.skipped).toEqual(expect.arrayContaining([squadPaths.coordinator, '.ai-team-templates/charter.md']));
  });

  it('appends only the missing .gitattributes lines after the existing content', async () => {
    const root = tempDir();
    const existing = `*.png binary\r\n${UNION_MERGE_PATTERNS[0]}   merge=union\r\n*.sh text eol=lf`;
    writeFiles(root, { [squadPaths.gitattributes]: existing });
    const plan = await planScaffold(root, { now: NOW });
    const file = plan.files.find((f) => f.path === squadPaths.gitattributes)!;
    expect(file.update).toBe(true);
    const text = file.content.toString();
    expect(text.startsWith(`${existing}\r\n`)).toBe(true);
    for (const pattern of UNION_MERGE_PATTERNS.slice(1)) expect(text).toContain(`${pattern} merge=union\r\n`);
    expect(text.split(UNION_MERGE_PATTERNS[0]).length).toBe(2); // not duplicated
    expect(plan.gitattributesAdded).toHaveLength(4); // the comment and three rules
    apply(plan);
    const again = await planScaffold(root, { now: NOW });
    expect(again.files).toEqual([]);
    expect(again.skipped).toContain(squadPaths.gitattributes);
  });
});

describe('owned files that are symlinks', () => {
  it('leaves a symlinked coordinator (even dangling) alone, says so, and does not claim it', async () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, '.github/agents'), { recursive: true });
    fs.symlinkSync('../../../nowhere/coordinator.md', path.join(root, squadPaths.coordinator));
    const plan = await planScaffold(root, { now: NOW });
    expect(plan.skipped).toContain(squadPaths.coordinator);
    expect(plan.notes).toContain(`${squadPaths.coordinator} is a symlink; it was left as it is (replace it with a real file, then run "create-squad upgrade")`);
    expect(plan.manifest.files[squadPaths.coordinator]).toBeUndefined();
  });
});

describe('project context flags on an existing team.md', () => {
  it('leave team.md to the context change init plans (core/scaffold/project-context.ts): no file, no note', async () => {
    const root = tempDir();
    apply(await planScaffold(root, { now: NOW, project: 'Old' }));
    const plan = await planScaffold(root, { now: NOW, project: 'New', stack: 'Go', owner: '' });
    expect(plan.files).toEqual([]);
    expect(plan.notes).toEqual([]);
  });
});

describe('a team.md that cannot be read', () => {
  it('is left alone with a note that names the blocker, not "nothing to do"', async () => {
    const root = tempDir();
    apply(await planScaffold(root, { now: NOW }));
    fs.rmSync(path.join(root, squadPaths.team));
    fs.symlinkSync('/nonexistent/team.md', path.join(root, squadPaths.team));
    const plan = await planScaffold(root, { now: NOW });
    expect(plan.files).toEqual([]);
    expect(plan.notes).toContain(
      `${squadPaths.team} is not a readable file (a folder, a dangling symlink or a special file): restore it from git, or remove it and run init again to rebuild it`,
    );
  });
});

describe('.gitattributes edge cases', () => {
  it('fills an existing empty file, and leaves a symlink alone with a note', async () => {
    const empty = tempDir();
    writeFiles(empty, { [squadPaths.gitattributes]: '' });
    const plan = await planScaffold(empty, { now: NOW });
    expect(plan.files.find((f) => f.path === squadPaths.gitattributes)).toMatchObject({ update: true });
    apply(plan);
    expect(fs.readFileSync(path.join(empty, squadPaths.gitattributes), 'utf8')).toContain(`${UNION_MERGE_PATTERNS[0]} merge=union\n`);

    const linked = tempDir();
    writeFiles(linked, { 'real-attributes': '*.png binary\n' });
    fs.symlinkSync('real-attributes', path.join(linked, squadPaths.gitattributes));
    const linkedPlan = await planScaffold(linked, { now: NOW });
    expect(linkedPlan.files.map((f) => f.path)).not.toContain(squadPaths.gitattributes);
    expect(linkedPlan.skipped).toContain(squadPaths.gitattributes);
    expect(linkedPlan.notes.join('\n')).toMatch(/\.gitattributes is a symlink/);
    apply(linkedPlan);
    expect(fs.readFileSync(path.join(linked, 'real-attributes'), 'utf8')).toBe('*.png binary\n');
  });
});

describe('renderMemberRows', () => {
  it('cuts exactly the rows init writes for that member', async () => {
    const project = { project: 'x', stack: '', owner: '' };
    const member = { name: 'Verbal', role: 'Tester', folder: 'verbal' };
    const rows = await renderMemberRows(member, project, 'The Usual Suspects');
    expect(rows.roster).toEqual([{ name: 'Verbal', role: 'Tester', charter: '`.ai-team/agents/verbal/charter.md`', status: '✅ Active' }]);
    expect(rows.routing).toHaveLength(1);
    expect(rows.routing[0]).toMatchObject({ 'work type': expect.stringMatching(/^Tests, /), 'route to': 'Verbal', role: 'Tester' });
    const plan = await planScaffold(tempDir(), { now: NOW, roles: ['Tester'] });
    expect(content(plan, squadPaths.team)).toContain(
      formatTableRow(Object.values(rows.roster[0]!))
        .replace(/Verbal/, 'Keaton')
        .replace('verbal', 'keaton'),
    );
  });
});

describe('the state templates', () => {
  it('are exactly the ten agreed files, each starting with a handlebars comment', () => {
    const names = fs.readdirSync(path.join('templates', 'squad')).sort();
    expect(names).toEqual(
      [
        'ceremonies.md.hbs',
        'charter.md.hbs',
        'decision.md.hbs',
        'decisions.md.hbs',
        'history.md.hbs',
        'orchestration-log.md.hbs',
        'routing.md.hbs',
        'scribe-charter.md.hbs',
        'session-log.md.hbs',
        'team.md.hbs',
      ].sort(),
    );
    for (const name of names) expect(fs.readFileSync(path.join('templates', 'squad', name), 'utf8'), name).toMatch(/^\{\{!--[\s\S]*?--\}\}\n/);
  });

  it('render the agent-only shapes as valid handlebars', async () => {
    const entry = await renderTemplate('squad/decision.md.hbs', { date: '2026-11-22', title: 'Use pnpm', author: 'Keaton', what: 'pnpm only', why: 'speed' });
    expect(entry).toBe('### 2026-11-22: Use pnpm\n\n**By:** Keaton\n**What:** pnpm only\n**Why:** speed\n');
    expect(await renderTemplate('squad/orchestration-log.md.hbs', { agent: 'Fenster', mode: 'standard' })).toContain('— Fenster (standard)');
    expect(await renderTemplate('squad/session-log.md.hbs', { date: '2026-11-22', topic: 'OAuth' })).toMatch(/^# Session 2026-11-22: OAuth\n/);
  });
});

describe('symlinks, duplicates and charterless rows', () => {
  it('plans .gitattributes around a symlink that points outside or nowhere, without throwing', async () => {
    const outside = tempDir();
    for (const target of [path.join(outside, 'attributes'), 'nowhere']) {
      const root = tempDir();
      fs.symlinkSync(target, path.join(root, squadPaths.gitattributes));
      await expect(planGitattributes(root)).resolves.toEqual({ added: [], existed: true, note: expect.stringMatching(/is a symlink; it was left as it is/) });
      const plan = await planScaffold(root, { now: NOW });
      expect(plan.skipped).toContain(squadPaths.gitattributes);
    }
  });

  it('still refuses a state folder that leads outside the repository', async () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, squadPaths.root));
    fs.symlinkSync(tempDir(), path.join(root, squadPaths.agents));
    await expect(planScaffold(root, { now: NOW })).rejects.toMatchObject({
      code: 'unsafe-path',
      message: expect.stringMatching(/^refusing to write \.ai-team\/agents\/\w+\/charter\.md: \.ai-team\/agents is a symlink that leads outside/),
    });
  });

  it('plans each file once when the roster lists a member twice, and none for a charterless row', async () => {
    const root = tempDir();
    const row = '| Keaton | Lead | `.ai-team/agents/keaton/charter.md` | ✅ Active |';
    writeFiles(root, {
      [squadPaths.team]: `| Name | Role | Charter | Status |\n|---|---|---|---|\n${row}\n${row.replace('Keaton |', 'Keaton (again) |')}\n| Ralph | Work Monitor | — | 🔄 Monitor |\n`,
    });
    const plan = await planScaffold(root, { now: NOW });
    const paths = plan.files.map((f) => f.path);
    expect(paths.filter((p) => p === charterPath('keaton'))).toHaveLength(1);
    expect(paths.some((p) => p.startsWith('.ai-team/agents/ralph'))).toBe(false);
    expect(plan.members.map((m) => m.name)).toEqual(['Keaton', 'Ralph', 'Scribe']);
    apply(plan);
  });

  it("fills the templates' paths and Scribe's role from one place", async () => {
    const plan = await planScaffold(tempDir(), { now: NOW, roles: ['Lead'] });
    const scribeRole = SCRIBE_MEMBER.role;
    expect(content(plan, squadPaths.team)).toContain(`| Scribe | ${scribeRole} | \`${charterPath('scribe')}\` | 📋 Silent |`);
    expect(content(plan, squadPaths.routing)).toMatch(new RegExp(`\\| Scribe \\| ${scribeRole} \\|\\n`));
    expect(content(plan, charterPath('scribe'))).toContain(`# Scribe — ${scribeRole}\n`);
    const charter = content(plan, charterPath('keaton'));
    expect(charter).toContain(`read \`${historyPath('keaton')}\``);
    expect(charter).toContain(`\`${decisionInboxPath('keaton', '{short-slug}')}\``);
    for (const name of ['team', 'routing', 'charter', 'scribeCharter'] as const) {
      const source = fs.readFileSync(path.join('templates', STATE_TEMPLATES[name]), 'utf8');
      expect(source, name).not.toMatch(/\.ai-team\/agents\/\{\{/);
      expect(source, name).not.toContain(`| ${scribeRole} |`);
    }
  });
});
