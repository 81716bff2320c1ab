/**
 * Whether the squad's hooks can run: the hooks file starts only the repository's own create-squad
 * (base/hook-events.ts), so a repository that does not install it has hooks that do nothing.
 */
import { HOOKS_FILE_PATH, HOOKS_INSTALL_FIX, HOOKS_NOT_INSTALLED, hooksCanRun } from '../../base/hook-events.js';
import type { Finding } from '../catalog.js';
import type { DoctorState } from '../read.js';

/**
 * Reported in a Node project (a package.json) that neither installs nor lists create-squad: there
 * the missing devDependency is an omission with a one-line fix. A repository without package.json
 * hears it from init's last line instead, so that every squad outside a Node project is not
 * flagged on each doctor run.
 */
export function checkHooksInstall(state: DoctorState): Finding[] {
  const install = state.hooksInstall;
  if (install === undefined || !install.packageJson || hooksCanRun(install)) return [];
  return [{ severity: 'warning', code: 'hooks-not-installed', message: HOOKS_NOT_INSTALLED, fix: HOOKS_INSTALL_FIX, path: HOOKS_FILE_PATH }];
}
