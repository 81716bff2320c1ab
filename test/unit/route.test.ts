import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverSkills, type DiscoveredSkill } from '../../src/core/squad/discover.js';
import { agentView, detectBroadTask, matchSkills, otherMemberNames, readRouteContext, roleText, routeTask } from '../../src/core/squad/route.js';
import type { Agent } from '../../src/core/roster/roster.js';
import { MIN_CLEAR_COVERAGE, MIN_CLEAR_MARGIN, describedUse, namedSkills, rankSkills, skillConfidence, type SkillMatch } from '../../src/core/squad/skill-rank.js';
import { rankDocuments, stem, tokenize } from '../../src/core/base/text-match.js';
import { escapeRegExp, wholeWordPattern } from '../../src/core/base/util.js';
import { cleanupTempDirs, tempDir, validSkill, writeFiles } from '../helpers/cli.js';
import { promptSquad } from '../helpers/prompt-squad.js';

afterAll(cleanupTempDirs);

describe('tokenize and stem', () => {
  it('lowercases, drops stopwords and short tokens, and stems English words', () => {
    expect(tokenize('Fix the flaky Tests in the React components, testing & tested!')).toEqual(['flaki', 'test', 'react', 'compon', 'test', 'test']);
    expect(tokenize('Ünïcödé 日本語 v2 a')).toEqual(['ünïcödé', '日本語', 'v2']);
    expect(stem('class')).toBe('class');
    expect(stem('policies')).toBe(stem('policy'));
  });

  it.each([
    ['resize', ['resize', 'resizes', 'resizing', 'resized']],
    ['create', ['create', 'creates', 'creating', 'created']],
    ['configure', ['configure', 'configures', 'configuring', 'configured']],
    ['test', ['test', 'tests', 'testing', 'tested']],
    ['review', ['review', 'reviews', 'reviewer', 'reviewing']],
    ['design', ['design', 'designs', 'designer', 'designing']],
    ['push', ['push', 'pushes', 'pushed', 'pushing']],
  ])('joins the forms of "%s", silent e or not', (_base, forms) => {
    expect(new Set(forms.map(stem)).size).toBe(1);
  });

  it('leaves words with digits and words of other scripts as they are', () => {
    expect(['utf8', 'v2', 'ünïcödé', 'données', '日本語'].map(stem)).toEqual(['utf8', 'v2', 'ünïcödé', 'données', '日本語']);
  });
});

describe('rankDocuments (BM25F over fields)', () => {
  const docs = [
    { id: 'ui', fields: { role: 'Frontend', text: 'react components css layout' } },
    { id: 'api', fields: { role: 'Backend', text: 'node api endpoints database' } },
    { id: 'qa', fields: { role: 'Tests', text: 'tests flaky tests coverage' } },
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

  it('ranks a task alike whatever the tense of its verbs', () => {
    const skills = [
      { id: 'images', fields: { text: 'Resize images and create thumbnails' } },
      { id: 'config', fields: { text: 'Configure the build' } },
    ];
    const scores = (task: string) => rankDocuments(skills, task).map((r) => [r.id, r.score]);
    expect(scores('Resizing images, creating thumbnails')).toEqual(scores('Resize images, create thumbnails'));
    expect(scores('configuring the build')).toEqual(scores('configure the build'));
  });

  it('counts a term found in several fields once, saturated, not once per field', () => {
    const both = rankDocuments(
      [
        { id: 'x', fields: { name: 'sheet', text: 'sheet' } },
        { id: 'y', fields: { name: '', text: 'other' } },
      ],
      'sheet',
    );
    const single = rankDocuments(
      [
        { id: 'x', fields: { name: 'sheet', text: '' } },
        { id: 'y', fields: { name: '', text: 'other' } },
      ],
      'sheet',
    );
    expect(both[0]!.score).toBeGreaterThan(single[0]!.score);
    expect(both[0]!.score).toBeLessThan(2 * single[0]!.score);
  });

  it('with ignoreSharedTerms, a term every document holds is no evidence and is not reported', () => {
    const charters = [
      { id: 'lead', fields: { charter: 'Project: orders web app. Reviews architecture.' } },
      { id: 'dev', fields: { charter: 'Project: orders web app. Implements features.' } },
    ];
    const ranked = rankDocuments(charters, 'Review the orders architecture', { ignoreSharedTerms: true });
    expect(ranked[0]).toMatchObject({ id: 'lead', matches: { charter: ['architecture', 'review'] } });
    expect(ranked[1]).toMatchObject({ id: 'dev', score: 0, matches: {} });
    expect(rankDocuments(charters, 'orders web app', { ignoreSharedTerms: true }).every((r) => r.score === 0)).toBe(true);
  });

  it('reports the share of the query terms a document holds', () => {
    const ranked = rankDocuments(
      [
        { id: 'x', fields: { text: 'zod form validation' } },
        { id: 'y', fields: { text: 'other' } },
      ],
      'zod validation for the signup form data',
    );
    expect(ranked[0]!.coverage).toBeCloseTo(3 / 5);
    expect(ranked[1]!.coverage).toBe(0);
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
    const ranked = matchSkills('Zeta alpha Éclair', [{ ...discoverSkills(root, { agent: 'fenster' }).skills[0]!, name: 'zeta-alpha', description: 'éclair Zeta alpha' }]);
    expect(ranked[0]!.terms).toEqual(['alpha', 'zeta', 'éclair']);
  });
});

/** A team skill as discovery would report it, for ranking (only name and description matter). */
function teamSkill(name: string, description: string): DiscoveredSkill {
  return { name, dirName: name, description, scope: 'team', location: `.github/skills/${name}/SKILL.md`, valid: true, disableModelInvocation: false } as DiscoveredSkill;
}

describe('rankSkills (field weighting)', () => {
  const skills = [
    teamSkill('brag-sheet', 'Turn what you did into evidence-backed impact statements for performance reviews and promotion packets.'),
    teamSkill('convert-word-to-md', 'Converts Word documents into Markdown so their contents can be searched and summarized.'),
    teamSkill('convert-excel-to-md', 'Converts Excel workbooks into Markdown so their contents can be searched and summarized.'),
    teamSkill(
      'spreadsheets',
      'Open, edit or fix spreadsheet files: add columns, compute formulas, format cells, build charts, clean messy tabular data. ' +
        'Use whenever a spreadsheet is the input or the output. Do NOT use for Word documents or slide decks.',
    ),
    teamSkill('image-tools', 'Process images: resizing, format conversion, thumbnails and batch operations on many files.'),
    teamSkill('word-documents', 'Create and edit Word documents with headings, tables of contents and page numbers.'),
  ];
  const first = (task: string) => rankSkills(task, skills)[0]?.skill.name;

  it("prefers a description's precise matches over one generic word in a name", () => {
    expect(first('Fix the formulas in the quarterly budget sheet and add a totals column')).toBe('spreadsheets');
    expect(first('Resize all product images to 800px wide and convert them to WebP')).toBe('image-tools');
  });

  it('ranks a task the same whatever the tense of its verbs', () => {
    const order = (task: string) => rankSkills(task, skills).map((m) => m.skill.name);
    expect(order('Resizing the images and converting them')).toEqual(order('Resize the images and convert them'));
  });

  it('does not count what a description says the skill is not for', () => {
    expect(describedUse('Edit spreadsheets. Do NOT use for Word documents or slide decks. Also charts.')).toBe('Edit spreadsheets.  . Also charts.');
    expect(describedUse('Maps a codebase. Do not trigger for routine bug fixes; use it for onboarding.')).toBe('Maps a codebase.  ; use it for onboarding.');
    expect(first('Write the contract as a Word document with a table of contents')).toBe('word-documents');
    expect(rankSkills('slide decks', skills).map((m) => m.skill.name)).not.toContain('spreadsheets');
  });

  it("describedUse's quick first test never skips an exclusion the full pattern finds", () => {
    // The full pattern, as the rule reads: what the skill is not for, to the end of the sentence.
    const reference = /\b(?:(?:do not|don['\u2019]t|never) (?:use|trigger|invoke|apply)|not (?:for|when|to be used)|skip (?:for|when|if|only when))\b[^.;\n]*/gi;
    const pieces = [
      'Do NOT',
      'do not',
      "don't",
      'DON\u2019T',
      'never',
      'Never',
      'not',
      'skip',
      'Skip',
      'only',
      'use',
      'trigger',
      'invoke',
      'apply',
      'for',
      'when',
      'if',
      'to be used',
      'x',
      '.',
      ';',
      '\n',
    ];
    const text = fc.array(fc.constantFrom(...pieces), { maxLength: 10 }).chain((words) => fc.constantFrom(' ', '  ', '').map((gap) => words.join(gap)));
    fc.assert(
      fc.property(text, (description) => {
        expect(describedUse(description)).toBe(description.replace(reference, ' '));
      }),
      { numRuns: 1000 },
    );
  });

  it('reports the matched task words and the share of the task each skill covers', () => {
    const [best] = rankSkills('Resize images into thumbnails', skills);
    expect(best).toMatchObject({ terms: ['images', 'resize', 'thumbnails'], coverage: 1 });
  });
});

describe('skillConfidence (the margin rule)', () => {
  const match = (name: string, score: number, coverage: number): SkillMatch => ({ skill: teamSkill(name, ''), score, terms: [], coverage });

  it('is clear when the best skill covers enough of the task and leads the runner-up enough', () => {
    expect(skillConfidence([match('a', 10, 0.5), match('b', 5, 0.2)])).toEqual({ margin: 0.5, coverage: 0.5, clear: true });
    expect(skillConfidence([match('a', 10, 0.6)])).toEqual({ margin: 1, coverage: 0.6, clear: true });
    expect(skillConfidence([match('a', 10, MIN_CLEAR_COVERAGE), match('b', 10 * (1 - MIN_CLEAR_MARGIN), 0.3)]).clear).toBe(true);
  });

  it('is not clear when two skills score alike', () => {
    const confidence = skillConfidence([match('gitmoji', 10, 0.6), match('commit-messages', 9.5, 0.6)]);
    expect(confidence).toMatchObject({ margin: 0.05, clear: false });
    expect(confidence.reason).toBe('no skill clearly wins (gitmoji and commit-messages score alike)');
  });

  it('is not clear when the best skill matches little of the task, or nothing matched', () => {
    expect(skillConfidence([match('gtm-cadence', 4, 0.2)])).toMatchObject({ margin: 1, clear: false, reason: 'the best skill (gtm-cadence) matches too little of the task' });
    expect(skillConfidence([])).toEqual({ margin: 0, coverage: 0, clear: false, reason: 'no skill matches the task' });
  });
});

describe('namedSkills', () => {
  const skills = [teamSkill('api-design', ''), teamSkill('api', ''), teamSkill('pdf', ''), teamSkill('design', '')];

  it('finds skills whose whole name the task spells, in any case', () => {
    expect(namedSkills('Follow the API-Design skill for the new endpoint', skills).map((s) => s.name)).toEqual(['api-design']);
    expect(namedSkills('Merge the PDF files; then call the api', skills).map((s) => s.name)).toEqual(['api', 'pdf']);
    expect(namedSkills('Redesign the pdfs', skills)).toEqual([]);
    expect(namedSkills('Suivez la compétence API-design', skills).map((s) => s.name)).toEqual(['api-design']);
  });
});

describe('wholeWordPattern', () => {
  // The ASCII pattern must read ASCII text exactly as the pattern of Unicode classes does.
  const unicodePattern = (word: string, flags: string) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(word)}(?![\\p{L}\\p{N}])`, `${flags}u`);
  const piece = fc.constantFrom('data', 'Data', 'DATA', 'api', 'x', '9', 'é', 'K', '\u212a', 'ſ', '-', ' ', '.', '_', 'a1', '(', '$');
  const text = fc.array(piece, { maxLength: 10 }).map((parts) => parts.join(''));
  const word = fc.array(piece, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(''));

  it('finds a whole word exactly as the Unicode pattern does, with or without case', () => {
    fc.assert(
      fc.property(word, text, fc.constantFrom('', 'i', 'g', 'gi'), (w, t, flags) => {
        const found = (pattern: RegExp) => [...t.matchAll(new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`))].map((m) => m.index);
        expect(found(wholeWordPattern(w, t, flags))).toEqual(found(unicodePattern(w, flags)));
      }),
      { numRuns: 2000 },
    );
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

  it('reads a preset role with its aliases and routing line', () => {
    expect(roleText('DevOps')).toContain('ci');
    expect(roleText('DevOps')).toContain('CI/CD, builds, deployment, infrastructure, environments');
    expect(roleText('Puppeteer')).toBe('Puppeteer');
    const root = tempDir();
    writeFiles(root, {
      '.ai-team/team.md': '| Name | Role |\n|---|---|\n| Picard | Lead |\n| Geordi | DevOps |\n| Data | Core Dev |\n',
      '.ai-team/agents/picard/charter.md': '# Picard\n',
      '.ai-team/agents/geordi/charter.md': '# Geordi\n',
      '.ai-team/agents/data/charter.md': '# Data\n',
    });
    const route = routeTask(root, 'The CI is red on main since this morning');
    expect(route.agent).toBe('geordi');
    expect(route.ranking[0]!.matches).toEqual({ role: ['ci'] });
  });

  it('does not take the words every charter shares (the project, the stack) as evidence', () => {
    const root = tempDir();
    const charter = (name: string, owns: string) => `# ${name}\n\n- **Project:** Orders web app\n- **Stack:** TypeScript, React\n\n## What I Own\n\n- ${owns}\n`;
    writeFiles(root, {
      '.ai-team/team.md': '| Name | Role |\n|---|---|\n| Keaton | Lead |\n| Fenster | Core Dev |\n| Hockney | Tester |\n',
      '.ai-team/agents/keaton/charter.md': charter('Keaton', 'Architecture and scope'),
      '.ai-team/agents/fenster/charter.md': charter('Fenster', 'Features and fixes'),
      '.ai-team/agents/hockney/charter.md': charter('Hockney', 'Flaky tests'),
    });
    // A question, so nothing matched leaves it with the lead (work to do would go to the implementer).
    const route = routeTask(root, 'What about the React pages of the orders web app?');
    expect(route.matched).toBe(false);
    expect(route.agent).toBe('keaton');
    expect(route.ranking.every((r) => Object.keys(r.matches).length === 0)).toBe(true);
    expect(routeTask(root, 'Fix the flaky React tests of the orders app').agent).toBe('hockney');
  });

  it('credits a member for the own skills a task calls for, not for how many skills it holds', () => {
    const root = promptSquad();
    const many: Record<string, string> = {};
    for (let i = 0; i < 20; i += 1) {
      many[`.ai-team/agents/fenster/skills/area-${i}/SKILL.md`] = validSkill(`area-${i}`, `Conventions for area ${i} of the code: folders, naming, tests, reviews and releases.`);
    }
    writeFiles(root, many);
    const flaky = routeTask(root, 'The checkout test fails intermittently, find the flaky test');
    expect(flaky.agent).toBe('hockney');
    expect(routeTask(root, 'Fix the re-render loop in the React component').agent).toBe('fenster');
    const ownSkill = routeTask(root, 'Set the naming conventions of area 7');
    expect(ownSkill.agent).toBe('fenster');
    expect(ownSkill.ranking[0]!.matches.skills).toEqual(expect.arrayContaining(['area', 'naming']));
  });

  it('suggests lightweight mode only when one skill clearly wins, and reports the margin and candidates', () => {
    const root = promptSquad({
      '.ai-team/agents/hockney/skills/test-data/SKILL.md': validSkill('test-data', 'Build test data for flaky integration tests: fixtures, factories, seeds.'),
    });
    const clear = routeTask(root, 'The checkout test fails intermittently, find the flaky test');
    expect(clear.mode).toBe('lightweight');
    expect(clear.confidence).toMatchObject({ clear: true });
    expect(clear.reason).toContain(`margin ${clear.confidence.margin}`);
    expect(clear.candidates.map((c) => c.name)).toEqual(['flaky-tests', 'test-data']);
    expect(clear.candidates[0]!.score).toBeGreaterThan(clear.candidates[1]!.score);

    const twins = promptSquad({
      '.ai-team/agents/hockney/skills/flaky-triage/SKILL.md': validSkill('flaky-triage', 'Triage flaky tests: quarantine, retries, owners. Use when a test fails intermittently.'),
    });
    const alike = routeTask(twins, 'A test fails intermittently: deal with the flaky test');
    expect(alike.agent).toBe('hockney');
    expect(alike.mode).toBe('standard');
    expect(alike.confidence).toMatchObject({ clear: false });
    expect(alike.confidence.margin).toBeLessThan(0.15);
    expect(alike.reason).toMatch(/standard mode because no skill clearly wins \((flaky-tests and flaky-triage|flaky-triage and flaky-tests) score alike\)/);
    expect(alike.skills.map((s) => s.name).sort()).toEqual(['flaky-tests', 'flaky-triage']);
  });

  it('copes with a squad without members', () => {
    const root = tempDir();
    writeFiles(root, { '.ai-team/team.md': '# Team\n' });
    expect(routeTask(root, 'anything')).toMatchObject({ agent: '', mode: 'standard', ranking: [] });
  });
});

describe('routeTask follows routing.md, then what distinguishes members', () => {
  const team =
    '| Name | Role | Charter | Status |\n|---|---|---|---|\n| Mercer | Lead | x | ✅ |\n| Okafor | Backend Dev | x | ✅ |\n| Lind | Frontend Dev | x | ✅ |\n| Priya | Product Owner | — | 👤 Human |\n';
  const routing = [
    '| Work Type | Route To | Examples |',
    '|---|---|---|',
    '| Billing, invoices | Okafor | refunds, ledgers |',
    '| Screens and widgets | [Lind](https://example.org) 🎨 | date pickers, services page |',
    '| Pricing approval | Priya 👤 | discounts |',
  ].join('\n');
  const squad = (charters: Record<string, string> = {}) => {
    const root = tempDir();
    writeFiles(root, {
      '.ai-team/team.md': team,
      '.ai-team/routing.md': `# Routing\n\n${routing}\n`,
      '.ai-team/agents/mercer/charter.md': charters.mercer ?? '# Mercer\n',
      '.ai-team/agents/okafor/charter.md': charters.okafor ?? '# Okafor\n',
      '.ai-team/agents/lind/charter.md': charters.lind ?? '# Lind\n',
    });
    return root;
  };

  it("reads a specialist's domain the wording tells, learned from tasks, when no listed word does: shown as (words)→domain", () => {
    const root = tempDir();
    writeFiles(root, {
      '.ai-team/team.md': '| Name | Role | Charter | Status |\n|---|---|---|---|\n| Mercer | Lead | x | ✅ |\n| Okafor | Core Dev | x | ✅ |\n| Ines | DevRel | x | ✅ |\n',
      '.ai-team/agents/mercer/charter.md': '# Mercer\n',
      '.ai-team/agents/okafor/charter.md': '# Okafor\n\n## What I Own\n\n- Features and fixes\n',
      '.ai-team/agents/ines/charter.md': '# Ines\n\n## What I Own\n\n- Documentation and messaging\n',
    });
    const route = routeTask(root, 'Write a launch post people will want to share');
    expect(route.agent).toBe('ines');
    expect(
      route.routedBy.words.some((word) => /^\(.+\)→(?:documentation|messaging)$/.test(word)),
      route.reason,
    ).toBe(true);
  });

  it('never gives a task to a member who runs in the background on their own (🔄 Monitor, 📋 Silent), whatever their charter says', () => {
    const root = tempDir();
    writeFiles(root, {
      '.ai-team/team.md':
        '| Name | Role | Charter | Status |\n|---|---|---|---|\n| Mercer | Lead | x | ✅ |\n| Lind | Frontend Dev | x | ✅ |\n| Ralph | Work Monitor | x | 🔄 Monitor |\n',
      '.ai-team/agents/mercer/charter.md': '# Mercer\n',
      '.ai-team/agents/lind/charter.md': '# Lind\n\n## What I Own\n\n- Screens\n',
      '.ai-team/agents/ralph/charter.md': '# Ralph\n\n## What I Own\n\n- Progress of the work queue, progress bars of the board, stalled steps\n',
    });
    const route = routeTask(root, 'Show a progress bar over the upload steps');
    expect(route.agent).not.toBe('ralph');
    expect(route.ranking.map((r) => r.agent)).not.toContain('ralph');
  });

  it('routes alike from one read of the squad (readRouteContext) and from a read per task; a read of another squad is not used', () => {
    const root = squad({ okafor: '# Okafor\n\n## What I Own\n\n- Services: queues, workers and retries\n' });
    const context = readRouteContext(root);
    for (const task of ['Retries of the queue workers pile up', 'The date pickers on the services page are off by one', 'Discounts for schools', 'Decide on the ledgers']) {
      expect(routeTask(root, task, { context }), task).toEqual(routeTask(root, task));
    }
    const other = squad({ lind: '# Lind\n\n## What I Own\n\n- Queues and workers\n' });
    expect(routeTask(other, 'Retries of the queue workers pile up', { context }).agent).toBe('lind');
  });

  it("a one-word charter match in boilerplate decides nothing; what a charter says its member doesn't handle is no evidence", () => {
    const root = squad({
      lind: "# Lind\n\n## How I Work\n\nI ask for help when it gets hard.\n\n## Boundaries\n\n**I don't handle:** exports and webhooks\n",
    });
    const route = routeTask(root, 'Get the weekly exports working');
    expect(route.agent).toBe('mercer');
    expect(route.routedBy.source).toBe('default');
  });

  it('a row holding one word of the task yields to a lead question, and to a member whose own texts hold several', () => {
    const root = squad({ okafor: '# Okafor\n\n## What I Own\n\n- Services: queues, workers and retries\n' });
    const lead = routeTask(root, 'Decide on the ledgers');
    expect(lead.agent).toBe('mercer');
    expect(lead.reason).toContain('"Decide" is a question for Mercer (the lead)');
    const owner = routeTask(root, 'Retries of the queue workers pile up in services');
    expect(owner.agent).toBe('okafor');
    expect(owner.routedBy).toMatchObject({ source: 'charter', words: ['queue', 'retries', 'services', 'workers'] });
    const row = routeTask(root, 'The date pickers on the services page are off by one');
    expect(row.agent).toBe('lind');
    expect(row.routedBy).toMatchObject({ source: 'routing-table', row: { line: 6, workType: 'Screens and widgets', routeTo: 'Lind' } });
  });

  it('never routes to a row naming the coding agent, the Scribe or nobody on the roster', () => {
    const root = squad();
    writeFiles(root, {
      '.ai-team/team.md': `${team}| Scribe | Session Logger | x | 📋 Silent |\n| @copilot | Coding Agent | — | 🤖 Coding Agent |\n`,
      '.ai-team/agents/scribe/charter.md': '# Scribe\n',
      '.ai-team/routing.md': `${routing}\n| Async chores, small bugs | @copilot 🤖 | lint fixes |\n| Session logging, small bugs | Scribe | lint fixes |\n| Lint fixes, small bugs | Zed | lint |\n`,
    });
    const route = routeTask(root, 'Lint fixes for small bugs');
    expect(route.routedBy.source).toBe('default');
    expect(route.agent).toBe('mercer');
  });

  it('members tied at the top are told apart by the row the task matches, else nobody takes it but the lead, never the roster order', () => {
    const owns = '# X\n\n## What I Own\n\n- Calendar sync\n';
    const root = squad({ okafor: owns, lind: owns });
    const row = routeTask(root, 'Calendar sync widgets are late');
    expect(row.ranking.slice(0, 2).map((r) => r.score)).toEqual([row.ranking[0]!.score, row.ranking[0]!.score]);
    expect(row.agent).toBe('lind');
    // The row that breaks the tie names the same member: it explains the choice itself.
    expect(row.reason).toMatch(/^routing\.md line 6 routes "Screens and widgets" to Lind \(matched "widgets"/);
    const none = routeTask(root, 'Calendar sync is late again');
    expect(none.agent).toBe('mercer');
    expect(none.routedBy.source).toBe('default');
  });

  it('a human the task names and asks for a yes is asked; a mention alone is not a question for them', () => {
    const root = squad();
    expect(routeTask(root, 'Priya has to approve the onboarding copy')).toMatchObject({ agent: '', ask: { name: 'priya' } });
    expect(routeTask(root, 'We need a green light from Priya on the services page')).toMatchObject({ agent: '', ask: { name: 'priya' } });
    expect(routeTask(root, "Priya's services page has a typo").ask).toBeUndefined();
  });

  it('what goes into a release, and what waits, is a question for the lead', () => {
    const route = routeTask(squad(), 'Which refunds fixes go into the next release?');
    expect(route.agent).toBe('mercer');
    expect(route.reason).toContain('is a question for Mercer (the lead)');
  });

  it("a role title naming two of the task's words wins over a row that holds them only among its examples", () => {
    const root = tempDir();
    writeFiles(root, {
      '.ai-team/team.md':
        '| Name | Role | Charter | Status |\n|---|---|---|---|\n| Mercer | Lead | x | ✅ |\n| Okafor | Runtime Dev | x | ✅ |\n| Quinn | Payments SDK Expert | x | ✅ |\n',
      '.ai-team/routing.md': '| Work Type | Route To | Examples |\n|---|---|---|\n| Runtime and streaming | Okafor | SDK sessions, event loop |\n',
      '.ai-team/agents/mercer/charter.md': '# Mercer\n',
      '.ai-team/agents/okafor/charter.md': '# Okafor\n',
      '.ai-team/agents/quinn/charter.md': '# Quinn\n',
    });
    const titled = routeTask(root, 'How do we use the payments SDK session object?');
    expect(titled.agent).toBe('quinn');
    expect(titled.reason).toContain('role names "payments", "sdk"');
    // The row's Work Type holds a word of the task: the row decides.
    expect(routeTask(root, 'The payments SDK session stalls the runtime').agent).toBe('okafor');
  });

  it("a human's row answers ask, with nobody to spawn", () => {
    const route = routeTask(squad(), 'Is the discount for schools approved? pricing approval needed');
    expect(route).toMatchObject({ agent: '', mode: 'standard', skills: [], ask: { name: 'priya', displayName: 'Priya', role: 'Product Owner' } });
    expect(route.routedBy.row?.workType).toBe('Pricing approval');
  });
});
