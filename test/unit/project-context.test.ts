/**
 * detectStack: what each common manifest file says of a repository's stack (init's default, and
 * what `init` and `import` show). The e2e test in context.test.ts runs a few through init; this one
 * covers every manifest the detector knows, and the files it must not be fooled by.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { detectStack } from '../../src/core/scaffold/project-context.js';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

function stackOf(files: Record<string, string>): { stack: string; from: string[] } {
  const root = tempDir();
  writeFiles(root, files);
  return detectStack(root);
}

describe('detectStack', () => {
  const cases: [string, Record<string, string>, string][] = [
    ['Deno', { 'deno.json': '{}' }, 'TypeScript, Deno'],
    ['Deno (jsonc)', { 'deno.jsonc': '// config\n{}' }, 'TypeScript, Deno'],
    ['Django in requirements.txt', { 'requirements.txt': 'Django==5.0\n' }, 'Python, Django'],
    ['Flask in a Pipfile', { Pipfile: '[packages]\nflask = "*"\n' }, 'Python, Flask'],
    ['setup.py', { 'setup.py': 'from setuptools import setup\n' }, 'Python'],
    ['Maven with Spring Boot', { 'pom.xml': '<artifactId>spring-boot-starter-web</artifactId>' }, 'Java, Maven, Spring Boot'],
    ['Gradle in Kotlin', { 'build.gradle.kts': 'plugins { id("org.springframework.boot") }' }, 'Kotlin, Gradle, Spring Boot'],
    ['Gradle in Groovy with Kotlin', { 'build.gradle': "apply plugin: 'kotlin'\n" }, 'Kotlin, Gradle'],
    ['Gradle in Groovy', { 'build.gradle': "apply plugin: 'java'\n" }, 'Java, Gradle'],
    ['an F# project', { 'tool.fsproj': '<Project />' }, 'C#, .NET'],
    ['Laravel', { 'composer.json': '{"require":{"laravel/framework":"^11"}}' }, 'PHP, Laravel'],
    ['Symfony', { 'composer.json': '{"require":{"symfony/console":"^7"}}' }, 'PHP, Symfony'],
    ['Phoenix', { 'mix.exs': 'defp deps do\n  [{:phoenix, "~> 1.7"}]\nend\n' }, 'Elixir, Phoenix'],
    ['Flutter', { 'pubspec.yaml': 'name: app\ndependencies:\n  flutter:\n    sdk: flutter\n' }, 'Dart, Flutter'],
    ['plain Dart', { 'pubspec.yaml': 'name: app\n' }, 'Dart'],
    ['Swift', { 'Package.swift': '// swift-tools-version:5.9\n' }, 'Swift'],
    ['CMake', { 'CMakeLists.txt': 'project(x)\n' }, 'C/C++, CMake'],
  ];
  for (const [what, files, stack] of cases) {
    it(`${what}: ${stack}`, () => {
      const detected = stackOf(files);
      expect(detected.stack).toBe(stack);
      expect(detected.from.sort()).toEqual(Object.keys(files).sort());
    });
  }

  it('a repository without manifests has no stack; a manifest named inside a word is not one', () => {
    expect(stackOf({ 'README.md': '# x\n' })).toEqual({ stack: '', from: [] });
    expect(stackOf({ 'notes-go.mod.txt': 'module x\n', 'my.csproj.bak': '<Project />' })).toEqual({ stack: '', from: [] });
  });
});
