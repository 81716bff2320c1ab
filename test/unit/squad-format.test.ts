import { describe, expect, it } from 'vitest';
import { SQUAD_LIMITS, SquadFormatError, type SquadLimits } from '../../src/core/portable/squad-format.js';
import { bucketOf, decodeFile, encodeFile, normalizedKey, skillFileEntries, squadPathProblem } from '../../src/core/portable/squad-files.js';
import { canonicalJson, serializeSquad } from '../../src/core/portable/canonical-json.js';
import { castingFileProblem, readSquadDocument, validateSquadDocument } from '../../src/core/portable/squad-validate.js';
import { jsonStructureProblem, parseJsonText, squadText } from '../../src/core/portable/squad-json.js';
import { validSkill } from '../helpers/cli.js';

function problem(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof SquadFormatError) return `${error.where ?? '-'}: ${error.detail}`;
    throw error;
  }
  return 'accepted';
}

const doc = (agents: unknown, extra: Record<string, unknown> = {}) => ({ squad_format_version: '1.1', agents, ...extra });
const skill = (files: Record<string, unknown> = {}) => ({ skill_md: validSkill('s'), ...files });

describe('reading the JSON', () => {
  it('finds nesting deeper than the limit, ignoring brackets inside strings', () => {
    const nesting = (text: string, depth: number) => jsonStructureProblem(text, depth)?.detail;
    expect(nesting('[[[]]]', 3)).toBeUndefined();
    expect(nesting('[[[[]]]]', 3)).toBe('the JSON nests deeper than 3 levels (at character 4)');
    expect(nesting('{"a": "[[[[[[\\"[[[[["}', 2)).toBeUndefined();
    expect(nesting('{"a\\\\": [[["x"]]]}', 3)).toBe('the JSON nests deeper than 3 levels (at character 11)');
    expect(nesting('"unterminated [[[[', 1)).toBeUndefined();
  });

  it('finds a key that appears twice in one object, naming the object (JSON.parse would keep the last)', () => {
    expect(jsonStructureProblem('{"a": 1, "b": {"a": 2}, "c": [{"a": 1}, {"a": 2}]}', 64)).toBeUndefined();
    expect(jsonStructureProblem('{"a": 1, "a": 2}', 64)).toEqual({ where: undefined, detail: 'the key "a" appears twice (each entry must be named once)' });
    expect(jsonStructureProblem('{"agents": {"fenster": {"charter": "x", "skills": {}, "charter": "y"}}}', 64)).toEqual({
      where: 'agents.fenster',
      detail: 'the key "charter" appears twice (each entry must be named once)',
    });
    // Escapes are decoded before keys are compared; values that look like keys are not keys.
    expect(jsonStructureProblem('{"x": {"files": ["a", "a"]}, "y": {"f\\u006f": 1, "fo": 2, "k": "fo"}}', 64)?.where).toBe('y');
    expect(jsonStructureProblem('{"t": [{"s": {"a.md": "1", "b": "a.md", "a.md": "2"}}]}', 64)?.where).toBe('t[0].s');
    expect(problem(() => parseJsonText('{"squad_format_version": "1.1", "agents": {"a": {}, "a": {}}}'))).toBe('agents: the key "a" appears twice (each entry must be named once)');
  });

  it('refuses pathological nesting before JSON.parse sees it', () => {
    const deep = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    expect(problem(() => parseJsonText(deep))).toBe('-: the JSON nests deeper than 64 levels (at character 65)');
  });

  it('says whether JSON is broken or cut short', () => {
    expect(problem(() => parseJsonText('{"a": 1,}'))).toMatch(/^-: not valid JSON \(/);
    expect(problem(() => parseJsonText('{"a": [1, 2'))).toMatch(/^-: not valid JSON, or cut short \(/);
    expect(problem(() => parseJsonText(''))).toMatch(/cut short/);
    expect(problem(() => parseJsonText('{"a": "unterminated'))).toMatch(/cut short/);
    expect(problem(() => parseJsonText('{"a": 1} x'))).not.toMatch(/cut short/);
  });

  it('takes UTF-8 with or without a BOM, within the document size limit', () => {
    expect(squadText(Buffer.from('\uFEFF{}'))).toBe('{}');
    expect(problem(() => squadText(Buffer.from([0xc3, 0x28])))).toBe('-: not UTF-8 text (a .squad file is JSON)');
    expect(problem(() => squadText(Buffer.alloc(11), { ...SQUAD_LIMITS, documentBytes: 10 }))).toBe('-: the file is 11 bytes; the limit is 10 bytes');
  });
});

describe('validateSquadDocument', () => {
  it('accepts a minimal document and fills in the defaults', () => {
    const { format, document } = validateSquadDocument(doc({ fenster: {} }));
    expect(format).toBe('1.1');
    expect(document).toEqual({
      squad_format_version: '1.1',
      exported_at: '',
      exported_by: '',
      source: { project: '' },
      team: {},
      casting: {},
      agents: { fenster: { skills: {} } },
      team_skills: {},
    });
  });

  it('checks the format version', () => {
    expect(problem(() => validateSquadDocument({ agents: {} }))).toBe('-: no format version (expected "squad_format_version": "1.1")');
    expect(problem(() => validateSquadDocument(doc({}, { squad_format_version: '1.2' })))).toMatch(/^squad_format_version: unknown format version "1\.2"/);
    expect(problem(() => validateSquadDocument({ version: '2.0', agents: {} }))).toMatch(/^version: unknown format version "2\.0"/);
    expect(problem(() => validateSquadDocument('1.1'))).toBe('-: the document must be a JSON object, not a string');
  });

  it('checks the type of every field', () => {
    expect(problem(() => validateSquadDocument(doc(null)))).toBe('agents: must be an object, not null');
    expect(problem(() => validateSquadDocument(doc({ a: { history: 'text' } })))).toBe('agents.a.history: must be an object, not a string');
    expect(problem(() => validateSquadDocument(doc({ a: { history: { portable: 1 } } })))).toBe('agents.a.history.portable: must be a string, not a number');
    expect(problem(() => validateSquadDocument(doc({ a: { skills: [] } })))).toBe('agents.a.skills: must be an object, not a list');
    expect(problem(() => validateSquadDocument(doc({}, { team_skills: { s: skill({ scripts: 'x' }) } })))).toBe('team_skills.s.scripts: must be an object, not a string');
    expect(problem(() => validateSquadDocument(doc({}, { team_skills: { s: skill({ files: { a: { content: 'x', extra: 1 } } }) } })))).toBe(
      'team_skills.s.files["a"]: unexpected field "extra" (a file has content, encoding and mode)',
    );
    expect(problem(() => validateSquadDocument(doc({}, { team_skills: { s: skill({ files: { a: { encoding: 'utf8' } } }) } })))).toBe(
      'team_skills.s.files["a"].content: is missing (must be a string)',
    );
    expect(problem(() => validateSquadDocument(doc({}, { casting: { policy: [] } })))).toBe('casting.policy: must be an object, not a list');
    expect(problem(() => validateSquadDocument(doc({}, { source: { project: 3 } })))).toBe('source.project: must be a string, not a number');
    expect(problem(() => validateSquadDocument(doc({}, { exported_at: 5 })))).toBe('exported_at: must be a string, not a number');
  });

  it('checks names by the name rules (so two accepted names are never the same file name), and device names', () => {
    expect(problem(() => validateSquadDocument(doc({ ['x'.repeat(65)]: {} })))).toMatch(/agent name is 65 characters; the limit is 64/);
    expect(problem(() => validateSquadDocument(doc({ a_b: {} })))).toBe('agents.a_b: agent name "a_b" may only contain lowercase letters a-z, digits and hyphens');
    expect(problem(() => validateSquadDocument(doc({ '': {} })))).toBe('agents[""]: agent name is empty');
    expect(problem(() => validateSquadDocument(doc({ api: {}, API: {} })))).toBe('agents.API: agent name "API" must be lowercase');
    expect(problem(() => validateSquadDocument(doc({ con: {} })))).toBe('agents.con: agent name "con" is a device name Windows reserves');
    expect(problem(() => validateSquadDocument(doc({}, { team_skills: { lpt1: skill() } })))).toBe('team_skills.lpt1: skill name "lpt1" is a device name Windows reserves');
    expect(problem(() => validateSquadDocument(doc({ console: {}, 'com-port': {} })))).toBe('accepted');
  });

  it('refuses control characters in one-line fields, naming the entry', () => {
    const injected = 'X\u001b[31mRED\u001b[0m\nFAKE: \u2713 all good';
    expect(problem(() => validateSquadDocument(doc({}, { source: { project: injected } })))).toBe('source.project: contains a control character (U+001B)');
    expect(problem(() => validateSquadDocument(doc({}, { exported_by: 'x\u009by' })))).toBe('exported_by: contains a control character (U+009B)');
    expect(problem(() => validateSquadDocument(doc({}, { casting: { policy: { universe: 'The\u001b]0;owned\u0007 Usual Suspects' } } })))).toBe(
      'casting.policy.universe: contains a control character (U+001B)',
    );
    const registry = { members: [{ name: 'Keaton', folder: 'keaton', role: 'Lead\r\nFAKE', universe: null }] };
    expect(problem(() => validateSquadDocument(doc({}, { casting: { registry } })))).toBe('casting.registry.members[0].role: contains a control character (U+000D)');
    const legacy = { version: '1.0', agents: {}, casting: { registry: { agents: { ripley: { persistent_name: 'Rip\u001bley' } } } } };
    expect(problem(() => validateSquadDocument(legacy))).toBe('casting.registry.agents.ripley.persistent_name: contains a control character (U+001B)');
    // Multi-line texts keep their line breaks and tabs.
    expect(problem(() => validateSquadDocument(doc({ a: { charter: '# A\n\n\tindented\r\n' } }, { team: { team_md: '# T\n' } })))).toBe('accepted');
  });

  it("checks the casting files with the readers create-squad uses, in its shapes or the original Squad's", () => {
    expect(problem(() => validateSquadDocument(doc({}, { casting: { policy: { universe: 42 } } })))).toBe('casting.policy: not a valid casting policy: "universe" is not a string');
    expect(problem(() => validateSquadDocument(doc({}, { casting: { registry: { agents: 'x' } } })))).toBe(
      'casting.registry: not a valid casting registry: "members" is not a list',
    );
    // A squad adopted from the original Squad keeps its casting files in the original's shapes.
    const original = {
      policy: { allowlist_universes: ['Alien'] },
      registry: { agents: { kane: { persistent_name: 'Kane', universe: 'Alien', status: 'active' } } },
      history: { universe_usage_history: [] },
    };
    expect(problem(() => validateSquadDocument(doc({}, { casting: original })))).toBe('accepted');
    expect(problem(() => validateSquadDocument(doc({}, { casting: { history: { events: {} } } })))).toBe('casting.history: not a valid casting history: "events" is not a list');
    const valid = { policy: { schema: 1, universe: 'Alien', overflow: [], capacities: {} }, registry: { schema: 1, members: [] }, history: { schema: 1, events: [] } };
    expect(problem(() => validateSquadDocument(doc({}, { casting: valid })))).toBe('accepted');
    expect(castingFileProblem('policy', { universe: 'Alien' })).toBeUndefined();
    expect(problem(() => validateSquadDocument({ version: '1.0', agents: {}, casting: { registry: { agents: {} }, history: { universe_usage_history: [] } } }))).toBe('accepted');
  });

  it('checks every path, and that no file is also a folder', () => {
    const files = (bucket: string, relPath: string) => doc({}, { team_skills: { s: skill({ [bucket]: { [relPath]: 'x' } }) } });
    expect(problem(() => validateSquadDocument(files('references', 'ok/fine.md')))).toBe('accepted');
    expect(problem(() => validateSquadDocument(files('references', '')))).toBe('team_skills.s.references[""]: the path is empty');
    expect(problem(() => validateSquadDocument(files('assets', 'a\tb')))).toBe('team_skills.s.assets["a\\tb"]: the path contains a control character');
    expect(problem(() => validateSquadDocument(files('files', 'SKILL.md')))).toBe(
      'team_skills.s.files["SKILL.md"]: the same file as team_skills.s.skill_md once case and Unicode normalisation are ignored',
    );
    expect(problem(() => validateSquadDocument(files('files', 'skill.md')))).toMatch(/the same file as team_skills\.s\.skill_md/);
    expect(problem(() => validateSquadDocument(files('scripts', `${'a'.repeat(256)}.sh`)))).toMatch(/a path segment is longer than 255 bytes/);
    expect(problem(() => validateSquadDocument(files('files', 'notes.md:evil')))).toBe(
      'team_skills.s.files["notes.md:evil"]: the path is not portable: ":" is a character Windows does not allow in file names',
    );
    expect(problem(() => validateSquadDocument(doc({}, { team_skills: { s: skill({ files: { references: 'file' }, references: { 'x.md': 'x' } }) } })))).toBe(
      'team_skills.s.references["x.md"]: its folder "references" is also a file (team_skills.s.files["references"])',
    );
  });

  it('keeps a path such as __proto__ as a file name', () => {
    const parsed = JSON.parse('{"squad_format_version":"1.1","agents":{},"team_skills":{"s":{"skill_md":"x","files":{"__proto__":"data"}}}}');
    const { document } = validateSquadDocument(parsed);
    expect(skillFileEntries(document.team_skills.s!)).toEqual([['__proto__', 'data']]);
    expect(Object.getPrototypeOf(document.team_skills.s!.files)).toBe(Object.prototype);
  });

  it('enforces the per-file, total and count limits', () => {
    const limits: SquadLimits = { ...SQUAD_LIMITS, fileBytes: 10, totalBytes: 25, fileCount: 4 };
    const files = (entries: Record<string, unknown>) => doc({}, { team_skills: { s: { skill_md: 'x', files: entries } } });
    expect(problem(() => validateSquadDocument(files({ a: '12345678901' }), { limits }))).toBe('team_skills.s.files["a"]: the file is 11 bytes; the limit is 10 bytes per file');
    expect(problem(() => validateSquadDocument(files({ a: { content: Buffer.alloc(11).toString('base64'), encoding: 'base64' } }), { limits }))).toMatch(/the file is 11 bytes/);
    expect(problem(() => validateSquadDocument(files({ a: '1234567890', b: '1234567890', c: '12345' }), { limits }))).toBe(
      'team_skills.s.files["c"]: the files add up to more than 25 bytes, the limit for a whole squad',
    );
    expect(problem(() => validateSquadDocument(files({ a: '', b: '', c: '', d: '' }), { limits }))).toBe('team_skills.s.files["d"]: the squad has more than 4 files, the limit');
  });

  it('reads a Squad 1.0 export into the 1.1 model', () => {
    const { format, document } = validateSquadDocument(
      {
        version: '1.0',
        squad_version: '0.4.1',
        exported_at: 'then',
        casting: { registry: { agents: {} } },
        agents: { keaton: { charter: '# Keaton', history: '# H\n\n## Portable Knowledge\n\n- p\n\n## Sprint 3\n\n- q\n' } },
        skills: [validSkill('testing')],
      },
      { sourceName: 'old-app' },
    );
    expect(format).toBe('1.0');
    expect(document.source.project).toBe('old-app');
    expect(document.exported_by).toBe('squad@0.4.1');
    expect(document.agents.keaton).toEqual({ charter: '# Keaton', history: { portable: '- p', project: '## Sprint 3\n\n- q' }, skills: {} });
    expect(Object.keys(document.team_skills)).toEqual(['testing']);
    expect(document.casting.registry).toEqual({ agents: {} });
    expect(problem(() => validateSquadDocument({ version: '1.0', agents: {}, skills: 'x' }))).toBe('skills: must be a list of SKILL.md texts, not a string');
    expect(problem(() => validateSquadDocument({ version: '1.0', agents: {}, skills: ['no frontmatter'] }))).toMatch(
      /^skills\[0\]: the SKILL\.md cannot be read: no YAML frontmatter/,
    );
  });

  it('reads every shape of Squad 1.0 export: the alumni folder, folders to rename, skills without frontmatter, squad-cli documents', () => {
    const { document, original } = validateSquadDocument({
      version: '1.0',
      squad_version: '0.10.0',
      casting: {
        registry: { agents: { ripley: { persistent_name: 'Ripley', universe: 'Alien', status: 'active' }, ash: { persistent_name: 'Ash', universe: 'Alien', status: 'retired' } } },
      },
      agents: { _alumni: {}, ripley: { charter: '# Ripley — Lead\n' }, Rai: { charter: '# Rai\n' }, 'lead architect': { charter: '# Lead\n' } },
      skills: ['# SKILL: Dock Sync\n\n**Confidence:** high\n\nDocks report every 30 seconds.\n', validSkill('testing')],
      team_md: '# Team\n',
      team: '# Team (copy)\n',
      routing_md: '# Routing\n',
      decisions_md: '# Decisions\n',
      decisions: '# Decisions\n',
    });
    expect(Object.keys(document.agents)).toEqual(['ripley', 'rai', 'lead-architect']);
    expect(document.team).toEqual({ team_md: '# Team\n', routing_md: '# Routing\n' });
    expect(original).toMatchObject({
      renamedAgents: [
        { from: 'Rai', to: 'rai' },
        { from: 'lead architect', to: 'lead-architect' },
      ],
      skippedAgents: [{ name: '_alumni', reason: expect.stringMatching(/folder of retired members: they stay retired/) }],
      convertedSkills: [{ where: 'skills[0]', name: 'dock-sync', changes: [expect.stringMatching(/^added frontmatter/), 'confidence → metadata'] }],
      decisions: '# Decisions\n',
    });
    expect(document.team_skills['dock-sync']!.skill_md).toMatch(
      /^---\nname: "dock-sync"\ndescription: "Docks report every 30 seconds."\nmetadata:\n {2}confidence: "high"\n---\n\n# SKILL: Dock Sync\n/,
    );
    // Two folders that become one name, or one that becomes none, are refused.
    expect(problem(() => validateSquadDocument({ version: '1.0', agents: { rai: {}, Rai: {} } }))).toBe(
      'agents.Rai: agent name "Rai" cannot be used: its folder name "rai" is also the folder of agents.rai',
    );
    expect(problem(() => validateSquadDocument({ version: '1.0', agents: { '!!': {} } }))).toBe(
      'agents["!!"]: agent name "!!" cannot be used: it has no letter or digit to make a folder name from',
    );
    // Format 1.1 keeps the strict rules.
    expect(problem(() => validateSquadDocument(doc({ Rai: {} })))).toBe('agents.Rai: agent name "Rai" must be lowercase');
  });

  it('normalises Squad 1.0 skill names that break the name rules, and leaves out those it cannot', () => {
    const flow = '---\n{name: Flow Style, description: "Flow. Use when needed."}\n---\n\nBody.\n';
    const { document, legacySkills } = validateSquadDocument({
      version: '1.0',
      agents: {},
      skills: [validSkill('Api Errors Two'), validSkill('Api Errors'), validSkill('api-errors'), validSkill('CON'), validSkill('"--"'), flow],
    });
    expect(Object.keys(document.team_skills)).toEqual(['api-errors-two', 'api-errors', 'flow-style']);
    expect(document.team_skills['api-errors-two']!.skill_md).toBe(validSkill('api-errors-two', 'Use when working on Api Errors Two.'));
    expect(document.team_skills['flow-style']!.skill_md).toBe(flow);
    expect(legacySkills).toEqual({
      renamed: [
        {
          where: 'skills[0]',
          from: 'Api Errors Two',
          to: 'api-errors-two',
          reason: 'skill name "Api Errors Two" must be lowercase (the original Squad did not check skill names)',
        },
        {
          where: 'skills[5]',
          from: 'Flow Style',
          to: 'flow-style',
          reason: 'skill name "Flow Style" must be lowercase (the original Squad did not check skill names)',
          problem: 'its frontmatter is written in a form create-squad cannot rewrite',
        },
      ],
      skipped: [
        {
          where: 'skills[1]',
          name: 'Api Errors',
          reason: 'skill name "Api Errors" must be lowercase and cannot be normalised: "api-errors" is the name of another skill in the file (skills[2])',
        },
        { where: 'skills[3]', name: 'CON', reason: 'skill name "CON" must be lowercase and cannot be normalised: its normalised name "con" is a device name Windows reserves' },
        { where: 'skills[4]', name: '--', reason: 'skill name "--" must not start or end with a hyphen and cannot be normalised: it has no letter or digit to keep' },
      ],
    });
    // Format 1.1 keeps the strict rules.
    expect(problem(() => validateSquadDocument(doc({}, { team_skills: { 'Api Errors': skill() } })))).toBe('team_skills["Api Errors"]: skill name "Api Errors" must be lowercase');
  });

  it('reads bytes end to end', () => {
    const { document } = readSquadDocument(Buffer.from(JSON.stringify(doc({ a: {} }))));
    expect(Object.keys(document.agents)).toEqual(['a']);
  });
});

describe('paths and files', () => {
  it.each([
    ['references/a.md', undefined],
    ['a..b/c', undefined],
    ['.hidden', undefined],
    ['../a', 'the path contains ".."'],
    ['/a', 'the path is absolute'],
    ['C:', 'the path is absolute'],
    ['x/d:/y', 'the path contains a drive letter'],
    ['C:/Windows/x', 'the path is absolute'],
    // A name with a colon after one letter is not a drive: it is refused for the colon.
    ['a:b', 'the path is not portable: ":" is a character Windows does not allow in file names'],
    ['docs/C:x', 'the path is not portable: ":" is a character Windows does not allow in file names'],
    ['a\\b', 'the path contains a backslash (use forward slashes)'],
    ['a/.GIT/x', 'the path contains a .git folder'],
    ['a\u007f', 'the path contains a control character'],
    ['a\u0085b', 'the path contains a control character'],
    ['notes.md:evil', 'the path is not portable: ":" is a character Windows does not allow in file names'],
    ['docs/what?.md', 'the path is not portable: "?" is a character Windows does not allow in file names'],
    ['a<b>|c*', 'the path is not portable: "<" is a character Windows does not allow in file names'],
    ['say "hi".md', `the path is not portable: '"' is a character Windows does not allow in file names`],
    ['CON', 'the path is not portable: "CON" is a device name Windows reserves'],
    ['refs/aux.txt', 'the path is not portable: "aux.txt" is a device name Windows reserves'],
    ['com1.log', 'the path is not portable: "com1.log" is a device name Windows reserves'],
    ['console.md', undefined],
    ['auxiliary/x', undefined],
    ['a.md.', 'the path is not portable: "a.md." ends with a dot or a space, which Windows drops'],
    ['dir /x', 'the path is not portable: "dir " ends with a dot or a space, which Windows drops'],
  ])('squadPathProblem(%j)', (relPath, expected) => {
    expect(squadPathProblem(relPath)).toBe(expected);
  });

  it('folds case, Unicode form and trailing dots and spaces into the key that finds duplicates', () => {
    expect(normalizedKey('Refs/A.md.')).toBe(normalizedKey('refs/a.md'));
    expect(normalizedKey('dir /x')).toBe(normalizedKey('dir/x'));
    expect(normalizedKey('caf\u00e9')).toBe(normalizedKey('Cafe\u0301'));
    expect(normalizedKey('.hidden')).toBe('.hidden');
  });

  it('sorts a path into its bucket', () => {
    expect(bucketOf('references/deep/x.md')).toEqual({ bucket: 'references', path: 'deep/x.md' });
    expect(bucketOf('scripts/run.sh')).toEqual({ bucket: 'scripts', path: 'run.sh' });
    expect(bucketOf('references')).toEqual({ bucket: 'files', path: 'references' });
    expect(bucketOf('notes/references/x')).toEqual({ bucket: 'files', path: 'notes/references/x' });
  });

  it('encodes text as a string and everything else as an object, and decodes to the same bytes', () => {
    const cases: [Buffer, boolean, 'text' | 'utf8' | 'base64'][] = [
      [Buffer.from('plain\n'), false, 'text'],
      [Buffer.from('\uFEFFbom\r\ncrlf\r\n'), false, 'text'],
      [Buffer.alloc(0), false, 'text'],
      [Buffer.from('#!/bin/sh\n'), true, 'utf8'],
      [Buffer.from([0, 1, 2, 0xff, 0xfe]), false, 'base64'],
      [Buffer.from([0xed, 0xa0, 0x80]), true, 'base64'],
    ];
    for (const [data, executable, kind] of cases) {
      const entry = encodeFile(data, executable);
      expect(typeof entry === 'string' ? 'text' : entry.encoding).toBe(kind);
      const decoded = decodeFile(JSON.parse(JSON.stringify(entry)));
      expect(Buffer.from(decoded.data).equals(data)).toBe(true);
      expect(decoded.mode).toBe(executable ? 0o755 : 0o644);
    }
  });
});

describe('canonicalJson', () => {
  it('sorts keys by code point, integer-like keys too, except in verbatim objects', () => {
    const kept = { z: 1, a: { y: 2, b: 3 } };
    const text = canonicalJson({ b: 1, a: [{ d: 1, c: 2 }], 10: 'x', 9: 'y', kept, skip: undefined }, new Set([kept]));
    expect(text).toBe(
      '{\n  "10": "x",\n  "9": "y",\n  "a": [\n    {\n      "c": 2,\n      "d": 1\n    }\n  ],\n  "b": 1,\n  "kept": {\n    "z": 1,\n    "a": {\n      "y": 2,\n      "b": 3\n    }\n  }\n}',
    );
    expect(JSON.parse(text)).toEqual({ b: 1, a: [{ d: 1, c: 2 }], 10: 'x', 9: 'y', kept });
  });

  it('gives the same text for the same document, whatever the key order', () => {
    const one = validateSquadDocument(doc({ b: {}, a: {} })).document;
    const two = validateSquadDocument(doc({ a: {}, b: {} })).document;
    expect(serializeSquad(one)).toBe(serializeSquad(two));
    expect(serializeSquad(one).endsWith('}\n')).toBe(true);
  });
});
