import { describe, expect, it } from 'vitest';
import { addRuleToText, classifyInstruction, instructionContentProblem, readRulesSection, ruleText } from '../../src/core/squad/standing-rules.js';
import { taskTrigger } from '../../src/core/squad/teach.js';

describe('classifyInstruction', () => {
  it.each([
    // standing rules: what holds in every task
    ['Use tabs', 'rule'],
    ['Use tabs for indentation', 'rule'],
    ['use pnpm for installs, not npm', 'rule'],
    ['Always use Tailwind CSS for styling', 'rule'],
    ['Never commit to main', 'rule'],
    ["Don't use default exports", 'rule'],
    ['Do not add dependencies without asking', 'rule'],
    ['Prefer composition over inheritance', 'rule'],
    ['Avoid lodash in new code.', 'rule'],
    ['Commit messages must be in the imperative mood', 'rule'],
    ['Keep functions under 40 lines', 'rule'],
    ['Before you push, always run the linter', 'rule'],
    ['Squash-merge every pull request', 'rule'],
    // procedures: how to do one kind of task
    ['To release: 1. bump the version\n2. tag it\n3. push the tag', 'procedure'],
    ['Releasing:\n- update CHANGELOG.md\n- run npm version\n- push the tag', 'procedure'],
    ['First run the migrations, then seed the database, then restart the API.', 'procedure'],
    ['How to add an endpoint: write the handler in src/api and register it in routes.ts.', 'procedure'],
    ['When you deploy, run the smoke tests against staging.', 'procedure'],
    ['Write the test. Make it fail. Fix the code and run the suite.', 'procedure'],
  ])('%j → %s', (text, kind) => {
    expect(classifyInstruction(text).kind).toBe(kind);
  });

  it('gives a reason, and a forced kind wins', () => {
    expect(classifyInstruction('Never commit to main').reason).toMatch(/always|never/);
    expect(classifyInstruction('Never commit to main', 'procedure').kind).toBe('procedure');
    expect(classifyInstruction('1. a\n2. b', 'rule')).toEqual({ kind: 'rule', reason: 'asked for with --rule' });
  });
});

describe('instructionContentProblem', () => {
  it.each([[''], ['   '], ["Don't"], ['do not'], ['!!!'], ['...?'], ['always'], ['Never!'], ['Please make sure you do it'], ['use it']])('refuses %j', (text) => {
    expect(instructionContentProblem(text)).toBeDefined();
  });

  it.each([['Use tabs'], ["Don't push"], ['日本語だけ'], ['no any']])('accepts %j', (text) => {
    expect(instructionContentProblem(text)).toBeUndefined();
  });
});

describe('rules in a text', () => {
  it('adds a section at the end, keeping every line, then bullets after the last one', () => {
    const charter = '# Fenster\n\n## Boundaries\n\n- Stays in scope.\n';
    const once = addRuleToText(charter, 'Use tabs.');
    expect(once).toBe(
      `${charter}\n## Standing rules\n\nRules the user taught me. They hold in every task, without being reminded; a newer one wins over an older one.\n\n- Use tabs.\n`,
    );
    const twice = addRuleToText(once, 'Never commit to main.');
    expect(twice.endsWith('- Use tabs.\n- Never commit to main.\n')).toBe(true);
    expect(readRulesSection(twice)).toEqual(['Use tabs.', 'Never commit to main.']);
  });

  it('inserts into a section followed by another, leaving the rest as it was', () => {
    const text = '# X\n\n## Standing rules\n\n- One.\n\n## Notes\n\n- not a rule\n';
    const next = addRuleToText(text, 'Two.');
    expect(next).toBe('# X\n\n## Standing rules\n\n- One.\n- Two.\n\n## Notes\n\n- not a rule\n');
    expect(readRulesSection(next)).toEqual(['One.', 'Two.']);
  });

  it('writes a rule on one line ending with a full stop', () => {
    expect(ruleText('  use\n tabs ')).toBe('use tabs.');
    expect(ruleText('Never!')).toBe('Never!');
  });
});

describe('taskTrigger', () => {
  it.each([
    ['When you deploy, run the smoke tests.', 'when you deploy'],
    ['Before a release: bump the version.', 'before a release'],
    ['For database migrations, write a down step.', 'for database migrations'],
    ['Run the smoke tests.', undefined],
  ])('%j → %j', (text, trigger) => {
    expect(taskTrigger(text)).toBe(trigger);
  });
});
