/**
 * A small squad laid out as the original Squad (bradygaster/squad) leaves one, written in our own
 * words: the structure (folders, headings, table columns, JSON keys) is the original's, the text is
 * not. `.ai-team/` as its versions up to 0.4 keep it, or `.squad/` as 0.5 and later do.
 */
import { writeFiles } from './cli.js';

export interface OriginalSquadOptions {
  /** The squad folder: `.ai-team` (default) or `.squad`. */
  dir?: '.ai-team' | '.squad';
  /** The universe the registry and history record (default "Alien"). */
  universe?: string;
}

/** The members the fixture casts, as the registry records them. */
export const ORIGINAL_MEMBERS = [
  { folder: 'ripley', name: 'Ripley', role: 'Lead' },
  { folder: 'parker', name: 'Parker', role: 'Backend Dev' },
  { folder: 'lambert', name: 'Lambert', role: 'Tester' },
] as const;

function team(dir: string): string {
  return `# Team Roster

> A bike-sharing app: docks, rides and monthly passes.

## Coordinator

| Name | Role | Notes |
|------|------|-------|
| Squad | Coordinator | Hands out the work and checks handoffs. |

## Members

| Name | Role | Charter | Status |
|------|------|---------|--------|
| [Ripley](https://example.org/ripley) | Lead | \`${dir}/agents/ripley/charter.md\` | ✅ Active |
| Parker | Backend Dev | \`${dir}/agents/parker/charter.md\` | ✅ Active |
| Lambert | Tester | \`${dir}/agents/lambert/charter.md\` | ✅ Active |
| Scribe | Session Logger | \`${dir}/agents/scribe/charter.md\` | 📋 Silent |
| Dana | Product Owner | — | 👤 Human |

## Project Context

- **Owner:** Sam Rivera
- **Stack:** Go, PostgreSQL, React Native
- **Description:** A bike-sharing app.

## Issue Source

| Field | Value |
|-------|-------|
| **Repository** | bikes/app |
| **Filters** | open issues |
`;
}

const ROUTING = `# Work Routing

## Routing Table

| Work Type | Route To | Examples |
|-----------|----------|----------|
| Scope and design | Ripley | What to build next, module boundaries |
| Ride and dock APIs | Parker | Go handlers, SQL |
| Testing | Lambert | Integration tests, flaky tests |
| Product approval | Dana 👤 | Feature sign-off, pricing |
| Session logging | Scribe | Never routed by hand |
`;

function charter(name: string, role: string, focus: string): string {
  return `# ${name} — ${role}\n\n> ${focus}\n\n## Identity\n\n- **Name:** ${name}\n- **Role:** ${role}\n\n## What I Own\n\n- ${focus}\n`;
}

function history(name: string): string {
  return `# Project Context\n\n- **Owner:** Sam Rivera\n- **Stack:** Go, PostgreSQL\n\n## Learnings\n\n- ${name} learned that Sam wants one concern per pull request.\n`;
}

/** The files of the fixture squad, by repo-relative path. */
export function originalSquadFiles(options: OriginalSquadOptions = {}): Record<string, string> {
  const dir = options.dir ?? '.ai-team';
  const universe = options.universe ?? 'Alien';
  const agents = Object.fromEntries(
    ORIGINAL_MEMBERS.map((m) => [m.folder, { persistent_name: m.name, universe, created_at: '2026-01-02T10:00:00Z', legacy_named: false, status: 'active' }]),
  );
  const files: Record<string, string> = {
    [`${dir}/team.md`]: team(dir),
    [`${dir}/routing.md`]: ROUTING,
    [`${dir}/decisions.md`]: '# Decisions\n\n### 2026-01-03: Rides are billed per minute\n**By:** Ripley\n**What:** Per-minute billing.\n',
    [`${dir}/casting/policy.json`]: `${JSON.stringify({ casting_policy_version: '1.1', allowlist_universes: ['The Usual Suspects', 'Alien', 'Firefly'], universe_capacity: { 'The Usual Suspects': 6, Alien: 8, Firefly: 10 } }, null, 2)}\n`,
    [`${dir}/casting/registry.json`]: `${JSON.stringify({ agents: { ...agents, brett: { persistent_name: 'Brett', universe, created_at: '2026-01-04T10:00:00Z', legacy_named: false, status: 'retired' } } }, null, 2)}\n`,
    [`${dir}/casting/history.json`]: `${JSON.stringify({ universe_usage_history: [{ assignment_id: 'first-cast', universe, timestamp: '2026-01-02T10:00:00Z' }], assignment_cast_snapshots: {} }, null, 2)}\n`,
    [`${dir}/agents/scribe/charter.md`]: '# Scribe — Session Logger\n\nKeeps the logs and merges decisions.\n',
    [`${dir}/agents/_alumni/brett/charter.md`]: charter('Brett', 'Frontend Dev', 'The rider app screens.'),
    [`${dir}/agents/_alumni/brett/history.md`]: history('Brett'),
    [`${dir}/skills/dock-sync/SKILL.md`]:
      '---\nname: "dock-sync"\ndescription: "How dock status is synced from the field devices"\ndomain: "backend"\nconfidence: "high"\nsource: "earned"\ntools:\n  - name: "github-mcp-server"\n    description: "Look up the device firmware repository"\n    when: "Before changing the sync protocol"\n---\n\n## Patterns\n- Devices report every 30 seconds; treat a gap of 3 reports as offline.\n',
    [`${dir}/skills/flaky-ride-tests/SKILL.md`]: '# Flaky Ride Tests\n\n**Confidence:** medium\n\n## Pattern\n- Freeze the clock before creating a ride.\n',
    [`${dir}/skills/map-tiles/SKILL.md`]:
      '---\nname: "Map Tile Caching"\ndescription: "Caching map tiles on the phone"\ndomain: "mobile"\n---\n\n## Patterns\n- Cache tiles for the last three cities opened.\n',
    '.github/agents/squad.agent.md':
      '---\nname: Squad\ndescription: "Your AI team."\n---\n\n<!-- version: 0.4.1 -->\n\nYou are Squad, the coordinator of this team. Read the roster in team.md.\n',
  };
  for (const member of ORIGINAL_MEMBERS) {
    files[`${dir}/agents/${member.folder}/charter.md`] = charter(member.name, member.role, `Owns the ${member.role.toLowerCase()} work.`);
    files[`${dir}/agents/${member.folder}/history.md`] = history(member.name);
  }
  return files;
}

/** Write the fixture squad into `root`. */
export function writeOriginalSquad(root: string, options: OriginalSquadOptions = {}): void {
  writeFiles(root, originalSquadFiles(options));
}
