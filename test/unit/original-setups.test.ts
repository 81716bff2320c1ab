/**
 * The pure rules behind squad-cli's other setups (issue 30), off the disk: what upgrade brings from
 * the `squad-state` branch, SDK mode refused, the roster fitted to the member folders, `.ai-team/`
 * paths written as `.squad/` for squad-cli's export (and read back), a custom universe from `init`.
 */
import { describe, expect, it } from 'vitest';
import { decideSquadDirMigration, type SquadDirState } from '../../src/core/squad/original/squad-dir-plan.js';
import { pointAtSquadDir, rewriteSquadPaths } from '../../src/core/squad/original/stale-paths.js';
import { fitRosterToAgents } from '../../src/core/squad/original/roster-fit.js';
import { toSquadCliExport } from '../../src/core/portable/squad-cli-export.js';
import { validateSquadDocument } from '../../src/core/portable/squad-validate.js';
import { SQUAD_FORMAT_VERSION, type SquadDocument } from '../../src/core/portable/squad-format.js';
import { castTeam, chooseUniverse, createPolicy, parsePolicy, serializePolicy, takenNamesFrom } from '../../src/core/roster/casting.js';
import { isSquadError } from '../../src/core/base/errors.js';
import { withoutFileSystem } from '../helpers/no-fs.js';

const now = new Date('2026-03-01T10:00:00.000Z');
const BACKUPS = '.ai-team/backups/2026-03-01T10-00-00-000Z';
const state = (over: Partial<SquadDirState>): SquadDirState => ({ original: true, ours: false, agentFolders: [], teamText: undefined, outside: [], teamTexts: [], ...over });

describe('the squad-state branch, decided off the disk', () => {
  const branch = {
    files: [
      { path: 'agents/Rai/history.md', text: '# Rai\n- one\n- two\n' },
      { path: 'agents/gone/history.md', text: '# Gone\n' },
      { path: 'agents/kane/history.md', text: '# Kane\n- mine\n' },
      { path: 'agents/lee/history.md', text: '# Lee\n- a\n' },
      { path: 'agents/max/history.md', text: '# Max\n- old\n' },
      { path: 'decisions.md', text: '# Decisions\nsee `.squad/agents/Rai/history.md`\n' },
    ],
    others: ['log/x.md'],
    unread: [],
  };
  const targets = {
    'agents/Rai/history.md': '# Rai\n- one\n', // the branch continues it: replaced
    'agents/kane/history.md': '# Kane\n- mine\n', // the same: left
    'agents/lee/history.md': '# Lee\n- b\n', // both changed: ours kept, the branch's set aside
    'agents/max/history.md': '# Max\n- old\n- newer\n', // ours continues it (brought before): left
    'decisions.md': undefined, // none: created
  };
  const setup = { agentFolders: ['Rai', 'kane', 'lee', 'max'], stateBranch: branch, branchTargets: targets, squadCliHooks: ['.git/hooks/pre-push'] };

  it('with consent: created, replaced after a backup, set aside, or left; paths and member folders as they are once moved', () => {
    const plan = withoutFileSystem(() => decideSquadDirMigration(state({ ...setup, fromStateBranch: true }), now));
    expect(plan.fromBranch.map(({ from, path, action }) => `${action} ${from} → ${path}`)).toEqual([
      'replaced agents/Rai/history.md → .ai-team/agents/rai/history.md',
      `kept agents/lee/history.md → ${BACKUPS}/squad-state/agents/lee/history.md`,
      'created decisions.md → .ai-team/decisions.md',
    ]);
    expect(plan.fromBranch.find((f) => f.action === 'created')!.content).toBe('# Decisions\nsee `.ai-team/agents/rai/history.md`\n');
    expect(plan.changes.map((change) => `${change.kind} ${'path' in change ? change.path : change.to}`).slice(-4)).toEqual([
      `backup ${BACKUPS}/.ai-team/agents/rai/history.md`,
      'replace .ai-team/agents/rai/history.md',
      `create ${BACKUPS}/squad-state/agents/lee/history.md`,
      'create .ai-team/decisions.md',
    ]);
    expect(plan.notes.some((note) => note.includes('members with no folder here (agents/gone/history.md)'))).toBe(true);
    expect(plan.notes.some((note) => note.startsWith("squad-cli's git hooks stay in place (.git/hooks/pre-push)"))).toBe(true);
  });

  it('without consent: nothing from the branch, one note saying what it holds and the flag', () => {
    const plan = withoutFileSystem(() => decideSquadDirMigration(state(setup), now));
    expect(plan.fromBranch).toEqual([]);
    expect(plan.changes.some((change) => change.kind === 'create')).toBe(false);
    expect(plan.notes.filter((note) => note.includes('--from-state-branch'))).toEqual([
      'squad-cli keeps 3 files of this team\'s histories and decisions on the squad-state branch (agents/Rai/history.md, agents/lee/history.md, decisions.md), which .ai-team/ does not have: run "create-squad upgrade --from-state-branch" to bring them into .ai-team/ (read with git, no checkout; every file it replaces is backed up first)',
    ]);
  });

  it('a file the move rewrites and the branch replaces is written once, from the branch, backed up as it was', () => {
    const plan = withoutFileSystem(() =>
      decideSquadDirMigration(
        state({
          agentFolders: ['kane'],
          teamTexts: [{ path: '.squad/agents/kane/history.md', text: '# Kane\nsee .squad/x\n' }],
          stateBranch: { files: [{ path: 'agents/kane/history.md', text: '# Kane\nsee .squad/x\n- more\n' }], others: [], unread: [] },
          branchTargets: { 'agents/kane/history.md': '# Kane\nsee .squad/x\n' },
          fromStateBranch: true,
        }),
        now,
      ),
    );
    expect(plan.rewrites).toEqual([]);
    expect(plan.changes.filter((change) => 'path' in change && change.path === '.ai-team/agents/kane/history.md')).toEqual([
      { kind: 'replace', path: '.ai-team/agents/kane/history.md', content: '# Kane\nsee .ai-team/x\n- more\n', base: '# Kane\nsee .squad/x\n' },
    ]);
  });

  it("squad-cli's SDK mode is refused with the choice, before anything is planned", () => {
    let thrown: unknown;
    try {
      withoutFileSystem(() => decideSquadDirMigration(state({ sdkConfig: 'squad.config.ts' }), now));
    } catch (error) {
      thrown = error;
    }
    expect(isSquadError(thrown) && thrown.code).toBe('conflict');
    expect((thrown as Error).message).toContain('squad.config.ts');
  });
});

describe('fitRosterToAgents', () => {
  const roster =
    '| Name | Role | Charter | Status |\n|---|---|---|---|\n| Dallas | Lead | `.ai-team/agents/dallas/charter.md` | ✅ Active |\n| Scribe | Session Logger | `.ai-team/agents/scribe/charter.md` | 📋 Silent |\n';

  it("adds a row for a member the roster leaves out, with the name the squad gives its folder and its charter's role", () => {
    const fitted = fitRosterToAgents(roster, { dallas: {}, scribe: {}, rai: { charter: '# Rai\n\n- **Name:** Rai\n- **Role:** RAI Reviewer\n' } }, [], (folder) =>
      folder === 'rai' ? 'Rai' : folder,
    );
    expect(fitted.fits).toEqual([{ folder: 'rai', repointed: false, added: { name: 'Rai', role: 'RAI Reviewer' } }]);
    expect(fitted.text).toContain('| Rai | RAI Reviewer | `.ai-team/agents/rai/charter.md` | ✅ Active |');
  });

  it('points a row at the one agent that is its member; two such agents are ambiguous, and nothing changes', () => {
    const agents = { captain: { charter: '- **Name:** Dallas\n' }, scribe: {} };
    expect(fitRosterToAgents(roster, agents, []).text).toContain('| Dallas | Lead | `.ai-team/agents/captain/charter.md` |');
    const two = fitRosterToAgents(roster, { ...agents, boss: { charter: '- **Name:** Dallas\n' } }, []);
    expect(two.ambiguous).toEqual({ member: 'Dallas', charter: '.ai-team/agents/dallas/charter.md', folders: ['captain', 'boss'] });
    expect(two.text).toBe(roster);
  });
});

describe("squad-cli's export", () => {
  const document: SquadDocument = {
    squad_format_version: SQUAD_FORMAT_VERSION,
    exported_at: '2026-03-01T10:00:00.000Z',
    exported_by: 'create-squad@0.1.0',
    source: { project: 'tides' },
    team: {
      team_md: '| Name | Role | Charter | Status |\n|---|---|---|---|\n| Kane | Tester | `.ai-team/agents/kane/charter.md` | ✅ Active |\n',
      decisions_md: '# Decisions\nsee `.ai-team/decisions/inbox/`\n',
      ceremonies_md: '# Ceremonies\n',
    },
    casting: { registry: { members: [] } },
    agents: {
      kane: {
        charter: '# Kane — Tester\n\nWrites to `.ai-team/decisions/inbox/`; a peer keeps ../x/.ai-team/ and my.ai-team/.\n',
        history: { portable: '- Tests first.', project: '## Learnings\n\n- The harbour API is slow.' },
        skills: {},
      },
    },
    team_skills: {
      'tide-tables': {
        skill_md: '---\nname: tide-tables\ndescription: Use when reading tide tables.\n---\nBody\n',
        references: { 'a.md': 'x' },
        scripts: {},
        assets: {},
        files: {},
      },
    },
  };

  it("writes squad-cli's fields with .squad/ paths, and lists what it has no place for", () => {
    const { text, report } = toSquadCliExport(document);
    const out = JSON.parse(text);
    expect(out.version).toBe('1.0');
    expect(out.team_md).toContain('`.squad/agents/kane/charter.md`');
    expect(out.agents.kane.charter).toBe('# Kane — Tester\n\nWrites to `.squad/decisions/inbox/`; a peer keeps ../x/.ai-team/ and my.ai-team/.\n');
    expect(out.agents.kane.history).toBe('# kane\n\n## Portable Knowledge\n\n- Tests first.\n\n## Session Learnings (tides)\n\n### Learnings\n\n- The harbour API is slow.\n');
    expect(out.skills).toEqual([document.team_skills['tide-tables']!.skill_md]);
    expect(report.leftOut.map((left) => left.what)).toEqual(['ceremonies.md', 'tide-tables: 1 file besides SKILL.md']);
    expect(report.paths).toBe(3);
  });

  it('read back as a Squad 1.0 file, its .squad/ paths point at .ai-team/ again', () => {
    const { text } = toSquadCliExport(document);
    const back = validateSquadDocument(JSON.parse(text), { sourceName: 'squad-export' });
    expect(back.document.team.team_md).toBe(document.team.team_md);
    expect(back.document.agents.kane!.charter).toBe(document.agents.kane!.charter);
    expect(back.original?.decisions).toBe(document.team.decisions_md);
    expect(back.original?.stalePaths).toEqual([
      { where: 'team_md', paths: 1 },
      { where: 'decisions_md', paths: 1 },
      { where: 'agents.kane.charter', paths: 1 },
    ]);
  });

  it('pointAtSquadDir is the inverse of rewriteSquadPaths on a path', () => {
    const text = 'write `.ai-team/decisions/inbox/x.md`, not ../peer/.ai-team/ nor my.ai-team/';
    expect(pointAtSquadDir(text)).toEqual({ text: 'write `.squad/decisions/inbox/x.md`, not ../peer/.ai-team/ nor my.ai-team/', count: 1 });
    expect(rewriteSquadPaths(pointAtSquadDir(text).text).text).toBe(text);
  });
});

describe('a custom universe given to init', () => {
  it("is the team's own: numbered names of it, kept in the policy file, never another universe", () => {
    const universe = chooseUniverse('StarCraft');
    expect(universe).toEqual({ name: 'StarCraft', names: [] });
    const policy = createPolicy(universe);
    expect(policy.overflow).toEqual([]);
    const text = serializePolicy(policy);
    expect(JSON.parse(text).custom_universes).toEqual({ StarCraft: [] });
    const cast = castTeam(['Lead', 'Tester'], policy, takenNamesFrom([], []));
    expect(cast.map((c) => c.entry.name)).toEqual(['StarCraft 1', 'StarCraft 2']);
    // Read back with the registry's members: the next name is the next number, never a name twice.
    const members = cast.map((c) => c.entry);
    const read = parsePolicy(text, { members });
    if (read.state !== 'ok') throw new Error('policy not read');
    expect(castTeam(['Designer'], read.value, takenNamesFrom([], members)).map((c) => c.entry.name)).toEqual(['StarCraft 3']);
  });

  it('a shipped universe is found as before; a name no universe can have is a usage error', () => {
    expect(chooseUniverse('firefly').name).toBe('Firefly');
    expect(() => chooseUniverse('***')).toThrow(/cannot name a casting universe/);
  });
});
