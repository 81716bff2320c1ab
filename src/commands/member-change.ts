/** What retire, rehire and role report: the member, the files written and moved, and notes. */
import type { Ui } from '../cli/ui.js';
import type { MemberRef } from '../core/retire.js';

export interface MemberChangeData {
  member: MemberRef;
  /** The change was already made: nothing was (or would be) written. */
  done: boolean;
  created: string[];
  modified: string[];
  moved: { from: string; to: string }[];
  notes: string[];
  dryRun: boolean;
}

export function renderMemberChange(ui: Ui, data: MemberChangeData, text: { done: string; headline: string; after: string }): void {
  for (const note of data.notes) ui.warn(note);
  if (data.done) {
    ui.success(text.done);
    return;
  }
  const would = data.dryRun ? 'would ' : '';
  ui.success(text.headline);
  for (const move of data.moved) ui.out(`  ${would}${data.dryRun ? 'move' : 'moved'}    ${move.from} → ${move.to}`);
  for (const file of data.created) ui.out(`  ${would}${data.dryRun ? 'create' : 'created'}  ${file}`);
  for (const file of data.modified) ui.out(`  ${would}${data.dryRun ? 'update' : 'updated'}  ${file}`);
  if (data.dryRun) ui.out('Dry run: nothing was written.');
  else ui.out(`  ${text.after}.`);
}
