/**
 * The coordinator as a Copilot custom agent profile (`.github/agents/squad.agent.md`): frontmatter
 * every host accepts, the CLI pinned to the version that installed it, and spawning spelled out
 * for each host (issue 11).
 */
import { describe, expect, it } from 'vitest';
import { pinCliVersion, splitCoordinator, stampCoordinator } from '../../src/core/squad/coordinator.js';
import { shippedOwnedFiles } from '../../src/core/squad/owned.js';
import { COORDINATOR_PATH } from '../../src/core/base/paths.js';
import { parseSkill } from '../../src/core/skills/skill.js';
import { isMapping } from '../../src/core/base/util.js';
import { packageVersion } from '../../src/core/fs/version.js';
import { MCP_SERVER_NAME } from '../../src/core/scaffold/mcp-register.js';

type Check = (value: unknown) => boolean;
const isString: Check = (value) => typeof value === 'string';
const isBoolean: Check = (value) => typeof value === 'boolean';
const isStringList: Check = (value) => Array.isArray(value) && value.every(isString);
const isObject: Check = (value) => isMapping(value);
const either =
  (...checks: Check[]): Check =>
  (value) =>
    checks.some((check) => check(value));

/**
 * The agent profile keys the hosts document, with the value each takes (summarised from GitHub's
 * "Custom agents configuration" reference, which covers GitHub.com, the Copilot CLI and the IDEs,
 * and from VS Code's "Custom agents" page for the keys only VS Code reads).
 */
const DOCUMENTED_KEYS: Record<string, Check> = {
  // Every host
  name: isString,
  description: isString, // the one required key
  target: (value) => value === 'vscode' || value === 'github-copilot',
  tools: either(isStringList, isString), // a list, or one comma-separated string
  model: either(isString, isStringList), // VS Code also takes a list tried in order
  'disable-model-invocation': isBoolean,
  'user-invocable': isBoolean,
  'mcp-servers': isObject, // GitHub.com and the CLI; not read by VS Code
  metadata: (value) => isMapping(value) && Object.values(value).every(isString),
  // VS Code (ignored by the cloud agent); its pages also spell user-invocable "user-invokable"
  'user-invokable': isBoolean,
  'argument-hint': isString,
  agents: either(isStringList, (value) => value === '*'),
  handoffs: Array.isArray,
};
/** Documented but retired: replaced by disable-model-invocation and user-invocable. */
const RETIRED_KEYS = ['infer'];
/** GitHub's tool aliases, which VS Code also knows as tool sets. */
const TOOL_ALIASES = ['execute', 'read', 'edit', 'search', 'agent', 'web', 'todo'];
/** Tool names of one host that the alias list may not cover (the others ignore unknown names). */
const HOST_TOOLS = ['read_agent'];
/** The squad's own MCP server (`create-squad mcp`, registered as "squad" by init --mcp): its tools where a host has it. */
const MCP_SERVER_TOOLS = [`${MCP_SERVER_NAME}/*`];

const VERSION = '7.8.9-rc.1';
const installed = async (version: string): Promise<string> => (await shippedOwnedFiles(version)).find((file) => file.path === COORDINATOR_PATH)!.content.toString('utf8');

function frontmatterOf(text: string): Record<string, unknown> {
  const { frontmatter } = parseSkill(text, COORDINATOR_PATH);
  expect(isMapping(frontmatter)).toBe(true);
  return frontmatter;
}

describe('the coordinator profile frontmatter', () => {
  it('uses only documented keys, each with a value of the documented type', async () => {
    const frontmatter = frontmatterOf(await installed(VERSION));
    for (const [key, value] of Object.entries(frontmatter)) {
      expect(RETIRED_KEYS, key).not.toContain(key);
      expect(Object.keys(DOCUMENTED_KEYS), `undocumented key ${key}`).toContain(key);
      expect(DOCUMENTED_KEYS[key]!(value), `${key}: ${JSON.stringify(value)}`).toBe(true);
    }
  });

  it('is picked by the user only: never chosen by Copilot on its own, never run as a subagent', async () => {
    const frontmatter = frontmatterOf(await installed(VERSION));
    expect(frontmatter['disable-model-invocation']).toBe(true);
    expect(frontmatter['user-invocable']).not.toBe(false);
    expect(frontmatter['user-invokable']).not.toBe(false);
    expect(frontmatter.target).toBeUndefined(); // every host
  });

  it('lists its tools explicitly (no "*", which VS Code does not match), spawning included', async () => {
    const tools = frontmatterOf(await installed(VERSION)).tools as string[];
    expect(tools).not.toContain('*');
    expect(tools).toEqual(expect.arrayContaining(['execute', 'read', 'edit', 'search', 'agent']));
    for (const tool of tools) expect([...TOOL_ALIASES, ...HOST_TOOLS, ...MCP_SERVER_TOOLS], tool).toContain(tool);
    expect(tools).toContain(`${MCP_SERVER_NAME}/*`);
    expect(new Set(tools).size).toBe(tools.length);
  });

  it("prefers the squad MCP server's tools, then the CLI, then the by-hand paths", async () => {
    const text = await installed(VERSION);
    const paragraph = /\*\*MCP first:\*\*[^\n]*/.exec(text)?.[0] ?? '';
    expect(paragraph).toContain(`\`${MCP_SERVER_NAME}\` server's`);
    for (const tool of ['route', 'build_spawn_prompt', 'list_skills', 'read_skill', 'teach']) expect(paragraph).toContain(`\`${tool}\``);
    expect(paragraph).toMatch(/else the CLI, then by hand\.$/);
  });

  it('has a short description (VS Code shows it as the chat placeholder) and an argument hint', async () => {
    const frontmatter = frontmatterOf(await installed(VERSION));
    const description = String(frontmatter.description);
    expect(description.trim().length).toBeGreaterThan(20);
    expect(description.length).toBeLessThanOrEqual(100);
    expect(String(frontmatter['argument-hint']).trim()).not.toBe('');
  });
});

/** Every `npx …` command of a text, up to the end of its code span or line. */
const npxCommands = (text: string): string[] => [...text.matchAll(/\bnpx\b[^`\n]*/g)].map((match) => match[0]);

function expectPinned(text: string, version: string, source: string): number {
  const pinned = new RegExp(`^npx (?:--no-install create-squad|--yes create-squad@${version.replace(/[.+]/g, '\\$&')})(?: |$)`);
  const commands = npxCommands(text);
  for (const command of commands) expect(command, source).toMatch(pinned);
  expect(text, source).not.toContain('{version}');
  return commands.length;
}

describe('the CLI the coordinator and the built-in skills run', () => {
  it("is the repository's own install first, then exactly the version that installed them, in every npx line", async () => {
    for (const version of [VERSION, packageVersion()]) {
      const coordinator = await installed(version);
      expect(expectPinned(coordinator, version, 'coordinator')).toBeGreaterThanOrEqual(3);
      const body = splitCoordinator(coordinator).body;
      expect(body.indexOf('npx --no-install create-squad --version')).toBeLessThan(body.indexOf(`npx --yes create-squad@${version} --version`));
      let skillLines = 0;
      for (const file of (await shippedOwnedFiles(version)).filter((f) => f.kind === 'builtin-skill' && f.path.endsWith('.md'))) {
        skillLines += expectPinned(file.content.toString('utf8'), version, file.path);
      }
      expect(skillLines).toBeGreaterThan(0);
    }
  });

  it('re-pins an installed text to a new version, and leaves other text alone', () => {
    const text = 'Run `npx --yes create-squad@{version} doctor`; see create-squad@{version}.';
    const once = pinCliVersion(text, '1.0.0');
    expect(once).toBe('Run `npx --yes create-squad@1.0.0 doctor`; see create-squad@1.0.0.');
    expect(pinCliVersion(once, '2.0.0-beta.1')).toBe(pinCliVersion(text, '2.0.0-beta.1'));
    expect(pinCliVersion('an email: me@example.com, my-create-squad@home', '1.0.0')).toBe('an email: me@example.com, my-create-squad@home');
    const restamped = stampCoordinator(stampCoordinator(`---\nname: Squad\n---\n\n${text}\n`, '1.0.0'), '3.1.4');
    expect(restamped).toContain('create-squad@3.1.4 doctor');
    expect(restamped).not.toContain('1.0.0');
  });
});

describe('spawning, spelled out for each host', () => {
  it("names the Copilot CLI / cloud agent tool with its parameters, and VS Code's runSubagent with its own", async () => {
    const body = splitCoordinator(await installed(VERSION)).body;
    const spawning = body.slice(body.indexOf('### Spawning a member'), body.indexOf('### Parallel work'));
    const rows = (label: string) => spawning.split('\n').find((line) => line.startsWith(`| ${label} |`)) ?? '';
    const [cli, vscode] = rows('Call with').split('|').slice(2, 4);
    for (const parameter of ['`agent_type`', '`name`', '`description`', '`prompt`', '`mode: "background"`']) expect(cli).toContain(parameter);
    for (const parameter of ['`prompt`', '`description`']) expect(vscode).toContain(parameter);
    expect(vscode).not.toMatch(/agent_type|background/);
    // A member is spawned as its own agent, by its folder name; the pasted prompt is the fallback.
    expect(cli).toMatch(/`agent_type`: the member's folder, e\.g\. `fenster` \(its agent\), else `general-purpose` with the full prompt/);
    expect(vscode).toMatch(/`agentName`: `fenster`, offered when VS Code's setting `chat\.customAgentInSubagent\.enabled` is on, else no `agentName` and the full prompt/);
    expect(spawning).toContain('`.github/agents/{name}.agent.md`');
    expect(spawning).toContain('create-squad prompt fenster --task');
    expect(spawning).toMatch(/Copilot CLI and cloud agent: `task`/);
    expect(spawning).toMatch(/VS Code agent mode: `runSubagent` \(tool set `agent`\)/);
    // Results: read_agent only where members run in the background.
    const [cliResults, vscodeResults] = rows('Results').split('|').slice(2, 4);
    expect(cliResults).toContain('`read_agent`');
    expect(vscodeResults).not.toContain('read_agent');
    expect(rows('Parallel').split('|')[3]).toMatch(/no background mode/);
    expect(rows('Scribe').split('|')[3]).toMatch(/Last, in a call of its own/);
    expect(spawning).toMatch(/\*\*Cloud agent\*\*/);
    // A multi-line task goes through a file: no shell quoting, the same on bash and PowerShell.
    expect(spawning).toContain('--task-file');
    expect(spawning).not.toContain("<<'EOF'");
  });
});
