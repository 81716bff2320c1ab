/**
 * routing.md as routing reads it (src/core/squad/routing-table.ts) and the ranking of members by
 * what distinguishes them (src/core/squad/member-rank.ts): layouts written here in our own words,
 * shaped like create-squad's own routing.md and like the original Squad's.
 */
import { describe, expect, it } from 'vitest';
import { cellNames, matchRoutingRows, parseRoutingTable, routingTerms } from '../../src/core/squad/routing-table.js';
import { charterParts, rankMembers, type MemberTexts } from '../../src/core/squad/member-rank.js';

/** create-squad's layout: Work Type | Route To | Role, the Scribe last. */
const OWN_LAYOUT = `# Routing

How work is routed to the team.

## Routing Table

| Work Type | Route To | Role |
|-----------|----------|------|
| Architecture, scope, priorities, code review, technical decisions | Mercer | Lead |
| Payment flows: checkout, refunds, invoices | Okafor | Backend Dev |
| Screens, widgets and styling | Lind | Frontend Dev |
| Session logs, merging the decisions inbox (automatic, never for user work) | Scribe | Session Logger |

## Rules

1. Route each request to the member whose row matches it best.
`;

/** The original Squad's layout: emoji, links, bold, "Name (role)", several names, placeholders, a label table. */
const ORIGINAL_LAYOUT = `# Work Routing

## Routing Table

| Work Type | Route To | Examples |
|-----------|----------|----------|
| {domain 1} | {Name} | {example tasks} |
| Code review | {Name} | Review PRs |
| Storage & caching | [Okafor](https://example.org/okafor) 🗄️ | Redis keys, cache eviction, bucket layouts |
| Accessibility | **Lind** (Frontend Dev) | Screen readers, contrast, keyboard focus |
| Release notes, changelogs | Mercer, Lind | Weekly notes, version history |
| Budget approval | Priya 👤 | Spending over the monthly cap |
| Async issue work | @copilot 🤖 | Well-defined chores |
| Session logging | Scribe | Automatic — never needs routing |

## Issue Routing

| Label | Action | Who |
|-------|--------|-----|
| \`squad\` | Triage the issue, assign a member label | Lead |
| \`squad:{name}\` | Pick up the issue | Named member |
| \`area:storage\` | Storage issues | Okafor 🗄️ |

\`\`\`
| Work Type | Route To | Examples |
|-----------|----------|----------|
| Inside a fence | Nobody | never read |
\`\`\`
`;

describe('parseRoutingTable', () => {
  it("reads create-squad's own layout: the work type, the member, the role cell as an example", () => {
    const { rows, labels } = parseRoutingTable(OWN_LAYOUT);
    expect(rows.map((r) => [r.line, r.workType, r.names, r.examples])).toEqual([
      [9, 'Architecture, scope, priorities, code review, technical decisions', ['Mercer'], 'Lead'],
      [10, 'Payment flows: checkout, refunds, invoices', ['Okafor'], 'Backend Dev'],
      [11, 'Screens, widgets and styling', ['Lind'], 'Frontend Dev'],
      [12, 'Session logs, merging the decisions inbox (automatic, never for user work)', ['Scribe'], 'Session Logger'],
    ]);
    expect(labels).toEqual([]);
  });

  it('reads the original layout: links, emoji, bold and roles come off the names; placeholder rows and fenced tables are left out', () => {
    const { rows } = parseRoutingTable(ORIGINAL_LAYOUT);
    expect(rows.map((r) => [r.workType, r.routeTo, r.names])).toEqual([
      ['Storage & caching', 'Okafor', ['Okafor']],
      ['Accessibility', 'Lind (Frontend Dev)', ['Lind']],
      ['Release notes, changelogs', 'Mercer, Lind', ['Mercer', 'Lind']],
      ['Budget approval', 'Priya', ['Priya']],
      ['Async issue work', '@copilot', ['@copilot']],
      ['Session logging', 'Scribe', ['Scribe']],
    ]);
    expect(rows[0]!.examples).toBe('Redis keys, cache eviction, bucket layouts');
    expect(rows[0]!.line).toBe(9);
  });

  it('reads the label table: each label without backticks, with who it goes to', () => {
    const { labels } = parseRoutingTable(ORIGINAL_LAYOUT);
    expect(labels.map((l) => [l.label, l.who, l.names])).toEqual([
      ['squad', 'Lead', ['Lead']],
      ['squad:{name}', 'Named member', ['Named member']],
      ['area:storage', 'Okafor', ['Okafor']],
    ]);
  });

  it('reads CRLF files and a file without any routing table', () => {
    expect(parseRoutingTable(OWN_LAYOUT.replace(/\n/g, '\r\n')).rows.map((r) => r.names[0])).toEqual(['Mercer', 'Okafor', 'Lind', 'Scribe']);
    expect(parseRoutingTable('# Routing\n\nAsk Mercer.\n')).toEqual({ rows: [], labels: [] });
    expect(parseRoutingTable('')).toEqual({ rows: [], labels: [] });
  });

  it('reads a table with Who instead of Route To when it has a work type column', () => {
    const text = '| Area | Who | Notes |\n|---|---|---|\n| Billing | Okafor | invoices |\n\n| Name | Who |\n|---|---|\n| x | y |\n';
    expect(parseRoutingTable(text).rows.map((r) => [r.workType, r.names, r.examples])).toEqual([['Billing', ['Okafor'], 'invoices']]);
  });
});

describe('cellNames', () => {
  it('splits several names and strips what decorates them', () => {
    expect(cellNames('Mercer & Lind')).toEqual(['Mercer', 'Lind']);
    expect(cellNames('Mercer / Lind + Okafor')).toEqual(['Mercer', 'Lind', 'Okafor']);
    expect(cellNames('Lind and Okafor')).toEqual(['Lind', 'Okafor']);
    expect(cellNames('`Mr. Pink` (Tester) 🧪')).toEqual(['Mr. Pink']);
    expect(cellNames('{Name}')).toEqual([]);
    expect(cellNames('—')).toEqual([]);
  });
});

describe('routingTerms', () => {
  const written = (terms: readonly (readonly [string, string])[]) => terms.map(([, word]) => word);

  it('drops generic words and adds the domain word of everyday ones and of an HTTP request line', () => {
    expect(written(routingTerms('Write a check that gets the invoice'))).toEqual(['invoice']);
    expect(written(routingTerms('The orders table needs an index'))).toEqual(['orders', 'table', 'index', 'table→database', 'index→database']);
    expect(written(routingTerms('Add paging to GET /orders'))).toEqual(['paging', 'orders', 'GET /orders→api']);
  });

  it('reads whole families of words per work domain, each task word for itself, and a phrase by its last word', () => {
    const readings = (task: string) => written(routingTerms(task)).filter((word) => word.includes('→'));
    expect(readings('The checkout button overlaps the spinner')).toEqual(['button→ui', 'button→frontend', 'spinner→ui', 'spinner→frontend']);
    expect(readings('Link invoices to customers with a foreign key')).toEqual(['key→database']);
    expect(readings('Rotate the signing key')).toEqual([]);
    expect(readings('Try to break the parser')).toEqual(['break→tests']);
    expect(readings('Rename the helpers in the billing module')).toEqual(['rename→refactoring']);
    expect(readings('Announce the plugin on our blog')).toEqual(['announce→documentation', 'blog→documentation']);
    expect(readings('Keep user names out of the crash reports')).toEqual(['names→privacy', 'names→pii']);
    // A domain name the task writes itself is no second reading; "personality" is not personal data but prompt work.
    expect(readings('The database table is locked')).toEqual([]);
    expect(readings('Give the bot more personality')).toEqual(['personality→prompt']);
    // A phrase whose last word is a stopword is still the whole phrase: "cleanly" alone is no clean-up.
    expect(readings('Clean up the billing module')).toEqual(['up→refactoring']);
    expect(readings('Cancel in-flight requests cleanly when the user quits')).toEqual(['cancel→runtime', 'quits→runtime', 'flight→runtime']);
  });

  it('reads an HTTP method before a route or endpoint as API work', () => {
    expect(written(routingTerms('Add a PATCH route for carts'))).toContain('PATCH route→api');
    expect(written(routingTerms('Patch the route planner'))).not.toContain('PATCH route→api');
  });

  it('leaves nothing of a contraction: "doesn\'t" is no word of the task', () => {
    expect(written(routingTerms("The worker doesn't stop and won't restart; it isn't logged"))).toEqual(['worker', 'stop', 'restart', 'logged']);
  });

  it('reads a pull or merge request as a PR to review, and a feature request as no API work', () => {
    expect(written(routingTerms('Look over the pull request for the ledger'))).toEqual(['pr', 'ledger', 'pr→review']);
    expect(written(routingTerms('Two merge-requests wait'))).toEqual(['two', 'pr', 'wait', 'pr→review']);
    expect(written(routingTerms('Sort the feature requests by votes'))).toEqual(['sort', 'feature', 'requests', 'votes']);
  });
});

describe('matchRoutingRows', () => {
  const { rows } = parseRoutingTable(ORIGINAL_LAYOUT);

  it("matches the task against each row's work type and examples, best first, with the words it held", () => {
    const [best, ...rest] = matchRoutingRows('Redis cache eviction is too eager', rows);
    expect(best!.row.workType).toBe('Storage & caching');
    expect(best!.words).toEqual(['redis', 'cache', 'eviction']);
    expect(rest).toEqual([]);
  });

  it('counts a word of the work type double, and a word many rows hold less', () => {
    const text = '| Work Type | Route To | Examples |\n|---|---|---|\n| Billing | A | invoices, reports |\n| Reports | B | weekly exports |\n| Search | C | reports, ranking |\n';
    const matches = matchRoutingRows('The reports are wrong', parseRoutingTable(text).rows);
    expect(matches.map((m) => m.row.names[0])).toEqual(['B', 'A', 'C']);
    expect(matches[0]!.score).toBeCloseTo(2 * matches[1]!.score);
  });

  it('counts a word and the domain word it stands for once, the better of the two', () => {
    const text = '| Work Type | Route To | Examples |\n|---|---|---|\n| Database | A | table layouts |\n| Reports | B | weekly exports |\n';
    const [both] = matchRoutingRows('The table is wrong', parseRoutingTable(text).rows);
    const [alone] = matchRoutingRows('The database is wrong', parseRoutingTable(text).rows);
    // "table" is an example (weight 1), "table→database" the work type (weight 2): the work type counts, once.
    expect(both!.words).toEqual(['table→database']);
    expect(both!.score).toBeCloseTo(alone!.score);
  });

  it('matches nothing on generic words alone', () => {
    expect(matchRoutingRows('write it and check it', parseRoutingTable(OWN_LAYOUT).rows)).toEqual([]);
  });
});

describe('charterParts', () => {
  it('keeps the ownership part apart and drops what the member does not handle', () => {
    const charter = [
      '# Okafor — Backend Dev',
      '## Identity',
      '- **Role:** Backend Dev',
      '- **Expertise:** payments, refunds',
      '- **Style:** calm',
      '## What I Own',
      '- Checkout and invoices',
      '## Boundaries',
      '**I handle:** ledgers',
      "**I don't handle:** styling (that's Lind)",
    ].join('\n');
    const { owns, rest } = charterParts(charter);
    expect(owns).toContain('payments, refunds');
    expect(owns).toContain('Checkout and invoices');
    expect(owns).toContain('ledgers');
    expect(rest).toContain('calm');
    expect(`${owns}\n${rest}`).not.toContain('styling');
  });
});

describe('rankMembers', () => {
  const member = (id: string, role: string, owns: string, charter = 'We write prompts and keep them short.'): MemberTexts => ({ id, role, owns, charter, skills: '' });

  it('a word every charter holds weighs nothing there, but still counts in the one role that names it', () => {
    const members = [member('ash', 'Lead', 'scope'), member('bo', 'Prompt Engineer', 'agent design'), member('cy', 'Tester', 'test plans')];
    const [top, ...others] = rankMembers(members, 'Reword the prompts of the coordinator');
    expect(top!.id).toBe('bo');
    expect(top!.matches).toEqual({ role: ['prompts'] });
    expect(others.every((o) => o.score === 0)).toBe(true);
  });

  it('counts a task word and the domain word it stands for once: a "readme" is not also documentation', () => {
    const members = [member('ash', 'Documentation', 'readme', 'y'), member('bo', 'Designer', 'badges, social images, readme art', 'y'), member('cy', 'Tester', 'x', 'y')];
    const [top, next] = rankMembers(members, 'Make a social image and a readme badge');
    expect(top!.id).toBe('bo');
    // The better of "readme" (ownership part) and "readme→documentation" (role), not both.
    expect(next!.id).toBe('ash');
    expect(next!.matches).toEqual({ role: ['readme→documentation'] });
    expect(next!.score).toBeCloseTo(rankMembers(members, 'documentation').find((m) => m.id === 'ash')!.score);
  });

  it('the role counts more than the ownership part, and that more than the rest of the charter', () => {
    const members = [member('ash', 'Billing', 'x', 'y'), member('bo', 'Lead', 'billing', 'y'), member('cy', 'Tester', 'x', 'billing')];
    expect(rankMembers(members, 'billing is off by a cent').map((m) => m.id)).toEqual(['ash', 'bo', 'cy']);
  });

  it('two task words side by side as a member owns them name one thing of theirs; the same words apart in a list do not', () => {
    const members = [
      member('ash', 'Agent Author', 'spawn templates and coordinator logic', 'y'),
      member('bo', 'Core Dev', 'the spawn command; templates of the docs site', 'y'),
      member('cy', 'Tester', 'x', 'y'),
    ];
    const [top, next] = rankMembers(members, 'Change the spawn template so decisions stay in view');
    expect(top!.id).toBe('ash');
    expect(top!.matches).toEqual({ owns: ['spawn template', 'spawn', 'template'].sort() });
    // "spawn" and "template" each weigh the same for both; the pair alone tells them apart.
    expect(next!.id).toBe('bo');
    expect(next!.matches).toEqual({ owns: ['spawn', 'template'] });
    expect(top!.score).toBeGreaterThan(next!.score);
  });
});
