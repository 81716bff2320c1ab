/** What retire, rehire and role report: the member, the files written and moved, and notes. */
import type { Ui } from '../cli/ui.js';
import { describeProfileChange, type ProfileChangeReport } from '../core/squad/agents/profile-sync.js';
import type { MemberRef } from '../core/squad/retire.js';

export interface MemberChangeData {
  member: MemberRef;
  /** The change was already made: nothing was (or would be) written. */
  done: boolean;
  created: string[];
  modified: string[];
  moved: { from: string; to: string }[];
  notes: string[];
  /** What happened to the member's Copilot agent (.github/agents/); none in a dry run. */
  agentProfiles: ProfileChangeReport[];
  dryRun: boolean;
}

export function renderMemberChange(ui: Ui, data: MemberChangeData, text: { done: string; headline: string; after: string }): void {
  for (const note of data.notes) ui.warn(note);
  const agents = () => {
    for (const change of data.agentProfiles) ui.out(`  ${describeProfileChange(change)}`);
  };
  if (data.done) {
    ui.success(text.done);
    agents();
    return;
  }
  const would = data.dryRun ? 'would ' : '';
  ui.success(text.headline);
  for (const move of data.moved) ui.out(`  ${would}${data.dryRun ? 'move' : 'moved'}    ${move.from} → ${move.to}`);
  for (const file of data.created) ui.out(`  ${would}${data.dryRun ? 'create' : 'created'}  ${file}`);
  for (const file of data.modified) ui.out(`  ${would}${data.dryRun ? 'update' : 'updated'}  ${file}`);
  agents();
  if (data.dryRun) ui.out('Dry run: nothing was written.');
  else ui.out(`  ${text.after}.`);
}
