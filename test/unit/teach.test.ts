import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TAUGHT_PROCEDURE_MAX_BYTES } from '../../src/core/base/limits.js';
import { SKILL_FILE, agentSkillDir } from '../../src/core/base/paths.js';
import { parseSkill } from '../../src/core/skills/skill.js';
import { buildTaughtSkill, deriveSkillName } from '../../src/core/team/teach.js';
import { planTeach } from '../../src/core/team/teach-state.js';
import { applyPlan } from '../../src/core/fs/apply-plan.js';
import { validateSkill } from '../../src/core/skills/validate.js';
import { cleanupTempDirs, hashTree, tempDir, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

describe('deriveSkillName', () => {
  it.each([
    ['always use Tailwind CSS for styling', 'tailwind-css-styling'],
    ['We should know that our API uses JSON:API pagination', 'api-json-api-pagination'],
    ['Never commit secrets', 'never-commit-secrets'],
    ['use pnpm', 'pnpm'],
    ['always use', 'always-use'],
  ])('%j → %s', (instruction, name) => {
    expect(deriveSkillName(instruction)).toBe(name);
  });

  it('gives an empty name when nothing usable is left', () => {
    expect(deriveSkillName('日本語だけ')).toBe('');
  });
});

describe('buildTaughtSkill', () => {
  it('renders a valid user-taught skill', async () => {
    const skill = await buildTaughtSkill({
      instruction: 'Always use Tailwind CSS: no custom CSS unless Tailwind cannot express it.',
      agentDisplayName: 'Fenster',
      date: new Date('2026-11-22T10:00:00Z'),
    });
    expect(skill.name).toBe('tailwind-css-no-custom');
    const parsed = parseSkill(skill.content);
    expect(validateSkill({ ...parsed, dirName: skill.name })).toMatchObject({ valid: true, errors: [], warnings: [] });
    expect(parsed.frontmatter.metadata).toEqual({ author: 'user-taught', version: '1.0', 'taught-on': '2026-11-22' });
    expect(parsed.frontmatter.description).toContain('Always use Tailwind CSS: no custom CSS');
    expect(parsed.body).toContain('to Fenster');
  });

  it('keeps hostile text inside the YAML strings', async () => {
    const skill = await buildTaughtSkill({
      instruction: 'x" \n---\nname: evil\n"quoted" \\ backslash: {braces} [list] #comment',
      name: 'hostile',
    });
    const parsed = parseSkill(skill.content);
    expect(parsed.frontmatter.name).toBe('hostile');
    expect(validateSkill({ ...parsed, dirName: 'hostile' }).valid).toBe(true);
  });

  it('truncates the description to the standard limit', async () => {
    const skill = await buildTaughtSkill({ instruction: 'use long words '.repeat(200), name: 'long' });
    expect(skill.description.length).toBeLessThanOrEqual(1024);
    expect(parseSkill(skill.content).body).toContain('use long words '.repeat(100).trim());
  });

  it('leaves control and bidirectional characters out of the skill', async () => {
    const skill = await buildTaughtSkill({ instruction: 'Run\u001b[2J the\u0000 smoke\u202e tests\u2066 before a release\u009b', name: 'smoke' });
    expect(skill.content).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(parseSkill(skill.content).body).toContain('Run the smoke tests before a release');
  });

  it('refuses an instruction over TAUGHT_PROCEDURE_MAX_BYTES, and takes one at the limit', async () => {
    const over = `First build, then ${'deploy '.repeat(Math.ceil(TAUGHT_PROCEDURE_MAX_BYTES / 7))}`;
    await expect(buildTaughtSkill({ instruction: over, name: 'huge' })).rejects.toMatchObject({
      code: 'invalid-input',
      message: expect.stringMatching(/^the instruction is [\d,]+ bytes; a taught skill holds at most 32,768 bytes \(32 KB\)$/),
      hint: expect.stringMatching(/skills add/),
    });
    const atLimit = `First build, then deploy ${'x'.repeat(TAUGHT_PROCEDURE_MAX_BYTES - 25)}`;
    expect(Buffer.byteLength(atLimit)).toBe(TAUGHT_PROCEDURE_MAX_BYTES);
    await expect(buildTaughtSkill({ instruction: atLimit, name: 'big' })).resolves.toMatchObject({ name: 'big' });
  });

  it('refuses an empty instruction and bad names', async () => {
    await expect(buildTaughtSkill({ instruction: '   ' })).rejects.toThrow(/empty/);
    await expect(buildTaughtSkill({ instruction: 'x', name: 'Bad Name' })).rejects.toMatchObject({ code: 'usage' });
    await expect(buildTaughtSkill({ instruction: '日本語だけ' })).rejects.toMatchObject({ code: 'usage', hint: expect.stringMatching(/--name/) });
  });
});

describe('planTeach, then applyPlan', () => {
  const squad = () => {
    const root = tempDir();
    writeFiles(root, {
      '.ai-team/team.md': '| Name | Role | Charter | Status |\n|---|---|---|---|\n| Fenster | Core Dev | `.ai-team/agents/fenster/charter.md` | ✅ Active |\n',
      '.ai-team/agents/fenster/charter.md': '# Fenster\n',
    });
    return root;
  };

  it('plans the skill and where it goes without writing, then writes it', async () => {
    const root = squad();
    const before = hashTree(root);
    const plan = await planTeach(root, { agent: 'Fenster', instruction: 'Always use Tailwind CSS', date: new Date('2026-11-22T10:00:00Z') });
    expect(plan).toMatchObject({ dir: agentSkillDir('fenster', 'tailwind-css'), path: `${agentSkillDir('fenster', 'tailwind-css')}/${SKILL_FILE}`, agent: { name: 'fenster' } });
    expect(plan.skill.description).toBe('User-taught procedure: Always use Tailwind CSS. Use it for tasks that involve tailwind css.');
    expect(hashTree(root)).toBe(before);
    applyPlan(root, plan, 'teaching');
    expect(fs.readFileSync(path.join(root, plan.path), 'utf8')).toBe(plan.skill.content);
    await expect(planTeach(root, { agent: 'fenster', instruction: 'Always use Tailwind CSS' })).rejects.toMatchObject({ code: 'skill-exists' });
  });

  it('refuses the reserved prefix for the team, an unknown agent, and a missing squad', async () => {
    const root = squad();
    await expect(planTeach(root, { instruction: 'x', name: 'squad-x' })).rejects.toMatchObject({ code: 'conflict', hint: 'choose another name with --name' });
    await expect(planTeach(root, { instruction: 'x', name: 'squad-x', agent: 'fenster' })).resolves.toMatchObject({ dir: agentSkillDir('fenster', 'squad-x') });
    await expect(planTeach(root, { agent: 'mcmanus', instruction: 'x' })).rejects.toMatchObject({ code: 'unknown-agent' });
    await expect(planTeach(tempDir(), { instruction: 'x' })).rejects.toMatchObject({ code: 'no-squad' });
  });
});
