/** Debris of interrupted runs (fs/debris.ts: every temporary name create-squad makes); the squad lock is checks/lock.ts. */
import { AI_TEAM_DIR, IMPORT_MARKER_PATH } from '../../base/paths.js';
import type { DebrisFound, DebrisId } from '../../fs/debris.js';
import type { Finding, FindingCode } from '../catalog.js';
import type { DoctorState } from '../read.js';

/** The finding of each kind of debris, and what it is (its path follows). */
const DEBRIS_FINDINGS: Record<DebrisId, { code: FindingCode; what: string }> = {
  'temp-file': { code: 'temp-file-leftover', what: 'is a temporary file left by an interrupted write (the file it was written for is intact)' },
  probe: { code: 'probe-leftover', what: 'is a writability probe left by an interrupted run' },
  'skill-staging': { code: 'skill-staging-leftover', what: 'is left over from an interrupted skill install (the skill is rebuilt from its source)' },
  'import-staging': { code: 'import-staging-leftover', what: 'is left over from an interrupted import (it is rebuilt from the .squad file)' },
  scratch: { code: 'scratch-leftover', what: "is scratch work of an interrupted run in the repository's temp folder" },
};

function debrisFinding(found: DebrisFound): Finding {
  const { code, what } = DEBRIS_FINDINGS[found.kind.id];
  const shown = found.kind.entry === 'dir' ? `${found.rel}/` : found.rel;
  return {
    severity: 'warning',
    code,
    path: found.rel,
    message: `${shown} ${what}`,
    // An older version's name records no pid: no run can tell it is not in use, so only the user removes it.
    fix:
      found.state === 'unowned'
        ? `remove ${shown} when no create-squad is running; nothing in it is lost`
        : `run any writing command (it removes it), or remove ${shown}; nothing in it is lost`,
  };
}

/**
 * What killed runs left (what a running create-squad is using now is not debris: lock-held says
 * it runs), and an import that stopped after its swap.
 */
export function checkLeftovers(state: DoctorState): Finding[] {
  const findings = state.debris.filter((found) => found.state !== 'live').map(debrisFinding);
  if (state.importUnfinished) {
    findings.push({
      severity: 'warning',
      code: 'import-unfinished',
      path: IMPORT_MARKER_PATH,
      message: `${AI_TEAM_DIR}/ was put in place by an import that did not finish: team skills may still be in ${AI_TEAM_DIR}/skills/, members' Copilot agents missing`,
      fix: 'run the same "create-squad import <file>" again: it finishes the job (it archives nothing, with or without --force)',
    });
  }
  return findings;
}
