/**
 * The text create-squad ships: the coordinator prompt (`squad.agent.md`) and the built-in skills
 * (`templates/skills/squad-*`). These are product content, so they get the same checks users'
 * files get, plus the limits and cross-references the product depends on.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { createUi } from '../../src/cli/ui.js';
import {
  COORDINATOR_TARGET,
  COPILOT_PROMPT_LIMIT,
  coordinatorBodyLength,
  splitCoordinator,
  stampCoordinator,
} from '../../src/core/coordinator.js';
import { shippedBuiltinSkills } from '../../src/core/owned.js';
import {
  BUILTIN_SKILL_PREFIX,
  PACKAGE_BUILTIN_SKILLS_DIR,
  PACKAGE_COORDINATOR_SOURCE,
  SKILL_FILE,
} from '../../src/core/paths.js';
import { parseSkill, skillMetadata, type ParsedSkill } from '../../src/core/skill.js';
import { validateSkill } from '../../src/core/validate.js';
import { isMapping } from '../../src/core/util.js';

const coordinatorSource = fs.readFileSync(PACKAGE_COORDINATOR_SOURCE, 'utf8');
const stamped = stampCoordinator(coordinatorSource, '99.99.99');
const body = splitCoordinator(stamped).body;

/** Every folder under templates/skills/, whatever its name (shippedBuiltinSkills filters by prefix). */
const skillFolders = fs
  .readdirSync(PACKAGE_BUILTIN_SKILLS_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

function readBuiltin(name: string): ParsedSkill {
  const file = path.join(PACKAGE_BUILTIN_SKILLS_DIR, name, SKILL_FILE);
  return parseSkill(fs.readFileSync(file, 'utf8'), file);
}

/** A built-in skill name used as a word: not part of a longer name or a file name like `.squad-x`. */
const BUILTIN_NAME_MENTION = new RegExp(`(?<![\\w.-])${BUILTIN_SKILL_PREFIX}[a-z0-9]+(?:-[a-z0-9]+)*(?![\\w*]|\\.[a-z])`, 'g');

const FENCED_BLOCK = /^[ \t]*(`{3,})[^\n]*\n([\s\S]*?)^[ \t]*\1[ \t]*$/gm;

/** Markdown code: the contents of fenced blocks and of inline code spans. */
function codeSegments(text: string): string[] {
  const blocks = [...text.matchAll(FENCED_BLOCK)].map((match) => match[2]!);
  const spans = [...text.replace(FENCED_BLOCK, '').matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
  return [...blocks, ...spans];
}

/** `{command path → long flags}` from the real CLI definition, the one source of truth for flags. */
function declaredFlags(): Map<string, Set<string>> {
  const silent = createUi({ stdout: new NullStream(), stderr: new NullStream(), env: {} });
  const program = buildProgram('0.0.0', silent, {});
  const flags = new Map<string, Set<string>>();
  const walk = (cmd: Command, prefix: string): void => {
    for (const sub of cmd.commands) {
      const name = prefix ? `${prefix} ${sub.name()}` : sub.name();
      flags.set(name, new Set(['--help', ...sub.options.map((option) => option.long).filter((flag): flag is string => !!flag)]));
      walk(sub, name);
    }
  };
  walk(program, '');
  return flags;
}

class NullStream extends Writable {
  override _write(_chunk: unknown, _encoding: string, done: () => void): void {
    done();
  }
}

/** Every `create-squad <command> …flags` invocation written as code in a markdown text. */
function cliInvocations(text: string): { command: string; flags: string[]; line: string }[] {
  const found: { command: string; flags: string[]; line: string }[] = [];
  const pattern = /(?:npx |^)create-squad ([a-z]+)(?: ([a-z]+))?([^\n]*)/gm;
  for (const match of codeSegments(text).flatMap((code) => [...code.matchAll(pattern)])) {
    const [line, first, second, rest] = match as unknown as [string, string, string | undefined, string];
    const command = first === 'skills' && second ? `skills ${second}` : first;
    const tail = first === 'skills' ? rest : `${second ?? ''}${rest}`;
    found.push({ command, flags: [...tail.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]), line });
  }
  return found;
}

describe('coordinator prompt (squad.agent.md)', () => {
  it('has Copilot custom-agent frontmatter: name, description and tools', () => {
    const { frontmatter } = parseSkill(coordinatorSource, 'squad.agent.md');
    expect(isMapping(frontmatter)).toBe(true);
    expect(frontmatter.name).toBe('Squad');
    expect(typeof frontmatter.description).toBe('string');
    expect((frontmatter.description as string).trim().length).toBeGreaterThan(40);
    expect(Array.isArray(frontmatter.tools)).toBe(true);
    expect((frontmatter.tools as unknown[]).every((tool) => typeof tool === 'string')).toBe(true);
  });

  it('carries no version stamp in the source (create-squad adds it at install time)', () => {
    expect(coordinatorSource).not.toMatch(/<!-- create-squad:/);
    expect(body.startsWith('<!-- create-squad: 99.99.99 -->\n')).toBe(true);
  });

  it('fits Copilot\'s prompt limit once stamped, and the 24,000-character target', () => {
    const length = coordinatorBodyLength(stamped);
    expect(length).toBeLessThanOrEqual(COPILOT_PROMPT_LIMIT);
    expect(length).toBeLessThanOrEqual(COORDINATOR_TARGET);
  });

  it('covers init mode with an explicit stop before any file is created', () => {
    expect(body).toMatch(/## Init mode/);
    expect(body).toMatch(/STOP\..*(create|write).*until the user confirms/is);
    expect(body).toContain('npx create-squad init --yes --roles');
    expect(body).toContain('.ai-team-templates/');
  });

  it('names the spawn tool, the agent types and the spawn-prompt command', () => {
    for (const text of ['`task`', 'general-purpose', 'explore', 'npx create-squad prompt', '<available_skills>', '| Skill | MCP Server | Required? | Purpose |']) {
      expect(body).toContain(text);
    }
    expect(body).toMatch(/<skill><name>.*<\/name><description>.*<\/description><location>.*<\/location><\/skill>/);
  });

  it('describes all four response modes', () => {
    for (const mode of ['Direct', 'Lightweight', 'Standard', 'Full']) expect(body).toContain(`**${mode}**`);
  });
});

describe('built-in skills (templates/skills)', () => {
  it('ships at least the three core skills', () => {
    expect(skillFolders).toEqual(expect.arrayContaining(['squad-code-review', 'squad-git-workflow', 'squad-skill-authoring']));
    expect(shippedBuiltinSkills()).toEqual(skillFolders);
  });

  it.each(skillFolders)('%s is a valid, warning-free squad skill', (folder) => {
    expect(folder.startsWith(BUILTIN_SKILL_PREFIX)).toBe(true);
    const skill = readBuiltin(folder);
    const result = validateSkill({ frontmatter: skill.frontmatter, body: skill.body, dirName: folder });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    const metadata = skillMetadata(skill.frontmatter);
    expect(metadata.author).toBe('squad');
    expect(typeof metadata.version).toBe('string');
  });

  it.each(skillFolders)('%s says when to use it', (folder) => {
    expect(String(readBuiltin(folder).frontmatter.description)).toMatch(/\bUse (when|whenever|only)\b/);
  });

  it.each(skillFolders)('%s links only to files it ships', (folder) => {
    const dir = path.join(PACKAGE_BUILTIN_SKILLS_DIR, folder);
    const prose = readBuiltin(folder).body.replace(FENCED_BLOCK, '');
    for (const match of prose.matchAll(/\]\(((?:references|scripts|assets)\/[^)\s]+)\)/g)) {
      expect(fs.existsSync(path.join(dir, ...match[1]!.split('/'))), `${folder}: ${match[1]}`).toBe(true);
    }
  });
});

describe('coordinator and built-in skills refer to each other', () => {
  const mentioned = new Set([...body.matchAll(BUILTIN_NAME_MENTION)].map((match) => match[0]));

  it('names every built-in skill in the coordinator body', () => {
    expect(skillFolders.filter((name) => !mentioned.has(name))).toEqual([]);
  });

  it('mentions no squad- skill that is not shipped', () => {
    expect([...mentioned].filter((name) => !skillFolders.includes(name))).toEqual([]);
  });

  it('mentions no squad- skill in a built-in skill that is not shipped', () => {
    for (const folder of skillFolders) {
      const names = [...readBuiltin(folder).body.matchAll(BUILTIN_NAME_MENTION)].map((match) => match[0]);
      expect(names.filter((name) => !skillFolders.includes(name)), folder).toEqual([]);
    }
  });

  it('uses only CLI commands and flags that exist', () => {
    const flags = declaredFlags();
    const texts: [string, string][] = [
      ['squad.agent.md', body],
      ...skillFolders.map((folder): [string, string] => [folder, readBuiltin(folder).body]),
    ];
    let checked = 0;
    for (const [source, text] of texts) {
      for (const { command, flags: used, line } of cliInvocations(text)) {
        checked += 1;
        const known = flags.get(command);
        expect(known, `${source}: unknown command in "${line}"`).toBeDefined();
        for (const flag of used) expect(known!.has(flag), `${source}: ${flag} in "${line}"`).toBe(true);
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});
