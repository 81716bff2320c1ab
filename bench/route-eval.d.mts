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

export type RouteEvalHalf = 'tune' | 'held-out';

export interface MemberEvalSummary {
  tasks: number;
  accuracy: number;
  bySquad: Record<string, { tasks: number; right: number }>;
  /** Squads of memberTasks not found in ../shared/data. */
  skipped: string[];
  rows: unknown[];
}

export const TARGETS: { top1: number; top3: number; lightweightPrecision: number; boundedRecall: number };
export const MEMBER_TARGET: number;
export const HALVES: RouteEvalHalf[];
export const DEFAULT_CORPUS: string;
export function missedTargets(summary: RouteEvalSummary): string[];
export function missedMemberTarget(members: MemberEvalSummary | undefined): string[];
/** `summary` is the held-out half's, undefined when that half was not measured. */
export function evaluate(options: {
  lib: unknown;
  corpus: string;
  halves?: RouteEvalHalf[];
  members?: boolean;
  checkout?: string;
}): Promise<{ summary: RouteEvalSummary | undefined; halves: Partial<Record<RouteEvalHalf, RouteEvalSummary>>; rows: unknown[]; members: MemberEvalSummary | undefined }>;
