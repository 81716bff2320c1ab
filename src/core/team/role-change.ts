/**
 * Changing a member's role: `planRoleChange` reads what role-change-plan.ts decideRoleChange decides
 * from (retire.ts readMemberChangeState) and decides at once.
 */
import { checkRoles } from '../roster/roles.js';
import { readMemberChangeState } from './retire.js';
import { decideRoleChange, type RoleChangePlan } from './role-change-plan.js';

export type { RoleChangePlan } from './role-change-plan.js';

/** Plan giving `wanted` (folder or roster name) the role `typed`. Reads only. */
export function planRoleChange(root: string, wanted: string, typed: string, now = new Date()): Promise<RoleChangePlan> {
  checkRoles([typed]); // a bad role is a usage error before anything is read
  return decideRoleChange(readMemberChangeState(root, 'role', wanted), { role: typed, now });
}
