/**
 * One JSON envelope for every command (docs/commands.md, "JSON output"): each command run with
 * --json, succeeding, refusing or reporting failures, prints exactly one document on stdout that
 * one schema accepts — schemaVersion 1, ok, exactly one of data and error (data with ok false for a
 * report that found failures), warnings as objects with a kebab-case code.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SKILLS_ALLOWLIST_PATH } from '../../src/core/skills/skill-scripts.js';
import { type CliResult, REPO_ROOT, cleanupTempDirs, initSquad, runCli, tempDir, tempRepo, validSkill, writeFiles } from '../helpers/cli.js';
import { promptSquad } from '../helpers/prompt-squad.js';

afterAll(cleanupTempDirs);

const CODE = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const code = v.pipe(v.string(), v.regex(CODE, 'a code is kebab-case'));

const WarningSchema = v.object({ code, message: v.pipe(v.string(), v.minLength(1)), path: v.optional(v.string()) });
const base = { schemaVersion: v.literal(1), warnings: v.array(WarningSchema) };

/** The envelope: data (ok true, or ok false for a report that found failures) or error (ok false), never both. */
const EnvelopeSchema = v.union([
  v.strictObject({ ...base, ok: v.boolean(), data: v.looseObject({}) }),
  v.strictObject({
    ...base,
    ok: v.literal(false),
    error: v.strictObject({ code, message: v.pipe(v.string(), v.minLength(1)), hint: v.optional(v.string()), file: v.optional(v.string()), line: v.optional(v.number()) }),
  }),
]);

type Envelope = v.InferOutput<typeof EnvelopeSchema>;

/** The one document on stdout, checked against the schema and against the exit code. */
function envelopeOf(run: CliResult, what: string): Envelope {
  // One document: JSON.parse refuses a second one after it.
  expect(run.stdout.endsWith('}\n'), `${what}: ${run.stdout}${run.stderr}`).toBe(true);
  const parsed = v.safeParse(EnvelopeSchema, JSON.parse(run.stdout));
  expect(
    parsed.issues?.map((issue) => `${v.getDotPath(issue) ?? ''}: ${issue.message}`),
    what,
  ).toBeUndefined();
  const envelope = parsed.output as Envelope;
  expect(envelope.ok, `${what}: ok says the exit code`).toBe(run.code === 0);
  return envelope;
}

async function json(args: string[], cwd: string, input?: string): Promise<{ run: CliResult; envelope: Envelope }> {
  const run = await runCli([...args, '--json'], { cwd, env: { HOME: tempDir('home-') }, ...(input === undefined ? {} : { input }) });
  return { run, envelope: envelopeOf(run, args.join(' ')) };
}

const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/skill-tests');

// Each test works in repositories of its own: the tests run side by side (skills test waits out a
// case's time limit meanwhile). The squad they copy is made once, before them.
describe.concurrent('the --json envelope', () => {
  beforeAll(async () => {
    await initSquad();
  });

  it('every command that succeeds: ok, its data, warnings as objects', async () => {
    const fresh = tempRepo();
    const root = await initSquad();
    const source = tempDir('skill-src-');
    writeFiles(source, { 'api-style/SKILL.md': validSkill('api-style') });
    const out = path.join(tempDir('export-'), 'team.squad');
    const target = tempRepo();
    const successes: string[][] = [
      ['hire', 'Backend Dev'],
      ['members'],
      ['skills', 'list'],
      ['skills', 'validate'],
      ['skills', 'stats'],
      ['skills', 'add', path.join(source, 'api-style')],
      ['skills', 'update', 'api-style'],
      ['teach', '--team', 'Always run the linter before pushing.'],
      ['route', 'design the REST API'],
      ['upgrade'],
      ['export', '--out', out],
      ['doctor'],
      ['skills', 'remove', 'api-style'],
    ];
    const init = await json(['init', '--yes'], fresh);
    expect(init.envelope).toMatchObject({ ok: true, data: { dir: fresh } });
    for (const args of successes) {
      const { run, envelope } = await json(args, root);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      expect('data' in envelope, args.join(' ')).toBe(true);
    }
    const hired = (await runCli(['members', '--json'], { cwd: root })).data<{ members: { folder: string; name: string }[] }>().members;
    const member = hired.find((m) => m.folder !== 'scribe')!.folder;
    for (const args of [
      ['prompt', member, '--task', 'Design the REST API'],
      ['role', member, 'Frontend Dev'],
      ['retire', member],
      ['rehire', member],
    ]) {
      const { run, envelope } = await json(args, root);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      expect(envelope.ok).toBe(true);
    }
    const imported = await json(['import', out], target);
    expect(imported.envelope).toMatchObject({ ok: true, data: expect.any(Object) });
  });

  it('a command with warnings puts them at the top level, not in its data', async () => {
    const root = await initSquad();
    writeFiles(root, { '.ai-team/skills/broken/SKILL.md': '# no frontmatter' });
    const { envelope } = await json(['prompt', 'scribe', '--task', 'Log the session'], root);
    expect(envelope.warnings).toContainEqual({ code: 'skill-invalid', message: expect.stringContaining('(skipped)'), path: '.ai-team/skills/broken/SKILL.md' });
    expect('data' in envelope && envelope.data).not.toHaveProperty('warnings');
  });

  it('skills test: the report of its cases, and of failing cases with ok false and the data', async () => {
    const root = promptSquad();
    for (const skill of ['word-count', 'flaky-counter']) fs.cpSync(path.join(FIXTURES, skill), path.join(root, '.github/skills', skill), { recursive: true });
    writeFiles(root, {
      [SKILLS_ALLOWLIST_PATH]: JSON.stringify({ skills: { '.github/skills/word-count': { scripts: 'all' }, '.github/skills/flaky-counter': { scripts: 'all' } } }),
    });
    // Both runs only read the squad (each case runs in a scratch copy): side by side.
    const [passed, failed] = await Promise.all([json(['skills', 'test', 'word-count'], root), json(['skills', 'test', 'flaky-counter'], root)]);
    expect(passed.envelope).toMatchObject({ ok: true, data: { summary: { failed: 0 } } });
    expect(failed.run.code).toBe(1);
    expect(failed.envelope).toMatchObject({ ok: false, data: { summary: expect.objectContaining({ failed: expect.any(Number) }) } });
    expect(failed.envelope).not.toHaveProperty('error');
  });

  it('reports that found failures keep their data with ok false: doctor and skills validate', async () => {
    const root = await initSquad();
    fs.rmSync(path.join(root, '.ai-team/team.md'));
    writeFiles(root, { '.ai-team/skills/Bad/SKILL.md': validSkill('Bad') });
    const doctor = await json(['doctor'], root);
    expect(doctor.run.code).toBe(1);
    expect(doctor.envelope).toMatchObject({ ok: false, data: { summary: { errors: expect.any(Number) } } });
    const validate = await json(['skills', 'validate'], root);
    expect(validate.run.code).toBe(1);
    expect(validate.envelope).toMatchObject({ ok: false, data: { summary: { invalid: 1 } } });
  });

  it('every refusal: ok false and the error, exit codes as before', async () => {
    const noSquad = tempRepo();
    const root = await initSquad();
    const cases: { args: string[]; cwd: string; code: string; exit: number }[] = [
      { args: ['doctor'], cwd: noSquad, code: 'no-squad', exit: 1 },
      { args: ['members'], cwd: noSquad, code: 'no-squad', exit: 1 },
      { args: ['route', 'x'], cwd: noSquad, code: 'no-squad', exit: 1 },
      { args: ['frobnicate'], cwd: root, code: 'usage', exit: 2 },
      { args: ['skills', 'list', '--frob'], cwd: root, code: 'usage', exit: 2 },
      { args: ['skills', 'add'], cwd: root, code: 'usage', exit: 2 },
      { args: ['prompt', 'nobody', '--task', 'x'], cwd: root, code: 'unknown-agent', exit: 1 },
      { args: ['skills', 'remove', 'no-such-skill'], cwd: root, code: 'not-found', exit: 1 },
      { args: ['import', path.join(root, 'missing.squad')], cwd: tempRepo(), code: 'not-found', exit: 1 },
      { args: ['teach', '--team', "Don't"], cwd: root, code: 'usage', exit: 2 },
    ];
    for (const { args, cwd, code: expected, exit } of cases) {
      const { run, envelope } = await json(args, cwd);
      expect(run.code, args.join(' ')).toBe(exit);
      expect(envelope, args.join(' ')).toMatchObject({ ok: false, error: { code: expected, message: expect.any(String) } });
      expect(envelope).not.toHaveProperty('data');
    }
  });

  it('the schema refuses what is not the envelope', () => {
    for (const bad of [
      { ok: true, data: {}, warnings: [] },
      { schemaVersion: 1, ok: true, warnings: [] },
      { schemaVersion: 1, ok: false, data: {}, error: { code: 'usage', message: 'x' }, warnings: [] },
      { schemaVersion: 1, ok: true, error: { code: 'usage', message: 'x' }, warnings: [] },
      { schemaVersion: 1, ok: false, error: { code: 'NOT_FOUND', message: 'x' }, warnings: [] },
      { schemaVersion: 1, ok: true, data: {}, warnings: ['a string'] },
      { schemaVersion: 1, ok: true, data: {}, warnings: [{ code: 'x' }] },
    ]) {
      expect(v.safeParse(EnvelopeSchema, bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
