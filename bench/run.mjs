#!/usr/bin/env node
/**
 * `npm run bench`: whole-process timings and peak memory of the built CLI, against `node -e 0`
 * measured in the same run (alternating runs, medians), checked against the budgets in docs/budgets.md.
 *
 *   node bench/run.mjs [--runs N] [--quick] [--json-only]
 *
 * Writes bench/results.json and exits 1 when a budget is missed. Uses only Node and the project's
 * own code; synthetic squads are generated in a temporary folder and removed afterwards.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'create-squad.cjs');
const RSS_HOOK = path.join(ROOT, 'bench', 'rss-hook.mjs');

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const runsArg = args.indexOf('--runs');
const RUNS = runsArg !== -1 ? Number(args[runsArg + 1]) : quick ? 3 : 9;
const SKILL_COUNTS = quick ? [10, 100] : [10, 100, 1000];

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'create-squad-bench-'));
process.on('exit', () => fs.rmSync(work, { recursive: true, force: true }));

// ---------------------------------------------------------------- synthetic squads

const LOREM = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. ';

function write(file, content, mode) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  if (mode) fs.chmodSync(file, mode);
}

function skillText(name, index, bodyKb) {
  const mcp = index % 7 === 0 ? `  mcp-servers:\n    - name: github\n      reason: "Read issues"\n    - name: postgres\n      reason: "Schema"\n      optional: true\n      fallback: "Work from migrations"\n` : '';
  const body = `# ${name}\n\n` + `${LOREM}\n`.repeat(Math.ceil((bodyKb * 1024) / (LOREM.length + 1)));
  return `---\nname: ${name}\ndescription: "Use when the task involves area ${index}: conventions, pitfalls and checks for it."\nmetadata:\n  author: bench\n  version: "1.0"\n${mcp}---\n${body}`;
}

/** A squad: `agents` members, `skillsPerAgent` agent skills each, `teamSkills` team skills. */
function makeSquad(dir, { agents, skillsPerAgent, teamSkills, bodyKb, references }) {
  fs.mkdirSync(dir, { recursive: true });
  const names = Array.from({ length: agents }, (_, i) => `agent-${String(i).padStart(2, '0')}`);
  const rows = names.map((n, i) => `| ${n} | ${['Lead', 'Core Dev', 'Tester', 'Frontend'][i % 4]} | \`.ai-team/agents/${n}/charter.md\` | ✅ Active |`);
  write(path.join(dir, '.ai-team/team.md'), `# Team Roster\n\n## Members\n\n| Name | Role | Charter | Status |\n|------|------|---------|--------|\n${rows.join('\n')}\n`);
  write(path.join(dir, '.ai-team/decisions.md'), '# Decisions\n');
  for (const name of names) {
    write(path.join(dir, `.ai-team/agents/${name}/charter.md`), `# ${name}\n\n${LOREM.repeat(20)}\n`);
    write(path.join(dir, `.ai-team/agents/${name}/history.md`), `# History\n\n## Learnings\n\n- ${LOREM}\n`);
    for (let s = 0; s < skillsPerAgent; s += 1) {
      const skill = `${name}-skill-${String(s).padStart(3, '0')}`;
      const base = path.join(dir, `.ai-team/agents/${name}/skills/${skill}`);
      write(path.join(base, 'SKILL.md'), skillText(skill, s, bodyKb));
      if (references) {
        write(path.join(base, 'references/guide.md'), `# Guide\n\n${LOREM.repeat(30)}\n`);
        write(path.join(base, 'references/deep/notes.md'), `# Notes\n\n${LOREM.repeat(10)}\n`);
        write(path.join(base, 'scripts/check.sh'), '#!/bin/sh\necho ok\n', 0o755);
      }
    }
  }
  for (let s = 0; s < teamSkills; s += 1) {
    const skill = `team-skill-${String(s).padStart(4, '0')}`;
    write(path.join(dir, `.ai-team/skills/${skill}/SKILL.md`), skillText(skill, s, bodyKb));
  }
  return names;
}

// ---------------------------------------------------------------- measuring

function runOnce(argv, cwd, env = {}) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, argv, { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  return { ms, code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function peakRssMb(argv, cwd) {
  const out = path.join(work, `rss-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  spawnSync(process.execPath, ['--import', RSS_HOOK, ...argv], { cwd, env: { ...process.env, NO_COLOR: '1', CREATE_SQUAD_RSS_FILE: out } });
  try {
    return JSON.parse(fs.readFileSync(out, 'utf8')).maxRssKb / 1024;
  } catch {
    return undefined;
  }
}

/**
 * Measure a scenario: `prepare(i)` returns {argv, cwd} for run i (fresh state when the command
 * writes). Baseline `node -e 0` runs alternate with the command's runs.
 */
function measure(label, prepare, { budgetRatio, budgetMs, budgetMb, group, runs = RUNS } = {}) {
  const base = [];
  const times = [];
  let failure;
  for (let i = 0; i < runs; i += 1) {
    base.push(runOnce(['-e', '0'], work).ms);
    const { argv, cwd } = prepare(i);
    const result = runOnce([BIN, ...argv], cwd);
    if (result.code !== 0) {
      failure = (result.stderr || result.stdout).trim().split('\n')[0];
      break;
    }
    times.push(result.ms);
  }
  if (failure !== undefined) {
    const unavailable = /not available yet/.test(failure);
    return { label, group, status: unavailable ? 'n/a' : 'failed', note: failure };
  }
  const { argv, cwd } = prepare(runs);
  const rssMb = peakRssMb([BIN, ...argv], cwd);
  const ms = median(times);
  const baseMs = median(base);
  // Each run is paired with the baseline run just before it; the median of the pairs' ratios
  // cancels the slow drifts of a shared machine better than a ratio of two medians.
  const ratio = median(times.map((t, i) => t / base[i]));
  const misses = [];
  if (budgetRatio !== undefined && ratio > budgetRatio) misses.push(`ratio ${ratio.toFixed(2)} > ${budgetRatio}`);
  if (budgetMs !== undefined && ms > budgetMs) misses.push(`${ms.toFixed(0)} ms > ${budgetMs} ms`);
  if (budgetMb !== undefined && rssMb !== undefined && rssMb > budgetMb) misses.push(`${rssMb.toFixed(0)} MB > ${budgetMb} MB`);
  const budget = [
    budgetRatio !== undefined ? `≤${budgetRatio}×` : '',
    budgetMs !== undefined ? `<${budgetMs / 1000}s` : '',
    budgetMb !== undefined ? `<${budgetMb}MB` : '',
  ].filter(Boolean).join(' ');
  return {
    label,
    group,
    status: misses.length ? 'MISSED' : budget ? 'ok' : '-',
    ms: round(ms),
    baselineMs: round(baseMs),
    ratio: round(ratio, 2),
    rssMb: rssMb === undefined ? undefined : round(rssMb, 1),
    budget,
    note: misses.join('; '),
  };
}

function round(value, digits = 1) {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

// ---------------------------------------------------------------- scenarios

const results = [];
const log = (row) => {
  results.push(row);
  if (!args.includes('--json-only')) process.stderr.write(`  measured ${row.label}: ${row.status}${row.ms ? ` ${row.ms} ms` : ''}\n`);
};

// Start-up costs are a few milliseconds over Node's own: more runs, so noise does not decide.
const STARTUP_RUNS = Math.max(RUNS, quick ? 9 : 31);
log(measure('--version', () => ({ argv: ['--version'], cwd: work }), { budgetRatio: 1.5, group: 'startup', runs: STARTUP_RUNS }));
log(measure('--help', () => ({ argv: ['--help'], cwd: work }), { budgetRatio: 1.5, group: 'startup', runs: STARTUP_RUNS }));

let initCounter = 0;
log(
  measure('init --yes', () => {
    const dir = path.join(work, `init-${initCounter++}`);
    fs.mkdirSync(dir);
    return { argv: ['init', '--yes', '--cwd', dir], cwd: dir };
  }, { group: 'init' }),
);

for (const count of SKILL_COUNTS) {
  const dir = path.join(work, `skills-${count}`);
  const [agent] = makeSquad(dir, { agents: 1, skillsPerAgent: Math.min(count, 50), teamSkills: Math.max(0, count - 50), bodyKb: 40, references: false });
  log(measure(`skills list (${count} skills)`, () => ({ argv: ['skills', 'list', '--json'], cwd: dir }), { group: 'skills list' }));
  log(
    measure(
      `prompt (${count} skills)`,
      () => ({ argv: ['prompt', agent, '--task', 'Add pagination to the orders API', '--json'], cwd: dir }),
      count === 1000 ? { budgetRatio: 3, budgetMb: 150, group: 'prompt' } : { group: 'prompt' },
    ),
  );
  log(
    measure(
      `route (${count} skills)`,
      () => ({ argv: ['route', 'Add pagination to the orders API', '--json'], cwd: dir }),
      count === 1000 ? { budgetRatio: 3, budgetMb: 150, group: 'route' } : { group: 'route' },
    ),
  );
}

if (!quick) {
  const source = path.join(work, 'export-src');
  makeSquad(source, { agents: 20, skillsPerAgent: 50, teamSkills: 0, bodyKb: 4, references: true });
  const exportFile = path.join(work, 'bench.squad');
  let exportCounter = 0;
  const exportRow = measure(
    'export (20 agents × 50 skills)',
    () => ({ argv: ['export', '--out', path.join(work, `e-${exportCounter++}.squad`), '--force'], cwd: source }),
    { budgetMs: 2000, budgetMb: 200, group: 'portability' },
  );
  log(exportRow);
  runOnce([BIN, 'export', '--out', exportFile, '--force'], source);
  if (fs.existsSync(exportFile)) {
    exportRow.sizeMb = round(fs.statSync(exportFile).size / 1024 / 1024, 2);
    let importCounter = 0;
    log(
      measure(
        'import (20 agents × 50 skills)',
        () => {
          const dir = path.join(work, `import-${importCounter++}`);
          fs.mkdirSync(dir);
          return { argv: ['import', exportFile], cwd: dir };
        },
        { budgetMs: 2000, budgetMb: 200, group: 'portability' },
      ),
    );
  }
  const upgradeDir = path.join(work, 'upgrade');
  fs.mkdirSync(upgradeDir);
  if (runOnce([BIN, 'init', '--yes'], upgradeDir).code === 0) {
    log(measure('upgrade (up to date)', () => ({ argv: ['upgrade'], cwd: upgradeDir }), { group: 'upgrade' }));
  }
  // A squad left by create-squad 0.0.1 (the test fixture), fresh for every run.
  const oldSquad = path.join(ROOT, 'test', 'fixtures', 'upgrade', 'v0.0.1');
  let upgradeCounter = 0;
  log(
    measure('upgrade (from 0.0.1)', () => {
      const dir = path.join(work, `upgrade-old-${upgradeCounter++}`);
      fs.cpSync(oldSquad, dir, { recursive: true });
      return { argv: ['upgrade'], cwd: dir };
    }, { group: 'upgrade' }),
  );
}

// ---------------------------------------------------------------- static budgets

const staticChecks = [];
try {
  const coordinator = await import(path.join(ROOT, 'dist/core/squad/coordinator.js'));
  const source = fs.readFileSync(path.join(ROOT, 'squad.agent.md'), 'utf8');
  const length = coordinator.coordinatorBodyLength(coordinator.stampCoordinator(source, '0.0.0'));
  staticChecks.push({
    label: 'coordinator body (characters)',
    value: length,
    budget: `<${coordinator.COPILOT_PROMPT_LIMIT} (aim ${coordinator.COORDINATOR_TARGET})`,
    status: length < coordinator.COPILOT_PROMPT_LIMIT ? 'ok' : 'MISSED',
  });
} catch (error) {
  staticChecks.push({ label: 'coordinator body (characters)', status: 'n/a', note: String(error.message ?? error) });
}

// ---------------------------------------------------------------- report

const node = process.version;
const document = { node, platform: `${os.platform()} ${os.arch()}`, cpus: os.cpus().length, runs: RUNS, measured: new Date().toISOString(), results, static: staticChecks };
fs.writeFileSync(path.join(ROOT, 'bench', 'results.json'), `${JSON.stringify(document, null, 2)}\n`);

if (!args.includes('--json-only')) {
  const header = ['scenario', 'median ms', 'node -e 0', 'ratio', 'peak MB', 'budget', 'status'];
  const rows = results.map((r) => [r.label + (r.sizeMb ? ` [${r.sizeMb} MB file]` : ''), fmt(r.ms), fmt(r.baselineMs), r.ratio === undefined ? '' : `${r.ratio}×`, fmt(r.rssMb), r.budget ?? '', r.status + (r.note ? ` (${r.note})` : '')]);
  for (const s of staticChecks) rows.push([s.label, fmt(s.value), '', '', '', s.budget ?? '', s.status + (s.note ? ` (${s.note})` : '')]);
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => String(row[i]).length)));
  const line = (row) => `| ${row.map((cell, i) => String(cell).padEnd(widths[i])).join(' | ')} |`;
  console.log(`create-squad bench — Node ${node}, ${os.cpus().length} CPUs, medians of ${RUNS} runs (${STARTUP_RUNS} for start-up) alternating with node -e 0; ratio = median of per-pair ratios\n`);
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
  console.log('\nresults: bench/results.json');
}

function fmt(value) {
  return value === undefined ? '' : String(value);
}

const missed = [...results, ...staticChecks].filter((r) => r.status === 'MISSED' || r.status === 'failed');
if (missed.length) {
  console.error(`\n✗ ${missed.length} budget(s) missed or scenario(s) failed: ${missed.map((r) => r.label).join(', ')}`);
  process.exitCode = 1;
}
