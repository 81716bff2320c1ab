import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { DiscoveredSkill } from '../../src/core/squad/discover.js';
import { DEFAULT_SKILLS_BUDGET, selectListedSkills, skillEntryTokens } from '../../src/core/prompt/skill-budget.js';
import { buildSpawnPrompt } from '../../src/core/prompt/spawn-prompt.js';
import { namedSkills, rankSkills } from '../../src/core/squad/skill-rank.js';
import { cleanupTempDirs, tempDir, validSkill, writeFiles } from '../helpers/cli.js';
import { promptSquad } from '../helpers/prompt-squad.js';
import { packageVersion } from '../../src/core/fs/version.js';

afterAll(cleanupTempDirs);

function skill(name: string, description: string, agent?: string): DiscoveredSkill {
  const location = agent ? `.ai-team/agents/${agent}/skills/${name}/SKILL.md` : `.github/skills/${name}/SKILL.md`;
  return {
    name,
    dirName: name,
    description,
    location,
    scope: agent ? 'agent' : 'team',
    ...(agent ? { agent } : {}),
    valid: true,
    disableModelInvocation: false,
  } as DiscoveredSkill;
}

/** Many team skills on other topics, a few relevant ones, two of the agent's own. */
function squadSkills(): DiscoveredSkill[] {
  const filler = Array.from({ length: 60 }, (_, i) => skill(`area-${String(i).padStart(2, '0')}`, `Conventions for business area ${i}: naming, folders and reviews.`));
  return [
    ...filler.slice(0, 30),
    skill('image-tools', 'Resize images, convert formats and make thumbnails in batches.'),
    ...filler.slice(30),
    skill('spreadsheets', 'Fix spreadsheet formulas, add columns and charts.'),
    skill('fenster-notes', 'How Fenster keeps his notes.', 'fenster'),
    skill('release-checklist', 'Steps before a release.', 'fenster'),
  ];
}

const names = (skills: readonly DiscoveredSkill[]) => skills.map((s) => s.name);

describe('selectListedSkills', () => {
  it('lists every skill in discovery order when they fit, or without a budget', () => {
    const skills = squadSkills();
    const all = selectListedSkills('Resize the photos', skills, 'fenster', undefined);
    expect(names(all.listed)).toEqual(names(skills));
    expect(all.leftOut).toEqual([]);
    const roomy = selectListedSkills('Resize the photos', skills, 'fenster', 1_000_000);
    expect(names(roomy.listed)).toEqual(names(skills));
    expect(roomy.tokens).toBe(skills.reduce((sum, s) => sum + skillEntryTokens(s), 0));
  });

  it('over the budget: own skills, then the skills most relevant to the task, within the budget', () => {
    const skills = squadSkills();
    const budget = 12 * skillEntryTokens(skills[0]!);
    const listing = selectListedSkills('Resize the product images into thumbnails', skills, 'fenster', budget);
    expect(names(listing.listed).slice(0, 3)).toEqual(['fenster-notes', 'release-checklist', 'image-tools']);
    expect(listing.tokens).toBeLessThanOrEqual(budget);
    expect(listing.listed.length + listing.leftOut.length).toBe(skills.length);
    expect(names(listing.leftOut)).not.toContain('image-tools');
  });

  it('always keeps a skill the task names, even past the budget', () => {
    const skills = squadSkills();
    const listing = selectListedSkills('Follow area-42 and spreadsheets for the report', skills, 'fenster', 0);
    expect(names(listing.listed)).toEqual(['area-42', 'spreadsheets']);
    expect(listing.tokens).toBeGreaterThan(0);
    expect(listing.leftOut).toHaveLength(skills.length - 2);
  });

  it('weighs entries only as needed and lists exactly what weighing every entry first would', () => {
    // The rule as written, weighing every skill up front: the reference the lazy weighing must meet.
    const reference = (task: string, skills: DiscoveredSkill[], agent: string, budget: number) => {
      const total = skills.reduce((sum, s) => sum + skillEntryTokens(s), 0);
      if (total <= budget) return { listed: skills, tokens: total };
      const named = new Set(namedSkills(task, skills));
      const others = skills.filter((s) => !named.has(s));
      const relevance = new Map(rankSkills(task, others).map((m) => [m.skill, m.score]));
      const rest = others
        .map((s, index) => ({ s, index, own: s.scope === 'agent' && s.agent === agent ? 1 : 0, score: relevance.get(s) ?? 0 }))
        .sort((x, y) => y.own - x.own || y.score - x.score || x.index - y.index)
        .map(({ s }) => s);
      const listed = [...named];
      let tokens = listed.reduce((sum, s) => sum + skillEntryTokens(s), 0);
      for (const s of rest) {
        if (tokens + skillEntryTokens(s) > budget) break;
        listed.push(s);
        tokens += skillEntryTokens(s);
      }
      return { listed, tokens };
    };
    const words = ['images', 'resize', 'notes', 'release', 'charts', 'area', 'spreadsheet', 'thumbnails', 'x'];
    const generated = fc
      .array(fc.tuple(fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 12 }), fc.boolean()), { maxLength: 25 })
      .map((specs) => specs.map(([text, own], i) => skill(`s-${i}`, text.join(' '), own ? 'fenster' : undefined)));
    fc.assert(
      fc.property(generated, fc.array(fc.constantFrom(...words, 's-3', 's-10'), { maxLength: 5 }), fc.integer({ min: 0, max: 600 }), (skills, task, budget) => {
        const listing = selectListedSkills(task.join(' '), skills, 'fenster', budget);
        const expected = reference(task.join(' '), skills, 'fenster', budget);
        expect(names(listing.listed)).toEqual(names(expected.listed));
        expect(listing.tokens).toBe(expected.tokens);
      }),
      { numRuns: 300 },
    );
  });
});

describe('buildSpawnPrompt with a skills budget', () => {
  function bigSquad(): string {
    const root = tempDir();
    const files: Record<string, string> = {
      '.ai-team/team.md': '| Name | Role |\n|---|---|\n| Fenster | Core Dev |\n',
      '.ai-team/agents/fenster/charter.md': '# Fenster\n',
      '.ai-team/agents/fenster/skills/own-habits/SKILL.md': validSkill('own-habits', 'How Fenster works.'),
      '.github/skills/image-tools/SKILL.md': validSkill('image-tools', 'Resize images, convert formats and make thumbnails in batches.'),
    };
    for (let i = 0; i < 200; i += 1) {
      const name = `area-${String(i).padStart(3, '0')}`;
      files[`.github/skills/${name}/SKILL.md`] = validSkill(
        name,
        `Conventions for business area ${i}: naming, folders, reviews and the checks to run before merging anything there.`,
      );
    }
    writeFiles(root, files);
    return root;
  }

  it('lists the most relevant skills within the default budget, says how many are left out, and warns', async () => {
    const root = bigSquad();
    const result = await buildSpawnPrompt({ root, agent: 'fenster', task: 'Resize the product images', home: tempDir() });
    const listed = result.skills.map((s) => s.name);
    expect(listed.slice(0, 2)).toEqual(['own-habits', 'image-tools']);
    expect(result.skillsBudget).toBe(DEFAULT_SKILLS_BUDGET);
    expect(result.tokens.skills).toBeLessThanOrEqual(DEFAULT_SKILLS_BUDGET + 10);
    expect(result.skillsLeftOut.length).toBe(202 - listed.length);
    expect(result.skillsLeftOut[0]).toMatchObject({ reason: 'over-budget' });
    expect(result.prompt).toContain(
      `${result.skillsLeftOut.length} more skills are not listed here because they fit this task less. To see them all, run \`npx create-squad@${packageVersion()} skills list --agent fenster\``,
    );
    expect(result.warnings.map((w) => w.message)).toContain(
      `the prompt lists ${listed.length} of 202 skills, the most relevant to the task within the skills budget of ${DEFAULT_SKILLS_BUDGET} tokens (--skills-budget <tokens> changes it, --all-skills lists every skill)`,
    );
  });

  it('takes another budget, or lists every skill with allSkills', async () => {
    const root = bigSquad();
    const small = await buildSpawnPrompt({ root, agent: 'fenster', task: 'Resize the product images', home: tempDir(), skillsBudget: 500 });
    expect(small.tokens.skills).toBeLessThanOrEqual(510);
    const all = await buildSpawnPrompt({ root, agent: 'fenster', task: 'Resize the product images', home: tempDir(), allSkills: true });
    expect(all.skills).toHaveLength(202);
    expect(all.skillsLeftOut).toEqual([]);
    expect(all.skillsBudget).toBeNull();
    expect(all.prompt).not.toContain('more skills are not listed here');
    expect(all.warnings.some((w) => w.code === 'skills-left-out' || w.message.includes('skills budget'))).toBe(false);
  });
});

describe('buildSpawnPrompt lightweight: the same confidence rule as route, and the other candidates', () => {
  const FLAKY_TRIAGE = '.ai-team/agents/fenster/skills/flaky-triage/SKILL.md';

  it('inlines the skills of a clear winner and lists the other candidates one line each', async () => {
    const root = promptSquad({
      '.ai-team/agents/fenster/skills/ui-testing/SKILL.md': validSkill('ui-testing', 'Write tests for UI components with Testing Library: queries, events and async updates.'),
    });
    const result = await buildSpawnPrompt({
      root,
      agent: 'fenster',
      task: 'Fix the re-render loop in the OrderList React component with hooks',
      mode: 'lightweight',
      home: tempDir(),
    });
    expect(result.mode).toBe('lightweight');
    expect(result.skills.map((s) => [s.name, s.inlined])).toEqual([['react-component-patterns', true]]);
    expect(result.candidates.map((s) => [s.name, s.inlined])).toEqual([['ui-testing', false]]);
    expect(result.prompt).toContain(
      "Other skills that may also fit (not inlined; read one's SKILL.md only if the skills above are not enough):\n" +
        '- ui-testing (.ai-team/agents/fenster/skills/ui-testing/SKILL.md): Write tests for UI components with Testing Library: queries, events and async updates.\n',
    );
    expect(result.prompt).not.toContain('=== SKILL ui-testing');
  });

  it('refuses a lightweight spawn when no skill clearly wins, as route does', async () => {
    const root = promptSquad({
      [FLAKY_TRIAGE]: validSkill('flaky-triage', 'Triage flaky tests: quarantine, retries, owners. Use when a test fails intermittently.'),
      '.ai-team/agents/fenster/skills/flaky-tests/SKILL.md': validSkill(
        'flaky-tests',
        'Find and fix flaky tests: retries, timing, isolation. Use when a test fails intermittently.',
      ),
    });
    const result = await buildSpawnPrompt({ root, agent: 'fenster', task: 'A test fails intermittently: deal with the flaky test', mode: 'lightweight', home: tempDir() });
    expect(result.mode).toBe('standard');
    expect(result.warnings.find((w) => w.code === 'lightweight-refused')?.message).toMatch(
      /^lightweight mode refused: no skill clearly wins \(flaky-\w+ and flaky-\w+ score alike\) \(lightweight spawns need one skill that clearly fits\); building a standard spawn instead$/,
    );
    const chosen = await buildSpawnPrompt({
      root,
      agent: 'fenster',
      task: 'A test fails intermittently: deal with the flaky test',
      mode: 'lightweight',
      skills: ['flaky-triage'],
      home: tempDir(),
    });
    expect(chosen.mode).toBe('lightweight');
    expect(chosen.skills.map((s) => s.name)).toEqual(['flaky-triage']);
    expect(chosen.candidates.map((s) => s.name)).toEqual(['flaky-tests']);
  });

  it('shortens a long candidate description to one line', async () => {
    const long = `Tests for UI components: ${'queries events async updates '.repeat(20)}`;
    const root = promptSquad({ '.ai-team/agents/fenster/skills/ui-testing/SKILL.md': validSkill('ui-testing', long) });
    const result = await buildSpawnPrompt({
      root,
      agent: 'fenster',
      task: 'Fix the re-render loop in the OrderList React component with hooks',
      mode: 'lightweight',
      home: tempDir(),
    });
    const line = result.prompt.split('\n').find((l) => l.startsWith('- ui-testing'))!;
    expect(line.endsWith('…')).toBe(true);
    expect(line.length).toBeLessThan(260);
  });
});
