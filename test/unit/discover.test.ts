import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverSkills } from '../../src/core/squad/discover.js';
import { LISTS_MANY_SKILLS } from '../../src/core/base/heap.js';
import { inspectSkill } from '../../src/core/skills/inspect.js';
import { cleanupTempDirs, skillMd, tempDir, validSkill, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

function squad(files: Record<string, string>): string {
  const root = tempDir();
  writeFiles(root, files);
  return root;
}

describe('discoverSkills', () => {
  it('treats a missing .ai-team/ as no skills', () => {
    expect(discoverSkills(tempDir())).toEqual({ skills: [], overridden: [], refused: [], warnings: [] });
  });

  it('finds built-in, team and agent skills with their scopes, in a deterministic order', () => {
    const root = squad({
      '.ai-team/skills/zeta/SKILL.md': validSkill('zeta'),
      '.ai-team/skills/alpha/SKILL.md': validSkill('alpha'),
      '.ai-team/skills/squad-git-workflow/SKILL.md': validSkill('squad-git-workflow', 'Git.', 'metadata:\n  version: "1.0"\n  author: squad'),
      '.ai-team/agents/fenster/skills/react/SKILL.md': validSkill('react'),
      '.ai-team/agents/keaton/skills/arch/SKILL.md': validSkill('arch'),
      '.ai-team/agents/fenster/charter.md': '# Fenster',
    });
    const { skills, warnings } = discoverSkills(root);
    expect(skills.map((s) => [s.scope, s.agent ?? '', s.name])).toEqual([
      ['builtin', '', 'squad-git-workflow'],
      ['team', '', 'alpha'],
      ['team', '', 'zeta'],
      ['agent', 'fenster', 'react'],
      ['agent', 'keaton', 'arch'],
    ]);
    expect(skills[0]!.location).toBe('.ai-team/skills/squad-git-workflow/SKILL.md');
    expect(skills[0]!.version).toBe('1.0');
    expect(skills[0]!.author).toBe('squad');
    expect(skills[3]!.location).toBe('.ai-team/agents/fenster/skills/react/SKILL.md');
    expect(warnings).toEqual([]);
  });

  it('resolves one agent: team skills for everyone, its own skills, agent overriding team with a warning', () => {
    const root = squad({
      '.ai-team/skills/api-design/SKILL.md': validSkill('api-design', 'Team version.'),
      '.ai-team/skills/testing/SKILL.md': validSkill('testing'),
      '.ai-team/agents/fenster/skills/api-design/SKILL.md': validSkill('api-design', 'Fenster version.'),
      '.ai-team/agents/keaton/skills/secret/SKILL.md': validSkill('secret'),
    });
    const forFenster = discoverSkills(root, { agent: 'fenster' });
    expect(forFenster.skills.map((s) => `${s.scope}:${s.name}:${s.description}`)).toEqual(['team:testing:Use when working on testing.', 'agent:api-design:Fenster version.']);
    expect(forFenster.overridden.map((s) => s.location)).toEqual(['.ai-team/skills/api-design/SKILL.md']);
    expect(forFenster.warnings).toEqual([expect.objectContaining({ code: 'skill-overridden', path: '.ai-team/agents/fenster/skills/api-design/SKILL.md' })]);

    const forKeaton = discoverSkills(root, { agent: 'keaton' });
    expect(forKeaton.skills.map((s) => s.name)).toEqual(['api-design', 'testing', 'secret']);
    expect(forKeaton.skills[0]!.description).toBe('Team version.');
  });

  it('an agent skill also overrides a built-in of the same name', () => {
    const root = squad({
      '.ai-team/skills/squad-code-review/SKILL.md': validSkill('squad-code-review'),
      '.ai-team/agents/hockney/skills/squad-code-review/SKILL.md': validSkill('squad-code-review', 'Mine.'),
    });
    const { skills, overridden } = discoverSkills(root, { agent: 'hockney' });
    expect(skills.map((s) => `${s.scope}:${s.description}`)).toEqual(['agent:Mine.']);
    expect(overridden[0]!.scope).toBe('builtin');
  });

  it('skips dot and underscore folders and stray files', () => {
    const root = squad({
      '.ai-team/skills/.staging-x/SKILL.md': validSkill('staging-x'),
      '.ai-team/skills/_draft/SKILL.md': validSkill('draft'),
      '.ai-team/skills/README.md': '# notes',
      '.ai-team/skills/real/SKILL.md': validSkill('real'),
      '.ai-team/agents/_old/skills/x/SKILL.md': validSkill('x'),
    });
    const { skills, warnings } = discoverSkills(root);
    expect(skills.map((s) => s.name)).toEqual(['real']);
    expect(warnings).toEqual([]);
  });

  it('warns about folders without SKILL.md (and a lowercase skill.md) instead of failing', () => {
    const root = squad({
      '.ai-team/skills/empty/notes.txt': 'x',
      '.ai-team/skills/lower/skill.md': validSkill('lower'),
      '.ai-team/skills/ok/SKILL.md': validSkill('ok'),
    });
    const { skills, warnings } = discoverSkills(root);
    expect(skills.map((s) => s.name)).toEqual(['ok']);
    expect(warnings.map((w) => [w.code, w.path])).toEqual([
      ['no-skill-file', '.ai-team/skills/empty'],
      ['skill-file-case', '.ai-team/skills/lower'],
    ]);
  });

  it('reports unparsable and invalid skills as invalid entries with a warning, never a crash', () => {
    const root = squad({
      '.ai-team/skills/broken/SKILL.md': '---\nname: broken\ndescription: [oops\n---\n',
      '.ai-team/skills/nofm/SKILL.md': '# no frontmatter',
      '.ai-team/skills/wrong-name/SKILL.md': validSkill('other-name'),
      '.ai-team/skills/good/SKILL.md': validSkill('good'),
    });
    const { skills, warnings } = discoverSkills(root);
    const byName = Object.fromEntries(skills.map((s) => [s.dirName, s]));
    expect(byName.good!.valid).toBe(true);
    expect(byName.broken!.valid).toBe(false);
    expect(byName.broken!.errors[0]!.code).toBe('frontmatter-yaml');
    expect(byName.broken!.errors[0]!.line).toBeGreaterThanOrEqual(3);
    expect(byName.nofm!.errors[0]!.code).toBe('frontmatter-missing');
    expect(byName['wrong-name']!.errors[0]!.code).toBe('name-folder-mismatch');
    expect(warnings.filter((w) => w.code === 'skill-invalid').map((w) => w.path)).toEqual([
      '.ai-team/skills/broken/SKILL.md',
      '.ai-team/skills/nofm/SKILL.md',
      '.ai-team/skills/wrong-name/SKILL.md',
    ]);
  });

  it('reports a SKILL.md that is a FIFO as invalid, without blocking; one linked to a device outside is refused', () => {
    const root = squad({ '.ai-team/skills/good/SKILL.md': validSkill('good') });
    fs.mkdirSync(path.join(root, '.ai-team/skills/fifo'));
    execFileSync('mkfifo', [path.join(root, '.ai-team/skills/fifo/SKILL.md')]);
    fs.mkdirSync(path.join(root, '.ai-team/skills/zero'));
    fs.symlinkSync('/dev/zero', path.join(root, '.ai-team/skills/zero/SKILL.md'));
    const { skills, refused } = discoverSkills(root);
    const byName = Object.fromEntries(skills.map((s) => [s.dirName, s]));
    expect(byName.good!.valid).toBe(true);
    expect(byName.fifo!.valid).toBe(false);
    expect(byName.fifo!.errors[0]).toMatchObject({ code: 'not-a-file', message: 'not a regular file (a FIFO, a device or a folder)' });
    expect(byName.zero).toBeUndefined();
    expect(refused.map((r) => r.location)).toEqual(['.ai-team/skills/zero/SKILL.md']);
  });

  it('follows a symlinked skill folder only while it stays inside the repository', () => {
    const root = squad({ 'shared/inside/SKILL.md': validSkill('inside'), '.ai-team/skills/good/SKILL.md': validSkill('good') });
    const elsewhere = tempDir();
    writeFiles(elsewhere, { 'evil/SKILL.md': validSkill('evil'), 'agent-skills/sneaky/SKILL.md': validSkill('sneaky') });
    fs.symlinkSync(path.join(root, 'shared/inside'), path.join(root, '.ai-team/skills/inside'));
    fs.symlinkSync(path.join(elsewhere, 'evil'), path.join(root, '.ai-team/skills/evil'));
    fs.mkdirSync(path.join(root, '.ai-team/agents/fenster'), { recursive: true });
    fs.symlinkSync(path.join(elsewhere, 'agent-skills'), path.join(root, '.ai-team/agents/fenster/skills'));
    const { skills, warnings, refused } = discoverSkills(root);
    expect(skills.map((s) => s.name)).toEqual(['good', 'inside']);
    expect(warnings.filter((w) => w.code === 'skill-outside').map((w) => [w.path, w.message])).toEqual([
      ['.ai-team/skills/evil', '.ai-team/skills/evil is a symlink that leads outside the repository: the skill is not used'],
      ['.ai-team/agents/fenster/skills', '.ai-team/agents/fenster/skills is a symlink that leads outside the repository: its skills are not used'],
    ]);
    expect(refused.map((r) => [r.name, r.scope, r.location])).toEqual([['evil', 'team', '.ai-team/skills/evil']]);
  });

  it('never reads a SKILL.md linked out of the repository, in any scope, and reports the skill as refused', () => {
    const root = squad({
      'shared/inside.md': validSkill('linked-in'),
      '.github/skills/good/SKILL.md': validSkill('good'),
      '.ai-team/agents/fenster/charter.md': '# Fenster',
    });
    const elsewhere = tempDir();
    // In the order discovery scans them: native folders from the lowest precedence, then agents.
    const links: [string, string, string?][] = [
      ['.agents/skills/native-out', 'team'],
      ['.github/skills/squad-git-workflow', 'builtin'],
      ['.github/skills/team-out', 'team'],
      ['.ai-team/agents/fenster/skills/own-out', 'agent', 'fenster'],
    ];
    for (const [folder] of links) {
      const name = path.basename(folder);
      writeFiles(elsewhere, { [`${name}.md`]: validSkill(name, 'Secret: do-not-read.') });
      fs.mkdirSync(path.join(root, folder), { recursive: true });
      fs.symlinkSync(path.join(elsewhere, `${name}.md`), path.join(root, folder, 'SKILL.md'));
    }
    fs.mkdirSync(path.join(root, '.github/skills/linked-in'));
    fs.symlinkSync('../../../shared/inside.md', path.join(root, '.github/skills/linked-in/SKILL.md'));

    const { skills, refused, warnings } = discoverSkills(root);
    expect(skills.map((s) => s.location)).toEqual(['.github/skills/good/SKILL.md', '.github/skills/linked-in/SKILL.md']);
    expect(skills.map((s) => s.description).join()).not.toContain('do-not-read');
    expect(refused).toEqual(
      links.map(([folder, scope, agent]) => ({
        name: path.basename(folder),
        scope,
        ...(agent === undefined ? {} : { agent }),
        location: `${folder}/SKILL.md`,
        reason: `${folder}/SKILL.md is a symlink that leads outside the repository`,
        fix: 'copy the skill into the repository (a symlink may point elsewhere in it), or remove the link',
      })),
    );
    expect(warnings.filter((w) => w.code === 'skill-file-outside').map((w) => w.path)).toEqual(links.map(([folder]) => `${folder}/SKILL.md`));
    // The same in a folder of many skills, where plain frontmatter is read from its bytes.
    for (let i = 0; i < LISTS_MANY_SKILLS; i += 1) writeFiles(root, { [`.github/skills/many-${i}/SKILL.md`]: validSkill(`many-${i}`) });
    const many = discoverSkills(root);
    expect(many.skills).toHaveLength(LISTS_MANY_SKILLS + 2);
    expect(many.refused.map((r) => r.location)).toEqual(links.map(([folder]) => `${folder}/SKILL.md`));
  });

  it('extracts MCP servers and disable-model-invocation', () => {
    const root = squad({
      '.ai-team/skills/db/SKILL.md': skillMd(
        'name: db\ndescription: d\ndisable-model-invocation: true\nmetadata:\n  mcp-servers:\n    - name: postgres\n      reason: schema\n    - name: ado\n      optional: true\n      fallback: skip',
      ),
    });
    const [skill] = discoverSkills(root).skills;
    expect(skill!.disableModelInvocation).toBe(true);
    expect(skill!.mcpServers).toEqual([
      { name: 'postgres', reason: 'schema', optional: false },
      { name: 'ado', optional: true, fallback: 'skip' },
    ]);
  });

  it('refuses an agent name that could escape the agents folder', () => {
    const root = squad({ '.ai-team/skills/a/SKILL.md': validSkill('a') });
    expect(() => discoverSkills(root, { agent: '../..' })).toThrow(/not a valid agent name/);
  });

  it('never reads skill bodies', () => {
    const root = squad({});
    const dir = path.join(root, '.ai-team', 'skills', 'huge');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'SKILL.md'), `${validSkill('huge')}${'x'.repeat(20 * 1024 * 1024)}`);
    const spy = { read: 0 };
    const original = fs.readSync;
    (fs as { readSync: typeof fs.readSync }).readSync = ((...args: Parameters<typeof fs.readSync>) => {
      const n = original(...args);
      spy.read += n;
      return n;
    }) as typeof fs.readSync;
    try {
      expect(discoverSkills(root).skills[0]!.valid).toBe(true);
    } finally {
      (fs as { readSync: typeof fs.readSync }).readSync = original;
    }
    expect(spy.read).toBeLessThanOrEqual(4096);
  });
});

describe('discoverSkills in a folder of many skills (plain frontmatter read from its bytes)', () => {
  it('lists every skill exactly as inspecting it on its own does, plain or not', () => {
    const heads = [
      (name: string) => `name: ${name}\ndescription: Plain text for ${name}.\n`,
      (name: string) => `name: ${name}\ndescription: "Quoted: ${name}"\nlicense: MIT\nmetadata:\n  author: team\n  version: "1.2"\n`,
      (name: string) => `name: ${name}\ndescription: >-\n  Folded over\n  two lines.\n`,
      (name: string) => `name: ${name}\ndescription: d\n# a comment\nmetadata:\n  version: 1.0\n`,
      (name: string) => `name: ${name}\ndescription: d\nmetadata:\n  mcp-servers:\n    - name: github\n      reason: "Issues"\n`,
      (_name: string) => `name: other-name\ndescription: d\n`,
      (name: string) => `name: ${name}\ndescription: café au lait\n`,
      (name: string) => `name: ${name}\n`,
    ];
    const files: Record<string, string> = {};
    for (let i = 0; i < LISTS_MANY_SKILLS + 4; i += 1) {
      const name = `skill-${String(i).padStart(3, '0')}`;
      files[`.github/skills/${name}/SKILL.md`] = `---\n${heads[i % heads.length]!(name)}---\n# ${name}\n`;
    }
    const root = squad(files);
    const { skills } = discoverSkills(root);
    expect(skills).toHaveLength(LISTS_MANY_SKILLS + 4);
    for (const skill of skills) {
      const alone = inspectSkill(skill.file, { readBody: false });
      expect({ name: skill.name, valid: skill.valid, errors: skill.errors, warnings: skill.warnings }, skill.dirName).toEqual({
        name: alone.name,
        valid: alone.valid,
        errors: alone.errors,
        warnings: alone.warnings,
      });
      expect(
        { description: skill.description, version: skill.version, author: skill.author, mcpServers: skill.mcpServers, versionUnquoted: skill.versionUnquoted },
        skill.dirName,
      ).toEqual({
        description: alone.fields.description,
        version: alone.fields.version,
        author: alone.fields.author,
        mcpServers: alone.fields.mcpServers,
        versionUnquoted: alone.fields.versionUnquoted,
      });
    }
    expect(skills.filter((skill) => skill.valid).length).toBeGreaterThan(LISTS_MANY_SKILLS / 2);
  });
});
