import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readTasksFile, workDomainClasses, workDomainExamples, workKindExamples } from '../../bench/route-eval.mjs';
import { WORK_DOMAINS_ABOUT, WORK_KINDS_ABOUT } from '../../scripts/train-work-kinds.mjs';
import { templatePath } from '../../src/core/fs/templates.js';
import {
  classifyWorkDomain,
  classifyWorkKind,
  featureCounts,
  GENERAL_DOMAIN,
  shippedWorkDomainModel,
  shippedWorkKindModel,
  trainTaskModel,
  trainWorkKindModel,
  workKindFeatures,
  WORK_DOMAINS_DATA_FILE,
  WORK_KINDS_DATA_FILE,
} from '../../src/core/squad/work-kind-model.js';

describe('workKindFeatures', () => {
  it('holds the stemmed words with stopwords, the pairs of neighbours, the first word and a closing question mark', () => {
    const features = workKindFeatures("Should we keep the carts? Don't guess");
    expect(features).toEqual(expect.arrayContaining(['should', 'we', 'keep', 'cart', 'should we', 'we keep', 'the cart', 'dont', '^should']));
    expect(features).not.toContain('?');
    expect(workKindFeatures('Is the cart enough?')).toContain('?');
  });
});

describe('classifyWorkKind', () => {
  // A small model of our own: phrasings of each kind, to see it learn and explain.
  const model = trainWorkKindModel(
    [
      { task: 'Should we split the billing service or keep it whole?', kind: 'lead' },
      { task: 'Should we buy a search engine or build one?', kind: 'lead' },
      { task: 'Rank these three requests and explain the order', kind: 'lead' },
      { task: 'Rank the open bugs and explain what waits', kind: 'lead' },
      { task: 'Throw broken files at the importer and list what comes back wrong', kind: 'testing' },
      { task: 'Throw huge numbers at the calculator and list what comes back wrong', kind: 'testing' },
      { task: 'Add a dark theme to the settings page', kind: 'work' },
      { task: 'Add paging to the invoice list', kind: 'work' },
      { task: 'Can we get a yes on the launch date', kind: 'approval' },
      { task: 'Can we get a yes on the price change', kind: 'approval' },
    ],
    'a test model',
  );

  it('keeps only features two tasks or more hold, counted per kind', () => {
    expect(model.kinds).toEqual(['lead', 'testing', 'approval', 'work']);
    expect(model.tasks).toEqual([4, 2, 2, 2]);
    expect(featureCounts(model, 'should we')).toEqual([2, 0, 0, 0]);
    expect(featureCounts(model, 'come back')).toEqual([0, 2, 0, 0]);
    expect(featureCounts(model, 'dark')).toBeUndefined();
    expect(model.counts).toHaveLength(model.features.length * model.kinds.length);
  });

  it('finds the kind of a phrasing it learned, with the words that told it as the task wrote them', () => {
    const lead = classifyWorkKind('Should we move the queue or leave it?', model);
    expect(lead.kind).toBe('lead');
    expect(lead.probability).toBeGreaterThan(0.9);
    expect(lead.evidence).toContain('Should we');
    const testing = classifyWorkKind('Throw odd dates at the form and list what comes back wrong', model);
    expect(testing).toMatchObject({ kind: 'testing' });
    expect(testing.evidence.length).toBeGreaterThan(0);
    expect(testing.evidence.length).toBeLessThanOrEqual(3);
  });

  it('is unsure of a task it holds nothing of: the kinds weigh as often as they were seen', () => {
    const unknown = classifyWorkKind('Zebra quartz', model);
    expect(unknown.kind).toBe('lead');
    expect(unknown.probability).toBeLessThan(0.5);
    expect(unknown.evidence).toEqual([]);
  });
});

describe('classifyWorkDomain', () => {
  it("tells a specialist's domain from a general task, with the classes it was given", () => {
    const model = trainTaskModel(
      [
        { task: 'Rotate the leaked token and scrub it from the logs', kind: 'security' },
        { task: 'Scrub the leaked password from the history', kind: 'security' },
        { task: 'Draw a friendlier mascot for the readme', kind: 'visual graphic' },
        { task: 'Draw icons for the three plans', kind: 'visual graphic' },
        { task: 'Add a retry to the upload', kind: GENERAL_DOMAIN },
        { task: 'Add a filter to the list', kind: GENERAL_DOMAIN },
      ],
      ['security', 'visual graphic', GENERAL_DOMAIN],
      'a test model',
    );
    expect(classifyWorkDomain('The leaked key is in the logs: scrub it', model)).toMatchObject({ kind: 'security' });
    expect(classifyWorkDomain('Draw a banner', model)).toMatchObject({ kind: 'visual graphic' });
    expect(() => trainTaskModel([{ task: 'x', kind: 'nope' }], ['security', GENERAL_DOMAIN], 'x')).toThrow(/unknown kind "nope"/);
  });
});

describe('the shipped models', () => {
  const { memberTasks } = readTasksFile() as { memberTasks: { task: string; half: string }[] };
  const heldOut = new Set(memberTasks.filter((t) => t.half === 'held-out').map((t) => t.task));

  it('are what the tuned tasks of the evaluation teach, never its held-out half: run `npm run train:routing` after changing them', () => {
    expect(heldOut.size).toBeGreaterThan(0);
    const kinds = workKindExamples();
    expect(kinds.filter((e) => heldOut.has(e.task))).toEqual([]);
    expect(fs.readFileSync(templatePath(WORK_KINDS_DATA_FILE), 'utf8')).toBe(`${JSON.stringify(trainWorkKindModel(kinds, WORK_KINDS_ABOUT))}\n`);
    expect(shippedWorkKindModel().tasks.reduce((a, b) => a + b, 0)).toBe(kinds.length);
    const domains = workDomainExamples();
    expect(domains.filter((e) => heldOut.has(e.task))).toEqual([]);
    expect(fs.readFileSync(templatePath(WORK_DOMAINS_DATA_FILE), 'utf8')).toBe(`${JSON.stringify(trainTaskModel(domains, workDomainClasses(), WORK_DOMAINS_ABOUT))}\n`);
    expect(shippedWorkDomainModel().kinds.at(-1)).toBe(GENERAL_DOMAIN);
  });
});
