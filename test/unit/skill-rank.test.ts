/**
 * Skill ranking beyond plain BM25F: synonyms (built in and the squad's own), spellings the
 * tokenizer would lose (C#), pairs of task words a skill holds side by side, and names that run
 * words together ("dockerfile"). Each fixture is a small hand-written collection where exactly one
 * of these decides which skill comes first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rankDocuments, synonymTable, type TextDocument } from '../../src/core/base/text-match.js';
import { buildSpawnPrompt } from '../../src/core/prompt/spawn-prompt.js';
import type { DiscoveredSkill } from '../../src/core/squad/discover.js';
import { builtInSkillSynonyms, rankSkills, skillQuery } from '../../src/core/squad/skill-rank.js';
import { SYNONYM_GROUPS, SYNONYM_ONE_WAY } from '../../src/core/squad/skill-synonyms.js';
import { parseTeamSynonyms, readTeamSynonyms, TEAM_SYNONYMS_MAX_BYTES, TEAM_SYNONYMS_PATH } from '../../src/core/squad/team-synonyms.js';
import { cleanupTempDirs, tempDir, validSkill, writeFiles } from '../helpers/cli.js';
import { promptSquad } from '../helpers/prompt-squad.js';

afterAll(cleanupTempDirs);

function skill(name: string, description: string): DiscoveredSkill {
  return { name, dirName: name, description, location: `.github/skills/${name}/SKILL.md`, scope: 'team', valid: true, disableModelInvocation: false } as DiscoveredSkill;
}

const first = (task: string, skills: readonly DiscoveredSkill[]) => rankSkills(task, skills)[0]?.skill.name;

/** Skills on other topics, so that the words of a fixture are rare enough to count. */
const others = Array.from({ length: 12 }, (_, i) => skill(`topic-${i}`, `Conventions for business area ${i}: naming, folders and reviews.`));

describe('synonyms', () => {
  it('a task word counts for a built-in synonym the description uses, both ways', () => {
    const skills = [
      ...others,
      skill('cluster-ops', 'Operate Kubernetes clusters: rollouts, pods and node pools.'),
      skill('queue-ops', 'Operate message queues and their consumers.'),
    ];
    expect(first('The k8s rollout is stuck', skills)).toBe('cluster-ops');
    const short = [...others, skill('cluster-notes', 'Notes on running k8s in production.')];
    expect(first('Our Kubernetes upgrade plan', short)).toBe('cluster-notes');
  });

  it('explains a match through a synonym by the word the task wrote, and counts it toward coverage', () => {
    const skills = [...others, skill('cluster-ops', 'Operate Kubernetes clusters.')];
    const [hit] = rankSkills('k8s', skills);
    expect(hit?.terms).toEqual(['k8s']);
    expect(hit?.coverage).toBe(1);
  });

  it('a one-way synonym does not count the other way: "slow" finds performance, "performance" does not find "slow"', () => {
    const skills = [...others, skill('db-tuning', 'Database performance tuning.'), skill('slow-log', 'Read the slow query log.')];
    expect(first('The orders page is slow', skills)).toBe('slow-log');
    expect(rankSkills('performance', skills).map((m) => m.skill.name)).toEqual(['db-tuning']);
  });

  it('every built-in synonym is a single word after stemming, so none is silently dropped', () => {
    const table = builtInSkillSynonyms();
    for (const group of SYNONYM_GROUPS) {
      const multiWord = group.filter((word) => /[^a-z0-9]/i.test(word) && word !== 'end-to-end');
      expect(multiWord, group.join(', ')).toEqual([]);
    }
    for (const { from } of SYNONYM_ONE_WAY) expect(/^[a-z0-9]+$/.test(from), from).toBe(true);
    expect(table.get('k8s')).toEqual(['kubernet']);
  });

  it('with synonym weight 1, a synonym scores exactly as the word it stands for', () => {
    const docs: TextDocument[] = [
      { id: 'a', fields: { name: 'cluster ops', description: 'Operate Kubernetes clusters and pods' } },
      { id: 'b', fields: { name: 'queue ops', description: 'Operate queues' } },
      { id: 'c', fields: { name: 'notes', description: 'Kubernetes notes on kubernetes' } },
    ];
    const synonyms = synonymTable([['k8s', 'kubernetes']]);
    const viaSynonym = rankDocuments(docs, 'k8s pods', { synonyms, synonymWeight: 1 });
    const direct = rankDocuments(docs, 'kubernetes pods');
    expect(viaSynonym.map((d) => [d.id, d.score, d.coverage])).toEqual(direct.map((d) => [d.id, d.score, d.coverage]));
    // At the default weight a synonym counts less than the word itself.
    expect(rankDocuments(docs, 'k8s', { synonyms })[0]!.score).toBeLessThan(rankDocuments(docs, 'kubernetes')[0]!.score);
  });
});

describe('spellings the tokenizer would lose', () => {
  it('C#, F#, C++ and .NET are read as the names skills spell them', () => {
    expect(skillQuery('Fix the C# and c++ code, then the .NET build and the F# script')).toBe('Fix the  csharp  and  cpp  code, then the  dotnet  build and the  fsharp  script');
    // Not inside a word: "ABC#1" is an issue number, "asp.net" keeps its own spelling.
    expect(skillQuery('see ABC#1 in asp.net')).toBe('see ABC#1 in asp.net');
    const skills = [...others, skill('csharp-async', 'Best practices for async programming.'), skill('python-async', 'Best practices for async programming.')];
    expect(first('Our C# service deadlocks on async calls', skills)).toBe('csharp-async');
  });
});

describe('phrases and names run together', () => {
  it('a skill holding two task words side by side ranks above one holding them apart', () => {
    const skills = [
      ...others,
      skill('push-guard', 'Guard the code: scanning every push for keys, blocking secrets.'),
      skill('static-analysis', 'Set up code scanning for every push.'),
    ];
    expect(first('Set up code scanning', skills)).toBe('static-analysis');
    const [apart, together] = ['push-guard', 'static-analysis'].map((name) => rankSkills('code scanning', skills).find((m) => m.skill.name === name)!.score);
    expect(together).toBeGreaterThan(apart!);
  });

  it('a name word that begins with a task word of five letters or more counts as it; a shorter one does not', () => {
    const skills = [...others, skill('multi-stage-dockerfile', 'Smaller images with several build stages.'), skill('image-resizer', 'Resize images for the web.')];
    expect(first('Shrink our docker images', skills)).toBe('multi-stage-dockerfile');
    expect(rankSkills('docker', skills)[0]?.terms).toEqual(['docker']);
    // "code" is four letters: it does not meet "codeql".
    expect(rankSkills('code', [...others, skill('codeql', 'Static analysis.')])).toEqual([]);
    // Only names: a description's run-together word is not matched by its start.
    expect(first('Same editor settings everywhere', [...others, skill('editorconfig', 'Shared indentation rules.')])).toBe('editorconfig');
    expect(rankSkills('editor', [...others, skill('formatting', 'Write an editorconfig file.')])).toEqual([]);
  });
});

describe('the squad synonyms file', () => {
  it('reads each list item as a group, lowercased; headings, prose and one-word items are ignored', () => {
    const text = ['# Our words', '', 'We say basket for cart.', '- Basket: cart, trolley', '* CI:  pipeline ', '- lonely:', '- : nothing', 'not: a list item'].join('\n');
    expect(parseTeamSynonyms(text)).toEqual([
      ['basket', 'cart', 'trolley'],
      ['ci', 'pipeline'],
    ]);
  });

  it('is absent, empty or only prose: no table', () => {
    const root = tempDir();
    expect(readTeamSynonyms(root)).toBeUndefined();
    writeFiles(root, { [TEAM_SYNONYMS_PATH]: '# Synonyms\n\nNone yet.\n' });
    expect(readTeamSynonyms(root)).toBeUndefined();
  });

  it('an oversized file is read up to its last whole line within the limit, never refused', () => {
    const root = tempDir();
    const filler = `- filler: ${'x'.repeat(60)}\n`.repeat(Math.ceil(TEAM_SYNONYMS_MAX_BYTES / 70) + 10);
    writeFiles(root, { [TEAM_SYNONYMS_PATH]: `- basket: cart\n${filler}- late: word\n` });
    const table = readTeamSynonyms(root)!;
    expect(table.get('basket')).toEqual(['cart']);
    expect(table.has('late')).toBe(false);
  });

  it('a synonyms file that links out of the repository is refused as every squad file is', () => {
    const root = tempDir();
    const outside = tempDir();
    writeFiles(outside, { 'words.md': '- basket: cart\n' });
    fs.mkdirSync(path.join(root, '.ai-team'), { recursive: true });
    fs.symlinkSync(path.join(outside, 'words.md'), path.join(root, TEAM_SYNONYMS_PATH));
    expect(() => readTeamSynonyms(root)).toThrow(expect.objectContaining({ code: 'unsafe-path' }));
  });

  it("the prompt ranks with the squad's synonyms: a lightweight spawn inlines the skill only the team's word finds", async () => {
    const root = promptSquad();
    writeFiles(root, { '.github/skills/cart-rules/SKILL.md': validSkill('cart-rules', 'Rules for the shopping cart: totals, discounts and limits.') });
    const task = 'The basket is broken';
    const before = await buildSpawnPrompt({ root, agent: 'fenster', task, mode: 'lightweight', env: {} });
    expect(before.mode).toBe('standard');
    writeFiles(root, { [TEAM_SYNONYMS_PATH]: '# Synonyms\n\n- basket: cart\n' });
    const after = await buildSpawnPrompt({ root, agent: 'fenster', task, mode: 'lightweight', env: {} });
    expect(after.mode).toBe('lightweight');
    expect(after.skills.filter((s) => s.inlined).map((s) => s.name)).toEqual(['cart-rules']);
  });
});
