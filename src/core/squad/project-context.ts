/**
 * The project context a squad works in (project, stack, owner): said once in team.md's Project
 * Context, and copied into each member's charter (the one file a spawned member is sure to get).
 *
 * Changing it (`init --project/--stack/--owner` on an existing squad) changes both: team.md's
 * lines, after a backup of team.md, and in each charter the lines that still say what team.md said
 * (a line someone changed by hand stays, and is named). Histories are the members' own record of
 * what they learned, and stay as they are. team.md is written last, so a rerun after a kill
 * finishes the change.
 *
 * For a new squad, the stack can be read from the repository: detectStack looks at the manifest
 * files at its root (package.json, pyproject.toml, go.mod, Cargo.toml, …).
 */
import path from 'node:path';
import { readStateText } from '../fs/confined.js';
import { isFile, readDirNames, readTextIfExists } from '../fs/fs-safe.js';
import { backupStep, type MemberStep } from './members.js';
import { charterPath, squadPaths } from '../base/paths.js';
import { parseRoster } from './roster.js';
import { parseProjectContext, type ProjectContext } from './scaffold.js';
import { foldLines, isMapping } from '../base/util.js';

export type ContextField = keyof ProjectContext;
export const CONTEXT_FIELDS: readonly ContextField[] = ['project', 'stack', 'owner'];

/** How each field is labelled in team.md's Project Context and in a charter's Identity. */
const LABELS: Record<ContextField, { team: string; charter: string }> = {
  project: { team: 'Project', charter: 'Project' },
  stack: { team: 'Stack', charter: 'Stack' },
  owner: { team: 'Owner', charter: 'Works for' },
};
/** What an empty value is written as. */
export const UNSPECIFIED = '_not specified yet_';

export interface ContextChange {
  changed: { field: ContextField; from: string; to: string }[];
  /** Files to write, in order: team.md's backup, charters, team.md last. */
  steps: MemberStep[];
  /** Where team.md was backed up. */
  backup?: string;
  /** Charters updated. */
  charters: string[];
  notes: string[];
}

function lineFor(label: string): RegExp {
  return new RegExp(`^(\\s*-\\s*\\*\\*${label}:\\*\\*[ \\t]*)(.*?)([ \\t]*\\r?)$`, 'm');
}

function shown(value: string): string {
  return value === '' ? UNSPECIFIED : foldLines(value);
}

/** `text` with the value of its `label` line set to `to` when it says `from` (or already `to`); how it went. */
function replaceValue(text: string, label: string, from: string, to: string): { text: string; state: 'changed' | 'done' | 'kept' | 'absent' } {
  const pattern = lineFor(label);
  const match = pattern.exec(text);
  if (!match) return { text, state: 'absent' };
  const value = match[2]!;
  if (value === shown(to)) return { text, state: 'done' };
  if (value !== shown(from)) return { text, state: 'kept' };
  return { text: text.replace(pattern, (_m, head: string, _v: string, tail: string) => `${head}${shown(to)}${tail}`), state: 'changed' };
}

/**
 * Plan changing the project context of the squad whose team.md holds `teamText` to `wanted` (the
 * fields given). Undefined when every given field already has that value.
 */
export function planContextChange(root: string, teamText: string, wanted: Partial<ProjectContext>, now: Date): ContextChange | undefined {
  const current = parseProjectContext(teamText);
  const changed = CONTEXT_FIELDS.filter((field) => wanted[field] !== undefined && foldLines(wanted[field]!) !== current[field]).map((field) => ({
    field,
    from: current[field],
    to: foldLines(wanted[field]!),
  }));
  if (changed.length === 0) return undefined;

  let team = teamText;
  const notes: string[] = [];
  for (const { field, from, to } of changed) {
    const result = replaceValue(team, LABELS[field].team, from, to);
    if (result.state === 'absent') notes.push(`${squadPaths.team} has no "- **${LABELS[field].team}:**" line: add it under Project Context by hand`);
    team = result.text;
  }
  const steps: MemberStep[] = [];
  const charters: string[] = [];
  for (const member of parseRoster(teamText)) {
    if (member.noCharter) continue;
    const relPath = member.charter || charterPath(member.name);
    const text = readStateText(root, relPath);
    if (text === undefined) continue;
    let next = text;
    for (const { field, from, to } of changed) {
      const result = replaceValue(next, LABELS[field].charter, from, to);
      if (result.state === 'kept') notes.push(`${relPath}: its "${LABELS[field].charter}" line was changed by hand; it was left as it is`);
      next = result.text;
    }
    if (next !== text) {
      steps.push({ kind: 'write', path: relPath, content: next, base: text });
      charters.push(relPath);
    }
  }
  const backup = team === teamText ? undefined : backupStep(root, squadPaths.team, teamText, now);
  if (backup) steps.unshift(...backup.steps);
  if (team !== teamText) steps.push({ kind: 'write', path: squadPaths.team, content: team, base: teamText });
  return { changed, steps, charters, notes, ...(backup ? { backup: backup.path } : {}) };
}

// ---------------------------------------------------------------- reading the stack from the repository

/** What a manifest at the repository root says about the stack. */
interface Detector {
  file: string | RegExp;
  detect(text: string): string[];
}

const NODE_FRAMEWORKS: [string, string][] = [
  ['next', 'Next.js'],
  ['react-native', 'React Native'],
  ['react', 'React'],
  ['vue', 'Vue'],
  ['svelte', 'Svelte'],
  ['@angular/core', 'Angular'],
  ['electron', 'Electron'],
  ['@nestjs/core', 'NestJS'],
  ['express', 'Express'],
  ['fastify', 'Fastify'],
];

function packageJson(text: string, root: string): string[] {
  let pkg: unknown;
  try {
    pkg = JSON.parse(text);
  } catch {
    return ['Node.js'];
  }
  const deps = isMapping(pkg) ? { ...(isMapping(pkg.dependencies) ? pkg.dependencies : {}), ...(isMapping(pkg.devDependencies) ? pkg.devDependencies : {}) } : {};
  const typescript = 'typescript' in deps || isFile(path.join(root, 'tsconfig.json'));
  const frameworks = NODE_FRAMEWORKS.filter(([dep]) => dep in deps).map(([, name]) => name);
  const unique = frameworks.filter((name) => !(name === 'React' && frameworks.includes('Next.js')) && !(name === 'React' && frameworks.includes('React Native')));
  return [typescript ? 'TypeScript' : 'JavaScript', 'Node.js', ...unique];
}

function mentions(text: string, pairs: [RegExp, string][]): string[] {
  return pairs.filter(([pattern]) => pattern.test(text)).map(([, name]) => name);
}

const PYTHON_FRAMEWORKS: [RegExp, string][] = [
  [/\bdjango\b/i, 'Django'],
  [/\bfastapi\b/i, 'FastAPI'],
  [/\bflask\b/i, 'Flask'],
];

const DETECTORS: Detector[] = [
  { file: 'deno.json', detect: () => ['TypeScript', 'Deno'] },
  { file: 'deno.jsonc', detect: () => ['TypeScript', 'Deno'] },
  { file: 'pyproject.toml', detect: (text) => ['Python', ...mentions(text, PYTHON_FRAMEWORKS)] },
  { file: 'requirements.txt', detect: (text) => ['Python', ...mentions(text, PYTHON_FRAMEWORKS)] },
  { file: 'setup.py', detect: () => ['Python'] },
  { file: 'Pipfile', detect: (text) => ['Python', ...mentions(text, PYTHON_FRAMEWORKS)] },
  { file: 'go.mod', detect: () => ['Go'] },
  { file: 'Cargo.toml', detect: () => ['Rust'] },
  { file: 'pom.xml', detect: (text) => ['Java', 'Maven', ...mentions(text, [[/spring-boot/, 'Spring Boot']])] },
  { file: 'build.gradle.kts', detect: (text) => ['Kotlin', 'Gradle', ...mentions(text, [[/spring/, 'Spring Boot']])] },
  { file: 'build.gradle', detect: (text) => [/kotlin/i.test(text) ? 'Kotlin' : 'Java', 'Gradle', ...mentions(text, [[/spring/, 'Spring Boot']])] },
  { file: /\.(?:csproj|fsproj|sln)$/i, detect: () => ['C#', '.NET'] },
  { file: 'Gemfile', detect: (text) => ['Ruby', ...mentions(text, [[/['"]rails['"]/, 'Rails']])] },
  {
    file: 'composer.json',
    detect: (text) => [
      'PHP',
      ...mentions(text, [
        [/laravel\/framework/, 'Laravel'],
        [/symfony\//, 'Symfony'],
      ]),
    ],
  },
  { file: 'mix.exs', detect: (text) => ['Elixir', ...mentions(text, [[/:phoenix\b/, 'Phoenix']])] },
  { file: 'pubspec.yaml', detect: (text) => ['Dart', ...mentions(text, [[/^\s*flutter:/m, 'Flutter']])] },
  { file: 'Package.swift', detect: () => ['Swift'] },
  { file: 'CMakeLists.txt', detect: () => ['C/C++', 'CMake'] },
];

/** The largest manifest read: more is not a manifest. */
const MANIFEST_MAX_BYTES = 512 * 1024;

function readManifest(root: string, name: string): string | undefined {
  try {
    return readTextIfExists(path.join(root, name), MANIFEST_MAX_BYTES);
  } catch {
    return undefined;
  }
}

/**
 * The stack the manifest files at `root` name ("TypeScript, Node.js, React"), and the files it was
 * read from; '' and [] when there is none.
 */
export function detectStack(root: string): { stack: string; from: string[] } {
  const names = new Set<string>();
  const from: string[] = [];
  const entries = readDirNames(root);
  const pkg = readManifest(root, 'package.json');
  if (pkg !== undefined) {
    for (const name of packageJson(pkg, root)) names.add(name);
    from.push('package.json');
  }
  for (const detector of DETECTORS) {
    const file = typeof detector.file === 'string' ? (entries.includes(detector.file) ? detector.file : undefined) : entries.find((entry) => (detector.file as RegExp).test(entry));
    if (file === undefined) continue;
    const text = readManifest(root, file);
    if (text === undefined) continue;
    for (const name of detector.detect(text)) names.add(name);
    from.push(file);
  }
  if (names.has('Deno')) names.delete('Node.js');
  return { stack: [...names].join(', '), from };
}
