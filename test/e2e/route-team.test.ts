/**
 * `route` follows the team (issue 29): routing.md's rows first, then issue labels, then the
 * members' roles and charters by what distinguishes them; a human is asked, never spawned; a
 * lightweight spawn needs a strong, specific skill match. Through `main`, on a fresh squad.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, initSquad, runCli, runOk } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

interface RouteJson {
  agent: string;
  role: string | undefined;
  mode: string;
  reason: string;
  matched: boolean;
  routedBy: { source: string; label?: string; row?: { line: number; workType: string; routeTo: string }; words: string[]; margin: number };
  ask?: { name: string; displayName: string; role: string | undefined };
  humans?: { name: string }[];
}

/** A fresh squad with a Frontend Dev and a Backend Dev hired. */
async function fullSquad(): Promise<string> {
  const root = await initSquad(['--yes']);
  await runOk(root, ['hire', 'frontend']);
  await runOk(root, ['hire', 'backend']);
  return root;
}

async function route(root: string, ...args: string[]): Promise<RouteJson> {
  const result = await runCli(['route', ...args, '--json'], { cwd: root });
  expect(result.code, result.stderr).toBe(0);
  return result.data<RouteJson>();
}

function appendTo(root: string, rel: string, edit: (text: string) => string): void {
  const file = path.join(root, rel);
  fs.writeFileSync(file, edit(fs.readFileSync(file, 'utf8')));
}

describe('route on a fresh squad', () => {
  it("sends an endpoint to the Backend Dev's routing row, not to a charter's incidental words", async () => {
    const root = await fullSquad();
    const paging = await route(root, 'Add pagination to GET /todos');
    expect(paging.role).toBe('Backend Dev');
    expect(paging.routedBy.source).toBe('routing-table');
    expect(paging.routedBy.row?.workType).toBe('APIs, services, data access, server-side logic');
    expect(paging.routedBy.words).toEqual(['pagination→api', 'GET /todos→api']);
    expect(paging.reason).toMatch(/^routing\.md line \d+ routes "APIs, services, data access, server-side logic" to \w+ \(matched "pagination→api", "GET \/todos→api"; margin 1\)/);
  });

  it('sends "fix …" to the row of bug fixes, though "fix" is a stopword for skills', async () => {
    const root = await initSquad(['--yes']);
    const crash = await route(root, 'Fix the crash when the config file is empty');
    expect(crash.role).toBe('Core Dev');
    expect(crash.routedBy).toMatchObject({ source: 'routing-table', words: ['fix'] });
  });

  it('gives incidental words ("tests", "write") a standard spawn, and a strong specific skill match a lightweight one with its margin', async () => {
    const root = await fullSquad();
    const tests = await route(root, 'write tests for the login form');
    expect(tests.role).toBe('Tester');
    expect(tests.mode).toBe('standard');
    expect(tests.reason).toContain('standard mode because the best skill');

    fs.mkdirSync(path.join(root, '.ai-team/skills/todo-sync-conflicts'), { recursive: true });
    fs.writeFileSync(
      path.join(root, '.ai-team/skills/todo-sync-conflicts/SKILL.md'),
      '---\nname: todo-sync-conflicts\ndescription: Resolve sync conflicts between offline todo edits and the server copy. Use when a todo sync conflict loses edits.\n---\n\n# Sync conflicts\n\nMerge by field, newest wins.\n',
    );
    const sync = await route(root, 'Offline todo edits conflict with the server copy on sync');
    expect(sync.role).toBe('Backend Dev');
    expect(sync.mode).toBe('lightweight');
    expect(sync.reason).toMatch(/lightweight mode because the task is in a skilled domain \(todo-sync-conflicts: .*margin [\d.]+\)/);
  });

  it('takes a row the team wrote in routing.md over the roles, and names it in the reason and --json', async () => {
    const root = await fullSquad();
    appendTo(root, '.ai-team/routing.md', (text) => text.replace(/(\| Session logs)/, '| Refunds, invoices, double charges | Hockney | Tester |\n$1'));
    const refund = await route(root, 'A customer got a double charge on the invoice');
    expect(refund.agent).toBe('hockney');
    expect(refund.routedBy).toMatchObject({
      source: 'routing-table',
      row: { workType: 'Refunds, invoices, double charges', routeTo: 'Hockney' },
      words: ['double', 'charge', 'invoice'],
      margin: 1,
    });
    const line =
      fs
        .readFileSync(path.join(root, '.ai-team/routing.md'), 'utf8')
        .split('\n')
        .findIndex((l) => l.startsWith('| Refunds')) + 1;
    expect(refund.routedBy.row?.line).toBe(line);

    const text = await runCli(['route', 'A customer got a double charge on the invoice'], { cwd: root });
    expect(text.stdout).toContain(`Why:    routing.md line ${line} routes "Refunds, invoices, double charges" to Hockney (matched "double", "charge", "invoice"; margin 1)`);
  });

  it('answers "ask" for a human member\'s row: never spawned, in text and --json', async () => {
    const root = await fullSquad();
    appendTo(root, '.ai-team/team.md', (text) => text.replace(/(\| Scribe \|)/, '| Dana | Product Owner | — | 👤 Human |\n$1'));
    appendTo(root, '.ai-team/routing.md', (text) => text.replace(/(\| Session logs)/, '| Release sign-off, go/no-go | Dana 👤 | Product Owner |\n$1'));
    const signOff = await route(root, 'We need the release sign-off for 2.0');
    expect(signOff.agent).toBe('');
    expect(signOff.ask).toEqual({ name: 'dana', displayName: 'Dana', role: 'Product Owner' });
    expect(signOff.humans?.map((h) => h.name)).toEqual(['dana']);
    expect(signOff.routedBy.source).toBe('routing-table');

    const text = await runCli(['route', 'We need the release sign-off for 2.0'], { cwd: root });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Ask:    Dana (Product Owner), a human member: never spawned');
    expect(text.stdout).toContain('Dana is a human member: ask them, never spawn them.');
    expect(text.stdout).not.toContain('Next: create-squad prompt');

    // Asking for a yes without naming anyone: the row of approvals names who gives it.
    const goAhead = await route(root, 'The beta is finished. Do we have the go-ahead to turn it on for all users?');
    expect(goAhead.ask?.name).toBe('dana');
    expect(goAhead.routedBy).toMatchObject({ source: 'routing-table', row: { workType: 'Release sign-off, go/no-go' }, words: ['go-ahead'] });
    expect(goAhead.reason).toMatch(/^"go-ahead" asks for a yes, and routing\.md line \d+ routes "Release sign-off, go\/no-go" to Dana/);
  });

  it('routes by an issue label: squad:{name}, a label rule of routing.md, and a label naming a human', async () => {
    const root = await fullSquad();
    const byLabel = await route(root, 'Clean up the README', '--label', 'bug', 'squad:hockney');
    expect(byLabel.agent).toBe('hockney');
    expect(byLabel.routedBy).toEqual({ source: 'label', label: 'squad:hockney', words: [], margin: 1 });

    appendTo(root, '.ai-team/routing.md', (text) => `${text}\n## Issue Routing\n\n| Label | Action | Who |\n|---|---|---|\n| \`area:ui\` | UI issues | Fenster |\n`);
    const rule = await route(root, 'Clean up the README', '--label', 'area:ui');
    expect(rule.agent).toBe('fenster');
    expect(rule.routedBy.row?.workType).toBe('area:ui');
    expect(rule.reason).toMatch(/^the label "area:ui" goes to Fenster \(Core Dev\) \(routing\.md line \d+\)/);

    const nobody = await route(root, 'Clean up the README', '--label', 'squad:nobody');
    expect(nobody.routedBy.source).not.toBe('label');
  });

  it('sends an architecture question to the lead, and a word every charter shares is no evidence', async () => {
    const root = await fullSquad();
    const arch = await route(root, 'Should the sync run in a worker? Weigh the trade-offs');
    expect(arch.role).toBe('Lead');
    expect(arch.mode).toBe('standard');

    const none = await route(root, 'Plan the team offsite');
    expect(none.matched).toBe(false);
    expect(none.routedBy).toEqual({ source: 'default', words: [], margin: 0 });
    expect(none.role).toBe('Lead');
  });

  it('sends implementation work nothing else matched to the implementation row, else the Core Dev by role, never to the lead', async () => {
    const root = await initSquad(['--yes']);
    // Only the HTTP request line says anything, and no row or member holds "api".
    const paging = await route(root, 'Add pagination to GET /todos');
    expect(paging.role).toBe('Core Dev');
    expect(paging.routedBy).toMatchObject({ source: 'routing-table', row: { workType: 'Core implementation: features, refactoring, bug fixes' }, words: ['add'] });
    const line = paging.routedBy.row!.line;
    expect(paging.reason).toMatch(
      new RegExp(`^"add" asks for implementation work, and routing\\.md line ${line} routes "Core implementation: features, refactoring, bug fixes" to Fenster;`),
    );
    const text = await runCli(['route', 'Add pagination to GET /todos'], { cwd: root });
    expect(text.stdout).toContain(
      `Why:    "add" asks for implementation work, and routing.md line ${line} routes "Core implementation: features, refactoring, bug fixes" to Fenster;`,
    );

    // Without that row, the one member whose role handles implementation.
    appendTo(root, '.ai-team/routing.md', (t) => t.replace(/^\| Core implementation.*\n/m, ''));
    const byRole = await route(root, 'Add pagination to GET /todos');
    expect(byRole.role).toBe('Core Dev');
    expect(byRole.routedBy).toEqual({ source: 'charter', words: ['add'], margin: 0 });
    expect(byRole.reason).toMatch(/^"add" asks for implementation work, which Fenster \(Core Dev\) handles by role;/);

    // Work to do that nothing else matched goes to the implementer too; a question or a plan stays with the lead to triage.
    const work = await route(root, 'Pagination for GET /todos');
    expect(work.role).toBe('Core Dev');
    expect(work.routedBy).toEqual({ source: 'charter', words: [], margin: 0 });
    expect(work.reason).toMatch(
      /^no row, role or charter names the task, and it asks for work to be done, not a question or a plan for the lead, which Fenster \(Core Dev\) handles by role;/,
    );
    for (const task of ['Pagination for GET /todos?', 'Plan pagination for GET /todos']) {
      const none = await route(root, task);
      expect(none.role, task).toBe('Lead');
      expect(none.routedBy.source, task).toBe('default');
    }
  });

  it('routes by the kind of work the task asks for: testing to whoever tests, a bug report to whoever implements', async () => {
    const root = await fullSquad();
    // The subject is the API (the Backend Dev's row); the work asked for is testing.
    const tried = await route(root, 'Try malformed JSON bodies on POST /todos and report what breaks');
    expect(tried.role).toBe('Tester');
    expect(tried.routedBy).toMatchObject({ source: 'routing-table', row: { workType: 'Tests, quality checks, edge cases, reproducing bugs' }, words: ['try malformed'] });
    expect(tried.reason).toMatch(/^"Try malformed" asks for testing, and routing\.md line \d+ routes "Tests, quality checks, edge cases, reproducing bugs" to Hockney;/);
    const confirmed = await route(root, 'A user says the todo count is sometimes wrong; confirm it and list the steps');
    expect(confirmed.role).toBe('Tester');

    // A bug report nothing else matched goes to the implementation row, not to the lead.
    const bare = await initSquad(['--yes']);
    const bug = await route(bare, 'Zero-length titles slip through validation; patch it');
    expect(bug.role).toBe('Core Dev');
    expect(bug.reason).toMatch(/^"slip through" reports a bug to fix, and routing\.md line \d+ routes "Core implementation: features, refactoring, bug fixes" to Fenster;/);
    // The verb a task starts with counts in a role, not in a charter's everyday words ("send them back").
    const send = await route(bare, 'Send a reminder when a todo is due');
    expect(send.role).toBe('Core Dev');

    // Without a testing row, the one member whose role title names testing.
    appendTo(root, '.ai-team/routing.md', (t) => t.replace(/^\| Tests, quality checks.*\n/m, ''));
    const byRole = await route(root, 'Write tests that an archived todo can be restored');
    expect(byRole.role).toBe('Tester');
    expect(byRole.routedBy).toEqual({ source: 'charter', words: ['write tests'], margin: 1 });
    expect(byRole.reason).toMatch(/^"Write tests" asks for testing, which Hockney \(Tester\) does by role;/);
  });

  it('reads a phrasing the table does not list by the kinds of work learned from tasks, when nearly sure, and says so', async () => {
    const root = await initSquad(['--yes']);
    // No phrase of work-kind.ts: without the learned kinds, both would be work for the Core Dev.
    const ordered = await route(root, 'Put the three requests in order and explain why we chose that order.');
    expect(ordered.role).toBe('Lead');
    expect(ordered.reason).toMatch(
      /^it reads as the lead's judgement \("[^"]+"(, "[^"]+"){0,2}: 99% by the kinds of work learned from tasks\), and routing\.md line \d+ routes "Architecture, scope, priorities, code review, technical decisions" to Keaton;/,
    );
    const tried = await route(root, 'Run the whole sign-up journey on a phone and write up every rough edge you hit.');
    expect(tried.role).toBe('Tester');
    expect(tried.reason).toContain('it reads as testing (');
    expect(tried.routedBy.words.length).toBeGreaterThan(0);
  });

  it("sends review, planning and either-or decisions to the lead though they name a row's domain", async () => {
    const root = await fullSquad();
    const cases: [task: string, word: string][] = [['Which endpoints go into this sprint?', 'sprint']];
    for (const [task, word] of cases) {
      const got = await route(root, task);
      expect(got.role, task).toBe('Lead');
      expect(got.routedBy, task).toEqual({ source: 'default', words: [word.toLowerCase()], margin: 0 });
      expect(got.reason, task).toMatch(new RegExp(`^"${word}" is a question for \\w+ \\(the lead\\)`));
    }
    // A change to look over goes to the row of code review, whatever the change is about.
    const review = await route(root, 'Look over the pull request that changes GET /todos');
    expect(review.role).toBe('Lead');
    expect(review.routedBy).toMatchObject({
      source: 'routing-table',
      row: { workType: 'Architecture, scope, priorities, code review, technical decisions' },
      words: ['look over the pull request'],
    });
    expect(review.reason).toMatch(/^"Look over the pull request" asks for a code review, and routing\.md line \d+ routes/);
    // A question of judgement goes to the row of the team's decisions before the row of its subject: the subject is REST, the work a decision.
    const decision = await route(root, 'Should we keep REST or move the endpoints to GraphQL?');
    expect(decision.role).toBe('Lead');
    expect(decision.routedBy).toMatchObject({
      source: 'routing-table',
      row: { workType: 'Architecture, scope, priorities, code review, technical decisions' },
      words: ['should we'],
    });
    expect(decision.reason).toMatch(
      /^"Should we" asks for a decision, and routing\.md line \d+ routes "Architecture, scope, priorities, code review, technical decisions" to \w+;/,
    );
    // Without those words, the same domain goes to the Backend Dev's row.
    expect((await route(root, 'Change GET /todos to return the newest first')).role).toBe('Backend Dev');
  });

  it('sends at least 90% of realistic tasks to the role routing.md names', async () => {
    const root = await fullSquad();
    const cases: [string, string][] = [
      ['Add pagination to GET /todos', 'Backend Dev'],
      ['Return 404 from POST /todos/:id/complete for unknown ids', 'Backend Dev'],
      ['Add a server-side check that rejects empty titles', 'Backend Dev'],
      ['The data access layer returns stale rows from the service', 'Backend Dev'],
      ['Cache the database queries of the todo service', 'Backend Dev'],
      ['Style the todo list with the new spacing and colors', 'Frontend Dev'],
      ['Make the settings page accessible to screen readers', 'Frontend Dev'],
      ['The dropdown flickers when the client-side state changes', 'Frontend Dev'],
      ['Write tests for the login form', 'Tester'],
      ['Reproduce the bug where todos vanish after a reload', 'Tester'],
      ['Find edge cases in the due date parser', 'Tester'],
      ['Refactor the date parsing helpers', 'Core Dev'],
      ['Implement the export feature for todo lists', 'Core Dev'],
      ['Decide whether to split the monolith into services', 'Lead'],
      ['Review the pull request for the sync feature', 'Lead'],
      ['Prioritise the backlog for the next release', 'Lead'],
      ['What is the scope of the first release?', 'Lead'],
    ];
    const misses: string[] = [];
    for (const [task, role] of cases) {
      const got = await route(root, task);
      if (got.role !== role) misses.push(`${task} → ${got.role} (expected ${role}): ${got.reason}`);
    }
    expect((cases.length - misses.length) / cases.length, misses.join('\n')).toBeGreaterThanOrEqual(0.9);
  });
});
