/**
 * A small hand-made squad for prompt and route tests (what `init` would leave, plus skills):
 * team + agent skills, an agent skill overriding a team skill, a hidden skill, an invalid one,
 * MCP servers required and optional, one configured in .vscode/mcp.json (JSONC) and one not.
 */
import { skillMd, tempRepo, validSkill, writeFiles } from './cli.js';

export const PROMPT_TEAM_MD = `# Team Roster

## Members

| Name | Role | Charter | Status |
|------|------|---------|--------|
| Keaton | Lead | \`.ai-team/agents/keaton/charter.md\` | ✅ Active |
| Fenster | Core Dev | \`.ai-team/agents/fenster/charter.md\` | ✅ Active |
| Hockney | Tester | \`.ai-team/agents/hockney/charter.md\` | ✅ Active |
| Scribe | Session Logger | \`.ai-team/agents/scribe/charter.md\` | 📋 Silent |
`;

export const PROMPT_SQUAD_FILES: Record<string, string> = {
  '.ai-team/team.md': PROMPT_TEAM_MD,
  '.ai-team/decisions.md': '# Decisions\n',
  '.ai-team/agents/keaton/charter.md': '# Keaton — Lead\n\nOwns architecture, scope and code review. Decides trade-offs.\n',
  '.ai-team/agents/keaton/history.md': '# History\n',
  '.ai-team/agents/fenster/charter.md': '# Fenster — Core Dev\n\nBuilds the React front end and the Node.js API.\n\n## Boundaries\n- Does not merge without review.\n',
  '.ai-team/agents/fenster/history.md': '# History\n\n## Portable Knowledge\n\n## Project Learnings\n',
  '.ai-team/agents/hockney/charter.md': '# Hockney — Tester\n\nWrites unit and end-to-end tests; hunts flaky tests.\n',
  '.ai-team/agents/scribe/charter.md': '# Scribe\n\nLogs sessions silently.\n',
  '.ai-team/skills/squad-git-workflow/SKILL.md': validSkill(
    'squad-git-workflow',
    'Git workflow for the squad: branch names, commit messages, pull requests.',
    'metadata:\n  author: squad\n  version: "1.0"',
  ),
  '.ai-team/skills/database-schema/SKILL.md': skillMd(
    [
      'name: database-schema',
      'description: Manage database schema migrations & models. Use when changing tables, columns or indexes.',
      'metadata:',
      '  version: "2.1"',
      '  mcp-servers:',
      '    - name: postgres',
      '      reason: Query the existing schema, validate migrations',
      '    - name: azure-devops',
      '      reason: Link migrations to work items',
      '      optional: true',
      '      fallback: Skip work item linking and say so in the report',
      '    - name: postgres',
      '      reason: duplicate entry',
    ].join('\n'),
    '# Database schema\n\nAlways write reversible migrations.\n',
  ),
  '.ai-team/skills/api-design/SKILL.md': validSkill('api-design', 'Team REST API conventions.'),
  '.ai-team/skills/internal-release/SKILL.md': validSkill('internal-release', 'Release checklist, run only when the user asks.', 'disable-model-invocation: true'),
  '.ai-team/skills/broken/SKILL.md': validSkill('Broken-Name', 'An invalid skill.'),
  '.ai-team/agents/fenster/skills/api-design/SKILL.md': validSkill(
    'api-design',
    'REST API design for this team: error envelopes, pagination, versioning. Use when adding or changing endpoints.',
  ),
  '.ai-team/agents/fenster/skills/react-component-patterns/SKILL.md': skillMd(
    [
      'name: react-component-patterns',
      'description: React component patterns (composition, hooks, state). Use when building or refactoring React components.',
      'metadata:',
      '  author: fenster',
      '  version: "1.0"',
    ].join('\n'),
    '# React component patterns\n\n- Prefer composition over inheritance.\n- Keep state local unless shared.\n',
  ),
  '.ai-team/agents/hockney/skills/flaky-tests/SKILL.md': validSkill('flaky-tests', 'Find and fix flaky tests: retries, timing, isolation. Use when a test fails intermittently.'),
  '.vscode/mcp.json': `{
  // VS Code allows comments and trailing commas here.
  "servers": {
    "azure-devops": { "type": "stdio", "command": "npx", "args": ["ado-mcp"] },
  },
}
`,
};

/** A temporary git repo holding the prompt squad, plus `extra` files. */
export function promptSquad(extra: Record<string, string | Buffer> = {}): string {
  const root = tempRepo();
  writeFiles(root, { ...PROMPT_SQUAD_FILES, ...extra });
  return root;
}
