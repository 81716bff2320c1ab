/**
 * The module map of CONTRIBUTING.md, enforced: the domain never reaches up into the CLI or the
 * commands, commands take nothing from the CLI but the types of its printer, and each folder of the
 * core imports only what the map's "May import" column allows and lists every module in its README.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';

const SRC = path.join(REPO_ROOT, 'src');

function sources(folder: string): string[] {
  return fs
    .readdirSync(path.join(SRC, folder), { recursive: true, encoding: 'utf8' })
    .filter((rel) => rel.endsWith('.ts'))
    .map((rel) => path.join(SRC, folder, rel));
}

/** Every import of a file: its specifier, and whether it imports types only. */
function imports(file: string): { specifier: string; typeOnly: boolean }[] {
  const text = fs.readFileSync(file, 'utf8');
  const found = [...text.matchAll(/^\s*import\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => ({ specifier: m[2]!, typeOnly: m[1] !== undefined }));
  const dynamic = [...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => ({ specifier: m[1]!, typeOnly: false }));
  return [...found, ...dynamic];
}

function resolved(file: string, specifier: string): string {
  return path
    .relative(SRC, path.resolve(path.dirname(file), specifier))
    .split(path.sep)
    .join('/');
}

describe('the module map', () => {
  it('src/core imports nothing from src/cli or src/commands', () => {
    const offending = sources('core').flatMap((file) =>
      imports(file)
        .filter(({ specifier }) => specifier.startsWith('.'))
        .map(({ specifier }) => `${path.relative(SRC, file)} → ${resolved(file, specifier)}`)
        .filter((edge) => /→ (cli|commands)\//.test(edge)),
    );
    expect(offending).toEqual([]);
  });

  it('src/commands imports from src/cli only types', () => {
    const offending = sources('commands').flatMap((file) =>
      imports(file)
        .filter(({ specifier, typeOnly }) => specifier.startsWith('.') && !typeOnly && resolved(file, specifier).startsWith('cli/'))
        .map(({ specifier }) => `${path.relative(SRC, file)} → ${resolved(file, specifier)}`),
    );
    expect(offending).toEqual([]);
  });

  it('each folder of src/core imports only the folders the map allows, and its README lists every module', () => {
    const map = fs.readFileSync(path.join(REPO_ROOT, 'CONTRIBUTING.md'), 'utf8');
    const allowed = new Map(
      [...map.matchAll(/^\| `src\/core\/([a-z]+)\/` \|[^\n]*\| ([^|\n]+) \|$/gm)].map((m) => [m[1]!, new Set([...m[2]!.matchAll(/`([a-z]+)`/g)].map((x) => x[1]!))]),
    );
    const folders = fs
      .readdirSync(path.join(SRC, 'core'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect([...allowed.keys()].sort()).toEqual(folders);
    expect(fs.readdirSync(path.join(SRC, 'core')).filter((name) => name.endsWith('.ts'))).toEqual([]);

    const offending: string[] = [];
    const unlisted: string[] = [];
    for (const folder of folders) {
      const index = fs.readFileSync(path.join(SRC, 'core', folder, 'README.md'), 'utf8');
      for (const file of sources(`core/${folder}`)) {
        const inFolder = path
          .relative(path.join(SRC, 'core', folder), file)
          .split(path.sep)
          .join('/');
        if (!index.includes(`\`${inFolder}\``)) unlisted.push(`core/${folder}/${inFolder}`);
        for (const { specifier } of imports(file)) {
          if (!specifier.startsWith('.')) continue;
          const target = resolved(file, specifier);
          const targetFolder = /^core\/([a-z]+)\//.exec(target)?.[1];
          if (targetFolder !== undefined && targetFolder !== folder && !allowed.get(folder)!.has(targetFolder)) {
            offending.push(`${path.relative(SRC, file)} → ${target}`);
          }
        }
      }
    }
    expect(offending).toEqual([]);
    expect(unlisted).toEqual([]);
  });

  it("doctor's checks and the modules holding the deciders import nothing that reaches the disk or runs programs", () => {
    const offending = [...DOCTOR_CHECKS, ...DECIDERS].flatMap((file) =>
      imports(file)
        .filter(({ specifier, typeOnly }) => !typeOnly && /^node:(fs|fs\/promises|child_process)$/.test(specifier))
        .map(({ specifier }) => `${path.relative(SRC, file)} → ${specifier}`),
    );
    expect(offending).toEqual([]);
  });

  it("doctor's checks and the deciders of upgrade, its migrations, the original Squad's migrations and the spawn prompt take nothing from the file-system layer that reads", () => {
    const offending = [...DOCTOR_CHECKS, ...DECIDERS].flatMap((file) =>
      namedImports(file)
        .filter(({ specifier, typeOnly }) => !typeOnly && specifier.startsWith('.') && /^fs\//.test(resolved(file, specifier).replace(/^core\//, '')))
        .filter(({ name }) => !FS_LAYER_NON_READING.has(name))
        .map(({ specifier, name }) => `${path.relative(SRC, file)} → ${name} from ${specifier}`),
    );
    expect(offending).toEqual([]);
    // The rule has something to check: each of those modules is there and holds a decider.
    for (const file of DECIDERS) expect(fs.readFileSync(file, 'utf8'), file).toMatch(/export (async )?function (decide|render|factsFrom)/);
  });
});

/** Doctor's check groups, its catalog, and the module that runs them. */
const DOCTOR_CHECKS = [...sources('core/doctor/checks'), path.join(SRC, 'core/doctor/catalog.ts'), path.join(SRC, 'core/doctor/doctor.ts')];

/**
 * Modules whose deciders decide from what a read step read (CONTRIBUTING: read → pure plan →
 * apply); test/unit/read-then-decide.test.ts runs those deciders with node:fs switched off.
 */
const DECIDERS = [
  'scaffold/scaffold-plan.ts',
  'team/hire.ts',
  'scaffold/upgrade.ts',
  'scaffold/migrations.ts',
  'squad/original/squad-dir-plan.ts',
  'squad/original/skill-migration-plan.ts',
  'prompt/spawn-prompt.ts',
  'base/disk-facts.ts',
].map((rel) => path.join(SRC, 'core', rel));

/** What the file-system layer offers that does not read the disk: writers (apply), constants, pure helpers, messages. */
const FS_LAYER_NON_READING = new Set([
  'writeFileAtomic',
  'moveInside',
  'sha256',
  'unsafePathError',
  'TEMP_FILE_PATTERN',
  'LOCK_FILE',
  'LOCK_DEBRIS_GLOB',
  'DEBRIS_KINDS',
  'NEVER_WRITTEN',
  'obstacleFix',
  'confinementFix',
  'compareVersions',
  'renderTemplate',
  'relativePathProblem',
  'isWithin',
]);

/** Each name a file imports, with its specifier. */
function namedImports(file: string): { specifier: string; name: string; typeOnly: boolean }[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*import\s+(type\s+)?\{([^}]*)\}\s*from\s+['"]([^'"]+)['"]/gm)].flatMap((m) =>
    m[2]!
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '')
      .map((part) => ({ specifier: m[3]!, name: part.replace(/^type\s+/, '').split(/\s+as\s+/)[0]!, typeOnly: m[1] !== undefined || part.startsWith('type ') })),
  );
}

/** Every `export function decideX` of src/core: the pure planners and checks. */
function exportedDeciders(): { file: string; name: string }[] {
  return sources('core').flatMap((file) => [...fs.readFileSync(file, 'utf8').matchAll(/^export (?:async )?function (decide\w*)/gm)].map((m) => ({ file, name: m[1]! })));
}

/** Deciders whose off-disk run is that of the decider calling them (decideUpgrade's test runs these). */
const RUN_OFF_DISK_THROUGH_ANOTHER = new Set(['decideTeamSkillMoves', 'decideBuiltinSkillMoves', 'decideMemberProfiles']);

describe('one pipeline for every writing command', () => {
  it('every decider lives in a module that reaches neither node:fs nor a reading function of the file-system layer', () => {
    const offending = [...new Set(exportedDeciders().map(({ file }) => file))].flatMap((file) => [
      ...imports(file)
        .filter(({ specifier, typeOnly }) => !typeOnly && /^node:(fs|fs\/promises|child_process)$/.test(specifier))
        .map(({ specifier }) => `${path.relative(SRC, file)} → ${specifier}`),
      ...namedImports(file)
        .filter(({ specifier, typeOnly }) => !typeOnly && specifier.startsWith('.') && /^fs\//.test(resolved(file, specifier).replace(/^core\//, '')))
        .filter(({ name }) => !FS_LAYER_NON_READING.has(name))
        .map(({ specifier, name }) => `${path.relative(SRC, file)} → ${name} from ${specifier}`),
    ]);
    expect(offending).toEqual([]);
  });

  it('every decider is run by a test with the file system switched off (test/helpers/no-fs.ts)', () => {
    const testsOffDisk = ['unit', 'e2e']
      .flatMap((folder) => fs.readdirSync(path.join(REPO_ROOT, 'test', folder)).map((name) => path.join(REPO_ROOT, 'test', folder, name)))
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => fs.readFileSync(file, 'utf8'))
      .filter((text) => text.includes("from '../helpers/no-fs.js'"));
    const untested = exportedDeciders()
      .filter(({ name }) => !RUN_OFF_DISK_THROUGH_ANOTHER.has(name))
      .filter(({ name }) => !testsOffDisk.some((text) => new RegExp(`\\b${name}\\b`).test(text)))
      .map(({ file, name }) => `${path.relative(SRC, file)}: ${name}`);
    expect(untested).toEqual([]);
  });

  it('only src/commands/pipeline.ts takes the squad lock and applies a plan', () => {
    const offending = sources('commands')
      .filter((file) => path.basename(file) !== 'pipeline.ts')
      .flatMap((file) =>
        namedImports(file)
          .filter(({ name }) => ['underSquadLock', 'withSquadLock', 'applyPlan'].includes(name) || /^apply[A-Z]/.test(name))
          .map(({ name }) => `${path.relative(SRC, file)} → ${name}`),
      );
    expect(offending).toEqual([]);
  });

  it('applyPlan is the one applier of the core', () => {
    const appliers = sources('core').flatMap((file) => [...fs.readFileSync(file, 'utf8').matchAll(/^export (?:async )?function (apply\w*)/gm)].map((m) => m[1]!));
    expect(appliers).toEqual(['applyPlan']);
  });
});
