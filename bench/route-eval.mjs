#!/usr/bin/env node
/**
 * Routing and skill retrieval at the scale of real skill collections.
 *
 *   node bench/route-eval.mjs [--src | --lib <checkout>] [--corpus <file.tgz>] [--half tune|held-out] [--json] [--check]
 *   npm run eval:route
 *
 * Unpacks the shared skills corpus (frontmatter of real public skills, kept outside the repository
 * in ../shared/data/skills-corpus.tgz) into two squads made by init (Lead, Core Dev, Tester): a bare
 * one, and one whose team skills are the corpus's `team/` skills (in .github/skills/) and whose Core
 * Dev holds the `agent/` skills as his own. Then, for every task of bench/route-eval-tasks.json,
 * it asks route and prompt what they would do, and prints:
 *
 *   top-1, top-3            the intended skill first / among the first three skills route ranks
 *   agents                  how the tasks split across the roles, without skills and with them, and
 *                           how often the role matches the task's label
 *   lightweight             how many tasks route and `prompt --mode lightweight` (no --skill) give a
 *                           lightweight spawn, and in how many the intended skill is inlined
 *   bounded standard prompt whether the intended skill is in the standard prompt of the member route
 *                           chose, and the size of that prompt's skill list
 *
 * Each task is in one half: `tune` (ranking may be tuned on it) or `held-out` (measured, never tuned
 * on); every metric is printed for both, and the targets hold on the held-out half.
 *
 *   member accuracy         for the memberTasks of the tasks file: the share that route gives to the
 *                           member expected (by role or name), or answers "ask" the human expected;
 *                           a fresh squad is the bare one, any other is a squad file of ../shared/data,
 *                           unpacked and upgraded by this checkout's CLI
 *
 * --src measures the sources (src/, loaded through vite, no build needed); --lib another checkout
 * (built: its index.js and dist/), e.g. an older commit; by default this checkout's build.
 * --check exits 1 when a metric of the held-out half misses its target (TARGETS). Without the corpus
 * it says so and exits 0, so the repository still builds and tests on its own.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));
const TASKS_FILE = path.join(REPO_ROOT, 'bench', 'route-eval-tasks.json');
export const DEFAULT_CORPUS = path.resolve(REPO_ROOT, '..', 'shared', 'data', 'skills-corpus.tgz');
const SQUAD = { project: 'Orders web app', stack: 'TypeScript, React, Node.js', owner: 'the shop team' };
const ROLES = ['Lead', 'Core Dev', 'Tester'];
const SKILL_HOLDER_ROLE = 'Core Dev';
/** The halves of the tasks: tuned on, and held out (the one the targets hold on). */
export const HALVES = ['tune', 'held-out'];
const SHARED_DATA = path.resolve(REPO_ROOT, '..', 'shared', 'data');

/** The targets --check enforces: shares of the held-out tasks. */
export const TARGETS = { top1: 0.8, top3: 0.95, lightweightPrecision: 0.95, boundedRecall: 0.98 };
/** The target for member accuracy (memberTasks), once the file holds tasks for the squads measured. */
export const MEMBER_TARGET = 0.9;

function option(args, name, fallback) {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args[at + 1];
}

// ---------------------------------------------------------------- squads

function unpack(corpus, into) {
  fs.mkdirSync(into, { recursive: true });
  const result = spawnSync('tar', ['-xzf', corpus, '-C', into], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`cannot unpack ${corpus}: ${result.stderr.trim()}`);
}

async function makeSquad(lib, dir) {
  fs.mkdirSync(dir, { recursive: true });
  const plan = await lib.planScaffold(dir, SQUAD);
  lib.applyPlan(plan.root, { changes: lib.plannedChanges(plan.files) }, 'init was running');
  return dir;
}

function memberWithRole(lib, root, role) {
  const member = lib.listAgents(root).find((agent) => agent.role === role);
  if (!member) throw new Error(`the squad at ${root} has no ${role}`);
  return member.name;
}

function copySkills(from, to) {
  fs.mkdirSync(to, { recursive: true });
  for (const name of fs.readdirSync(from)) fs.cpSync(path.join(from, name), path.join(to, name), { recursive: true });
}

/** The corpus's team skills in .github/skills/, its agent skills in the Core Dev's own folder. */
async function makeSkilledSquad(lib, dir, corpusDir) {
  await makeSquad(lib, dir);
  copySkills(path.join(corpusDir, 'team'), path.join(dir, '.github', 'skills'));
  const holder = memberWithRole(lib, dir, SKILL_HOLDER_ROLE);
  copySkills(path.join(corpusDir, 'agent'), path.join(dir, '.ai-team', 'agents', holder, 'skills'));
  return dir;
}

function corpusSkillNames(corpusDir, scopes = ['team', 'agent']) {
  return new Set(scopes.flatMap((scope) => fs.readdirSync(path.join(corpusDir, scope))));
}

/** Each task names a skill of the corpus, and does not spell that skill's name. */
function checkTasks(tasks, names) {
  for (const { task, skill, half } of tasks) {
    if (!HALVES.includes(half)) throw new Error(`route-eval-tasks.json: the task "${task}" has no half (${HALVES.join(' or ')})`);
    if (!names.has(skill)) throw new Error(`route-eval-tasks.json: "${skill}" is not a skill of the corpus`);
    if (task.toLowerCase().replace(/-/g, ' ').includes(skill.replace(/-/g, ' '))) {
      throw new Error(`route-eval-tasks.json: the task "${task}" names its skill`);
    }
  }
}

// ---------------------------------------------------------------- measuring one task

function rankedSkillNames(route) {
  return (route.candidates ?? route.skills).map((s) => s.name);
}

async function promptFor(lib, root, agent, task, mode, home) {
  return lib.buildSpawnPrompt({ root, agent, task, mode, home, env: {} });
}

async function measureTask(lib, squads, { task, skill, role, half }, home, ownSkills) {
  const bare = lib.routeTask(squads.bare, task);
  const route = lib.routeTask(squads.skilled, task);
  const ranked = rankedSkillNames(route);
  const light = await promptFor(lib, squads.skilled, route.agent, task, 'lightweight', home);
  const standard = await promptFor(lib, squads.skilled, route.agent, task, 'standard', home);
  return {
    task,
    skill,
    role,
    half,
    ownSkill: ownSkills.has(skill),
    ranked: ranked.slice(0, 3),
    top1: ranked[0] === skill,
    top3: ranked.slice(0, 3).includes(skill),
    bareRole: bare.role,
    skilledRole: route.role,
    routeMode: route.mode,
    confidence: route.confidence,
    routeLightSkills: route.mode === 'lightweight' ? route.skills.map((s) => s.name) : [],
    promptMode: light.mode,
    promptLightSkills: light.mode === 'lightweight' ? lightweightInlined(light) : [],
    inStandard: standard.skills.some((s) => s.name === skill),
    standardListed: standard.skills.length,
    standardSkillTokens: standard.tokens.skills,
  };
}

/** The skills a lightweight prompt inlines (it may also list other candidates, not inlined). */
function lightweightInlined(prompt) {
  return prompt.skills.filter((s) => s.inlined).map((s) => s.name);
}

// ---------------------------------------------------------------- summary

function share(count, total) {
  return total === 0 ? 1 : count / total;
}

function split(rows, key) {
  return Object.fromEntries(ROLES.map((role) => [role, rows.filter((r) => r[key] === role).length]));
}

function lightweightStats(rows, modeKey, skillsKey) {
  const light = rows.filter((r) => r[modeKey] === 'lightweight');
  const right = light.filter((r) => r[skillsKey].includes(r.skill));
  return { tasks: light.length, right: right.length, onlyWrong: light.length - right.length, precision: share(right.length, light.length) };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)];
}

export function summarize(rows) {
  const n = rows.length;
  const testing = rows.filter((r) => r.role === 'Tester');
  return {
    tasks: n,
    top1: share(rows.filter((r) => r.top1).length, n),
    top3: share(rows.filter((r) => r.top3).length, n),
    agents: {
      withoutSkills: split(rows, 'bareRole'),
      withSkills: split(rows, 'skilledRole'),
      labelAgreementWithoutSkills: share(rows.filter((r) => r.bareRole === r.role).length, n),
      labelAgreementWithSkills: share(rows.filter((r) => r.skilledRole === r.role).length, n),
      changedBySkills: rows.filter((r) => r.bareRole !== r.skilledRole).length,
      changedBySkillsToHolder: rows.filter((r) => r.bareRole !== r.skilledRole && r.skilledRole === SKILL_HOLDER_ROLE && r.ownSkill).length,
      testingTasksToTester: {
        withoutSkills: testing.filter((r) => r.bareRole === 'Tester').length,
        withSkills: testing.filter((r) => r.skilledRole === 'Tester').length,
        of: testing.length,
      },
    },
    lightweightRoute: lightweightStats(rows, 'routeMode', 'routeLightSkills'),
    lightweightPrompt: lightweightStats(rows, 'promptMode', 'promptLightSkills'),
    boundedRecall: share(rows.filter((r) => r.inStandard).length, n),
    standardPrompt: {
      medianSkillsListed: median(rows.map((r) => r.standardListed)),
      medianSkillTokens: median(rows.map((r) => r.standardSkillTokens)),
      maxSkillTokens: Math.max(0, ...rows.map((r) => r.standardSkillTokens)),
    },
  };
}

export function missedTargets(summary) {
  const values = {
    top1: summary.top1,
    top3: summary.top3,
    lightweightPrecision: summary.lightweightRoute.precision,
    boundedRecall: summary.boundedRecall,
  };
  return Object.entries(TARGETS)
    .filter(([key, target]) => values[key] < target)
    .map(([key, target]) => `${key} ${percent(values[key])} < ${percent(target)}`);
}

function percent(value) {
  return `${(value * 100).toFixed(1)}%`;
}

// ---------------------------------------------------------------- member tasks

/**
 * What route answered: the human to ask, when it answers that (never spawned), else the member it
 * spawns. A route that names humans beside a member it spawns answers the member.
 */
function routeAnswer(route) {
  const ask = route.ask?.name ?? route.ask;
  if (typeof ask === 'string' && ask !== '') return { ask };
  if (route.agent === '' && route.humans?.length) return { ask: route.humans[0].name };
  return { member: route.agent, displayName: route.displayName, role: route.role };
}

function sameName(a, b) {
  return typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
}

/** Whether route's answer is the one a member task expects: a member by role or name, or "ask" a human. */
function answerMatches(answer, expect) {
  if (expect.ask !== undefined) return sameName(answer.ask, expect.ask);
  if (answer.ask !== undefined) return false;
  if (expect.role !== undefined) return sameName(answer.role, expect.role);
  return sameName(answer.member, expect.member) || sameName(answer.displayName, expect.member);
}

/** A squad file of ../shared/data unpacked into `dir` and upgraded by this checkout's CLI. */
function originalSquad(checkout, squad, dir) {
  const file = path.join(SHARED_DATA, squad);
  if (!fs.existsSync(file)) return undefined;
  unpack(file, dir);
  const cli = path.join(checkout, 'bin', 'create-squad.cjs');
  const result = spawnSync(process.execPath, [cli, 'upgrade', '--json'], { cwd: dir, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`upgrade of ${squad} failed: ${result.stderr.trim()}`);
  return dir;
}

/** memberTasks, each routed in its squad: the fresh squad is the bare one made above. */
function measureMembers(lib, checkout, memberTasks, bare, work) {
  const roots = new Map([['fresh', bare]]);
  const rows = [];
  const skipped = new Set();
  for (const { squad, task, expect } of memberTasks) {
    if (!roots.has(squad)) roots.set(squad, originalSquad(checkout, squad, path.join(work, `squad-${roots.size}`)));
    const root = roots.get(squad);
    if (root === undefined) {
      skipped.add(squad);
      continue;
    }
    const answer = routeAnswer(lib.routeTask(root, task));
    rows.push({ squad, task, expect, answer, right: answerMatches(answer, expect) });
  }
  const bySquad = {};
  for (const row of rows) {
    const counts = (bySquad[row.squad] ??= { tasks: 0, right: 0 });
    counts.tasks += 1;
    counts.right += row.right ? 1 : 0;
  }
  return { tasks: rows.length, accuracy: share(rows.filter((r) => r.right).length, rows.length), bySquad, skipped: [...skipped], rows };
}

function describeAnswer(answer) {
  return answer.ask !== undefined ? `ask ${answer.ask}` : `${answer.member}${answer.role ? ` (${answer.role})` : ''}`;
}

function describeExpectation(expect) {
  return expect.ask !== undefined ? `ask ${expect.ask}` : (expect.member ?? expect.role);
}

// ---------------------------------------------------------------- report

function report({ halves, rows, members }) {
  const columns = HALVES.filter((half) => halves[half] !== undefined);
  const row = (label, value) => `| ${label} | ${columns.map((half) => value(halves[half])).join(' | ')} |`;
  const splitText = (s) => ROLES.map((role) => s[role]).join('/');
  const lightText = (l) => `${l.tasks}, ${l.right}, ${l.onlyWrong} (precision ${percent(l.precision)})`;
  const lines = [
    `route-eval: ${rows.length} tasks (${columns.map((half) => `${half} ${halves[half].tasks}`).join(', ')})`,
    '',
    `| metric | ${columns.join(' | ')} |`,
    `|---|${columns.map(() => '---|').join('')}`,
    row('top-1', (s) => percent(s.top1)),
    row('top-3', (s) => percent(s.top3)),
    row(`agents ${ROLES.join('/')}, without skills`, (s) => `${splitText(s.agents.withoutSkills)} (label agreement ${percent(s.agents.labelAgreementWithoutSkills)})`),
    row(
      `agents ${ROLES.join('/')}, ${SKILL_HOLDER_ROLE} holding own skills`,
      (s) => `${splitText(s.agents.withSkills)} (label agreement ${percent(s.agents.labelAgreementWithSkills)})`,
    ),
    row(
      `tasks whose member changes once the ${SKILL_HOLDER_ROLE} holds skills (of them, to him for one of his own skills)`,
      (s) => `${s.agents.changedBySkills} (${s.agents.changedBySkillsToHolder})`,
    ),
    row(
      'testing tasks to the Tester (without / with skills)',
      (s) => `${s.agents.testingTasksToTester.withoutSkills}/${s.agents.testingTasksToTester.of}, ${s.agents.testingTasksToTester.withSkills}/${s.agents.testingTasksToTester.of}`,
    ),
    row('route lightweight: tasks, intended skill inlined, only wrong skills', (s) => lightText(s.lightweightRoute)),
    row('prompt --mode lightweight (no --skill): lightweight, right, only wrong', (s) => lightText(s.lightweightPrompt)),
    row('bounded standard prompt recall', (s) => percent(s.boundedRecall)),
    row(
      'standard prompt: median skills listed, median / max skill tokens',
      (s) => `${s.standardPrompt.medianSkillsListed}, ${s.standardPrompt.medianSkillTokens} / ${s.standardPrompt.maxSkillTokens}`,
    ),
  ];
  if (members !== undefined) {
    const squads = Object.entries(members.bySquad).map(([squad, c]) => `${squad} ${c.right}/${c.tasks}`);
    lines.push('', `member accuracy: ${percent(members.accuracy)} of ${members.tasks} member tasks${squads.length > 0 ? ` (${squads.join(', ')})` : ''}`);
    if (members.skipped.length > 0) lines.push(`  skipped, not in ../shared/data: ${members.skipped.join(', ')}`);
    for (const r of members.rows.filter((m) => !m.right)) lines.push(`  ✗ ${r.squad}: expected ${describeExpectation(r.expect)}, got ${describeAnswer(r.answer)}  (${r.task})`);
  }
  for (const half of columns) {
    const misses = rows.filter((r) => r.half === half && !r.top1);
    if (misses.length === 0) continue;
    lines.push('', `${half}: top-1 misses (intended ← ranked first three):`);
    for (const r of misses) lines.push(`  ${r.top3 ? '·' : '✗'} ${r.skill} ← ${r.ranked.join(', ') || '-'}  (${r.task})`);
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------- main

/**
 * Measures the tasks of the halves asked for (both by default) and, unless `members` is false, the
 * member tasks. `summary` is the held-out half's when it was measured (the targets hold there).
 */
export async function evaluate({ lib, corpus, halves = HALVES, members = true, checkout = REPO_ROOT }) {
  const file = JSON.parse(fs.readFileSync(TASKS_FILE, 'utf8'));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'create-squad-route-eval-'));
  try {
    const corpusDir = path.join(work, 'corpus');
    unpack(corpus, corpusDir);
    checkTasks(file.tasks, corpusSkillNames(corpusDir));
    const tasks = file.tasks.filter((t) => halves.includes(t.half));
    const squads = {
      bare: await makeSquad(lib, path.join(work, 'bare')),
      skilled: await makeSkilledSquad(lib, path.join(work, 'skilled'), corpusDir),
    };
    const home = path.join(work, 'home');
    fs.mkdirSync(home);
    const rows = [];
    const ownSkills = corpusSkillNames(corpusDir, ['agent']);
    for (const task of tasks) rows.push(await measureTask(lib, squads, task, home, ownSkills));
    const summaries = Object.fromEntries(HALVES.filter((half) => halves.includes(half)).map((half) => [half, summarize(rows.filter((r) => r.half === half))]));
    const memberResult = members ? measureMembers(lib, checkout, file.memberTasks ?? [], squads.bare, work) : undefined;
    return { summary: summaries['held-out'], halves: summaries, rows, members: memberResult };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The library to measure: the sources through vite (--src), another checkout's build (--lib), or this one's. */
async function loadLibrary(args) {
  if (args.includes('--src')) {
    const { createServer } = await import('vite');
    const server = await createServer({
      root: REPO_ROOT,
      logLevel: 'error',
      appType: 'custom',
      server: { middlewareMode: true, hmr: false, ws: false },
      optimizeDeps: { noDiscovery: true, include: [] },
    });
    return { lib: await server.ssrLoadModule('/src/index.ts'), checkout: REPO_ROOT, close: () => server.close() };
  }
  const checkout = path.resolve(option(args, '--lib', REPO_ROOT));
  return { lib: await import(pathToFileURL(path.join(checkout, 'index.js')).href), checkout, close: async () => {} };
}

async function main(args) {
  const corpus = path.resolve(option(args, '--corpus', DEFAULT_CORPUS));
  if (!fs.existsSync(corpus)) {
    console.log(`route-eval skipped: no skills corpus at ${corpus} (it lives outside the repository, in ../shared/data)`);
    return 0;
  }
  const half = option(args, '--half', undefined);
  if (half !== undefined && !HALVES.includes(half)) throw new Error(`--half takes ${HALVES.join(' or ')}`);
  const { lib, checkout, close } = await loadLibrary(args);
  try {
    const result = await evaluate({ lib, corpus, checkout, halves: half === undefined ? HALVES : [half] });
    const missed = [...(result.summary ? missedTargets(result.summary) : []), ...missedMemberTarget(result.members)];
    if (args.includes('--json')) console.log(JSON.stringify({ ...result, missed }, null, 2));
    else console.log(report(result));
    if (missed.length > 0 && !args.includes('--json')) console.error(`\nmissed on the held-out half: ${missed.join('; ')}`);
    return args.includes('--check') && missed.length > 0 ? 1 : 0;
  } finally {
    await close();
  }
}

/** Member accuracy below MEMBER_TARGET, when there were member tasks to measure. */
export function missedMemberTarget(members) {
  if (members === undefined || members.tasks === 0 || members.accuracy >= MEMBER_TARGET) return [];
  return [`member accuracy ${percent(members.accuracy)} < ${percent(MEMBER_TARGET)}`];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
