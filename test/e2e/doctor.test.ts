import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stampCoordinator } from '../../src/core/squad/coordinator.js';
import { packageVersion } from '../../src/core/fs/version.js';
import { cleanupTempDirs, hashTree, runCli, skillMd, tempDir, tempRepo, validSkill, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

interface Finding {
  severity: 'error' | 'warning';
  code: string;
  message: string;
  fix: string;
  path?: string;
}
interface DoctorJson {
  findings: Finding[];
  summary: { errors: number; warnings: number };
  checked: { skills: number; members: number; mcpServers: number };
}

let pristine: string;

beforeAll(async () => {
  pristine = tempRepo();
  const init = await runCli(['init', '--yes', '--project', 'Doctor test'], { cwd: pristine });
  if (init.code !== 0) throw new Error(init.stderr);
});

/** A fresh copy of a healthy squad made by init. */
function squad(): string {
  const dir = tempDir('squad-doctor-');
  fs.cpSync(pristine, dir, { recursive: true });
  return dir;
}

/**
 * Doctor's report, without the findings about the members' Copilot agents (test/e2e/member-agents.test.ts
 * tests those): the squads here are changed by hand, which leaves the agents out of step.
 */
async function doctor(cwd: string, env: Record<string, string> = {}): Promise<{ code: number; ok: boolean; data: DoctorJson }> {
  const result = await runCli(['doctor', '--json'], { cwd, env: { HOME: tempDir('home-'), ...env } });
  const data = result.data<DoctorJson>();
  return { code: result.code, ok: result.envelope().ok, data: { ...data, findings: data.findings.filter((f) => !f.code.startsWith('copilot-agent-')) } };
}

function codes(data: DoctorJson): string[] {
  return data.findings.map((f) => `${f.severity}:${f.code}`);
}

function edit(dir: string, rel: string, change: (text: string) => string): void {
  const file = path.join(dir, rel);
  fs.writeFileSync(file, change(fs.readFileSync(file, 'utf8')));
}

describe('doctor', () => {
  it('finds nothing wrong with a fresh squad, changes nothing, exit 0', async () => {
    const dir = squad();
    const before = hashTree(dir);
    const result = await runCli(['doctor'], { cwd: dir, env: { HOME: tempDir('home-') } });
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toMatch(/^✓ The squad is healthy \(checked 3 members, \d+ skills/m);
    expect(hashTree(dir)).toBe(before);
    const { ok, data } = await doctor(dir);
    expect(ok).toBe(true);
    expect(data).toMatchObject({ findings: [], summary: { errors: 0, warnings: 0 } });
  });

  it('refuses a missing squad with the no-squad error every command gives, saying to run init', async () => {
    const dir = tempRepo();
    const result = await runCli(['doctor', '--json'], { cwd: dir, env: { HOME: tempDir('home-') } });
    expect(result.code).toBe(1);
    expect(result.envelope()).toEqual({ schemaVersion: 1, ok: false, error: expect.objectContaining({ code: 'no-squad' }), warnings: [] });
    expect(result.error().hint).toMatch(/create-squad@\S+ init/);
    const other = (await runCli(['route', 'x', '--json'], { cwd: dir })).error();
    expect(result.error()).toEqual(other);
    const text = await runCli(['doctor'], { cwd: dir });
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('');
    expect(text.stderr).toMatch(/^✗ no squad found .* — run "npx create-squad@\d[^" ]* init" first/);
  });

  it('reports missing layout files: team.md is an error, the rest warnings, all fixed by init', async () => {
    const dir = squad();
    fs.rmSync(path.join(dir, '.ai-team/routing.md'));
    fs.rmSync(path.join(dir, '.ai-team/log'), { recursive: true });
    const warned = await doctor(dir);
    expect(warned.code).toBe(0);
    expect(codes(warned.data)).toEqual(['warning:layout-missing', 'warning:layout-missing']);
    expect(warned.data.findings[0]!.fix).toContain('create-squad init');

    fs.rmSync(path.join(dir, '.ai-team/team.md'));
    const failed = await doctor(dir);
    expect(failed.code).toBe(1);
    expect(failed.data.findings[0]).toMatchObject({ severity: 'error', code: 'layout-missing', path: '.ai-team/team.md' });
  });

  it('names what stands where a layout file goes (a dangling link, a folder) instead of calling it missing and sending the user to init, which skips it', async () => {
    const dangling = squad();
    fs.rmSync(path.join(dangling, '.ai-team/team.md'));
    fs.symlinkSync(path.join(dangling, 'gone.md'), path.join(dangling, '.ai-team/team.md'));
    const linked = await doctor(dangling);
    expect(linked.code).toBe(1);
    expect(linked.data.findings).toEqual([
      {
        severity: 'error',
        code: 'layout-blocked',
        path: '.ai-team/team.md',
        message: '.ai-team/team.md is a dangling symlink (it points to nothing), not a file: commands cannot use it, and init will not replace it',
        fix: 'remove the link, then run "create-squad init" (it recreates .ai-team/team.md)',
      },
    ]);

    const folder = squad();
    fs.rmSync(path.join(folder, '.ai-team/team.md'));
    fs.mkdirSync(path.join(folder, '.ai-team/team.md'));
    fs.rmSync(path.join(folder, '.ai-team/log'), { recursive: true });
    fs.writeFileSync(path.join(folder, '.ai-team/log'), 'a file where the log folder goes\n');
    const { code, data } = await doctor(folder);
    expect(code).toBe(1);
    expect(data.findings.map((f) => [f.severity, f.code, f.message, f.fix])).toEqual([
      [
        'error',
        'layout-blocked',
        '.ai-team/team.md is a folder, not a file: commands cannot use it, and init will not replace it',
        'move it aside, then run "create-squad init" (it recreates .ai-team/team.md)',
      ],
      [
        'warning',
        'layout-blocked',
        '.ai-team/log is a file, not a folder: commands cannot use it, and init will not replace it',
        'move it aside, then run "create-squad init" (it recreates .ai-team/log)',
      ],
    ]);
  });

  it('reports a broken casting file', async () => {
    const dir = squad();
    fs.writeFileSync(path.join(dir, '.ai-team/casting/registry.json'), '{ "members": ');
    const { code, data } = await doctor(dir);
    expect(code).toBe(1);
    expect(data.findings).toEqual([expect.objectContaining({ code: 'casting-invalid', path: '.ai-team/casting/registry.json' })]);
  });

  it('reports casting registry members that commands ignore: not an object, no name, a bad folder, a role or universe of the wrong type', async () => {
    const dir = squad();
    const file = path.join(dir, '.ai-team/casting/registry.json');
    const registry = JSON.parse(fs.readFileSync(file, 'utf8')) as { members: unknown[] };
    registry.members.push({ name: null }, 'Verbal', { name: 'Kobayashi', folder: 'Koba Yashi' }, { name: 'Edie', folder: 'edie', role: 7, universe: 5 });
    fs.writeFileSync(file, JSON.stringify(registry, null, 2));
    const { code, data } = await doctor(dir);
    expect(code).toBe(1);
    expect(data.findings.filter((f) => f.code === 'casting-member-invalid').map((f) => f.message)).toEqual([
      '.ai-team/casting/registry.json: member 4 is not valid ("name" is not a non-empty string; "folder" is not a string): every command ignores it, so its name is not reserved',
      '.ai-team/casting/registry.json: member 5 is not valid (it is a string, not {"name", "folder", "role", "universe"}): every command ignores it, so its name is not reserved',
      '.ai-team/casting/registry.json: member 6 is not valid ("folder" "Koba Yashi" must be lowercase (a folder name is lowercase a-z, 0-9 and hyphens, such as "koba-yashi")): every command ignores it, so its name is not reserved',
      '.ai-team/casting/registry.json: member 7 is not valid ("role" is not a string; "universe" is neither a string nor null): every command ignores it, so its name is not reserved',
    ]);
    expect(data.findings[0]).toMatchObject({ severity: 'error', path: '.ai-team/casting/registry.json', fix: expect.stringContaining('or remove it') });
  });

  it('reports a registry member a killed hire left without roster row and folder, until a hire finishes it', async () => {
    const dir = squad();
    const killed = await runCli(['hire', 'Designer'], { cwd: dir, env: { CREATE_SQUAD_CRASH_AFTER_WRITES: '1' } });
    expect(killed.code).not.toBe(0);
    const { code, data } = await doctor(dir);
    expect(code).toBe(0);
    expect(data.findings).toEqual([
      {
        severity: 'warning',
        code: 'casting-member-unfinished',
        path: '.ai-team/casting/registry.json',
        message: 'McManus (Designer) is in .ai-team/casting/registry.json but has no row in .ai-team/team.md and no folder .ai-team/agents/mcmanus/: a hire that was interrupted',
        fix: 'run create-squad hire "Designer" again to finish it (same name), or remove McManus\'s entry from .ai-team/casting/registry.json',
      },
      expect.objectContaining({ severity: 'warning', code: 'stale-lock', path: '.create-squad.lock' }),
    ]);

    expect((await runCli(['hire', 'Designer'], { cwd: dir })).code).toBe(0);
    expect((await doctor(dir)).data.findings).toEqual([]);
  });

  it('does not take retired, renamed or charterless members for unfinished hires; an earlier entry is not one hire can finish', async () => {
    const dir = squad();
    const file = path.join(dir, '.ai-team/casting/registry.json');
    const registry = JSON.parse(fs.readFileSync(file, 'utf8')) as { members: unknown[] };
    const entry = (name: string, role: string) => ({ name, folder: name.toLowerCase(), role, universe: null });
    registry.members.push(
      entry('Kobayashi', 'DevOps'),
      entry('Redfoot', 'Ops'),
      entry('Edie', 'Legal'),
      entry('Ralph', 'Monitor'),
      entry('Arkosh', 'Security'),
      entry('Kujan', 'Agent'),
    );
    fs.writeFileSync(file, JSON.stringify(registry, null, 2));
    writeFiles(dir, {
      '.ai-team/agents/_alumni/kobayashi/charter.md': '# Kobayashi\n', // retired, files kept
      '.ai-team/casting/history.json': JSON.stringify({ schema: 1, events: [{ event: 'named', name: 'Kujan', folder: 'kujan', note: 'renamed from Redfoot' }] }),
    });
    edit(
      dir,
      '.ai-team/team.md',
      (text) => `${text.replace(/(\| Scribe \|[^\n]*\n)/, '$1| Ralph | Monitor | — | 🔄 Monitor |\n')}\n## Alumni\n\n- Edie — Legal — retired 2025-01-01\n`,
    );
    fs.cpSync(path.join(dir, '.ai-team/agents/keaton'), path.join(dir, '.ai-team/agents/kujan'), { recursive: true });
    edit(dir, '.ai-team/team.md', (text) => text.replace(/(\| Ralph \|)/, '| Kujan | Agent | `.ai-team/agents/kujan/charter.md` | ✅ Active |\n$1'));
    const { data } = await doctor(dir);
    expect(data.findings.map((f) => `${f.code}:${f.message.split(' ')[0]}`)).toEqual(['casting-member-unfinished:Arkosh']);
    // Arkosh is not the registry's last entry: a hire would cast someone new instead of finishing it.
    expect(data.findings[0]!.fix).toBe(
      'remove Arkosh\'s entry from .ai-team/casting/registry.json, then hire again if you still want the member ("create-squad hire" finishes an interrupted hire only while it is the registry\'s last entry)',
    );

    // A name with a line break or a terminal escape is quoted, so it cannot break the message's line.
    registry.members.push({ name: 'Bad\nName\u001b[2J', folder: 'badname', role: 'Ops' });
    fs.writeFileSync(file, JSON.stringify(registry, null, 2));
    const quoted = (await doctor(dir)).data.findings.find((f) => f.message.includes('badname'))!;
    expect(quoted.message).toMatch(/^"Bad\\nName\\u001b\[2J" \(Ops\) is in /);
  });

  it('reports missing merge=union lines in .gitattributes', async () => {
    const dir = squad();
    edit(dir, '.gitattributes', (text) =>
      text
        .split('\n')
        .filter((l) => !l.includes('history.md'))
        .join('\n'),
    );
    const { data } = await doctor(dir);
    expect(data.findings).toEqual([expect.objectContaining({ severity: 'warning', code: 'gitattributes-union', fix: expect.stringContaining('upgrade') })]);
    expect(data.findings[0]!.message).toContain('.ai-team/agents/*/history.md');
  });

  it('reports the coordinator: missing, without description, too large, unstamped, outdated, newer', async () => {
    const coordinator = '.github/agents/squad.agent.md';
    const missing = squad();
    fs.rmSync(path.join(missing, coordinator));
    expect(codes((await doctor(missing)).data)).toEqual(['error:coordinator-missing']);

    const noDescription = squad();
    edit(noDescription, coordinator, (t) => t.replace(/^description:.*$/m, 'x: y'));
    expect(codes((await doctor(noDescription)).data)).toEqual(['error:coordinator-frontmatter']);

    const large = squad();
    edit(large, coordinator, (t) => `${t}\n${'x'.repeat(30_001)}\n`);
    const largeResult = await doctor(large);
    expect(largeResult.code).toBe(1);
    expect(codes(largeResult.data)).toEqual(['error:coordinator-too-large']);

    const unstamped = squad();
    edit(unstamped, coordinator, (t) => t.replace(/^<!-- create-squad: .* -->\n/m, ''));
    expect(codes((await doctor(unstamped)).data)).toEqual(['warning:coordinator-unstamped']);

    const old = squad();
    edit(old, coordinator, (t) => stampCoordinator(t, '0.0.1'));
    const oldResult = (await doctor(old)).data.findings;
    expect(oldResult).toEqual([expect.objectContaining({ code: 'coordinator-outdated', fix: expect.stringContaining('create-squad upgrade') })]);
    expect(oldResult[0]!.message).toContain('0.0.1');

    const newer = squad();
    edit(newer, coordinator, (t) => stampCoordinator(t, '99.0.0'));
    expect(codes((await doctor(newer)).data)).toEqual(['warning:coordinator-newer']);
  });

  it('reports a symlinked coordinator (and other owned files behind a link) with the fix, not just "run upgrade", which cannot write there', async () => {
    const coordinator = '.github/agents/squad.agent.md';
    const dir = squad();
    const outside = path.join(tempDir('outside-'), 'squad.agent.md');
    fs.writeFileSync(outside, stampCoordinator(fs.readFileSync(path.join(dir, coordinator), 'utf8'), '0.0.1'));
    fs.rmSync(path.join(dir, coordinator));
    fs.symlinkSync(outside, path.join(dir, coordinator));
    const linked = await doctor(dir);
    expect(linked.code).toBe(0);
    expect(linked.data.findings).toEqual([
      {
        severity: 'warning',
        code: 'owned-blocked',
        path: coordinator,
        message: `${coordinator} is a symlink: "create-squad upgrade" cannot write it (create-squad never writes through a symlink or over what is not a regular file), so the coordinator stays at create-squad 0.0.1 (this is ${packageVersion()})`,
        fix: 'replace the link with a real copy of what it points to, then run "create-squad upgrade"',
      },
    ]);

    // A link to an up-to-date coordinator, a dangling template link, a folder where a template goes.
    fs.writeFileSync(outside, fs.readFileSync(path.join(pristine, coordinator)));
    fs.rmSync(path.join(dir, '.ai-team-templates/charter.md'));
    fs.symlinkSync(path.join(dir, 'nowhere.md'), path.join(dir, '.ai-team-templates/charter.md'));
    fs.rmSync(path.join(dir, '.ai-team-templates/history.md'));
    fs.mkdirSync(path.join(dir, '.ai-team-templates/history.md'));
    const findings = (await doctor(dir)).data.findings;
    expect(findings.map((f) => `${f.code}:${f.path}`)).toEqual([
      `owned-blocked:${coordinator}`,
      'owned-blocked:.ai-team-templates/charter.md',
      'owned-blocked:.ai-team-templates/history.md',
    ]);
    expect(findings[0]!.message).not.toContain('stays at');
    expect(findings[2]).toMatchObject({
      message:
        '.ai-team-templates/history.md is not a regular file: "create-squad upgrade" cannot write it (create-squad never writes through a symlink or over what is not a regular file)',
      fix: 'move it aside, then run "create-squad upgrade"',
    });
  });

  it('reports missing shipped files and a missing or broken manifest', async () => {
    const dir = squad();
    fs.rmSync(path.join(dir, '.github/skills/squad-code-review'), { recursive: true });
    fs.rmSync(path.join(dir, '.ai-team/skills/squad-scribe'), { recursive: true });
    fs.rmSync(path.join(dir, '.ai-team-templates/charter.md'));
    const { data } = await doctor(dir);
    expect(data.findings.map((f) => [f.code, f.path])).toEqual([
      ['owned-missing', '.ai-team-templates'],
      ['owned-missing', '.github/skills/squad-code-review'],
      ['owned-missing', '.ai-team/skills/squad-scribe'],
    ]);

    const noManifest = squad();
    fs.rmSync(path.join(noManifest, '.ai-team/.squad-manifest.json'));
    expect(codes((await doctor(noManifest)).data)).toEqual(['warning:manifest-missing']);
    fs.writeFileSync(path.join(noManifest, '.ai-team/.squad-manifest.json'), '[]');
    expect(codes((await doctor(noManifest)).data)).toEqual(['warning:manifest-invalid']);
  });

  it('checks that roster and member folders agree', async () => {
    const dir = squad();
    const agents = path.join(dir, '.ai-team/agents');
    const [first, second] = fs
      .readdirSync(agents)
      .filter((a) => a !== 'scribe')
      .sort();
    fs.rmSync(path.join(agents, first!, 'charter.md'));
    fs.rmSync(path.join(agents, second!, 'history.md'));
    writeFiles(dir, { '.ai-team/agents/stray/charter.md': '# Stray\n' });
    const { code, data } = await doctor(dir);
    expect(code).toBe(1);
    expect(data.findings.map((f) => `${f.severity}:${f.code}:${f.path}`)).toEqual([
      `error:charter-missing:.ai-team/agents/${first}/charter.md`,
      `warning:history-missing:.ai-team/agents/${second}/history.md`,
      'warning:member-not-in-roster:.ai-team/agents/stray/charter.md',
    ]);
    expect(data.findings[0]!.fix).toMatch(/^create it from \.ai-team-templates\/charter\.md, or remove /);
    expect(data.findings[1]!.fix).toBe('create it from .ai-team-templates/history.md');

    const charterless = squad();
    edit(charterless, '.ai-team/team.md', (t) => t.replace(/^(\| Scribe .*\n)/m, '$1| Ralph | Work Monitor | — | 🔄 Monitor |\n'));
    expect(fs.readFileSync(path.join(charterless, '.ai-team/team.md'), 'utf8')).toContain('| Ralph |');
    expect((await doctor(charterless)).data.findings).toEqual([]);

    const empty = squad();
    edit(empty, '.ai-team/team.md', (t) => t.replace(/^\| (?!Name|-|Scribe).*\|$\n/gm, ''));
    expect(codes((await doctor(empty)).data)).toContain('warning:roster-empty');
  });

  it('warns about agent folders whose names no command accepts, and says how to rename them', async () => {
    const dir = squad();
    writeFiles(dir, {
      '.ai-team/agents/Worf/charter.md': '# Worf\n',
      '.ai-team/agents/Mr Pink/charter.md': '# Mr Pink\n',
      '.ai-team/agents/notes.txt': 'a file, not a member',
    });
    const { code, data } = await doctor(dir);
    expect(code).toBe(0);
    const invalid = data.findings.filter((f) => f.code === 'agent-folder-invalid-name');
    expect(invalid.map((f) => f.path)).toEqual(['.ai-team/agents/Mr Pink', '.ai-team/agents/Worf']);
    expect(invalid[1]).toMatchObject({
      severity: 'warning',
      message: '.ai-team/agents/Worf/ is not a valid agent folder name (lowercase letters a-z, digits and hyphens): no command sees this member',
      fix: expect.stringContaining('rename it to .ai-team/agents/worf/'),
    });
    expect(invalid[0]!.fix).toContain('rename it to .ai-team/agents/mr-pink/');
  });

  it('reports every skill error and warning, and skill folders that are not skills', async () => {
    const dir = squad();
    const agent = fs.readdirSync(path.join(dir, '.ai-team/agents')).find((a) => a !== 'scribe')!;
    writeFiles(dir, {
      '.ai-team/skills/broken/SKILL.md': skillMd('name: Broken\ndescription: d'),
      '.ai-team/skills/noisy/SKILL.md': validSkill('noisy', 'd', 'tags: [x]'),
      '.ai-team/skills/long/SKILL.md': `${validSkill('long')}${'line\n'.repeat(600)}`,
      '.ai-team/skills/empty-folder/notes.txt': 'x',
      '.ai-team/skills/lower/skill.md': validSkill('lower'),
      [`.ai-team/agents/${agent}/skills/squad-git-workflow/SKILL.md`]: validSkill('squad-git-workflow', 'Mine.'),
    });
    const { code, data } = await doctor(dir);
    expect(code).toBe(1);
    expect(codes(data).sort()).toEqual(
      [
        'error:skill-name-uppercase',
        'error:skill-name-folder-mismatch',
        'warning:skill-field-unknown',
        'warning:skill-body-too-long',
        'warning:no-skill-file',
        'warning:skill-file-case',
        'warning:skill-overridden',
      ].sort(),
    );
    const error = data.findings.find((f) => f.code === 'skill-name-uppercase')!;
    expect(error.fix).toContain('create-squad skills validate .ai-team/skills/broken');
  });

  it('reports required MCP servers no host has (names in any letter case are one server), and malformed MCP configuration', async () => {
    const dir = squad();
    writeFiles(dir, {
      '.ai-team/skills/db/SKILL.md': skillMd(
        'name: db\ndescription: Databases.\nmetadata:\n  mcp-servers:\n    - name: postgres\n      reason: schema\n    - name: github\n    - name: ado\n      optional: true\n    - name: Postgres\n      optional: true',
      ),
      '.vscode/mcp.json': '{ "servers": { "github": {} } }',
    });
    const { data } = await doctor(dir);
    expect(data.findings).toEqual([expect.objectContaining({ severity: 'warning', code: 'mcp-not-configured', fix: expect.stringContaining('.vscode/mcp.json') })]);
    expect(data.findings[0]!.message).toContain('requires the MCP server "postgres" (schema), which no Copilot host has');
    expect(data.findings[0]!.message).toContain('the Copilot CLI: not configured; VS Code: not configured');
    expect(data.findings[0]!.fix).toContain('create .mcp.json at the repository root');
    expect(data.checked.mcpServers).toBe(3);

    fs.writeFileSync(path.join(dir, '.vscode/mcp.json'), '{ "servers": ');
    const broken = (await doctor(dir)).data;
    // VS Code cannot be told now; the Copilot CLI still lacks postgres.
    expect(codes(broken)).toEqual(['warning:mcp-config-invalid', 'warning:mcp-host-missing']);
  });

  it('warns about an MCP configuration of the wrong shape, naming the file and what it expected, instead of reporting its servers as not configured there', async () => {
    const dir = squad();
    writeFiles(dir, {
      '.ai-team/skills/db/SKILL.md': skillMd('name: db\ndescription: Databases.\nmetadata:\n  mcp-servers:\n    - name: github\n    - name: postgres'),
      '.vscode/mcp.json': '{ "mcpServers": { "github": {} } }',
    });
    const wrongKey = (await doctor(dir)).data;
    // VS Code cannot be told; the Copilot CLI, which has no file here, lacks postgres.
    expect(codes(wrongKey)).toEqual(['warning:mcp-config-invalid', 'warning:mcp-host-missing']);
    expect(wrongKey.findings[0]!.message).toBe(
      'MCP configuration .vscode/mcp.json ignored: it lists servers under "mcpServers", but this file\'s servers go under "servers" (expected {"servers": {"<name>": {…settings}}})',
    );
    expect(wrongKey.findings[0]!.fix).toContain('fix .vscode/mcp.json as the message says (VS Code reads it)');
    expect(wrongKey.findings[1]!.message).toContain('VS Code: cannot tell (a file it reads could not be checked)');

    fs.rmSync(path.join(dir, '.vscode'), { recursive: true });
    writeFiles(dir, { '.mcp.json': '{ "mcpServers": [] }' });
    const list = (await doctor(dir)).data;
    // The Copilot CLI cannot be told now; VS Code, which has no file here, lacks both servers.
    expect(codes(list)).toEqual(['warning:mcp-config-invalid', 'warning:mcp-host-missing', 'warning:mcp-host-missing']);
    expect(list.findings[0]!.message).toContain('.mcp.json ignored: "mcpServers" is a list, not an object of servers');

    writeFiles(dir, { '.mcp.json': '{ "mcpServers": { "github": 5 } }' });
    const entry = (await doctor(dir)).data;
    // Only the github entry is skipped; github is built into the Copilot CLI, postgres is in no file.
    expect(codes(entry)).toEqual(['warning:mcp-config-invalid', 'warning:mcp-host-missing', 'warning:mcp-not-configured']);
    expect(entry.findings[0]!.message).toBe('MCP configuration .mcp.json: server "github" is a number, not an object of settings: it does not count as configured');

    const prompt = (await runCli(['prompt', 'keaton', '--task', 'x', '--json'], { cwd: dir, env: { HOME: tempDir('home-') } })).data<{
      mcp: { server: string; seenBy: string[] }[];
      prompt: string;
    }>();
    expect(prompt.mcp.map((r) => `${r.server}:${r.seenBy.join('+')}`)).toEqual(['github:copilot-cli+cloud-agent', 'postgres:']);
    expect(prompt.prompt).toContain('REQUIRED MCP SERVER NO HOST HAS: postgres (needed by db)');
  });

  it('reports debris of interrupted runs: import staging, skills-add staging, temporary files', async () => {
    const dir = squad();
    writeFiles(dir, {
      '.ai-team-import-staging-1a2b3c/.ai-team/team.md': '# partial',
      '.ai-team/skills/.staging-api-1a2b3c4d/SKILL.md': 'partial',
      '.ai-team/.team.md.4242.0123abcd.tmp': 'partial',
      // An upgrade killed mid-write leaves these outside .ai-team/ too.
      '.github/agents/.squad.agent.md.4242.89abcdef.tmp': 'partial',
      '.ai-team-templates/.charter.md.4242.01234567.tmp': 'partial',
      '..gitattributes.4242.fedcba98.tmp': 'partial',
      'src/.not-ours.4242.fedcba98.tmp': 'a user file, in a folder create-squad never writes to',
    });
    const { code, data } = await doctor(dir);
    expect(code).toBe(0);
    expect(data.findings.map((f) => `${f.code}:${f.path}`)).toEqual([
      'temp-file-leftover:.github/agents/.squad.agent.md.4242.89abcdef.tmp',
      'temp-file-leftover:.ai-team-templates/.charter.md.4242.01234567.tmp',
      'temp-file-leftover:..gitattributes.4242.fedcba98.tmp',
      'import-staging-leftover:.ai-team-import-staging-1a2b3c',
      'temp-file-leftover:.ai-team/.team.md.4242.0123abcd.tmp',
      'skill-staging-leftover:.ai-team/skills/.staging-api-1a2b3c4d',
    ]);
  });

  it('prints every finding with its fix, and a summary', async () => {
    const dir = squad();
    fs.rmSync(path.join(dir, '.ai-team/routing.md'));
    const result = await runCli(['doctor'], { cwd: dir, env: { HOME: tempDir('home-') } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('⚠ warning .ai-team/routing.md is missing');
    expect(result.stdout).toMatch(/^ {10}fix: run "create-squad init"/m);
    expect(result.stdout).toMatch(/0 errors, 1 warning \(checked 3 members/);
  });
});
