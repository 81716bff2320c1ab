/**
 * `create-squad compact [member | --decisions] [--keep N] [--dry-run]`: move older history entries
 * and decisions into the archive beside each file, byte for byte, and merge the decisions inbox
 * into decisions.md (core/context/compaction.ts says exactly how). One plan through the pipeline.
 */
import { usageError } from '../core/base/errors.js';
import { readCompactState, type CompactTarget } from '../core/context/compact-read.js';
import { DEFAULT_KEEP, decideCompaction, type FileCompaction, type InboxMerge } from '../core/context/compaction.js';
import type { CommandContext, CommandResult } from './context.js';
import { type ChangeReport, changeReport, renderChanges, runPlan } from './pipeline.js';

export interface CompactOptions {
  member?: string;
  decisions: boolean;
  /** `--keep` as typed. */
  keep?: string;
  dryRun: boolean;
}

export interface CompactData extends ChangeReport {
  /** What was compacted: "all", "member" or "decisions". */
  target: CompactTarget['kind'];
  keep: number;
  /** Each live file looked at: entries before, moved and kept, characters moved, tokens before and after. */
  files: FileCompaction[];
  inbox: InboxMerge;
}

/** `--keep` as a number of entries: a whole number. */
function parseKeep(text: string | undefined): number {
  if (text === undefined) return DEFAULT_KEEP;
  if (!/^\d{1,6}$/.test(text.trim())) throw usageError(`--keep must be a whole number of entries, not "${text}"`, `e.g. --keep ${DEFAULT_KEEP}`);
  return Number(text.trim());
}

function targetOf(options: CompactOptions): CompactTarget {
  if (options.member !== undefined && options.decisions) {
    throw usageError('give a member or --decisions, not both', 'a member compacts its history; --decisions the decisions; neither compacts everything');
  }
  if (options.member !== undefined) return { kind: 'member', member: options.member };
  return options.decisions ? { kind: 'decisions' } : { kind: 'all' };
}

export async function compact(options: CompactOptions, ctx: CommandContext): Promise<CommandResult<CompactData>> {
  const keep = parseKeep(options.keep);
  const target = targetOf(options);
  const plan = await runPlan(ctx, {
    command: 'compact',
    activity: 'compacting',
    dryRun: options.dryRun,
    read: () => readCompactState(ctx.cwd, target),
    decide: (state) => decideCompaction(state, { keep }),
  });
  const data: CompactData = { target: target.kind, keep, files: plan.files, inbox: plan.inbox, ...changeReport(plan, options.dryRun) };
  return {
    data,
    exitCode: 0,
    warnings: plan.warnings,
    render(ui) {
      const verb = options.dryRun ? 'would move' : 'moved';
      for (const file of plan.files) {
        if (file.moved === 0) {
          ui.out(`${file.path}: ${file.entries} entries, nothing to move (--keep ${keep})`);
          continue;
        }
        ui.out(
          `${file.path}: ${verb} ${file.moved} of ${file.entries} entries (${file.movedChars.toLocaleString('en-US')} characters) to ${file.archive}; ` +
            `about ${file.tokensBefore.toLocaleString('en-US')} → ${file.tokensAfter.toLocaleString('en-US')} tokens`,
        );
      }
      const { merged, alreadyMerged } = plan.inbox;
      if (merged.length > 0) ui.out(`${options.dryRun ? 'Would merge' : 'Merged'} ${merged.length} inbox decision file(s) into decisions.md: ${merged.join(', ')}`);
      if (alreadyMerged.length > 0) ui.out(`Already in the decisions: ${alreadyMerged.join(', ')} (${options.dryRun ? 'would be removed' : 'removed'} from the inbox)`);
      if (plan.changes.length === 0) ui.out('Nothing to compact.');
      renderChanges(ui, plan, options.dryRun, { message: 'chore(squad): compact histories and decisions' });
    },
  };
}
