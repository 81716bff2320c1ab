/** Writing commands hold the squad lock from their first read to their last write (core/fs/lock.ts). */
import { sweepRepositoryDebris } from '../core/fs/debris.js';
import { withSquadLock } from '../core/fs/lock.js';
import type { CommandContext } from './context.js';

/**
 * Run `work` (read, plan, apply) holding the lock of `root`; a dry run writes nothing and takes
 * no lock. A command that finds the lock taken waits as long as `--wait` allows, else refuses.
 * Once it holds the lock, what killed runs left in the folders create-squad writes is swept
 * (core/fs/debris.ts), so any writing command cleans up after any killed one.
 */
export function underSquadLock<T>(ctx: CommandContext, command: string, dryRun: boolean, work: () => Promise<T>, root = ctx.cwd): Promise<T> {
  if (dryRun) return work();
  return withSquadLock(root, { command, ...(ctx.lockWaitMs === undefined ? {} : { waitMs: ctx.lockWaitMs }), ...(ctx.note ? { onWait: ctx.note } : {}) }, () => {
    sweepRepositoryDebris(root);
    return work();
  });
}
