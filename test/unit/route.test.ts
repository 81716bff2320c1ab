import { afterAll, describe, expect, it } from 'vitest';
import { discoverSkills } from '../../src/core/discover.js';
import { agentView, detectBroadTask, matchSkills, otherMemberNames, routeTask } from '../../src/core/route.js';
import type { Agent } from '../../src/core/roster.js';
import { rankDocuments, stem, tokenize } from '../../src/core/text-match.js';
import { cleanupTempDirs, tempDir, validSkill, writeFiles } from '../helpers/cli.js';
import { promptSquad } from '../helpers/prompt-squad.js';

afterAll(cleanupTempDirs);

describe('tokenize and stem', () => {
  it('lowercases, drops stopwords and short tokens, and stems plurals and -ing/-ed', () => {
    expect(tokenize('Fix the flaky Tests in the React components, testing & tested!')).toEqual([
      'flaky', 'test', 'react', 'component', 'test', 'test',
    ]);
    expect(tokenize('Ünïcödé 日本語 v2 a')).toEqual(['ünïcödé', '日本語', 'v2']);
    expect(stem('class')).toBe('class');
    expect(stem('policies')).toBe('policy');
    expect(['test', 'tests', 'testing', 'tested', 'tester', 'testers'].map(stem)).toEqual(Array(6).fill('test'));
    expect(['design', 'designer', 'designers', 'designs'].map(stem)).toEqual(Array(4).fill('design'));
    expect(['review', 'reviewer', 'reviewing'].map(stem)).toEqual(Array(3).fill('review'));
    expect(['user', 'order', 'users', 'settings'].map(stem)).toEqual(['user', 'order', 'user', 'sett']);
  });
});

describe('rankDocuments (BM25 over fields)', () => {
  const docs = [
    { id: 'ui', fields: { role: 'Frontend', text: 'react components css layout' } },
    { id: 'api', fields: { role: 'Backend', text: 'node api endpoints database' } },
    { id: 'qa', fields: { role: 'Tester', text: 'tests flaky tests coverage' } },
  ];

  it('ranks by relevance and says which terms matched which field', () => {
    const ranked = rankDocuments(docs, 'flaky tests in the api', { weights: { role: 2, text: 1 } });
    expect(ranked.map((r) => r.id)).toEqual(['qa', 'api', 'ui']);
    expect(ranked[0]!.matches).toEqual({ role: ['tests'], text: ['flaky', 'tests'] });
    expect(ranked[1]!.matches).toEqual({ text: ['api'] });
    expect(ranked[2]!.score).toBe(0);
  });

  it('weights fields and keeps input order on ties', () => {
    const weighted = rankDocuments(
      [
        { id: 'a', fields: { role: '', text: 'tester' } },
        { id: 'b', fields: { role: 'tester', text: '' } },
      ],
      'tester',
      { weights: { role: 3, text: 1 } },
    );
    expect(weighted.map((r) => r.id)).toEqual(['b', 'a']);
    expect(rankDocuments(docs, 'nothing relevant').map((r) => r.id)).toEqual(['ui', 'api', 'qa']);
  });
});

describe('detectBroadTask', () => {
  it.each([
    ['Design the architecture for payments', 'architecture'],
    ['Choose between Postgres and Mongo', 'architecture'],
    ['Write an ADR for caching', 'architecture'],
    ['Migrate to Vite', 'architecture'],
    ['Get the whole team to review the release', 'multi-agent'],
    ['Coordinate with the backend on the API', 'multi-agent'],
    ['Ask Keaton about the endpoint', 'multi-agent'],
  ])('%j is %s work', (task, kind) => {
    expect(detectBroadTask(task, ['Keaton'])?.kind).toBe(kind);
  });

  it('leaves focused tasks alone, and does not match names inside words', () => {
    expect(detectBroadTask('Fix the flaky login test')).toBeUndefined();
    expect(detectBroadTask('Update the keatonish helper', ['Keaton'])).toBeUndefined();
  });

  it('matches a member name as written, not as an ordinary word or the first word of a sentence', () => {
    expect(detectBroadTask('Add zod validation to the signup form data', ['Data'])).toBeUndefined();
    expect(detectBroadTask('Data migrations are slow', ['Data'])).toBeUndefined();
    expect(detectBroadTask('Fix the form. "Data" fields must be trimmed', ['Data'])).toBeUndefined();
    expect(detectBroadTask('Fix the parser:\n- Data rows with quotes break it', ['Data'])).toBeUndefined();
    expect(detectBroadTask('Ask Data to check the signup form', ['Data'])?.reason).toBe('it involves another member (Data)');
    expect(detectBroadTask('Fix the form. Then ask Data to review it', ['Data'])?.kind).toBe('multi-agent');
  });
});

describe('otherMemberNames', () => {
  const agent = (name: string, displayName: string, inRoster: boolean): Agent => ({ name, displayName, role: undefined, inRoster, hasFolder: true });

  it('gives roster names, and folder names only when they cannot be ordinary words', () => {
    const agents = [
      agent('picard', 'Picard', true),
      agent('data', 'Data', true),
      agent('mr-pink', 'Mr. Pink', true),
      agent('worf', 'worf', false),
      agent('agent-07', 'agent-07', false),
    ];
    expect(otherMemberNames(agents, 'picard')).toEqual(['Data', 'Mr. Pink', 'mr-pink', 'agent-07']);
  });
});

describe('agentView', () => {
  it('is what discovery gives for that agent, from one discovery of every scope', () => {
    const root = promptSquad();
    const all = discoverSkills(root).skills;
    for (const agent of ['keaton', 'fenster', 'hockney']) {
      expect(agentView(all, agent)).toEqual(discoverSkills(root, { agent }).skills);
    }
  });
});

describe('matchSkills', () => {
  it('lists matched terms in code point order', () => {
    const root = promptSquad();
    const [match] = matchSkills('Fix the React component', discoverSkills(root, { agent: 'fenster' }).skills);
    expect(match!.terms).toEqual(['component', 'react']);
    const ranked = matchSkills('Zeta alpha Éclair', [
      { ...discoverSkills(root, { agent: 'fenster' }).skills[0]!, name: 'zeta-alpha', description: 'éclair Zeta alpha' },
    ]);
    expect(ranked[0]!.terms).toEqual(['alpha', 'zeta', 'éclair']);
  });
});

describe('routeTask', () => {
  it('routes to the member whose role, charter and skills match, with a lightweight mode and skills', () => {
    const root = promptSquad();
    const route = routeTask(root, 'Fix the re-render loop in the React component');
    expect(route.agent).toBe('fenster');
    expect(route.mode).toBe('lightweight');
    expect(route.skills.map((s) => s.name)).toEqual(['react-component-patterns']);
    expect(route.reason).toContain('Fenster matched');
    expect(route.reason).toContain('"react" in skills');
    expect(route.ranking.map((r) => r.agent)).not.toContain('scribe');
    expect(route.ranking[0]!.matches.skills).toEqual(['component', 'react']);
  });

  it('routes tests to the tester and architecture to standard mode', () => {
    const root = promptSquad();
    const flaky = routeTask(root, 'The checkout test fails intermittently, find the flaky test');
    expect(flaky.agent).toBe('hockney');
    expect(flaky.mode).toBe('lightweight');
    expect(flaky.skills.map((s) => s.name)).toEqual(['flaky-tests']);

    const arch = routeTask(root, 'Decide the architecture and trade-offs for the React state layer');
    expect(arch.mode).toBe('standard');
    expect(arch.reason).toContain('architecture decision');
  });

  it('sends a task nobody matches to the lead in standard mode', () => {
    const root = promptSquad();
    const route = routeTask(root, 'Plan the quarterly offsite');
    expect(route.matched).toBe(false);
    expect(route.agent).toBe('keaton');
    expect(route.mode).toBe('standard');
    expect(route.reason).toContain('no member');
  });

  it('keeps a lightweight spawn when a member is named like an ordinary word in the task', () => {
    const root = tempDir();
    writeFiles(root, {
      '.ai-team/team.md': '| Name | Role |\n|---|---|\n| Picard | Lead |\n| Data | Backend Dev |\n| Crusher | Frontend Dev |\n',
      '.ai-team/agents/picard/charter.md': '# Picard\n',
      '.ai-team/agents/data/charter.md': '# Data\n',
      '.ai-team/agents/crusher/charter.md': '# Crusher\n\nBuilds forms and front-end validation.\n',
      '.ai-team/agents/crusher/skills/form-validation/SKILL.md': validSkill('form-validation', 'Validate form input with zod schemas. Use when adding validation to forms.'),
    });
    const route = routeTask(root, 'Add zod validation to the signup form data');
    expect(route.agent).toBe('crusher');
    expect(route.mode).toBe('lightweight');
    expect(route.reason).not.toContain('another member');
  });

  it('copes with a squad without members', () => {
    const root = tempDir();
    writeFiles(root, { '.ai-team/team.md': '# Team\n' });
    expect(routeTask(root, 'anything')).toMatchObject({ agent: '', mode: 'standard', ranking: [] });
  });
});
