/**
 * The scaffold planner's conveniences that read: each is its decision (scaffold-plan.ts, which
 * never touches the disk) taken on what it reads first. Everything of scaffold-plan.ts is offered
 * here too, under the same names, for the modules and the library that import it from here.
 */
import { GITIGNORE_PATH, squadPaths } from '../base/paths.js';
import { packageVersion } from '../fs/version.js';
import { ownedFilesIn, type OwnedFile } from '../squad/owned.js';
import {
  decideScaffold,
  planGitattributesFrom,
  planGitignoreFrom,
  planOwnedFilesIn,
  type AppendPlan,
  type OwnedFilesPlan,
  type ScaffoldOptions,
  type ScaffoldPlan,
} from './scaffold-plan.js';
import { readAppendTarget, readOwnedState, readScaffoldState } from './scaffold-state.js';

export * from './scaffold-plan.js';

/**
 * Plan the scaffold of `root`: readScaffoldState, then decideScaffold. Throws what those throw,
 * and invalid-input for a `root` inside a squad's `.ai-team/` or beside the original Squad's.
 */
export async function planScaffold(root: string, options: ScaffoldOptions = {}): Promise<ScaffoldPlan> {
  const version = options.version ?? packageVersion();
  const owned = await ownedFilesIn(root, version);
  return decideScaffold(readScaffoldState(root, owned), { ...options, version }, owned);
}

/** The .gitattributes lines `root` lacks (the union merge of the append-only state files). */
export async function planGitattributes(root: string): Promise<AppendPlan> {
  return planGitattributesFrom(readAppendTarget(root, squadPaths.gitattributes));
}

/** The .gitignore lines `root` lacks. */
export async function planGitignore(root: string): Promise<AppendPlan> {
  return planGitignoreFrom(readAppendTarget(root, GITIGNORE_PATH));
}

/** The squad-owned files of `root`, planned as planOwnedFilesIn plans them from what was read. */
export function planOwnedFiles(root: string, owned: readonly OwnedFile[]): OwnedFilesPlan {
  return planOwnedFilesIn(readOwnedState(root, owned), owned);
}
