import { describe, expect, it } from 'vitest';
import { WORK_KIND_PHRASES, workKindPhrase, type WorkKind } from '../../src/core/squad/work-kind.js';

/** Tasks of each kind as a user types them, and look-alikes that are not that kind of work. */
const CASES: Record<WorkKind, { is: [task: string, phrase: string][]; isNot: string[] }> = {
  testing: {
    is: [
      ['Write tests that an archived invoice can still be downloaded', 'Write tests'],
      ['We need integration tests for the refund webhook', 'need integration tests'],
      ['Test the checkout with an expired card', 'Test'],
      ['Try very long coupon codes and see what breaks', 'Try very long'],
      ['Try malformed CSV files on the importer', 'Try malformed'],
      ['Poke at the signup form', 'Poke at'],
      ['What happens when two tabs submit the same cart?', 'What happens when'],
      ["Double-check that yesterday's tax change didn't touch refunds", 'Double-check'],
      ['Someone says totals are off; confirm it and list the steps', 'confirm it'],
      ['Reproduce the crash from the support ticket', 'Reproduce'],
      ['Make sure the export still works after the upgrade', 'still works'],
      ['Verify the fix for the double charge', 'Verify the fix'],
    ],
    isNot: [
      'Add a test button to the admin page',
      'Check whether the payment provider supports refunds in euros',
      'Try the new logo on the landing page',
      'Confirm the release date with the shop owner',
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
    ],
    isNot: ['How should we call the SDK to stream replies?', 'Review what the analytics collect and whether we disclose it', 'The form should remember the last value'],
  },
  'lead-question': {
    is: [
      ['Which endpoints go into this sprint?', 'sprint'],
      ['Look over the pull request for the cart', 'pull request'],
      ['Can the export wait? Defer it if so', 'Defer'],
    ],
    isNot: ['Speed up the cart page'],
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
    ],
    isNot: ['Show the order count on the dashboard', 'Send a receipt when an order ships'],
  },
};

describe('workKindPhrase', () => {
  for (const [kind, { is, isNot }] of Object.entries(CASES) as [WorkKind, (typeof CASES)[WorkKind]][]) {
    it(`finds ${kind} by its phrasing, and not in look-alikes`, () => {
      for (const [task, phrase] of is) expect(workKindPhrase(task, kind), task).toBe(phrase);
      for (const task of isNot) expect(workKindPhrase(task, kind), task).toBeUndefined();
    });
  }

  it('has cases for every kind of the table', () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(WORK_KIND_PHRASES).sort());
  });
});
