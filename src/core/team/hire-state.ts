/** What a hire decides from, read once (hire.ts decides from it without the disk). */
import { squadPaths } from '../base/paths.js';
import { readStateText } from '../fs/confined.js';
import { SQUAD_CONFIG_PATH } from '../roster/models.js';
import { decideHire, type HireOptions, type HirePlan, type HireState } from './hire.js';
import { checkRoles } from '../roster/roles.js';
import { requireSquad } from '../roster/roster.js';
import { readSquadTree } from '../scaffold/scaffold-state.js';

/** Read what a hire needs; no-squad when there is no squad. */
export function readHireState(root: string): HireState {
  requireSquad(root);
  const configText = readStateText(root, SQUAD_CONFIG_PATH);
  return { ...readSquadTree(root), routingText: readStateText(root, squadPaths.routing), ...(configText === undefined ? {} : { configText }) };
}

/** Plan a hire. Reads only; throws before anything is written when the input or the squad is wrong. */
export async function planHire(root: string, options: HireOptions): Promise<HirePlan> {
  checkRoles([options.role]); // a bad role is a usage error before anything is read
  return decideHire(readHireState(root), options);
}
