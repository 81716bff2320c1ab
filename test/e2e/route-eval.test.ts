/**
 * Routing and skill retrieval on real skills: bench/route-eval.mjs run in-process on the built
 * package (as CI builds it before the tests; a third less work than the sources through vitest),
 * held to its targets on the held-out half of the tasks (the half ranking is never tuned on; the
 * tuning half is measured by `npm run eval:route`). The skills corpus lives outside the repository
 * (../shared/data); without it the test is skipped, with the reason in its name.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_CORPUS, evaluate, missedTargets, TARGETS } from '../../bench/route-eval.mjs';
import { REPO_ROOT } from '../helpers/cli.js';

/**
 * Skill discovery read once per squad and view while the evaluation measures: route and prompt each
 * discover every skill of the squad again for each task, and the squads no longer change
 * once the first task is measured, so a discovery read again would be the same. Each call gets its
 * own copy of the result. Before that (while the squads are made and filled) nothing is kept.
 */
const discoveries = vi.hoisted(() => ({ measuring: false, made: 0, served: 0 }));
vi.mock(import('../../dist/core/squad/discover.js'), async (importOriginal) => {
  const original = await importOriginal();
  const cache = new Map<string, ReturnType<typeof original.discoverSkills>>();
  const discoverSkills: typeof original.discoverSkills = (root, options = {}) => {
    if (!discoveries.measuring) return original.discoverSkills(root, options);
    const key = JSON.stringify([root, options.agent ?? null]);
    let discovery = cache.get(key);
    if (discovery === undefined) {
      discovery = original.discoverSkills(root, options);
      cache.set(key, discovery);
      discoveries.made += 1;
    }
    discoveries.served += 1;
    return structuredClone(discovery);
  };
  return { ...original, discoverSkills };
});

const haveCorpus = fs.existsSync(DEFAULT_CORPUS);

describe('route and prompt on the shared skills corpus', () => {
  it.skipIf(!haveCorpus)(
    haveCorpus ? 'meets the targets for top-1, top-3, lightweight precision and bounded-prompt recall on the held-out tasks' : 'skipped: no skills corpus in ../shared/data',
    async () => {
      const built = await import(pathToFileURL(path.join(REPO_ROOT, 'index.js')).href);
      // The evaluation routes its first task once both squads are complete.
      const lib = {
        ...built,
        routeTask: (...args: unknown[]) => {
          discoveries.measuring = true;
          return built.routeTask(...args);
        },
      };
      const { summary: heldOut } = await evaluate({ lib, corpus: DEFAULT_CORPUS, halves: ['held-out'], members: false });
      const summary = heldOut!;
      expect(summary.tasks).toBeGreaterThanOrEqual(50);
      // The cache above served route and prompt (else the evaluation measured nothing through it).
      expect(discoveries.served).toBeGreaterThan(discoveries.made);
      expect(missedTargets(summary)).toEqual([]);
      expect(summary.top1).toBeGreaterThanOrEqual(TARGETS.top1);
      expect(summary.lightweightPrompt.precision).toBeGreaterThanOrEqual(TARGETS.lightweightPrecision);
      // A member holding many own skills takes only the tasks that call for them.
      expect(summary.agents.changedBySkills - summary.agents.changedBySkillsToHolder).toBeLessThanOrEqual(summary.tasks / 10);
      expect(summary.agents.testingTasksToTester.withSkills).toBe(summary.agents.testingTasksToTester.withoutSkills);
      expect(summary.standardPrompt.maxSkillTokens).toBeLessThanOrEqual(4000);
    },
    180_000,
  );
});
