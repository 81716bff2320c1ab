/**
 * The text create-squad ships: the coordinator prompt (`squad.agent.md`) and the built-in skills
 * (`templates/skills/squad-*`). These are product content, so they get the same checks users'
 * files get, plus the limits and cross-references the product depends on.
 */
import { STANDING_RULES_HEADING } from '../../src/core/team/standing-rules.js';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { createUi } from '../../src/cli/ui.js';
import { COORDINATOR_TARGET, COPILOT_PROMPT_LIMIT, coordinatorBodyLength, splitCoordinator, stampCoordinator } from '../../src/core/squad/coordinator.js';
import {
  castTeam,
  castingEvent,
  createPolicy,
  nextCast,
  parseRegistry,
  resolveUniverse,
  serializeCasting,
  universes,
  type CastEntry,
  type CastingEvent,
} from '../../src/core/roster/casting.js';
import { isTableSeparator, splitTableRow } from '../../src/core/base/md-table.js';
import { slugify } from '../../src/core/base/names.js';
import { shippedBuiltinSkills } from '../../src/core/squad/owned.js';
import {
  BUILTIN_SKILL_PREFIX,
  MEMBER_FACING_BUILTIN_SKILLS,
  PACKAGE_BUILTIN_SKILLS_DIR,
  PACKAGE_COORDINATOR_SOURCE,
  SKILL_FILE,
  aiTeamSkillDir,
  charterPath,
} from '../../src/core/base/paths.js';
import { defaultRoles } from '../../src/core/roster/roles.js';
import { isRosterHeader } from '../../src/core/roster/roster.js';
import { GITATTRIBUTES_TEMPLATE, SCRIBE_MEMBER, STATE_TEMPLATES, UNION_MERGE_PATTERNS, isRoutingHeader } from '../../src/core/scaffold/scaffold.js';
import { parseSkill, skillMetadata, type ParsedSkill } from '../../src/core/skills/skill.js';
import { renderTemplate, templatePath } from '../../src/core/fs/templates.js';
import { validateSkill } from '../../src/core/skills/validate.js';
import { isMapping } from '../../src/core/base/util.js';
import { HOOKS_FILE_PATH } from '../../src/core/base/hook-events.js';

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
  const program = buildProgram('0.0.0', silent, {}, { cwd: process.cwd(), env: {}, stdinIsTTY: false, stdoutIsTTY: false, readStdin: async () => '' });
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
  const pattern = /(?:npx (?:--no-install |--yes )?|^)create-squad(?:@\S+)? ([a-z]+)(?: ([a-z]+))?([^\n]*)/gm;
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

  it("fits Copilot's prompt limit once stamped, and the 16,000-character budget", () => {
    const length = coordinatorBodyLength(stamped);
    expect(length).toBeLessThanOrEqual(COPILOT_PROMPT_LIMIT);
    expect(length).toBeLessThanOrEqual(COORDINATOR_TARGET);
  });

  it('covers init mode with an explicit stop before any file is created', () => {
    expect(body).toMatch(/## Init mode/);
    expect(body).toMatch(/STOP\..*(create|write).*until the user confirms/is);
    expect(body).toContain('create-squad init --yes --roles');
    expect(body).toContain('.ai-team-templates/');
  });

  it('names the spawn tool, the agent types and the spawn-prompt command, and leaves building a prompt by hand to squad-manual-spawn', () => {
    for (const text of ['`task`', '`runSubagent`', 'general-purpose', 'explore', 'create-squad prompt', '`squad-manual-spawn`']) {
      expect(body).toContain(text);
    }
    const manual = readBuiltin('squad-manual-spawn').body;
    for (const text of ['<available_skills>', '| Skill | MCP Server | Required? | Purpose |']) expect(manual).toContain(text);
    expect(manual).toMatch(/<skill><name>.*<\/name><description>.*<\/description><location>.*<\/location><\/skill>/);
  });

  it('states what the Copilot CLI hooks guarantee, and keeps the rules for hosts without them', () => {
    const paragraph = /\*\*What the hooks guarantee \(Copilot CLI\)\.\*\*[^\n]*/.exec(body)?.[0] ?? '';
    for (const text of [`\`${HOOKS_FILE_PATH}\``, '`create-squad prompt`', 'outside `.ai-team/` are refused', 'VS Code and the cloud agent']) expect(paragraph).toContain(text);
    expect(body).toContain("**Route, don't build.**");
  });

  it("leaves init mode's phases to squad-init, which keeps the stop before any file is created", () => {
    const init = readBuiltin('squad-init').body;
    expect(body).toContain('skill `squad-init`');
    expect(init).toMatch(/STOP\..*(create|write).*until the user confirms/is);
    for (const text of ['create-squad init --dry-run --json --yes --roles', 'create-squad init --yes --roles', 'create-squad hire', '--no-team', '`squad-manual-setup`'])
      expect(init).toContain(text);
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

  it('splits into member-facing skills (installed in .github/skills/) and coordinator procedures, which alone are kept from the model', () => {
    expect([...MEMBER_FACING_BUILTIN_SKILLS].every((name) => skillFolders.includes(name))).toBe(true);
    for (const folder of skillFolders) {
      expect(readBuiltin(folder).frontmatter['disable-model-invocation'] === true, folder).toBe(!MEMBER_FACING_BUILTIN_SKILLS.has(folder));
    }
    // The coordinator's table of procedures ends with the member-facing ones, as its text says.
    const section = body.slice(body.indexOf('## Procedures on demand')).split('\n## ')[0]!;
    const ordered = section.match(/^\| `squad-[a-z-]+` \|/gm)!.map((row) => row.slice(3, -3));
    expect([...ordered].sort()).toEqual(skillFolders);
    expect(new Set(ordered.slice(-MEMBER_FACING_BUILTIN_SKILLS.size))).toEqual(MEMBER_FACING_BUILTIN_SKILLS);
    expect(body).toContain('the last five at `.github/skills/{skill}/SKILL.md`');
    expect(MEMBER_FACING_BUILTIN_SKILLS.size).toBe(5);
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
      expect(
        names.filter((name) => !skillFolders.includes(name)),
        folder,
      ).toEqual([]);
    }
  });

  it('uses only CLI commands and flags that exist', () => {
    const flags = declaredFlags();
    const texts: [string, string][] = [['squad.agent.md', body], ...skillFolders.map((folder): [string, string] => [folder, readBuiltin(folder).body])];
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

/** The contents of the fenced code blocks of a markdown text, without their common indentation. */
function fencedBlocks(text: string): string[] {
  return [...text.matchAll(FENCED_BLOCK)].map((match) => {
    const lines = match[2]!.replace(/\n$/, '').split('\n');
    const indent = Math.min(...lines.filter((line) => line.trim()).map((line) => /^ */.exec(line)![0].length));
    return lines.map((line) => line.slice(indent)).join('\n');
  });
}

function jsonBlocks(text: string): unknown[] {
  return fencedBlocks(text).flatMap((block) => {
    try {
      return [JSON.parse(block) as unknown];
    } catch {
      return [];
    }
  });
}

/** A state template without its leading comment, as a pattern: every `{{…}}` matches one line's worth of text. */
function templateShape(relPath: string, { whole = true } = {}): RegExp {
  const text = fs
    .readFileSync(templatePath(relPath), 'utf8')
    .replace(/^\{\{!--[\s\S]*?--\}\}\n/, '')
    .trim();
  const pattern = text
    .split(/\{\{[^}]+\}\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.+');
  return new RegExp(`^${pattern}${whole ? '$' : ''}`);
}

/** Header and separator lines of every markdown table in a text, with the header's lowercased columns. */
function tableHeaders(text: string): { columns: string[]; lines: string }[] {
  const lines = text.split('\n').map((line) => line.trim());
  const found: { columns: string[]; lines: string }[] = [];
  for (let i = 0; i + 1 < lines.length; i += 1) {
    const header = splitTableRow(lines[i]!);
    if (header && isTableSeparator(lines[i + 1]!)) found.push({ columns: header.map((c) => c.toLowerCase()), lines: `${lines[i]}\n${lines[i + 1]}` });
  }
  return found;
}

describe('coordinator and built-in skills describe the files create-squad writes', () => {
  const shipped: [string, string][] = [['squad.agent.md', body], ...skillFolders.map((folder): [string, string] => [folder, readBuiltin(folder).body])];
  const castingBody = readBuiltin('squad-casting').body;

  it('squad-casting shows policy.json as init writes it for the default universe', () => {
    expect(jsonBlocks(castingBody)).toContainEqual(JSON.parse(serializeCasting(createPolicy(resolveUniverse(undefined)))));
  });

  it('squad-casting shows registry.json and history.json entries with exactly the fields the CLI writes', () => {
    const registry = jsonBlocks(castingBody).find((value) => isMapping(value) && 'members' in value) as { members: CastEntry[] };
    const read = parseRegistry(JSON.stringify(registry));
    expect(read.state).toBe('ok');
    expect(read.state === 'ok' && read.value.members).toEqual(registry.members);
    const history = jsonBlocks(castingBody).find((value) => isMapping(value) && 'events' in value) as { events: CastingEvent[] };
    expect(history.events.length).toBeGreaterThan(0);
    for (const shown of history.events) {
      const { at, event, note, ...entry } = shown;
      expect(castingEvent({ entry, event, ...(note ? { note } : {}) }, new Date(at))).toEqual(shown);
    }
  });

  it('squad-casting lists every universe in catalog order and quotes the overflow notes casting.ts writes', () => {
    const prose = castingBody.replace(/\s+/g, ' ');
    const positions = universes().map((u) => prose.indexOf(`"${u.name}"`));
    expect(positions.every((at) => at >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);

    const policy = createPolicy(resolveUniverse(undefined));
    const primary = universes().find((u) => u.name === policy.universe)!;
    expect(prose).toContain(`${primary.names.slice(0, 7).join(', ')}, …`);
    const defaultTeam = castTeam(defaultRoles(), policy, { folders: new Set([SCRIBE_MEMBER.folder]), names: new Set() });
    expect(prose).toContain(defaultTeam.map(({ entry }) => `${entry.name} (${entry.role})`).join(', '));
    const toNextUniverse = nextCast('Tester', policy, { folders: new Set(primary.names.map((n) => slugify(n))), names: new Set() });
    expect(toNextUniverse.entry.universe).toBe(policy.overflow[0]);
    expect(prose).toContain(toNextUniverse.note);
    const numbered = nextCast('Tester', policy, { folders: new Set(universes().flatMap((u) => u.names.map((n) => slugify(n)))), names: new Set() });
    expect(numbered.entry.name).toBe(`${primary.names[0]} 2`);
    expect(prose).toContain(`"${numbered.entry.name}"`);
    expect(prose).toContain(numbered.note);
  });

  it('shows the Members and Routing tables with the headers init writes, wherever it shows them', async () => {
    const data = { universe: resolveUniverse(undefined).name, members: [{ name: 'Keaton', role: 'Lead', folder: 'keaton' }], scribe: SCRIBE_MEMBER };
    const [roster] = tableHeaders(await renderTemplate(STATE_TEMPLATES.team, data)).filter((t) => isRosterHeader(t.columns));
    const [routing] = tableHeaders(await renderTemplate(STATE_TEMPLATES.routing, data)).filter((t) => isRoutingHeader(t.columns));
    for (const [source, text] of shipped) {
      for (const table of tableHeaders(text)) {
        if (isRosterHeader(table.columns)) expect(table.lines, source).toBe(roster!.lines);
        if (isRoutingHeader(table.columns)) expect(table.lines, source).toBe(routing!.lines);
      }
    }
    for (const folder of ['squad-team-changes', 'squad-manual-setup']) {
      const headers = tableHeaders(readBuiltin(folder).body).map((t) => t.lines);
      expect(headers, folder).toContain(roster!.lines);
    }
    expect(tableHeaders(readBuiltin('squad-team-changes').body).map((t) => t.lines)).toContain(routing!.lines);
    expect(readBuiltin('squad-manual-setup').body).toContain(routing!.lines.split('\n')[0]);
  });

  it.each(['decision', 'orchestration-log', 'session-log'])('squad-scribe shows a %s entry exactly as its template shapes it', (name) => {
    const shape = templateShape(`squad/${name}.md.hbs`);
    expect(fencedBlocks(readBuiltin('squad-scribe').body).filter((block) => shape.test(block))).not.toEqual([]);
  });

  it('squad-work-planning writes its plan as a decision entry', () => {
    const shape = templateShape('squad/decision.md.hbs', { whole: false });
    expect(fencedBlocks(readBuiltin('squad-work-planning').body).filter((block) => shape.test(block))).not.toEqual([]);
  });

  it('squad-ceremonies quotes a ceremony exactly as ceremonies.md has it', () => {
    const ceremonies = fs.readFileSync(templatePath(STATE_TEMPLATES.ceremonies), 'utf8');
    const quoted = fencedBlocks(readBuiltin('squad-ceremonies').body).filter((block) => block.startsWith('## '));
    expect(quoted).not.toEqual([]);
    for (const block of quoted) expect(ceremonies).toContain(block);
  });

  it('squad-manual-setup gives the .gitattributes lines init appends, comment included', async () => {
    const lines = (await renderTemplate(GITATTRIBUTES_TEMPLATE, { patterns: UNION_MERGE_PATTERNS })).trim();
    expect(fencedBlocks(readBuiltin('squad-manual-setup').body)).toContain(lines);
  });

  it('quotes only history and state headings the templates write', () => {
    const templates = fs.readdirSync(path.dirname(templatePath(STATE_TEMPLATES.team)));
    const headings = new Set(templates.flatMap((name) => [...fs.readFileSync(templatePath(`squad/${name}`), 'utf8').matchAll(/^#+ ([A-Z][A-Za-z ]*)$/gm)].map((m) => m[1]!)));
    headings.add('Alumni'); // the heading squad-team-changes tells the coordinator to add
    headings.add(STANDING_RULES_HEADING.replace(/^## /, '')); // the section teach adds to a charter
    for (const [source, text] of shipped) {
      for (const match of text.matchAll(/["`]## ([A-Z][A-Za-z ]*)["`]/g)) expect(headings.has(match[1]!), `${source}: ## ${match[1]}`).toBe(true);
    }
  });

  it('squad-scribe gives the coordinator the Scribe prompt, with one manifest line per member', () => {
    const scribe = readBuiltin('squad-scribe').body;
    const prompt = fencedBlocks(scribe).find((block) => block.startsWith('You are Scribe'));
    expect(prompt).toBeDefined();
    expect(prompt).toContain(`Read ${charterPath(SCRIBE_MEMBER.folder)} and follow ${aiTeamSkillDir('squad-scribe')}/${SKILL_FILE}.`);
    expect(prompt).toMatch(/^- \{member name\} \| \{standard or lightweight\} \| \{task\} \| \{outcome[^}]*\} \| \{files[^}]*\}$/m);
    expect(scribe).toContain('description: "Scribe: log session and merge decisions"');
    expect(body).toContain('description: "Scribe: log session and merge decisions"');
  });

  it('squad-orchestration keeps the rules the coordinator moved out: parallel batches, after-work duties, who writes what', () => {
    const orchestration = readBuiltin('squad-orchestration').body;
    for (const text of [
      'Keep four or five members running at most',
      'Shared memory files are never a reason to serialize',
      '`## Project Learnings`',
      '`## Portable Knowledge`',
      'Never edit `decisions.md` directly',
    ]) {
      expect(orchestration).toContain(text);
    }
    const state = tableHeaders(orchestration).find((table) => table.columns.join('|') === 'path|written by');
    expect(state).toBeDefined();
    expect(orchestration).toMatch(/^\| `\.ai-team\/decisions\.md`, `log\/`, `orchestration-log\/` \| Scribe \|$/m);
    expect(orchestration).toMatch(new RegExp(`^\\| .*\`${HOOKS_FILE_PATH.replace(/[.]/g, '\\.')}\` \\| create-squad only`, 'm'));
  });

  it("points Scribe's charter to the squad-scribe skill", () => {
    const charter = fs.readFileSync(templatePath(STATE_TEMPLATES.scribeCharter), 'utf8');
    expect(charter).toContain(`\`${aiTeamSkillDir('squad-scribe')}/${SKILL_FILE}\``);
  });
});
