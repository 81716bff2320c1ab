/** Change summaries compared across runs: backups are named by the time of the run, so that part is masked. */
import { squadPaths } from '../../src/core/base/paths.js';
import type { ChangeSummary } from '../../src/core/base/plan.js';

/** A path with the time of its backup folder masked. */
export const stampless = (value: string): string => value.replace(new RegExp(`^(${squadPaths.backups}/)[^/]+/`), '$1<time>/');

/** A summary with every backup time masked and its lists sorted. */
export function normalized(changes: ChangeSummary): ChangeSummary {
  return {
    created: changes.created.map(stampless).sort(),
    replaced: changes.replaced.map(stampless).sort(),
    moved: changes.moved.map((m) => ({ from: stampless(m.from), to: stampless(m.to) })),
    backedUp: changes.backedUp.map((b) => ({ path: b.path, backup: stampless(b.backup) })),
    removed: changes.removed.map(stampless).sort(),
  };
}
