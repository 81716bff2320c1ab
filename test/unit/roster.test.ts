import { afterAll, describe, expect, it } from 'vitest';
import { insertRosterRecords, listAgents, parseRoster, requireAgent, staysLastInRoster } from '../../src/core/roster/roster.js';
import { SquadError } from '../../src/core/base/errors.js';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

const TEAM = `# Team Roster

> A dashboard.

## Members

| Name | Role | Charter | Status |
|------|------|---------|--------|
| Keaton | Lead | \`.ai-team/agents/keaton/charter.md\` | ✅ Active |
| Fenster | Core Dev | \`.ai-team/agents/fenster/charter.md\` | ✅ Active |
| Dr. Who | Tester | | ✅ Active |
| Scribe | Session Logger | \`.ai-team/agents/scribe/charter.md\` | 📋 Silent |

Some text after.
`;

describe('parseRoster', () => {
  it('reads the members table', () => {
    expect(parseRoster(TEAM)).toEqual([
      { name: 'keaton', displayName: 'Keaton', role: 'Lead', charter: '.ai-team/agents/keaton/charter.md', noCharter: false, status: '✅ Active', human: false, background: false },
      {
        name: 'fenster',
        displayName: 'Fenster',
        role: 'Core Dev',
        charter: '.ai-team/agents/fenster/charter.md',
        noCharter: false,
        status: '✅ Active',
        human: false,
        background: false,
      },
      {
        name: 'dr-who',
        displayName: 'Dr. Who',
        role: 'Tester',
        charter: '.ai-team/agents/dr-who/charter.md',
        noCharter: false,
        status: '✅ Active',
        human: false,
        background: false,
      },
      {
        name: 'scribe',
        displayName: 'Scribe',
        role: 'Session Logger',
        charter: '.ai-team/agents/scribe/charter.md',
        noCharter: false,
        status: '📋 Silent',
        human: false,
        background: true,
      },
    ]);
  });

  it('ignores tables without Name and Role columns and survives junk', () => {
    expect(parseRoster('| a | b |\n|---|---|\n| 1 | 2 |\n')).toEqual([]);
    expect(parseRoster('')).toEqual([]);
    expect(parseRoster('| Name | Role |\n|---|---|\n| | x |\n|Bob|Dev|')).toEqual([
      { name: 'bob', displayName: 'Bob', role: 'Dev', charter: '.ai-team/agents/bob/charter.md', noCharter: false, status: '', human: false, background: false },
    ]);
  });

  it('keeps the first row of a member listed twice', () => {
    const row = '| Keaton | Lead | `.ai-team/agents/keaton/charter.md` | ✅ Active |';
    const twice = TEAM.replace(row, `${row}\n| Keaton Again | Tester | \`.ai-team/agents/keaton/charter.md\` | ✅ Active |\n${row}`);
    expect(parseRoster(twice).map((m) => `${m.name}:${m.displayName}:${m.role}`)).toEqual([
      'keaton:Keaton:Lead',
      'fenster:Fenster:Core Dev',
      'dr-who:Dr. Who:Tester',
      'scribe:Scribe:Session Logger',
    ]);
  });

  it('reads a Charter cell of "—" as a member without a charter, on purpose', () => {
    const team =
      '| Name | Role | Charter | Status |\n|---|---|---|---|\n| Ralph | Work Monitor | — | 🔄 Monitor |\n| @copilot | Coding Agent | n/a | 🤖 |\n| Ann | Dev |  | ✅ |\n';
    expect(parseRoster(team).map((m) => [m.name, m.charter, m.noCharter])).toEqual([
      ['ralph', '', true],
      ['copilot', '', true],
      ['ann', '.ai-team/agents/ann/charter.md', false],
    ]);
  });

  it('keeps the Scribe and members without a charter at the end of the roster', () => {
    expect(staysLastInRoster({ name: 'Scribe', role: 'Session Logger', charter: '`.ai-team/agents/scribe/charter.md`' })).toBe(true);
    expect(staysLastInRoster({ name: 'Ralph', role: 'Work Monitor', charter: '—' })).toBe(true);
    expect(staysLastInRoster({ name: '@copilot', role: 'Coding Agent', charter: 'n/a' })).toBe(true);
    expect(staysLastInRoster({ name: 'Keaton', role: 'Lead', charter: '`.ai-team/agents/keaton/charter.md`' })).toBe(false);
    expect(staysLastInRoster({ name: '', role: 'x' })).toBe(false);
  });

  it('finds the folder in a charter path, wherever the file lives', () => {
    const team = '| Name | Role | Charter |\n|---|---|---|\n| Dr. Who | Tester | `./.ai-team/agents/who/charter.md` |\n| Ann | Dev | `docs/ann.md` |\n';
    expect(parseRoster(team).map((m) => [m.name, m.charter])).toEqual([
      ['who', './.ai-team/agents/who/charter.md'],
      ['ann', 'docs/ann.md'],
    ]);
  });

  it('accepts CRLF and escaped pipes', () => {
    const members = parseRoster('| Name | Role |\r\n|:--|--:|\r\n| Ann | Dev \\| Ops |\r\n');
    expect(members[0]!.role).toBe('Dev | Ops');
  });
});

/** A roster laid out as the original Squad writes it, in our own words. */
const ORIGINAL_TEAM = `# Team Roster

> A bakery's ordering site.

## Coordinator

| Name | Role | Notes |
|------|------|-------|
| Squad | Coordinator | Hands out the work. |

## Members

| Name | Role | Charter | Status |
|------|------|---------|--------|
| [Mal](https://example.org/mal) | Lead | \`.ai-team/agents/mal/charter.md\` | ✅ Active |
| **Zoe** | Backend Dev | \`.squad/agents/Zoe/charter.md\` | ✅ Active |
| Scribe | Session Logger | \`.ai-team/agents/scribe/charter.md\` | 📋 Silent |
| Inara | Product Owner | — | 👤 Human |

<!-- auto-assign: on -->

| Name | Role | Charter | Status |
|------|------|---------|--------|
| @copilot | Coding Agent | — | 🤖 Coding Agent |

## Issue Source

| Field | Value |
|-------|-------|
| **Repository** | bakery/site |
`;

describe('the original Squad roster layout', () => {
  it('reads the Members section, not the Coordinator table, with link names, humans and a second table', () => {
    expect(parseRoster(ORIGINAL_TEAM).map((m) => `${m.name}|${m.displayName}|${m.role}|${m.noCharter}|${m.human}`)).toEqual([
      'mal|Mal|Lead|false|false',
      'zoe|Zoe|Backend Dev|false|false',
      'scribe|Scribe|Session Logger|false|false',
      'inara|Inara|Product Owner|true|true',
      'copilot|@copilot|Coding Agent|true|false',
    ]);
  });

  it('adds a hired member to the Members table, above the Scribe and the human, every other byte kept', () => {
    const updated = insertRosterRecords(ORIGINAL_TEAM, [{ name: 'Wash', role: 'Tester', charter: '`.ai-team/agents/wash/charter.md`', status: '✅ Active' }])!;
    expect(updated.replace('| Wash | Tester | `.ai-team/agents/wash/charter.md` | ✅ Active |\n', '')).toBe(ORIGINAL_TEAM);
    expect(updated.indexOf('| Wash |')).toBeGreaterThan(updated.indexOf('| **Zoe** |'));
    expect(updated.indexOf('| Wash |')).toBeLessThan(updated.indexOf('| Scribe |'));
    expect(updated.split('## Coordinator')[1]!.split('## Members')[0]).not.toContain('Wash');
  });

  it('lists a human member without a folder, and refuses to spawn one', () => {
    const root = tempDir();
    writeFiles(root, { '.ai-team/team.md': ORIGINAL_TEAM, '.ai-team/agents/mal/charter.md': 'x', '.ai-team/agents/zoe/charter.md': 'x' });
    expect(
      listAgents(root)
        .filter((a) => a.human)
        .map((a) => [a.name, a.hasFolder]),
    ).toEqual([['inara', false]]);
    expect(() => requireAgent(root, 'Inara')).toThrow(/Inara is a human member of this squad \(Product Owner\): humans are never spawned/);
    expect(requireAgent(root, 'zoe').displayName).toBe('Zoe');
  });

  it('ignores tables in code blocks and a Coordinator table with no Members heading after it', () => {
    const fenced = '```md\n| Name | Role |\n|---|---|\n| Ghost | Dev |\n```\n\n| Name | Role |\n|---|---|\n| Ann | Dev |\n';
    expect(parseRoster(fenced).map((m) => m.name)).toEqual(['ann']);
    expect(parseRoster('## Coordinator\n\n| Name | Role |\n|---|---|\n| Squad | Coordinator |\n')).toEqual([]);
  });
});

describe('listAgents / requireAgent', () => {
  it('combines roster rows and folders', () => {
    const root = tempDir();
    writeFiles(root, {
      '.ai-team/team.md': TEAM,
      '.ai-team/agents/keaton/charter.md': 'x',
      '.ai-team/agents/fenster/charter.md': 'x',
      '.ai-team/agents/extra/charter.md': 'x',
      '.ai-team/agents/_archived/charter.md': 'x',
    });
    expect(listAgents(root).map((a) => [a.name, a.inRoster, a.hasFolder])).toEqual([
      ['keaton', true, true],
      ['fenster', true, true],
      ['dr-who', true, false],
      ['scribe', true, false],
      ['extra', false, true],
    ]);
    expect(requireAgent(root, 'Fenster').name).toBe('fenster');
    expect(requireAgent(root, 'extra').name).toBe('extra');
  });

  it('lists the agents when one is unknown', () => {
    const root = tempDir();
    writeFiles(root, { '.ai-team/agents/keaton/charter.md': 'x', '.ai-team/agents/fenster/charter.md': 'x' });
    try {
      requireAgent(root, 'mcmanus');
      throw new Error('expected failure');
    } catch (error) {
      expect(error).toBeInstanceOf(SquadError);
      expect((error as SquadError).code).toBe('unknown-agent');
      expect((error as SquadError).hint).toBe('agents: fenster, keaton');
    }
  });

  it('says to run init when there is no squad', () => {
    expect(() => requireAgent(tempDir(), 'x')).toThrow(/no squad found/);
  });
});
