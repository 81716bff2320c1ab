/**
 * The audit over 437 real public skills (their SKILL.md files, in ../shared/data/skills-corpus.tgz;
 * skipped with a message when it is absent): none needs consent, and what is listed is what the
 * skills really declare (MCP servers, allowed tools).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { auditSkill, findingsNeedingConsent } from '../../src/core/skills/audit.js';
import { REPO_ROOT, cleanupTempDirs, tempDir } from '../helpers/cli.js';

afterAll(cleanupTempDirs);

const CORPUS = path.resolve(REPO_ROOT, '..', 'shared', 'data', 'skills-corpus.tgz');
const present = fs.existsSync(CORPUS);
if (!present) console.warn(`skipping the audit of real skills: ${CORPUS} is not there`);

describe.skipIf(!present)('the audit of real public skills', () => {
  it('flags none for consent; lists only the MCP servers and allowed tools they declare', () => {
    const dir = tempDir('audit-corpus-');
    const untar = spawnSync('tar', ['-xzf', CORPUS, '-C', dir], { encoding: 'utf8' });
    expect(untar.status, untar.stderr).toBe(0);
    const files = fs
      .readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((rel) => rel.endsWith('SKILL.md'))
      .sort();
    expect(files.length).toBe(437);
    const flagged: string[] = [];
    const listed = new Map<string, number>();
    for (const rel of files) {
      const audit = auditSkill(path.basename(path.dirname(rel)), [{ path: 'SKILL.md', bytes: fs.readFileSync(path.join(dir, rel)), executable: false }]);
      for (const finding of findingsNeedingConsent(audit)) flagged.push(`${rel}: ${finding.rule} line ${finding.line}: ${finding.excerpt}`);
      for (const rule of new Set(audit.findings.map((finding) => finding.rule))) listed.set(rule, (listed.get(rule) ?? 0) + 1);
    }
    expect(flagged).toEqual([]);
    expect(Object.fromEntries([...listed].sort())).toEqual({ 'allowed-tools': 11 });
  });
});
