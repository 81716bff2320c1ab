/**
 * `route` on the original Squad's real squads (../shared/data, upgraded first): realistic tasks
 * written here go to the member routing.md and the roster name (at least 90% per squad), and a
 * human's row answers "ask". The first tasks of each list are the failures issue 29 reported.
 * Skips, with a note, when the data is absent.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, runCli } from '../helpers/cli.js';
import { HAS_ORIGINAL_DATA, noteMissingData, upgradedOriginalSquad, type OriginalSquadName } from '../helpers/original-data.js';

afterAll(cleanupTempDirs);
noteMissingData("route's accuracy on the original squads");

/** A task and who should take it: a member folder, or `ask:{name}` for a human to ask. */
type Case = readonly [task: string, expected: string];

/** The recipe planner squads (v0.2 s1, v0.5 and the head h1 share its roster and routing.md). */
const RECIPES: readonly Case[] = [
  ['Postgres queries are slow', 'ripley'],
  ['product sign-off', 'ask:brady'],
  ['Postgres queries are slow on the meal plan page', 'ripley'],
  ['Add a REST endpoint that returns the shopping list', 'ripley'],
  ['Write a SQL migration that adds a pantry table', 'ripley'],
  ['The recipes endpoint returns 500 when the title is empty', 'ripley'],
  ['Index the ingredients table so search stops timing out', 'ripley'],
  ['Build a React component for the weekly plan calendar', 'lambert'],
  ['The signup form loses its styling on small screens', 'lambert'],
  ['Add a dropdown component to pick the number of servings', 'lambert'],
  ['Make the shopping list page look right in dark mode', 'lambert'],
  ['Add form validation messages to the recipe editor', 'lambert'],
  ['Redraw the module boundaries between recipes and pantry', 'dallas'],
  ['Review the PR that adds pantry tracking', 'dallas'],
  ['What should we build next after shopping lists? Weigh the trade-offs', 'dallas'],
  ['Check the quality of the pantry PR and suggest improvements', 'dallas'],
  ['Find edge cases in the shopping list generator', 'kane'],
  ['Write tests for the meal plan generator', 'kane'],
  ['Verify the fixes for the duplicate ingredient bug', 'kane'],
  ['Cover the unit conversion code with tests', 'kane'],
  ['We need feature approval for pantry tracking before release', 'ask:brady'],
  ['Product sign-off on the new onboarding flow', 'ask:brady'],
  ['Brady needs to approve the pricing feature', 'ask:brady'],
];

/** The original Squad's own v0.4.2 squad: fourteen members, four of them in routing.md. */
const V042: readonly Case[] = [
  ['write a security review of the install script', 'baer'],
  ['improve the coordinator prompt wording', 'verbal'],
  ['Audit how the telemetry events handle PII', 'baer'],
  ['Check the privacy policy against GitHub compliance rules', 'baer'],
  ['Scan the code for leaked tokens and secrets', 'baer'],
  ['Fix the tsconfig so declaration files build in strict mode', 'edie'],
  ['Tighten the TS generics of the casting registry types', 'edie'],
  ['Convert the CommonJS entry to ESM modules', 'edie'],
  ['Publish the package to npm and make sure global install works', 'rabin'],
  ['List the CLI on the Copilot Extensions marketplace', 'rabin'],
  ['Shrink the size of the npm package tarball', 'rabin'],
  ['Profile memory usage of long streaming sessions', 'fortier'],
  ['The event loop stalls during process lifecycle shutdown', 'fortier'],
  ['Investigate a memory leak in the SDK session handling', 'fortier'],
  ['Rewrite the spawn templates so agents keep their voice', 'verbal'],
  ['Write a getting-started guide and a demo script for the README', 'mcmanus'],
  ['Update the docs for the new upgrade command', 'mcmanus'],
  ['Tag the release, bump the version and write the changelog', 'kobayashi'],
  ['Set up branch protection rules for main', 'kobayashi'],
  ['Fix the GitHub Actions workflow that runs the release', 'kobayashi'],
  ['Design a new logo and brand colors for the project', 'redfoot'],
  ['Make a social image and README badge', 'redfoot'],
  ['Make runSubagent work from the VS Code extension', 'strausz'],
  ['Does our background mode work in VS Code agents?', 'strausz'],
  ['Which Copilot CLI tool usage patterns should we adopt from the SDK?', 'kujan'],
  ['Add integration tests for parallel spawning and reviewer lockouts', 'hockney'],
  ['Write regression tests for the decisions inbox merge', 'hockney'],
  ['Fix name allocation in the casting system when the universe runs out', 'fenster'],
  ['Decide the product direction and roadmap for the next quarter', 'keaton'],
];

const SQUADS: readonly [OriginalSquadName, readonly Case[]][] = [
  ['s1', RECIPES],
  ['v05', RECIPES],
  ['h1', RECIPES],
  ['s2real', V042],
];

interface RouteJson {
  agent: string;
  reason: string;
  ask?: { name: string };
}

/** Extra checks on one squad, after its tasks: the reason's words and labels. */
const EXTRA: Partial<Record<OriginalSquadName, (root: string) => Promise<void>>> = {
  s2real: async (root) => {
    // The reason names the routing.md row, or the words that distinguish the member.
    const security = (await runCli(['route', 'write a security review of the install script'], { cwd: root })).stdout;
    expect(security).toMatch(/Why: {4}routing\.md line \d+ routes "Security, privacy, compliance, PII review" to Baer \(matched "security", "review"; margin [\d.]+\)/);
    const prompt = (await runCli(['route', 'improve the coordinator prompt wording'], { cwd: root })).stdout;
    expect(prompt).toMatch(/Why: {4}Verbal matched "prompt" in role/);
  },
  s1: async (root) => {
    // A label squad:{name} routes to that member; the human's row answers "ask" in text.
    const labelled = await runCli(['route', 'Postgres queries are slow', '--label', 'squad:kane', '--json'], { cwd: root });
    expect(labelled.data<RouteJson>().agent).toBe('kane');
    const human = await runCli(['route', 'product sign-off'], { cwd: root });
    expect(human.stdout).toContain('Ask:    Brady (PM), a human member: never spawned');
    expect(human.stdout).toMatch(/routing\.md line \d+ routes "Product sign-off" to Brady/);
  },
};

describe.skipIf(!HAS_ORIGINAL_DATA)("route on the original Squad's real squads, after upgrade", () => {
  it.each(SQUADS.map(([name, cases]) => ({ name, cases })))(
    '$name: at least 90% of the tasks go to the member routing.md and the roster name; a human is asked, never spawned',
    async ({ name, cases }) => {
      const root = await upgradedOriginalSquad(name);
      const misses: string[] = [];
      for (const [task, expected] of cases) {
        const result = await runCli(['route', task, '--json'], { cwd: root });
        expect(result.code, result.stderr).toBe(0);
        const route = result.data<RouteJson>();
        const got = route.ask ? `ask:${route.ask.name}` : route.agent;
        // A human is never spawned: nobody to start when the answer is "ask".
        if (route.ask) expect(route.agent, task).toBe('');
        if (got !== expected) misses.push(`${task} → ${got} (expected ${expected}): ${route.reason}`);
      }
      expect((cases.length - misses.length) / cases.length, misses.join('\n')).toBeGreaterThanOrEqual(0.9);
      // The failures the issue reported are all fixed.
      expect(misses.filter((miss) => cases.slice(0, 2).some(([task]) => miss.startsWith(`${task} →`)))).toEqual([]);
      await EXTRA[name]?.(root);
    },
  );
});
