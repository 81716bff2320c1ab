/**
 * The library offers what a user of it needs to run any writing command as the CLI does: every
 * read step (`read…State`) and every decider (`decide…`) of the core, beside the one applier.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as lib from '../../src/index.js';
import { REPO_ROOT } from '../helpers/cli.js';

/** Deciders that are steps of another decider, not a command's whole decision. */
const INNER_STEPS = new Set(['decideTeamSkillMoves', 'decideBuiltinSkillMoves']);

function exportedSteps(): string[] {
  const core = path.join(REPO_ROOT, 'src', 'core');
  const names = new Set<string>();
  for (const file of fs.readdirSync(core, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue;
    for (const m of fs.readFileSync(path.join(core, file), 'utf8').matchAll(/^export (?:async )?function (decide\w*|read\w*State)\b/gm)) names.add(m[1]!);
  }
  return [...names].filter((name) => !INNER_STEPS.has(name)).sort();
}

describe('the library surface', () => {
  it('exports every read step and decider of the core, and applyPlan', () => {
    const missing = exportedSteps().filter((name) => typeof (lib as Record<string, unknown>)[name] !== 'function');
    expect(missing).toEqual([]);
    expect(typeof lib.applyPlan).toBe('function');
    expect(typeof lib.summarizeChanges).toBe('function');
  });
});
