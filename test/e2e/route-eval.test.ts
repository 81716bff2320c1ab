/**
 * Routing and skill retrieval on real skills: bench/route-eval.mjs run in-process on the built
 * package (as CI builds it before the tests; a third less work than the sources through vitest),
 * held to its targets. The skills corpus lives outside the repository (../shared/data); without it
 * the test is skipped, with the reason in its name.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CORPUS, evaluate, missedTargets, TARGETS } from '../../bench/route-eval.mjs';
import { REPO_ROOT } from '../helpers/cli.js';

const haveCorpus = fs.existsSync(DEFAULT_CORPUS);

describe('route and prompt on the shared skills corpus', () => {
  it.skipIf(!haveCorpus)(
    haveCorpus ? 'meets the targets for top-1, top-3, lightweight precision and bounded-prompt recall' : 'skipped: no skills corpus in ../shared/data',
    async () => {
      const lib: unknown = await import(pathToFileURL(path.join(REPO_ROOT, 'index.js')).href);
      const { summary } = await evaluate({ lib, corpus: DEFAULT_CORPUS });
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
