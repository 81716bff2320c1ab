import { describe, expect, it } from 'vitest';
import { WORK_KIND_PHRASES, workKindPhrase, type WorkKind } from '../../src/core/squad/work-kind.js';

/** Tasks of each kind as a user types them, and look-alikes that are not that kind of work. */
const CASES: Partial<Record<WorkKind, { is: [task: string, phrase: string][]; isNot: string[] }>> = {
  approval: {
    is: [
      ['Sharing is done. Do we have the go-ahead to turn it on?', 'go-ahead'],
      ['Get a sign-off on the new pricing page', 'sign-off'],
      ['Release go/no-go for Friday', 'go/no-go'],
      ['Is the export ready for customers? We need a yes from product', 'yes'],
      ['Scanning is built and tested. Can we get the thumbs-up to release it?', 'thumbs-up'],
      ['Can we get the product OK on the walkthrough before it launches?', 'OK'],
    ],
    isNot: ['Go ahead and rename the module', 'Sign the release tarball', 'Answer yes or no in the dialog', 'Fix the OK button on the dialog'],
  },
  review: {
    is: [
      ['The PR that rewrites the parser is ready. Review it and approve or reject it.', 'Review it'],
      ['Look over the branch with the returns changes', 'Look over the branch'],
      ['Someone opened a PR that swaps the date library. Give it a critical read.', 'Give it a critical read'],
      ['Someone rewrote the pantry service. Go through the changes and say if they are any good.', 'Go through the changes'],
    ],
    isNot: ['Write a security review of the install script', 'Review what data the analytics collect'],
  },
  testing: {
    is: [
      ['Write tests that an archived invoice can still be downloaded', 'Write tests'],
      ['We need integration tests for the refund webhook', 'need integration tests'],
      ['Test the checkout with an expired card', 'Test'],
      ['Try very long coupon codes and see what breaks', 'Try very long'],
      ['Try malformed CSV files on the importer', 'Try malformed'],
      ['Poke at the signup form', 'Poke at'],
      ['What happens when two tabs submit the same cart?', 'What happens'],
      ['Add the same item fifty times and see what the cart makes of it', 'and see what'],
      ["Double-check that yesterday's tax change didn't touch refunds", 'Double-check'],
      ['Someone says totals are off; confirm it and list the steps', 'confirm it'],
      ['Reproduce the crash from the support ticket', 'Reproduce'],
      ['Make sure the export still works after the upgrade', 'still works'],
      ['Verify the fix for the double charge', 'Verify the fix'],
      ['Nothing covers the refund states. Cover them.', 'Nothing covers'],
      ['Nothing checks the sign-up flow on a small screen', 'Nothing checks'],
      ['Feed the import a file with duplicate rows and list everything that goes wrong', 'goes wrong'],
      ["The count is one short on the first of the month. Don't fix it, just show it happening.", "Don't fix"],
      ['What does the app do when the payment provider takes thirty seconds? Find out.', 'What does the app do when'],
      ['Are the webhook tests enough, or are there holes?', 'tests enough'],
      ['Our browser tests stop after login; carry them on to checkout', 'browser tests'],
      ['Flood the search box with requests for a minute and tell me whether any come back empty', 'tell me whether any'],
      ['Unplug the network halfway through an upload. Tell me where it gives up.', 'Tell me where it'],
      ['Feed the parser truncated files and write down how it copes', 'write down how it copes'],
      ["VAT changes in March. Make sure we'd catch it if a country's rate came out wrong", "we'd catch it if"],
      ['Check that splitting a bill three ways gets every share right', 'Check that splitting a bill three ways gets every share right'],
    ],
    isNot: [
      'Add a test button to the admin page',
      'Check whether the payment provider supports refunds in euros',
      'Try the new logo on the landing page',
      'Confirm the release date with the shop owner',
      "Read the pull request and tell me if it's good to merge",
      'Check that the payment provider exposes refunds',
    ],
  },
  decision: {
    is: [
      ['Should we move the cart to its own service?', 'Should we'],
      ['Is SQLite enough for the order history or do we need Postgres?', 'Is SQLite enough'],
      ['Do we really need a queue for emails?', 'Do we really need'],
      ['Weigh up a hosted plan against self-hosting', 'Weigh up'],
      ['Charging for exports: think it through', 'think it through'],
      ['List the pros and cons of server-side rendering', 'pros and cons'],
      ['Is a rewrite worth it?', 'Is a rewrite worth it'],
      ['Which library should we pick for dates?', 'Which library should'],
      ['Should the cart become a service, or stay in the app?', 'Should the'],
      ['Do we finish the editor plugin or polish the CLI? Make the call.', 'Do we finish the editor plugin or'],
      ['Pick one of the three designs and give us a direction', 'give us a direction'],
      ['The devs disagree whether prices are cents or decimals; settle it', 'disagree whether'],
      ['Find out whether we keep cents or move to decimals', 'whether we keep cents or'],
      ['Where should the shared validation code live?', 'Where should'],
      ['Two weeks: exports, dark mode, or both half done. What is the call?', 'What is the call'],
      ['Would SQLite for self-hosters be a sane choice, or a trap?', 'Would SQLite for self-hosters be a sane'],
      ['Are we building for solo developers or for whole companies?', 'Are we building for solo developers or'],
      ['Calorie goals, a barcode scanner or a kids menu: which do we build first?', 'which do we build first'],
      ['Is it worth rebuilding the CLI around plugins now?', 'Is it worth'],
      ['Caching in the browser against asking the server each time: list what breaks with each and choose.', 'and choose.'],
      ['Pick the three complaints worth fixing before the launch', 'Pick the three complaints worth'],
      ['One wants enums, the other string unions. Break the tie.', 'Break the tie'],
      ['A second query language next to SQL: is that something we would regret?', 'regret'],
    ],
    isNot: [
      'Let two agents argue out a disagreement before a decision is recorded',
      'How should we call the SDK to stream replies?',
      'Review what the analytics collect and whether we disclose it',
      'The form should remember the last value',
      'Let shoppers choose one of their saved cards at checkout',
      'Let people pick which theme the editor opens with',
    ],
  },
  'lead-question': {
    is: [
      ['Which endpoints go into this sprint?', 'sprint'],
      ['Look over the pull request for the cart', 'pull request'],
      ['Can the export wait? Defer it if so', 'Defer'],
      ['Someone opened a PR that swaps the date library; give it a read', 'PR'],
      ['The cart keeps growing: draw the line for version one', 'draw the line'],
      ['We promised three features and cannot do all three. What goes?', 'What goes'],
      ["Skim last week's merges and say where code quality is slipping", 'code quality'],
      ['Read the branch and tell the author what must change before it can merge', 'the author'],
      ['Bulk editing: find what it touches and carve it into pieces of work', 'carve it into pieces'],
    ],
    isNot: [
      'Speed up the cart page',
      'CI never runs the tests on pull requests from forks',
      // How the team merges is a process to set up, not one change to review.
      'PRs get merged while behind main; require them to be up to date first',
    ],
  },
  implementation: {
    is: [
      ['Add pagination to the order list', 'Add'],
      ['Please send a receipt when an order ships', 'Please send'],
    ],
    isNot: ['Pagination for the order list', 'The receipt should be sent'],
  },
  'bug-report': {
    is: [
      ['The discount field accepts codes that expired', 'accepts'],
      ['Zero-quantity orders slip through validation; patch it', 'slip through'],
      ['The order count on the dashboard is sometimes wrong', 'is sometimes wrong'],
      ["The save button doesn't work on Safari", "doesn't work"],
      ['Totals round the wrong way for refunds — fix it', '— fix it'],
      ["The 'Download' button does nothing in Safari. Get it working.", 'does nothing'],
      ['Customers get logged out in a second tab. Sort that out.', 'Sort that out'],
    ],
    isNot: ['Show the order count on the dashboard', 'Send a receipt when an order ships'],
  },
};

// What nothing else matched stays with the lead to triage when it is a question or planning; other requests are work.
CASES.triage = {
  is: [
    ['Pagination for the order list?', '?'],
    ['How do refunds reach the ledger', 'How'],
    ['Rank these for next month: tracking emails, bulk edits', 'Rank'],
    ['Look over the returns branch before I merge', 'Look over'],
    ['Sketch how the order and warehouse services talk', 'Sketch'],
    ['Lay out the order in which we should ship returns', 'Lay out'],
    ['Gift cards or multi-currency this cycle; pick one', 'pick one'],
  ],
  isNot: ['Resize the product photos to 800px and convert them to WebP', 'Pagination for the order list', 'Our Docker image is 1.2 GB; slim it down'],
};

describe('workKindPhrase', () => {
  for (const [kind, { is, isNot }] of Object.entries(CASES) as [WorkKind, NonNullable<(typeof CASES)[WorkKind]>][]) {
    it(`finds ${kind} by its phrasing, and not in look-alikes`, () => {
      for (const [task, phrase] of is) expect(workKindPhrase(task, kind), task).toBe(phrase);
      for (const task of isNot) expect(workKindPhrase(task, kind), task).toBeUndefined();
    });
  }

  it('has cases for every kind of the table', () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(WORK_KIND_PHRASES).sort());
  });
});
