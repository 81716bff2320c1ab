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

export interface MemberCount {
  tasks: number;
  right: number;
  accuracy: number;
}

export interface MemberRow {
  squad: string;
  half: RouteEvalHalf;
  task: string;
  expect: { role?: string; member?: string; ask?: string };
  /** Where the task comes from, when it is a failure an issue reported ("issue 29"). */
  from?: string;
  answer: { ask: string } | { member: string; displayName: string; role: string | undefined };
  right: boolean;
}

export interface MemberEvalSummary extends MemberCount {
  bySquad: Record<string, MemberCount & { halves: Record<RouteEvalHalf, MemberCount> }>;
  /** The tasks of a human's row (expecting "ask"). */
  ask: MemberCount;
  /** Squads of memberTasks not found in ../shared/data. */
  skipped: string[];
  rows: MemberRow[];
}

export const TARGETS: { top1: number; top3: number; lightweightPrecision: number; boundedRecall: number };
export const MEMBER_TARGET: number;
export const HALVES: RouteEvalHalf[];
export const DEFAULT_CORPUS: string;
export function missedTargets(summary: RouteEvalSummary): string[];
export function missedMemberTarget(members: MemberEvalSummary | undefined): string[];
export function heldOutBelowTarget(members: MemberEvalSummary | undefined): string[];
/** The `squads` value of the fresh squad (made by init). */
export const FRESH: string;
export function readTasksFile(): unknown;
/** The kind of work of each tuned task (never the held-out half), for the learned model. */
export function workKindExamples(file?: unknown): { task: string; kind: 'lead' | 'testing' | 'approval' | 'work' }[];
/** The domains the specialists' model tells apart, `general` last. */
export function workDomainClasses(file?: unknown): string[];
/** The domain of each tuned member task (never the held-out half), for the specialists' model. */
export function workDomainExamples(file?: unknown): { task: string; kind: string }[];
/** One member task routed in `squad`: `route` is routeTask's suggestion or route's --json data. */
export function memberRow(
  squad: string,
  task: { task: string; expect: MemberRow['expect']; half: RouteEvalHalf; from?: string },
  route: { agent: string; displayName?: string; role?: string; ask?: { name: string } | string; humans?: { name: string }[] },
): MemberRow;
export function summarizeMembers(rows: readonly MemberRow[], skipped?: string[]): MemberEvalSummary;
/** `summary` is the held-out half's, undefined when that half was not measured. */
export function evaluate(options: {
  lib: unknown;
  corpus: string;
  halves?: RouteEvalHalf[];
  members?: boolean;
  skills?: boolean;
  checkout?: string;
}): Promise<{ summary: RouteEvalSummary | undefined; halves: Partial<Record<RouteEvalHalf, RouteEvalSummary>>; rows: unknown[]; members: MemberEvalSummary | undefined }>;
/** A source module of this checkout loaded through vite (no build); `close` stops vite. */
export function loadSourceModule(file: string): Promise<{ module: Record<string, unknown>; close: () => Promise<void> }>;
