/**
 * Property-based tests of export and import (fast-check), run in-process against the core:
 *   - random squads (random skill trees: nested paths, text with BOM/CRLF/Unicode, binary data,
 *     executable bits) survive export → import byte for byte;
 *   - random malformed .squad documents never end in anything but a SquadError, and never leave a
 *     byte behind in the target.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { isSquadError } from '../../src/core/base/errors.js';
import { exportSquad } from '../../src/core/portable/export.js';
import { splitHistory } from '../../src/core/roster/history.js';
import { importSquad } from '../../src/core/portable/import.js';
import { shippedBuiltinSkills } from '../../src/core/squad/owned.js';
import { IMPORT_STAGING_PREFIX, SKILL_STAGING_PREFIX, agentSkillDir, charterPath, historyPath, nativeTeamSkillDir, squadPaths, aiTeamSkillDir } from '../../src/core/base/paths.js';
import { jsonStructureProblem } from '../../src/core/portable/squad-json.js';
import { serializeSquad } from '../../src/core/portable/canonical-json.js';
import { squadPathProblem } from '../../src/core/portable/squad-files.js';
import type { SquadDocument } from '../../src/core/portable/squad-format.js';
import { cleanupTempDirs, hashTree, tempDir, validSkill } from '../helpers/cli.js';
// fast-check's `binary` unit, drawn alike, without the 2.5 s it takes fast-check to index it.
import { binaryUnit } from '../helpers/fast-check-units.js';

afterAll(cleanupTempDirs);

interface GenFile {
  path: string;
  data: Uint8Array;
  executable: boolean;
}
interface GenSkill {
  name: string;
  files: GenFile[];
}
interface GenAgent {
  name: string;
  skills: GenSkill[];
  portable: string;
}
interface GenSquad {
  agents: GenAgent[];
  teamSkills: GenSkill[];
}

const shipped = new Set(shippedBuiltinSkills());
const nameArb = fc
  .stringMatching(/^[a-z0-9]{1,6}(-[a-z0-9]{1,6}){0,2}$/)
  .filter((name) => !shipped.has(name) && !name.startsWith('squad-') && name !== 'scribe' && squadPathProblem(name) === undefined);

/** Segments a .squad file can hold (not ".", "..", ".git", a device name such as "aux", nor one ending in a dot). */
const segmentArb = fc.stringMatching(/^[a-z0-9_.-]{1,8}$/).filter((s) => squadPathProblem(s) === undefined);
const pathArb = fc.oneof(
  fc.tuple(fc.constantFrom('references', 'scripts', 'assets'), fc.array(segmentArb, { minLength: 1, maxLength: 3 })).map(([head, rest]) => [head, ...rest].join('/')),
  fc.array(segmentArb, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/')),
);
const contentArb = fc.oneof(
  fc.uint8Array({ maxLength: 300 }),
  fc.string({ unit: binaryUnit, maxLength: 200 }).map((text) => new Uint8Array(Buffer.from(text.replace(/[\uD800-\uDFFF]/g, ''), 'utf8'))),
  fc.string({ maxLength: 100 }).map((text) => new Uint8Array(Buffer.from(`\uFEFF${text.replace(/\n/g, '\r\n')}`, 'utf8'))),
);

/** Paths that can all exist at once: distinct ignoring case, none a folder of another, not SKILL.md. */
function compatible(files: GenFile[]): GenFile[] {
  const keys = new Set(files.map((f) => f.path.toLowerCase()));
  return files.filter((file) => {
    const key = file.path.toLowerCase();
    if (key === 'skill.md') return false;
    const parts = key.split('/');
    return !parts.some((_, i) => i > 0 && keys.has(parts.slice(0, i).join('/')));
  });
}

const skillArb = (name: fc.Arbitrary<string>) =>
  fc.record({
    name,
    files: fc.uniqueArray(fc.record({ path: pathArb, data: contentArb, executable: fc.boolean() }), { maxLength: 6, selector: (f) => f.path.toLowerCase() }).map(compatible),
  });

const lineArb = fc.stringMatching(/^[A-Za-z0-9 ,.:;()-]{0,40}$/);
const squadArb: fc.Arbitrary<GenSquad> = fc.record({
  agents: fc.uniqueArray(
    fc.record({
      name: nameArb,
      skills: fc.uniqueArray(skillArb(nameArb), { maxLength: 3, selector: (s) => s.name }),
      portable: fc.array(lineArb, { maxLength: 4 }).map((lines) => lines.map((l) => `- ${l}`).join('\n')),
    }),
    { minLength: 1, maxLength: 3, selector: (a) => a.name },
  ),
  teamSkills: fc.uniqueArray(skillArb(nameArb), { maxLength: 3, selector: (s) => s.name }),
});

function writeSkill(root: string, dir: string, skill: GenSkill): void {
  const abs = path.join(root, dir);
  fs.mkdirSync(abs, { recursive: true });
  fs.writeFileSync(path.join(abs, 'SKILL.md'), validSkill(skill.name));
  for (const file of skill.files) {
    const target = path.join(abs, ...file.path.split('/'));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, file.data);
    fs.chmodSync(target, file.executable ? 0o755 : 0o644);
  }
}

function writeSquad(root: string, squad: GenSquad): void {
  const rows = squad.agents.map((a) => `| ${a.name} | Dev | \`.ai-team/agents/${a.name}/charter.md\` | ✅ Active |`).join('\n');
  fs.mkdirSync(path.join(root, squadPaths.root), { recursive: true });
  fs.writeFileSync(path.join(root, squadPaths.team), `# Team\n\n| Name | Role | Charter | Status |\n|---|---|---|---|\n${rows}\n`);
  for (const agent of squad.agents) {
    fs.mkdirSync(path.join(root, squadPaths.agents, agent.name), { recursive: true });
    fs.writeFileSync(path.join(root, charterPath(agent.name)), `# ${agent.name}\r\n\u00e9\n`);
    fs.writeFileSync(path.join(root, historyPath(agent.name)), `# ${agent.name}\n\n## Portable Knowledge\n\n${agent.portable}\n\n## Project Learnings\n\n- here\n`);
    for (const skill of agent.skills) writeSkill(root, agentSkillDir(agent.name, skill.name), skill);
  }
  for (const skill of squad.teamSkills) writeSkill(root, aiTeamSkillDir(skill.name), skill);
}

function stagingLeft(root: string): string[] {
  return fs.existsSync(root) ? fs.readdirSync(root).filter((name) => name.startsWith(IMPORT_STAGING_PREFIX) || name.startsWith(SKILL_STAGING_PREFIX)) : [];
}

describe('export → import of random squads', () => {
  it('brings back every skill tree byte for byte (paths, contents, executable bits), charters and portable knowledge', async () => {
    await fc.assert(
      fc.asyncProperty(squadArb, async (squad) => {
        const source = tempDir('squad-src-');
        writeSquad(source, squad);
        const { text } = await exportSquad(source, { redact: false });
        const file = path.join(tempDir('squad-file-'), 'x.squad');
        fs.writeFileSync(file, text);
        const target = tempDir('squad-dst-');
        const report = await importSquad(target, file);
        expect(report.renamed).toEqual([]);
        for (const agent of squad.agents) {
          for (const skill of agent.skills) {
            const dir = agentSkillDir(agent.name, skill.name);
            expect(hashTree(path.join(target, dir)), dir).toBe(hashTree(path.join(source, dir)));
          }
          expect(fs.readFileSync(path.join(target, charterPath(agent.name)), 'utf8')).toBe(fs.readFileSync(path.join(source, charterPath(agent.name)), 'utf8'));
          const history = splitHistory(fs.readFileSync(path.join(target, historyPath(agent.name)), 'utf8'));
          expect(history.portable).toBe(splitHistory(fs.readFileSync(path.join(source, historyPath(agent.name)), 'utf8')).portable);
        }
        for (const skill of squad.teamSkills) {
          // Planted where squads kept team skills before; imported where they live now.
          const dir = aiTeamSkillDir(skill.name);
          expect(hashTree(path.join(target, nativeTeamSkillDir(skill.name))), dir).toBe(hashTree(path.join(source, dir)));
        }
        expect(stagingLeft(target)).toEqual([]);
        // Exporting the imported squad gives the same skills again (the squad is stable under travel).
        const second = (await exportSquad(target, { redact: false })).document;
        const first = JSON.parse(text) as SquadDocument;
        expect(second.team_skills).toEqual(first.team_skills);
        for (const agent of squad.agents) expect(second.agents[agent.name]!.skills).toEqual(first.agents[agent.name]!.skills);
      }),
      { numRuns: 25 },
    );
  });
});

// ---------------------------------------------------------------- malformed documents

const BAD_PATHS = ['../x', '/abs', 'a/../../b', 'C:/x', 'a\\b', 'a\u0000b', '', 'a//b', './a', '.git/config', 'x/D:y', '\u0001', 'SKILL.md', 'a'.repeat(600)];

/** A valid document to break. */
function baseDocument(): Record<string, unknown> {
  return {
    squad_format_version: '1.1',
    exported_at: '2025-01-01T00:00:00.000Z',
    exported_by: 'create-squad@0.0.0',
    source: { project: 'p' },
    team: { team_md: '# Team\n\n| Name | Role |\n|---|---|\n| Fenster | Dev |\n' },
    casting: { policy: { universe: 'The Usual Suspects' } },
    agents: {
      fenster: {
        charter: '# Fenster',
        history: { portable: '- a', project: '- b' },
        skills: {
          react: {
            skill_md: validSkill('react'),
            references: { 'a.md': 'A', 'deep/b.md': { content: 'Qg==', encoding: 'base64', mode: '644' } },
            scripts: {},
            assets: {},
            files: {},
          },
        },
      },
    },
    team_skills: { api: { skill_md: validSkill('api'), files: { 'x.txt': 'x' } } },
  };
}

type Mutation = (doc: Record<string, unknown>) => string | Buffer;

/** Every [parent, key] of a JSON value. */
function slots(value: unknown, out: [Record<string, unknown> | unknown[], string | number][] = []): [Record<string, unknown> | unknown[], string | number][] {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      out.push([value, i]);
      slots(item, out);
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      out.push([value as Record<string, unknown>, key]);
      slots(item, out);
    }
  }
  return out;
}

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  // Replace any value with random JSON.
  fc.tuple(fc.nat(), fc.jsonValue({ maxDepth: 3 })).map(
    ([pick, value]): Mutation =>
      (doc) => {
        const all = slots(doc);
        const [parent, key] = all[pick % all.length]!;
        (parent as Record<string | number, unknown>)[key] = value;
        return JSON.stringify(doc);
      },
  ),
  // Drop any key.
  fc.nat().map(
    (pick): Mutation =>
      (doc) => {
        const all = slots(doc).filter(([parent]) => !Array.isArray(parent));
        const [parent, key] = all[pick % all.length]!;
        delete (parent as Record<string, unknown>)[key as string];
        return JSON.stringify(doc);
      },
  ),
  // A bad or random path in a FILES object.
  fc.tuple(fc.oneof(fc.constantFrom(...BAD_PATHS), fc.string({ maxLength: 12 })), fc.constantFrom('references', 'scripts', 'assets', 'files')).map(
    ([bad, bucket]): Mutation =>
      (doc) => {
        const agents = doc.agents as Record<string, { skills: Record<string, Record<string, Record<string, unknown>>> }>;
        const skill = agents.fenster!.skills.react!;
        skill[bucket] = { ...(skill[bucket] ?? {}), [bad]: 'payload' };
        return JSON.stringify(doc);
      },
  ),
  // A random agent or skill name.
  fc.tuple(fc.string({ maxLength: 12 }), fc.boolean()).map(
    ([name, agent]): Mutation =>
      (doc) => {
        if (agent) (doc.agents as Record<string, unknown>)[name] = { charter: 'x' };
        else (doc.team_skills as Record<string, unknown>)[name] = { skill_md: 'x' };
        return JSON.stringify(doc);
      },
  ),
  // Cut the text short, or flip bytes.
  fc.nat().map(
    (cut): Mutation =>
      (doc) => {
        const text = JSON.stringify(doc);
        return text.slice(0, cut % text.length);
      },
  ),
  fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })).map(
    ([at, byte]): Mutation =>
      (doc) => {
        const data = Buffer.from(JSON.stringify(doc));
        data[at % data.length] = byte;
        return data;
      },
  ),
  // Deep nesting somewhere.
  fc.integer({ min: 60, max: 5000 }).map(
    (depth): Mutation =>
      (doc) =>
        JSON.stringify(doc).replace('"casting":{', `"casting":{"deep":${'['.repeat(depth)}${']'.repeat(depth)},`),
  ),
  // Anything at all.
  fc.uint8Array({ maxLength: 200 }).map(
    (bytes): Mutation =>
      () =>
        Buffer.from(bytes),
  ),
);

describe('import of malformed .squad documents', () => {
  it('ends in a SquadError or a complete import, never an unhandled exception, and a failure writes nothing', async () => {
    const fileDir = tempDir('squad-bad-');
    await fc.assert(
      fc.asyncProperty(fc.array(mutationArb, { minLength: 1, maxLength: 3 }), async (mutations) => {
        const doc = baseDocument();
        let content: string | Buffer = JSON.stringify(doc);
        for (const mutate of mutations) {
          let current: Record<string, unknown>;
          if (jsonStructureProblem(content.toString(), 64)) break; // too deep (or a key twice) to mutate further
          try {
            current = JSON.parse(content.toString()) as Record<string, unknown>;
            if (current === null || typeof current !== 'object' || Array.isArray(current)) break;
          } catch {
            break; // already not JSON: later mutations have nothing to work on
          }
          try {
            content = mutate(current);
          } catch {
            break; // an earlier mutation removed what this one changes
          }
        }
        const file = path.join(fileDir, 'bad.squad');
        fs.writeFileSync(file, content);
        const target = tempDir('squad-dst-');
        fs.writeFileSync(path.join(target, 'README.md'), 'mine\n');
        const before = hashTree(target);
        try {
          await importSquad(target, file);
        } catch (error) {
          expect(isSquadError(error), String(error)).toBe(true);
          expect((error as Error).message).not.toContain('\n');
          expect(hashTree(target)).toBe(before);
        }
        expect(stagingLeft(target)).toEqual([]);
        expect(fs.readFileSync(path.join(target, 'README.md'), 'utf8')).toBe('mine\n');
      }),
      { numRuns: 150 },
    );
  });

  it('serializes what it validates: a valid document survives a round trip through its own text', () => {
    const doc = baseDocument();
    expect(JSON.parse(serializeSquad(JSON.parse(JSON.stringify(doc)) as SquadDocument))).toEqual(doc);
  });
});
