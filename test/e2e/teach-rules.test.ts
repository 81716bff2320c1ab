import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, hashTree, runCli, runOk, tempRepo } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

async function squad(): Promise<string> {
  const root = tempRepo();
  await runOk(root, ['init', '--yes', '--roles', 'Lead,Frontend Dev']);
  return root;
}

function members(root: string): string[] {
  return fs.readdirSync(path.join(root, '.ai-team/agents')).filter((name) => !name.startsWith('_') && name !== 'scribe');
}

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

describe('teach: standing rules', () => {
  it('puts a rule in the charter, once, and every prompt of that member shows it', async () => {
    const root = await squad();
    const [lead, dev] = members(root).sort();
    const charter = `.ai-team/agents/${dev}/charter.md`;
    const before = read(root, charter);

    const taught = await runCli(['teach', dev!, 'Use tabs for indentation', '--json'], { cwd: root });
    expect(taught.code, taught.stderr).toBe(0);
    expect(taught.data<unknown>()).toMatchObject({ kind: 'rule', scope: 'agent', agent: dev, path: charter, rule: 'Use tabs for indentation.', added: true });
    const after = read(root, charter);
    expect(after.startsWith(before.replace(/\n+$/, ''))).toBe(true);
    expect(after).toContain('## Standing rules');
    expect(after).toContain('- Use tabs for indentation.');

    const again = await runCli(['teach', dev!, 'use tabs for indentation'], { cwd: root });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already has this standing rule');
    expect(read(root, charter)).toBe(after);

    for (const mode of ['standard', 'lightweight']) {
      const prompt = await runCli(['prompt', dev!, '--task', 'add a login form', '--mode', mode, '--skill', 'squad-git-workflow'], { cwd: root });
      expect(prompt.code, prompt.stderr).toBe(0);
      expect(prompt.stdout).toContain('- Use tabs for indentation.');
    }
    const other = await runCli(['prompt', lead!, '--task', 'plan the release'], { cwd: root });
    expect(other.stdout).not.toContain('Use tabs for indentation');
    // The member's Copilot agent reads the charter first, and the team's rules file.
    expect(read(root, `.github/agents/${dev}.agent.md`)).toMatch(/charter\.md`: who you are, what you own, and your standing rules/);
    expect(read(root, `.github/agents/${dev}.agent.md`)).toContain('`.ai-team/rules.md`');
  });

  it('with --team, writes .ai-team/rules.md and every member sees it', async () => {
    const root = await squad();
    const dry = await runCli(['teach', '--team', 'Never commit to main', '--dry-run'], { cwd: root });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('Dry run: would add a standing rule for the whole team to .ai-team/rules.md');
    expect(fs.existsSync(path.join(root, '.ai-team/rules.md'))).toBe(false);

    await runOk(root, ['teach', '--team', 'Never commit to main']);
    await runOk(root, ['teach', '--team', "Don't force-push shared branches"]);
    await runOk(root, ['teach', '--team', 'Never commit to main.']);
    const rules = read(root, '.ai-team/rules.md');
    expect(rules.match(/^- /gm)).toHaveLength(2);
    for (const member of members(root)) {
      const prompt = await runCli(['prompt', member, '--task', 'fix a bug'], { cwd: root });
      expect(prompt.stdout).toContain('TEAM STANDING RULES (.ai-team/rules.md)');
      expect(prompt.stdout).toContain('- Never commit to main.');
      expect(prompt.stdout).toContain("- Don't force-push shared branches.");
      const json = await runCli(['prompt', member, '--task', 'fix a bug', '--json'], { cwd: root });
      expect(json.data<{ standingRules: { team: string[] } }>().standingRules.team).toEqual(['Never commit to main.', "Don't force-push shared branches."]);
    }
    // A member hired later sees the team's rules too.
    await runOk(root, ['hire', 'Tester', '--name', 'Hockney']);
    expect((await runCli(['prompt', 'hockney', '--task', 'write tests'], { cwd: root })).stdout).toContain('- Never commit to main.');
  });

  it('keeps procedures as skills whose description names the task; --rule and --skill override', async () => {
    const root = await squad();
    const [, dev] = members(root).sort();
    const procedure = await runCli(['teach', dev!, 'When you add a page, register it in routes.ts, add a test, then update the sitemap.', '--json'], { cwd: root });
    expect(procedure.code, procedure.stderr).toBe(0);
    const skill = procedure.data<{ kind: string; description: string; path: string }>();
    expect(skill.kind).toBe('skill');
    expect(skill.description).toMatch(/Use it when you add a page\.$/);
    expect(fs.existsSync(path.join(root, skill.path))).toBe(true);

    const forced = await runCli(['teach', dev!, 'First lint, then test.', '--rule', '--json'], { cwd: root });
    expect(forced.data<{ kind: string }>().kind).toBe('rule');
    const asSkill = await runCli(['teach', dev!, 'Always use Tailwind CSS', '--skill', '--json'], { cwd: root });
    expect(asSkill.data<{ kind: string; name: string }>()).toMatchObject({ kind: 'skill', name: 'tailwind-css' });
    expect((await runCli(['teach', dev!, 'x y', '--rule', '--skill'], { cwd: root })).code).toBe(2);
    expect((await runCli(['teach', dev!, 'x y', '--rule', '--name', 'xy'], { cwd: root })).code).toBe(2);
  });

  it('refuses instructions without content, writing nothing', async () => {
    const root = await squad();
    const [, dev] = members(root).sort();
    const before = hashTree(root);
    for (const text of ["Don't", '...', 'always', 'do not']) {
      const result = await runCli(['teach', dev!, text], { cwd: root });
      expect(result.code, text).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/^✗ the instruction .* (says nothing to follow|has no words) — say what to do/);
    }
    expect((await runCli(['teach', '--team', "Don't", '--json'], { cwd: root })).envelope()).toMatchObject({
      ok: false,
      error: { code: 'usage' },
    });
    expect(hashTree(root)).toBe(before);
  });

  it('a charter that is missing is reported, not created', async () => {
    const root = await squad();
    const [, dev] = members(root).sort();
    fs.rmSync(path.join(root, `.ai-team/agents/${dev}/charter.md`));
    const result = await runCli(['teach', dev!, 'Use tabs'], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/has no charter at .*--skill/);
  });

  it('a kill during the write leaves the old charter or the new one; the rerun finishes', async () => {
    const root = await squad();
    const [, dev] = members(root).sort();
    const charter = `.ai-team/agents/${dev}/charter.md`;
    const before = read(root, charter);
    const killed = await runCli(['teach', dev!, 'Use tabs'], { cwd: root, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: '1' } });
    expect(killed.code).toBe(-1);
    const text = read(root, charter);
    expect(text === before || text.includes('- Use tabs.')).toBe(true);
    await runOk(root, ['teach', dev!, 'Use tabs']);
    expect(read(root, charter).match(/- Use tabs\./g)).toHaveLength(1);
  });
});
