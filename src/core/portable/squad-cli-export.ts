/**
 * An export squad-cli reads: `export --format squad-cli` writes the squad as squad-cli 0.10's own
 * `squad export` does (`version: "1.0"`, `agents.{name}.charter` and `.history`, `casting`,
 * `skills` as SKILL.md texts, `team_md`, `routing_md`, `decisions_md`), so that its `squad import`
 * accepts it. Built from the `.squad` document export.ts reads, in memory; pure.
 *
 * squad-cli keeps the squad in `.squad/`: the team's text says `.squad/` where ours says
 * `.ai-team/` (stale-paths.ts pointAtSquadDir, the inverse of what upgrade and import do). What
 * its format has no place for is listed, never silently dropped: ceremonies.md and rules.md, the
 * decisions inbox, a skill's files besides SKILL.md, a member's skill whose name a team skill has
 * (squad-cli has team skills only: the others travel as team skills), the skills' source records.
 */
import { demoteHeadings } from '../roster/history.js';
import { LEGACY_FORMAT_VERSION, type SquadDocument, type SquadSkill } from './squad-format.js';
import { pointAtSquadDir } from '../squad/original/stale-paths.js';

/** The `--format` value of this export. */
export const SQUAD_CLI_FORMAT = 'squad-cli';
/** Where squad-cli's own export goes, and so where this one goes by default. */
export const SQUAD_CLI_EXPORT_FILE = 'squad-export.json';

/** What the squad-cli export holds and what it could not take. */
export interface SquadCliExportReport {
  agents: string[];
  /** Skills by name, each with the member it came from (absent: a team skill). */
  skills: { name: string; agent?: string }[];
  /** What the format has no place for, each with what it is. */
  leftOut: { what: string; reason: string }[];
  /** `.ai-team/` paths pointed at `.squad/`. */
  paths: number;
}

/** squad-cli's export document (its `squad export`, 0.10). */
interface SquadCliDocument {
  version: typeof LEGACY_FORMAT_VERSION;
  exported_at: string;
  squad_version: string;
  casting: Record<string, Record<string, unknown>>;
  agents: Record<string, { charter?: string; history?: string }>;
  skills: string[];
  team_md?: string;
  team?: string;
  routing_md?: string;
  decisions_md?: string;
  decisions?: string;
}

/** The heading squad-cli's import files project learnings under (its history split keeps a `## Session…` section as the project's). */
const PROJECT_HEADING = '## Session Learnings';
const PORTABLE_HEADING = '## Portable Knowledge';

function extraFiles(skill: SquadSkill): number {
  return [skill.references, skill.scripts, skill.assets, skill.files].reduce((sum, bucket) => sum + Object.keys(bucket).length, 0);
}

/** The squad as squad-cli's export: its text (pretty JSON, as squad-cli writes it) and what it holds. */
export function toSquadCliExport(document: SquadDocument): { text: string; report: SquadCliExportReport } {
  const report: SquadCliExportReport = { agents: [], skills: [], leftOut: [], paths: 0 };
  const text = (value: string) => {
    const pointed = pointAtSquadDir(value);
    report.paths += pointed.count;
    return pointed.text;
  };
  const { team } = document;
  const out: SquadCliDocument = {
    version: LEGACY_FORMAT_VERSION,
    exported_at: document.exported_at,
    squad_version: document.exported_by,
    casting: Object.fromEntries(Object.entries(document.casting).filter((entry): entry is [string, Record<string, unknown>] => entry[1] !== undefined)),
    agents: {},
    skills: [],
  };
  if (team.team_md !== undefined) out.team_md = out.team = text(team.team_md);
  if (team.routing_md !== undefined) out.routing_md = text(team.routing_md);
  if (team.decisions_md !== undefined) out.decisions_md = out.decisions = text(team.decisions_md);
  for (const key of ['ceremonies_md', 'rules_md'] as const) {
    if (team[key] !== undefined) report.leftOut.push({ what: key.replace('_md', '.md'), reason: "squad-cli's export has no place for it" });
  }
  const inbox = Object.keys(document.decisions_inbox ?? {});
  if (inbox.length > 0)
    report.leftOut.push({
      what: `decisions/inbox/ (${inbox.length} file${inbox.length === 1 ? '' : 's'})`,
      reason: "squad-cli's export has no place for it: merge the inbox into decisions.md first to carry it",
    });

  const addSkill = (name: string, skill: SquadSkill, agent?: string) => {
    const files = extraFiles(skill);
    if (files > 0)
      report.leftOut.push({
        what: `${agent === undefined ? '' : `${agent}'s skill `}${name}: ${files} file${files === 1 ? '' : 's'} besides SKILL.md`,
        reason: "squad-cli carries a skill's SKILL.md only",
      });
    if (skill.source !== undefined) report.leftOut.push({ what: `the source record of ${name}`, reason: 'squad-cli does not update skills from where they came' });
    out.skills.push(text(skill.skill_md));
    report.skills.push({ name, ...(agent === undefined ? {} : { agent }) });
  };
  for (const [name, skill] of Object.entries(document.team_skills)) addSkill(name, skill);
  for (const [folder, agent] of Object.entries(document.agents)) {
    const history = agent.history === undefined ? undefined : joinHistory(folder, agent.history, document.source.project);
    out.agents[folder] = { ...(agent.charter === undefined ? {} : { charter: text(agent.charter) }), ...(history === undefined ? {} : { history: text(history) }) };
    report.agents.push(folder);
    for (const [name, skill] of Object.entries(agent.skills)) {
      if (name in document.team_skills || report.skills.some((s) => s.name === name)) {
        report.leftOut.push({ what: `${folder}'s skill ${name}`, reason: 'squad-cli has team skills only, and one already has that name' });
        continue;
      }
      addSkill(name, skill, folder);
    }
  }
  return { text: `${JSON.stringify(out, null, 2)}\n`, report };
}

/** One history text from its two parts, headed so that squad-cli's import tells them apart as ours did. */
function joinHistory(folder: string, history: { portable: string; project: string }, project: string): string | undefined {
  const parts = [`# ${folder}`];
  if (history.portable.trim() !== '') parts.push(`${PORTABLE_HEADING}\n\n${history.portable.trim()}`);
  if (history.project.trim() !== '') parts.push(`${PROJECT_HEADING} (${project})\n\n${demoteHeadings(history.project.trim())}`);
  return parts.length === 1 ? undefined : `${parts.join('\n\n')}\n`;
}
