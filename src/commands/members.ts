/** `create-squad members`: who is on the team (name, role, status, own skills), and who retired. */
import { listMembers, type MemberListing } from '../core/roster/members.js';
import type { CommandContext, CommandResult } from './context.js';
import { plural } from './format.js';
import { describeModel } from '../core/roster/models.js';

export interface MembersData {
  members: MemberListing[];
}

export async function members(ctx: CommandContext): Promise<CommandResult<MembersData>> {
  const listed = listMembers(ctx.cwd);
  return {
    data: { members: listed },
    exitCode: 0,
    render(ui) {
      const current = listed.filter((m) => m.state !== 'retired');
      const alumni = listed.filter((m) => m.state === 'retired');
      if (current.length === 0) ui.out('The roster has no members yet. Add one with: create-squad hire <role>');
      else ui.table(['NAME', 'ROLE', 'STATUS', 'SKILLS', 'MODEL', 'FOLDER'], current.map(row));
      if (alumni.length > 0) {
        ui.out();
        ui.out(`Alumni (${alumni.length}; bring one back with: create-squad rehire <name>):`);
        ui.table(['NAME', 'ROLE', 'STATUS', 'SKILLS', 'MODEL', 'FOLDER'], alumni.map(row));
      }
      const cast = current.filter((m) => m.state === 'active');
      ui.out();
      ui.out(`${plural(cast.length, 'member')} on the roster${alumni.length ? `, ${alumni.length} retired` : ''}`);
      for (const m of current.filter((c) => c.state === 'unlisted')) {
        ui.warn(`.ai-team/agents/${m.folder}/ has no roster row: add one to team.md, or retire it by hand`);
      }
    },
  };
}

function row(member: MemberListing): string[] {
  const folder = member.folderless ? '—' : member.state === 'retired' ? `_alumni/${member.folder}` : member.folder;
  return [member.name, member.role || '-', member.status || '-', member.folderless ? '-' : String(member.skills), member.folderless ? '-' : modelCell(member.model), folder];
}

function modelCell({ models, effort, source }: MemberListing['model']): string {
  return describeModel({ models, source, ...(effort === null ? {} : { effort }) });
}
