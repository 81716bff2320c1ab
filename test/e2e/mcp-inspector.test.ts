/**
 * The MCP Inspector's command line against `create-squad mcp`, as a user would run it: list and
 * call every tool, list the resources and prompts. The Inspector is never a dependency: set
 * CREATE_SQUAD_MCP_INSPECTOR to a folder where it is installed
 * (npm install --prefix <folder> @modelcontextprotocol/inspector); without it the test is skipped
 * with a message. Needs the build (dist/).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SKILLS_ALLOWLIST_PATH } from '../../src/core/skills/skill-scripts.js';
import { BIN, cleanupTempDirs, tempDir, validSkill } from '../helpers/cli.js';
import { promptSquad } from '../helpers/prompt-squad.js';

afterAll(cleanupTempDirs);

const INSTALL = process.env.CREATE_SQUAD_MCP_INSPECTOR;
const CLI = INSTALL === undefined ? undefined : path.join(INSTALL, 'node_modules/@modelcontextprotocol/inspector/package.json');
const available = CLI !== undefined && fs.existsSync(CLI);
if (!available) console.log('mcp-inspector.test: skipped (set CREATE_SQUAD_MCP_INSPECTOR to a folder where @modelcontextprotocol/inspector is installed)');

const PDF = '.github/skills/pdf-tools';

function inspector(root: string, args: string[]): { code: number | null; json: Record<string, unknown> | undefined; stderr: string } {
  const pkg = JSON.parse(fs.readFileSync(CLI!, 'utf8')) as { bin: Record<string, string> };
  const bin = path.join(path.dirname(CLI!), pkg.bin['mcp-inspector']!);
  const run = spawnSync(process.execPath, [bin, '--cli', process.execPath, BIN, 'mcp', '--cwd', root, ...args], {
    encoding: 'utf8',
    env: { ...process.env, HOME: tempDir() },
    timeout: 120_000,
  });
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(run.stdout) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { code: run.status, json, stderr: run.stderr };
}

describe.skipIf(!available)('the MCP Inspector CLI against create-squad mcp', () => {
  it('lists the tools, calls each one, and lists the resources and prompts', { timeout: 600_000 }, () => {
    const root = promptSquad({
      [`${PDF}/SKILL.md`]: validSkill('pdf-tools', 'Fill PDF forms.'),
      [`${PDF}/scripts/echo.mjs`]: 'console.log(process.argv.slice(2).join(" "));\n',
      [`${PDF}/tests/cases/01.yaml`]: 'input:\n  command: scripts/echo.mjs hi\nexpected:\n  stdout-contains: [hi]\n',
      [SKILLS_ALLOWLIST_PATH]: JSON.stringify({ skills: { [PDF]: { scripts: 'all' } } }),
    });
    const listed = inspector(root, ['--method', 'tools/list']);
    expect(listed.code, listed.stderr).toBe(0);
    const tools = (listed.json!.tools as { name: string }[]).map((t) => t.name).sort();
    expect(tools).toEqual(['build_spawn_prompt', 'list_skills', 'read_skill', 'route', 'run_skill_script', 'teach', 'test_skill', 'validate_skill']);
    expect(listed.stderr).toMatch(/Schema portability: 0 errors/);

    const calls: [string, string[]][] = [
      ['list_skills', ['query=pdf forms']],
      ['read_skill', ['name=pdf-tools']],
      ['build_spawn_prompt', ['agent=fenster', 'task=fill the form']],
      ['route', ['task=write tests for the checkout']],
      ['teach', ['agent=fenster', 'instruction=always use tabs', 'dryRun=true']],
      ['validate_skill', ['name=pdf-tools']],
      ['test_skill', ['name=pdf-tools']],
      ['run_skill_script', ['skill=pdf-tools', 'script=scripts/echo.mjs']],
    ];
    for (const [tool, args] of calls) {
      const called = inspector(root, ['--method', 'tools/call', '--tool-name', tool, ...args.flatMap((a) => ['--tool-arg', a])]);
      expect(called.code, `${tool}: ${called.stderr}`).toBe(0);
      expect(called.json!.isError, tool).toBeFalsy();
      expect(called.json!.structuredContent, tool).toBeTruthy();
    }
    const refused = inspector(root, ['--method', 'tools/call', '--tool-name', 'read_skill', '--tool-arg', 'name=pdf-tools', '--tool-arg', 'file=../../../etc/passwd']);
    expect(refused.json?.isError).toBe(true);

    const resources = inspector(root, ['--method', 'resources/list']);
    expect(resources.code).toBe(0);
    expect((resources.json!.resources as { uri: string }[]).map((r) => r.uri)).toContain('squad://roster');
    expect(inspector(root, ['--method', 'resources/templates/list']).code).toBe(0);
    expect(inspector(root, ['--method', 'prompts/list']).json).toEqual({ prompts: [] });
  });
});
