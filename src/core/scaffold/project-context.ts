/**
 * The project context a squad works in (project, stack, owner): said once in team.md's Project
 * Context, and copied into each member's charter (the one file a spawned member is sure to get).
 *
 * Changing it (`init --project/--stack/--owner` on an existing squad) changes both; what that
 * decides from is read here (readContextState), the change itself is decided in context-plan.ts.
 *
 * For a new squad, the stack can be read from the repository: detectStack looks at the manifest
 * files at its root (package.json, pyproject.toml, go.mod, Cargo.toml, …).
 */
import path from 'node:path';
import { readStateText } from '../fs/confined.js';
import { isFile, readDirNames, readTextIfExists } from '../fs/fs-safe.js';
import { resolveIn, squadPaths } from '../base/paths.js';
import { isMapping } from '../base/util.js';
import { contextCharters, type ContextState } from './context-plan.js';

/**
 * What changing the project context of the squad whose team.md holds `teamText` decides from
 * (context-plan.ts decideContextChange): the charters of its roster, and team.md in each backup.
 */
export function readContextState(root: string, teamText: string): ContextState {
  const texts = new Map<string, string | undefined>();
  for (const relPath of contextCharters(teamText)) texts.set(relPath, readStateText(root, relPath));
  const backupStamps = readDirNames(resolveIn(root, squadPaths.backups));
  for (const stamp of backupStamps) {
    const candidate = `${squadPaths.backups}/${stamp}/${squadPaths.team}`;
    texts.set(candidate, readTextIfExists(resolveIn(root, candidate)));
  }
  return { teamText, texts, backupStamps };
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
