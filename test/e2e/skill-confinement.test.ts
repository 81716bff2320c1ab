/**
 * A skill's SKILL.md that is a link to a file outside the repository is never read: in each scope
 * (built-in, team in .github/skills/ and .agents/skills/, an agent's own) it is absent from every
 * prompt, listing and MCP answer, `skills list` reports it as refused, and doctor names it with its
 * fix. What the file holds never appears in any output. A link that stays inside keeps working.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { connectMcp } from '../helpers/mcp.js';
import { cleanupTempDirs, initSquad, runCli, skillMd, tempDir, validSkill, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

const SECRET = 'aws_secret_access_key = skill-link-do-not-leak-9731';

/** A file outside the repository that reads as a valid skill named `name`, the secret in its description and body. */
function secretSkillFile(name: string): string {
  const file = path.join(tempDir(), 'SKILL.md');
  fs.writeFileSync(file, skillMd(`name: ${name}\ndescription: Use when deploying the release. ${SECRET}`, `# Deploy\n\n${SECRET}\n`));
  return file;
}

/** Replace (or create) `relPath` under `root` with a symlink to `target`. */
function linkTo(root: string, relPath: string, target: string): void {
  const abs = path.join(root, relPath);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.rmSync(abs, { force: true });
  fs.symlinkSync(target, abs);
}

interface RefusedJson {
  name: string;
  scope: string;
  agent?: string;
  location: string;
  reason: string;
  fix: string;
}

interface SkillsListJson {
  skills: { name: string; location: string }[];
  refused: RefusedJson[];
}

interface DoctorJson {
  findings: { severity: string; code: string; path?: string; message: string; fix: string }[];
}

const connect = (root: string, home: string): Promise<Client> => connectMcp(root, { HOME: home });

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** Everything a tool answered, text and structured, as one string to search. */
function answered(result: CallToolResult): string {
  return JSON.stringify(result);
}

const SCOPES = [
  { title: 'a built-in skill', skill: 'squad-git-workflow', folder: '.github/skills', scope: 'builtin' },
  { title: 'a team skill in .github/skills/', skill: 'deploy-notes', folder: '.github/skills', scope: 'team' },
  { title: 'a team skill in .agents/skills/', skill: 'deploy-notes', folder: '.agents/skills', scope: 'team' },
  { title: "an agent's own skill", skill: 'deploy-notes', folder: '.ai-team/agents/fenster/skills', scope: 'agent', agent: 'fenster' },
] as const;

describe('a SKILL.md linked to a file outside the repository', () => {
  for (const { title, skill, folder, scope, ...owner } of SCOPES) {
    it(`${title}: left out of prompts, listings and MCP answers, reported by skills list and doctor, never read`, async () => {
      const root = await initSquad();
      const home = tempDir();
      const location = `${folder}/${skill}/SKILL.md`;
      linkTo(root, location, secretSkillFile(skill));
      const outputs: string[] = [];
      const run = async (args: string[]) => {
        const result = await runCli(args, { cwd: root, env: { HOME: home } });
        outputs.push(result.stdout, result.stderr);
        return result;
      };
      const task = 'Deploy the release notes to production';

      const prompt = await run(['prompt', 'fenster', '--task', task]);
      expect(prompt.code, prompt.stderr).toBe(0);
      expect(prompt.stdout).not.toContain(location);
      const promptJson = await run(['prompt', 'fenster', '--task', task, '--json']);
      expect(promptJson.code, promptJson.stderr).toBe(0);
      expect(promptJson.data<{ skills: { location: string }[] }>().skills.map((s) => s.location)).not.toContain(location);
      expect(promptJson.envelope().warnings).toContainEqual(expect.objectContaining({ code: 'skill-file-outside', path: location }));
      const light = await run(['prompt', 'fenster', '--mode', 'lightweight', '--skill', skill, '--task', task]);
      expect(light.stdout).not.toContain(location);
      expect(light.stderr).toContain(`skill "${skill}" links outside the repository and is never read, skipped (copy the skill into the repository`);

      const list = await run(['skills', 'list', '--json']);
      expect(list.code, list.stderr).toBe(0);
      const listed = list.data<SkillsListJson>();
      expect(listed.skills.map((s) => s.location)).not.toContain(location);
      expect(listed.refused).toEqual([
        {
          name: skill,
          scope,
          ...owner,
          location,
          reason: `${location} is a symlink that leads outside the repository`,
          fix: 'copy the skill into the repository (a symlink may point elsewhere in it), or remove the link',
        },
      ]);
      const listText = await run(['skills', 'list']);
      expect(listText.stdout).toMatch(new RegExp(`^${skill} .*✗ refused: links outside the repository$`, 'm'));
      expect(listText.stdout).toContain(`  ${skill}: ${location} is a symlink that leads outside the repository`);

      const doctor = await run(['doctor', '--json']);
      expect(doctor.code).toBe(1);
      expect(doctor.data<DoctorJson>().findings.filter((f) => f.code === 'skill-file-outside')).toEqual([
        {
          severity: 'error',
          code: 'skill-file-outside',
          path: location,
          // Only the project skills folders are the Copilot CLI's: what it does is said for those.
          message: folder.startsWith('.ai-team/')
            ? `${location} is a symlink that leads outside the repository: the skill is not used`
            : `${location} is a symlink that leads outside the repository: create-squad does not use it, but the Copilot CLI still loads it: it follows links out of the repository`,
          fix: 'copy the skill into the repository (a symlink may point elsewhere in it), or remove the link',
        },
      ]);
      await run(['doctor']);
      await run(['route', task, '--json']);
      await run(['skills', 'validate', '--json']);

      const client = await connect(root, home);
      const mcp = [
        await call(client, 'list_skills', {}),
        await call(client, 'list_skills', { agent: 'fenster' }),
        await call(client, 'list_skills', { agent: 'fenster', query: task }),
        await call(client, 'build_spawn_prompt', { agent: 'fenster', task }),
        await call(client, 'build_spawn_prompt', { agent: 'fenster', task, mode: 'lightweight', skills: [skill] }),
        await call(client, 'read_skill', { name: skill, agent: 'fenster' }),
      ];
      await client.close();
      for (const result of mcp.slice(0, 4)) expect(result.isError, answered(result)).toBeFalsy();
      const listedByMcp = mcp[1]!.structuredContent as { skills: { location: string }[] };
      expect(listedByMcp.skills.map((s) => s.location)).not.toContain(location);
      expect(mcp[5]!.isError).toBe(true);
      for (const result of mcp) {
        expect(answered(result)).not.toContain(SECRET);
        if (result !== mcp[0] && result !== mcp[1] && result !== mcp[2]) continue;
        // Listings name the link only in their warnings, never as a skill.
        expect((result.structuredContent as { skills: { location: string }[] }).skills.map((s) => s.location)).not.toContain(location);
      }
      for (const output of outputs) expect(output).not.toContain(SECRET);
    });
  }

  it('a skill folder linked out is refused the same way: skills list reports it, doctor says the Copilot CLI still loads it', async () => {
    const root = await initSquad();
    const elsewhere = tempDir();
    writeFiles(elsewhere, { 'deploy-notes/SKILL.md': validSkill('deploy-notes', `Use when deploying. ${SECRET}`) });
    linkTo(root, '.github/skills/deploy-notes', path.join(elsewhere, 'deploy-notes'));
    const list = await runCli(['skills', 'list', '--json'], { cwd: root });
    expect(list.data<SkillsListJson>().refused).toEqual([expect.objectContaining({ name: 'deploy-notes', scope: 'team', location: '.github/skills/deploy-notes' })]);
    const doctor = await runCli(['doctor', '--json'], { cwd: root });
    expect(doctor.data<DoctorJson>().findings).toContainEqual(
      expect.objectContaining({
        severity: 'error',
        code: 'skill-outside',
        path: '.github/skills/deploy-notes',
        message: expect.stringContaining('the Copilot CLI still loads it'),
      }),
    );
    expect(list.stdout + doctor.stdout).not.toContain(SECRET);
  });
});

describe('a SKILL.md linked to a file inside the repository', () => {
  it('is listed, prompted and inlined as any skill', async () => {
    const root = await initSquad();
    writeFiles(root, { 'docs/skills/deploy-notes.md': skillMd('name: deploy-notes\ndescription: Use when deploying the release notes.', '# Deploy\n\nTag the release first.\n') });
    linkTo(root, '.github/skills/deploy-notes/SKILL.md', '../../../docs/skills/deploy-notes.md');
    const list = await runCli(['skills', 'list', '--json'], { cwd: root });
    expect(list.data<SkillsListJson>().skills.map((s) => s.location)).toContain('.github/skills/deploy-notes/SKILL.md');
    expect(list.data<SkillsListJson>().refused).toEqual([]);
    const light = await runCli(['prompt', 'fenster', '--mode', 'lightweight', '--skill', 'deploy-notes', '--task', 'Deploy the release notes'], { cwd: root });
    expect(light.code, light.stderr).toBe(0);
    expect(light.stdout).toContain('Tag the release first.');
    const doctor = await runCli(['doctor', '--json'], { cwd: root });
    expect(doctor.data<DoctorJson>().findings.filter((f) => f.code.includes('outside'))).toEqual([]);
  });
});
