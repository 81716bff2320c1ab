/**
 * The squad lock: held by a running command (its writes are in flight), left by a killed one (the
 * next writing command takes it over), one of another host or something that is not a lock at all
 * (every writing command refuses until it is removed), and the files a killed writer left beside it.
 */
import { LOCK_FILE, type LockOwner } from '../../fs/lock.js';
import type { Finding } from '../catalog.js';
import type { DoctorState } from '../read.js';

function who(owner: LockOwner | undefined): string {
  return owner ? ` (pid ${owner.pid}, ${owner.command})` : '';
}

function statusFinding(status: NonNullable<DoctorState['lock']>['status']): Finding | undefined {
  switch (status.state) {
    case 'free':
      return undefined;
    case 'held':
      return {
        severity: 'warning',
        code: 'lock-held',
        path: LOCK_FILE,
        message: `a create-squad is writing here now${who(status.owner)}: what doctor read may be half updated`,
        fix: `run doctor again when it has finished; if no create-squad is running, delete ${LOCK_FILE}`,
      };
    case 'stale': {
      const why = status.reason === 'reused' ? `; pid ${status.owner.pid} now belongs to a process started after the lock was taken` : '';
      return {
        severity: 'warning',
        code: 'stale-lock',
        path: LOCK_FILE,
        message: `${LOCK_FILE} was left by a create-squad that did not finish${who(status.owner)}${why}`,
        fix: 'run the interrupted command again: it takes the lock over and finishes the job (any writing command takes it over)',
      };
    }
    case 'elsewhere': {
      const { host, pid, command, started } = status.owner;
      return {
        severity: 'warning',
        code: 'lock-other-host',
        path: LOCK_FILE,
        message: `${LOCK_FILE} was taken on another host, ${host} (pid ${pid}, ${command}) since ${started || 'an unknown time'}: writing commands here wait for it and never take it over`,
        fix: `if no create-squad runs on ${host} any more, delete ${LOCK_FILE}`,
      };
    }
    case 'obstructed':
      return {
        severity: 'error',
        code: 'lock-obstructed',
        path: LOCK_FILE,
        message: `${LOCK_FILE} is ${status.what}, not a create-squad lock: every writing command refuses to run`,
        fix: `remove ${LOCK_FILE} (it is ${status.what}, not a create-squad lock); create-squad never removes what it did not make`,
      };
  }
}

export function checkLock(state: DoctorState): Finding[] {
  if (state.lock === undefined) return [];
  const findings: Finding[] = [];
  const status = statusFinding(state.lock.status);
  if (status) findings.push(status);
  for (const name of state.lock.debris) {
    findings.push({
      severity: 'warning',
      code: 'lock-debris',
      path: name,
      message: `${name} was left beside the lock by a create-squad that was killed`,
      fix: `run any writing command (it removes it), or delete ${name}`,
    });
  }
  return findings;
}
