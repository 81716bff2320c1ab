#!/usr/bin/env node
/**
 * A hostile run against the built CLI (npm run build first): writing commands killed with SIGKILL
 * at random moments and at random write counts, then run again; pairs of writers started together.
 * After each trial it checks the promises: the rerun succeeds, what the team learned (a planted
 * agent skill, a history line, a team skill) is byte for byte intact, no temporary file, staging
 * folder or lock is left, and doctor finds no error. Prints trials and violations per command.
 *
 *   node bench/hostile.mjs [--trials N]     (default 20 per command and kind)
 */
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'create-squad.cjs');
const trialsArg = process.argv.indexOf('--trials');
const TRIALS = trialsArg === -1 ? 20 : Number(process.argv[trialsArg + 1]);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'squad-hostile-'));
const env = { ...process.env, NO_COLOR: '1' };

function cli(args, cwd, extraEnv = {}) {
  return spawnSync(process.execPath, [BIN, ...args], { cwd, env: { ...env, ...extraEnv }, encoding: 'utf8' });
}

/** Start a command and SIGKILL it after `ms` milliseconds (or let it finish first). */
function killAfter(args, cwd, ms) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(signal ?? code);
    });
  });
}

function hashTree(dir) {
  const hash = crypto.createHash('sha256');
  const walk = (abs, rel) => {
    if (!fs.existsSync(abs)) return;
    for (const name of fs.readdirSync(abs).sort()) {
      const child = path.join(abs, name);
      const stat = fs.lstatSync(child);
      if (stat.isDirectory()) walk(child, `${rel}/${name}`);
      else hash.update(`${rel}/${name}:${stat.mode & 0o111}:`).update(fs.readFileSync(child));
    }
  };
  walk(dir, '');
  return hash.digest('hex');
}

function debris(root) {
  const found = [];
  const walk = (abs, rel) => {
    for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
      if (entry.name === '.git') continue;
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      if (
        /^\..+\.\d+\.[0-9a-f]{8}\.tmp$/.test(entry.name) ||
        entry.name.startsWith('.staging-') ||
        entry.name.startsWith('.ai-team-import-staging-') ||
        entry.name === '.create-squad.lock'
      )
        found.push(childRel);
      if (entry.isDirectory() && !entry.isSymbolicLink()) walk(path.join(abs, entry.name), childRel);
    }
  };
  walk(root, '');
  return found;
}

let counter = 0;
function freshSquad() {
  const root = path.join(work, `r${(counter += 1)}`);
  fs.mkdirSync(root);
  spawnSync('git', ['init', '-q', root]);
  const init = cli(['init', '--yes'], root);
  if (init.status !== 0) throw new Error(init.stderr);
  // What the team learned: an agent skill with a script, a team skill, a history line.
  const skill = path.join(root, '.ai-team/agents/fenster/skills/react-patterns');
  fs.mkdirSync(path.join(skill, 'scripts'), { recursive: true });
  fs.writeFileSync(path.join(skill, 'SKILL.md'), '---\nname: react-patterns\ndescription: "React patterns. Use when building components."\n---\n\nPrefer hooks.\n');
  fs.writeFileSync(path.join(skill, 'scripts/check.sh'), '#!/bin/sh\necho ok\n', { mode: 0o755 });
  fs.mkdirSync(path.join(root, '.github/skills/api-style'), { recursive: true });
  fs.writeFileSync(path.join(root, '.github/skills/api-style/SKILL.md'), '---\nname: api-style\ndescription: "API style. Use when adding endpoints."\n---\n\nUse problem+json.\n');
  fs.appendFileSync(path.join(root, '.ai-team/agents/fenster/history.md'), '\n- Learned: the orders API lives in src/api.\n');
  return root;
}

function learned(root) {
  return [
    hashTree(path.join(root, '.ai-team/agents/fenster/skills/react-patterns')),
    hashTree(path.join(root, '.github/skills/api-style')),
    fs.readFileSync(path.join(root, '.ai-team/agents/fenster/history.md'), 'utf8').includes('the orders API lives in src/api'),
  ].join(' ');
}

const source = fs.mkdtempSync(path.join(work, 'src-'));
fs.mkdirSync(path.join(source, 'pdf/references'), { recursive: true });
fs.writeFileSync(path.join(source, 'pdf/SKILL.md'), '---\nname: pdf\ndescription: "PDF files. Use when a task mentions PDFs."\n---\n\nbody\n');
for (let i = 0; i < 20; i += 1) fs.writeFileSync(path.join(source, `pdf/references/r${i}.md`), `# ${i}\n`.repeat(200));
const exportFile = path.join(work, 'team.squad');
{
  const donor = freshSquad();
  cli(['export', '--out', exportFile], donor);
}

/** Each command: how to run it, how to run it again after a kill, and its own extra check. */
const COMMANDS = {
  init: { prepare: (root) => fs.rmSync(path.join(root, '.ai-team-templates'), { recursive: true }), args: ['init', '--yes'], again: ['init', '--yes'] },
  hire: { args: ['hire', 'Designer'], again: ['hire', 'Designer'] },
  teach: {
    args: ['teach', 'fenster', 'Always use Tailwind CSS', '--name', 'tailwind'],
    again: ['teach', 'fenster', 'Always use Tailwind CSS', '--name', 'tailwind'],
    doneWhen: (root, again) =>
      /already exists/.test(again.stderr) && fs.readFileSync(path.join(root, '.ai-team/agents/fenster/skills/tailwind/SKILL.md'), 'utf8').includes('Tailwind'),
  },
  'skills add': { args: ['skills', 'add', path.join(source, 'pdf')], again: ['skills', 'add', path.join(source, 'pdf'), '--force'] },
  upgrade: { prepare: (root) => fs.rmSync(path.join(root, '.ai-team-templates'), { recursive: true }), args: ['upgrade'], again: ['upgrade'] },
  'import --force': { args: ['import', exportFile, '--force'], again: ['import', exportFile, '--force'], keepsLearned: false },
};

const results = [];
for (const [name, command] of Object.entries(COMMANDS)) {
  for (const kind of ['random moment', 'random write']) {
    let violations = 0;
    const samples = [];
    for (let t = 0; t < TRIALS; t += 1) {
      const root = freshSquad();
      command.prepare?.(root);
      const before = learned(root);
      if (kind === 'random moment') await killAfter(command.args, root, Math.floor(Math.random() * 250));
      else cli(command.args, root, { CREATE_SQUAD_CRASH_AFTER_WRITES: String(1 + Math.floor(Math.random() * 40)) });
      const again = cli(command.again, root);
      const problems = [];
      // A run that was not killed in time finished: teaching the same rule again is refused, rightly.
      const finishedBefore = command.doneWhen?.(root, again) === true;
      if (again.status !== 0 && !finishedBefore) problems.push(`rerun exit ${again.status}: ${again.stderr.trim().split('\n')[0]}`);
      const left = debris(root);
      if (left.length > 0) problems.push(`debris: ${left.join(', ')}`);
      const doctor = cli(['doctor', '--json'], root);
      let errors = [];
      try {
        errors = JSON.parse(doctor.stdout)
          .findings.filter((f) => f.severity === 'error')
          .map((f) => f.code);
      } catch {
        errors = ['doctor output unreadable'];
      }
      if (errors.length > 0) problems.push(`doctor errors: ${errors.join(', ')}`);
      if (command.keepsLearned !== false && learned(root) !== before) problems.push('learned state changed');
      if (command.keepsLearned === false) {
        // import --force archives the old squad: what it learned must be whole in the archive.
        const archive = fs.readdirSync(root).find((entry) => entry.startsWith('.ai-team-archive-'));
        const kept = archive && hashTree(path.join(root, archive, 'agents/fenster/skills/react-patterns')) === before.split(' ')[0];
        if (!kept) problems.push('the replaced squad is not whole in its archive');
      }
      if (problems.length > 0) {
        violations += 1;
        if (samples.length < 3) samples.push(problems.join('; '));
      }
    }
    results.push({ command: name, kind, trials: TRIALS, violations, samples });
    process.stderr.write(`${name} (${kind}): ${violations}/${TRIALS}\n`);
  }
}

// Pairs of writers started together on one squad, each with --wait: every update must be there.
let pairViolations = 0;
const PAIRS = TRIALS * 2;
for (let t = 0; t < PAIRS; t += 1) {
  const root = freshSquad();
  const runAsync = (args) =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, [BIN, ...args, '--wait', '30'], { cwd: root, env, stdio: 'ignore' });
      child.on('exit', (code) => resolve(code));
    });
  const codes = await Promise.all([runAsync(['hire', 'Designer']), runAsync(['teach', '--team', `rule ${t}`, '--name', `rule-${t}`])]);
  const team = fs.readFileSync(path.join(root, '.ai-team/team.md'), 'utf8');
  const registry = fs.readFileSync(path.join(root, '.ai-team/casting/registry.json'), 'utf8');
  const ok =
    codes.every((c) => c === 0) &&
    team.includes('McManus') &&
    registry.includes('McManus') &&
    fs.existsSync(path.join(root, `.github/skills/rule-${t}/SKILL.md`)) &&
    debris(root).length === 0;
  if (!ok) pairViolations += 1;
}
results.push({ command: 'hire + teach --team started together', kind: 'concurrent', trials: PAIRS, violations: pairViolations, samples: [] });

console.log('| command | kind | trials | violations |');
console.log('|---|---|---|---|');
for (const r of results) console.log(`| ${r.command} | ${r.kind} | ${r.trials} | ${r.violations} |`);
for (const r of results) for (const s of r.samples) console.log(`- ${r.command} (${r.kind}): ${s}`);
fs.rmSync(work, { recursive: true, force: true });
