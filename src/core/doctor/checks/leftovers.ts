/** Debris of interrupted runs (import and skill staging folders, temporary files) and the squad lock. */
import { LOCK_FILE } from '../../fs/lock.js';
import { SKILL_STAGING_PREFIX, TEAM_SKILLS_DIR, isImportStagingDir } from '../../base/paths.js';
import { TEMP_FILE_PATTERN } from '../../fs/fs-safe.js';
import type { FolderEntry } from '../../squad/state.js';
import type { Finding } from '../catalog.js';
import type { DoctorState } from '../read.js';

function tempFile(rel: string): Finding {
  return {
    severity: 'warning',
    code: 'temp-file-leftover',
    path: rel,
    message: `${rel} is a temporary file left by an interrupted write`,
    fix: `delete ${rel}; the file it was written for is intact`,
  };
}

function isSkillStaging(entry: FolderEntry): boolean {
  return entry.folder && entry.name.startsWith(SKILL_STAGING_PREFIX);
}

export function checkLeftovers(state: DoctorState): Finding[] {
  const findings: Finding[] = [];
  for (const { dir, entries } of state.leftovers.outside) {
    for (const entry of entries) {
      const rel = dir === '.' ? entry.name : `${dir}/${entry.name}`;
      if (dir === '.' && entry.folder && isImportStagingDir(entry.name)) {
        findings.push({
          severity: 'warning',
          code: 'import-staging-leftover',
          path: rel,
          message: `${rel}/ is left over from an interrupted import`,
          fix: `run the import again (it starts a fresh staging folder), then delete ${rel}/; nothing in it is lost (it is rebuilt from the .squad file)`,
        });
      } else if (entry.file && TEMP_FILE_PATTERN.test(entry.name)) {
        findings.push(tempFile(rel));
      }
    }
  }
  const visit = (rel: string, entry: FolderEntry) => {
    if (isSkillStaging(entry)) {
      findings.push({
        severity: 'warning',
        code: 'skill-staging-leftover',
        path: rel,
        message: `${rel}/ is left over from an interrupted "skills add"`,
        fix: `delete ${rel}/ and run "create-squad skills add" again`,
      });
    } else if (entry.file && TEMP_FILE_PATTERN.test(entry.name)) {
      findings.push(tempFile(rel));
    }
  };
  // Below a staging folder everything is part of it: said once, by that folder's finding.
  const staging: string[] = [];
  for (const entry of state.leftovers.squadTree) {
    if (staging.some((dir) => entry.rel.startsWith(`${dir}/`))) continue;
    if (isSkillStaging(entry)) staging.push(entry.rel);
    visit(entry.rel, entry);
  }
  // Team skills are written to .github/skills/ (its skills only: the folder is the repository's too).
  for (const entry of state.leftovers.teamSkills) visit(`${TEAM_SKILLS_DIR}/${entry.name}`, entry);
  return findings;
}

/** The squad lock: held by a running command (its writes are in flight), or left by a killed one. */
export function checkLock(state: DoctorState): Finding[] {
  if (state.lock === undefined) return [];
  const { owner, stale } = state.lock;
  const who = owner ? ` (pid ${owner.pid}, ${owner.command})` : '';
  if (stale) {
    return [
      {
        severity: 'warning',
        code: 'stale-lock',
        path: LOCK_FILE,
        message: `${LOCK_FILE} was left by a create-squad that did not finish${who}`,
        fix: 'run the interrupted command again: it takes the lock over and finishes the job',
      },
    ];
  }
  return [
    {
      severity: 'warning',
      code: 'lock-held',
      path: LOCK_FILE,
      message: `a create-squad is writing here now${who}: what doctor read may be half updated`,
      fix: `run doctor again when it has finished; if no create-squad is running, delete ${LOCK_FILE}`,
    },
  ];
}
