import { describe, expect, it } from 'vitest';
import { decideSquadDirMigration, type SquadDirState } from '../../src/core/squad/original/squad-dir-plan.js';
import { isTeamTextPath, markCoordinatorOnly, rewriteSquadPaths, staleSquadPathLines } from '../../src/core/squad/original/stale-paths.js';
import { parseSkill } from '../../src/core/skills/skill.js';
import { validateSkill } from '../../src/core/skills/validate.js';
import { withoutFileSystem } from '../helpers/no-fs.js';

describe('rewriteSquadPaths', () => {
  it('points every .squad/ path at .ai-team/, in code spans, prose, lists and after a separator', () => {
    const text = [
      'Read `.squad/decisions.md` first.',
      'Then write to .squad/decisions/inbox/{me}-{slug}.md.',
      '- .squad/log/ — session logs',
      '{contents_of_.squad/memory/cold/x.md}',
      '(".squad/routing.md")',
      '.squad/',
    ].join('\n');
    expect(rewriteSquadPaths(text)).toEqual({
      text: [
        'Read `.ai-team/decisions.md` first.',
        'Then write to .ai-team/decisions/inbox/{me}-{slug}.md.',
        '- .ai-team/log/ — session logs',
        '{contents_of_.ai-team/memory/cold/x.md}',
        '(".ai-team/routing.md")',
        '.ai-team/',
      ].join('\n'),
      count: 6,
    });
  });

  it('leaves what is no path of this squad: a name glued before it, a peer repository, a Windows path, the word and the file type', () => {
    const text = 'team.squad/ x-.squad/ ../peer/.squad/team.md C:\\repo\\.squad\\team.md the .squad folder, an export.squad file, https://x.test/.squad/a';
    expect(rewriteSquadPaths(text)).toEqual({ text, count: 0 });
  });

  it('names a member folder the move renamed by its new name, in the same path only', () => {
    const folder = (name: string) => (name === 'Rai' ? 'rai' : name);
    expect(rewriteSquadPaths('`.squad/agents/Rai/history.md` and `.squad/agents/kane/charter.md`; agents/Rai/ alone stays', folder).text).toBe(
      '`.ai-team/agents/rai/history.md` and `.ai-team/agents/kane/charter.md`; agents/Rai/ alone stays',
    );
  });

  it('is idempotent and keeps CRLF line endings', () => {
    const once = rewriteSquadPaths('a .squad/x\r\nb\r\n').text;
    expect(once).toBe('a .ai-team/x\r\nb\r\n');
    expect(rewriteSquadPaths(once)).toEqual({ text: once, count: 0 });
  });
});

describe('staleSquadPathLines', () => {
  it('numbers the lines that name a .squad/ path, from 1', () => {
    expect(staleSquadPathLines('# T\nwrite .squad/x\nnothing\n`.squad/y` and .squad/z\nfoo.squad/\n')).toEqual([2, 4]);
  });
});

describe('isTeamTextPath', () => {
  it("is the squad folder's Markdown but its backups, squad-cli's templates and dot-folders, and the team skills' SKILL.md", () => {
    expect(isTeamTextPath('.ai-team/agents/kane/charter.md')).toBe(true);
    expect(isTeamTextPath('.ai-team/agents/_alumni/ash/charter.md')).toBe(true);
    expect(isTeamTextPath('.ai-team/rai/policy.md')).toBe(true);
    expect(isTeamTextPath('.squad/ceremonies.md', '.squad')).toBe(true);
    expect(isTeamTextPath('.ai-team/casting/registry.json')).toBe(false);
    expect(isTeamTextPath('.ai-team/backups/2026-01-01T00-00-00-000Z/.ai-team/team.md')).toBe(false);
    expect(isTeamTextPath('.ai-team/templates/charter.md')).toBe(false);
    expect(isTeamTextPath('.ai-team/.scratch/notes.md')).toBe(false);
    expect(isTeamTextPath('.github/skills/reflect/SKILL.md')).toBe(true);
    expect(isTeamTextPath('.copilot/skills/reflect/SKILL.md')).toBe(true);
    expect(isTeamTextPath('.github/skills/reflect/notes.md')).toBe(false);
    expect(isTeamTextPath('.claude/skills/reflect/SKILL.md')).toBe(false);
    expect(isTeamTextPath('docs/squad.md')).toBe(false);
  });
});

describe('markCoordinatorOnly', () => {
  const squadCli = '---\nname: squad-help\ndescription: How to use the squad.\nallowedTools: []\nconfidence: high\n---\n\n# Help\n\nBody, kept.\n';

  it("marks squad-cli's coordinator-only skill disable-model-invocation, moves its own fields under metadata, keeps the body, and is standard", () => {
    const marked = markCoordinatorOnly('.github/skills/squad-help/SKILL.md', squadCli)!;
    expect(marked.text.endsWith('\n\n# Help\n\nBody, kept.\n')).toBe(true);
    expect(parseSkill(marked.text).frontmatter).toEqual({
      name: 'squad-help',
      description: 'How to use the squad.',
      'disable-model-invocation': true,
      metadata: { allowedTools: '', confidence: 'high' },
    });
    const result = validateSkill({ ...parseSkill(marked.text), dirName: 'squad-help' });
    expect([...result.errors, ...result.warnings]).toEqual([]);
    expect(markCoordinatorOnly('.github/skills/squad-help/SKILL.md', marked.text)).toBeUndefined();
  });

  it("leaves a skill of another name, a user's skill of that name without squad-cli's field, a member's skill and other tools' folders", () => {
    expect(markCoordinatorOnly('.github/skills/reflect/SKILL.md', squadCli.replace('squad-help', 'reflect'))).toBeUndefined();
    expect(markCoordinatorOnly('.github/skills/squad-help/SKILL.md', '---\nname: squad-help\ndescription: Ours.\n---\nx\n')).toBeUndefined();
    expect(markCoordinatorOnly('.ai-team/agents/kane/skills/squad-help/SKILL.md', squadCli)).toBeUndefined();
    expect(markCoordinatorOnly('.claude/skills/squad-help/SKILL.md', squadCli)).toBeUndefined();
    expect(markCoordinatorOnly('.github/skills/squad-help/SKILL.md', '---\nname: [unclosed\n---\n')).toBeUndefined();
  });

  it('finds the field under metadata too, once an older upgrade made the skill standard', () => {
    const converted = '---\nname: "squad"\ndescription: "The menu."\nmetadata:\n  allowedTools: ""\n---\nMenu.\n';
    expect(parseSkill(markCoordinatorOnly('.copilot/skills/squad/SKILL.md', converted)!.text).frontmatter['disable-model-invocation']).toBe(true);
  });
});

describe('decideSquadDirMigration: the team text', () => {
  const now = new Date('2026-03-01T10:00:00.000Z');
  const state = (over: Partial<SquadDirState>): SquadDirState => ({ original: true, ours: false, agentFolders: [], teamText: undefined, outside: [], teamTexts: [], ...over });

  it('rewrites each file that names .squad/ at its path once moved and renamed, its old text backed up first; team.md once, with its roster', () => {
    const plan = withoutFileSystem(() =>
      decideSquadDirMigration(
        state({
          agentFolders: ['Rai', 'kane'],
          teamText: '| Name | Role | Charter | Status |\n|---|---|---|---|\n| Kane | Tester | `.squad/agents/kane/charter.md` | ✅ Active |\n\nLogs in .squad/log/.\n',
          teamTexts: [
            { path: '.squad/team.md', text: 'ignored: team.md is planned with the roster' },
            { path: '.squad/agents/Rai/charter.md', text: 'Log to `.squad/agents/Rai/audit.md`.\n' },
            { path: '.squad/agents/kane/charter.md', text: 'No paths here.\n' },
            { path: '.squad/ceremonies.md', text: undefined },
          ],
        }),
        now,
      ),
    );
    expect(plan.rewrites).toEqual([
      {
        path: '.ai-team/agents/rai/charter.md',
        backup: '.ai-team/backups/2026-03-01T10-00-00-000Z/.ai-team/agents/rai/charter.md',
        content: 'Log to `.ai-team/agents/rai/audit.md`.\n',
        base: 'Log to `.squad/agents/Rai/audit.md`.\n',
        paths: 1,
      },
    ]);
    expect(plan.roster?.content).not.toContain('.squad/');
    expect(plan.changes.map((change) => `${change.kind} ${'path' in change ? change.path : change.to}`)).toEqual([
      'move .ai-team',
      'move .ai-team/agents/rai',
      'backup .ai-team/backups/2026-03-01T10-00-00-000Z/.squad/team.md',
      'replace .ai-team/team.md',
      'backup .ai-team/backups/2026-03-01T10-00-00-000Z/.ai-team/agents/rai/charter.md',
      'replace .ai-team/agents/rai/charter.md',
    ]);
  });

  it('a squad in .ai-team/ that came from .squad/ (a rerun after a kill) still gets its stale paths rewritten; none left, nothing planned', () => {
    const moved = { original: false, ours: true, cameFromSquadDir: true };
    const stale = withoutFileSystem(() => decideSquadDirMigration(state({ ...moved, teamTexts: [{ path: '.ai-team/routing.md', text: 'see .squad/x' }] }), now));
    expect(stale.rewrites.map((rewrite) => rewrite.path)).toEqual(['.ai-team/routing.md']);
    const done = withoutFileSystem(() => decideSquadDirMigration(state({ ...moved, teamTexts: [{ path: '.ai-team/routing.md', text: 'see .ai-team/x' }] }), now));
    expect(done.changes).toEqual([]);
    // A run killed after renaming agents/Rai: the path names the folder as it now is.
    const renamedBefore = withoutFileSystem(() =>
      decideSquadDirMigration(state({ ...moved, agentFolders: ['rai'], teamTexts: [{ path: '.ai-team/agents/rai/charter.md', text: '`.squad/agents/Rai/x.md`' }] }), now),
    );
    expect(renamedBefore.rewrites.map((rewrite) => rewrite.content)).toEqual(['`.ai-team/agents/rai/x.md`']);
  });

  it('a squad that never lived in .squad/ keeps its text: what it says about .squad/ is its own', () => {
    const text = 'Decision: block `.squad/**` when we move there.\n';
    const plan = withoutFileSystem(() =>
      decideSquadDirMigration(state({ original: false, ours: true, cameFromSquadDir: false, teamTexts: [{ path: '.ai-team/decisions.md', text }] }), now),
    );
    expect(plan.changes).toEqual([]);
  });

  it('a .squad/ recreated beside .ai-team/ is refused with its files named and .ai-team/ kept; a second team is refused as two squads', () => {
    expect(() => decideSquadDirMigration(state({ ours: true, recreated: ['.squad/decisions/inbox/a.md'] }), now)).toThrow(
      /\.squad\/ was recreated beside the squad in \.ai-team\/ \(1 file: \.squad\/decisions\/inbox\/a\.md\)/,
    );
    expect(() => decideSquadDirMigration(state({ ours: true }), now)).toThrow(/two squads/);
  });
});
