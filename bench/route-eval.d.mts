/** Types of bench/route-eval.mjs, for the test that runs it in-process. */
export interface RouteEvalSummary {
  tasks: number;
  top1: number;
  top3: number;
  agents: {
    withoutSkills: Record<string, number>;
    withSkills: Record<string, number>;
    labelAgreementWithoutSkills: number;
    labelAgreementWithSkills: number;
    changedBySkills: number;
    changedBySkillsToHolder: number;
    testingTasksToTester: { withoutSkills: number; withSkills: number; of: number };
  };
  lightweightRoute: { tasks: number; right: number; onlyWrong: number; precision: number };
  lightweightPrompt: { tasks: number; right: number; onlyWrong: number; precision: number };
  boundedRecall: number;
  standardPrompt: { medianSkillsListed: number; medianSkillTokens: number; maxSkillTokens: number };
}

export const TARGETS: { top1: number; top3: number; lightweightPrecision: number; boundedRecall: number };
export const DEFAULT_CORPUS: string;
export function missedTargets(summary: RouteEvalSummary): string[];
export function evaluate(options: { lib: unknown; corpus: string }): Promise<{ summary: RouteEvalSummary; rows: unknown[] }>;
