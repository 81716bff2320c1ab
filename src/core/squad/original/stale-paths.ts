/**
 * What the original Squad's text still says about `.squad/` once the squad lives in `.ai-team/`,
 * and squad-cli's coordinator-only skills. Pure: text in, text out.
 *
 * Stale paths. The original Squad (v0.5 and later, squad-cli) wrote `.squad/…` into the team's
 * own text: charters ("write it to `.squad/decisions/inbox/…`"), ceremonies, policies, skills. Once
 * upgrade has moved the squad to `.ai-team/`, a member that follows such a line recreates
 * `.squad/`. A path reference is `.squad/` not glued to a name before it (`foo.squad/`, a peer
 * repository's `../repo/.squad/` and a Windows `repo\.squad\` are left as they are): it becomes
 * `.ai-team/`, and a member folder upgrade renamed (`agents/Rai` → `agents/rai`) takes its new
 * name in the same path. `.squad` without a slash (a word, a file name, an export `.squad` file)
 * is never touched.
 *
 * The team's text is its Markdown: every `.md` file in the squad folder except the backups (old
 * copies, by design) and squad-cli's copy of its own templates (`templates/`, which no command
 * reads), and the team skills' SKILL.md in `.github/skills/` and `.copilot/skills/`.
 *
 * Only a squad that came from `.squad/` is rewritten (and named by doctor): one upgrade is moving,
 * or whose instructions (team.md, routing.md, ceremonies.md, a charter) still name `.squad/`
 * paths, or whose backups hold a file backed up by its `.squad/` path (what the move backs up). A
 * squad that never lived there may well discuss `.squad/` in its logs and decisions (the original
 * Squad's own team planned that move): its text is its own, and left alone.
 *
 * Coordinator-only skills. squad-cli installs, beside the team's skills, procedures its own
 * coordinator loads for itself (they carry its `allowedTools` field). create-squad's coordinator
 * replaces that coordinator, and they describe squad-cli: offered to every member they only
 * mislead. upgrade marks them as create-squad marks its own coordinator-only procedures,
 * `disable-model-invocation: true` (no prompt, no member agent and no Copilot host offers such a
 * skill to the model; a person can still start it), and writes their frontmatter in the standard
 * form (squad-cli's own fields under `metadata`), so that doctor has nothing left to report.
 */
import { KNOWN_EXTENSION_FIELDS, STANDARD_FIELDS } from '../../skills/validate.js';
import { parseSkill } from '../../skills/skill.js';
import { AI_TEAM_DIR, SKILL_FILE, TEAM_SKILLS_DIR } from '../../base/paths.js';
import { isMapping } from '../../base/util.js';

/** squad-cli's legacy team-skill folder: `squad import` puts learned skills there. */
export const COPILOT_SKILLS_DIR = '.copilot/skills';

/** `.squad/` as a path: not glued to a name, a dot, a slash or a hyphen before it (an underscore is a separator there). */
const SQUAD_PATH_SOURCE = String.raw`(?<![A-Za-z0-9.\\/-])\.squad\/`;
const STALE_SQUAD_PATH = new RegExp(SQUAD_PATH_SOURCE, 'g');
/** The same, with the member folder that may follow (`.squad/agents/Rai/`). */
const STALE_SQUAD_PATH_WITH_MEMBER = new RegExp(`${SQUAD_PATH_SOURCE}(agents\\/([^/\\s\`'")\\]]+)\\/)?`, 'g');

/**
 * `text` with every `.squad/` path pointed at `.ai-team/`, and how many were; `memberFolder` names
 * a member folder in such a path as it now is (the move renames `agents/Rai` to `agents/rai`).
 */
export function rewriteSquadPaths(text: string, memberFolder: (name: string) => string = (name) => name): { text: string; count: number } {
  let count = 0;
  const rewritten = text.replace(STALE_SQUAD_PATH_WITH_MEMBER, (_match, agentPart: string | undefined, folder: string | undefined) => {
    count++;
    if (agentPart === undefined) return `${AI_TEAM_DIR}/`;
    return `${AI_TEAM_DIR}/agents/${memberFolder(folder!)}/`;
  });
  return { text: rewritten, count };
}

/** `.ai-team/` as a path, by the same rule as `.squad/` above. */
const AI_TEAM_PATH = /(?<![A-Za-z0-9.\\/-])\.ai-team\//g;

/**
 * `text` with every `.ai-team/` path pointed at `.squad/`, and how many were: the team's text as
 * squad-cli, which keeps the squad in `.squad/`, reads it (an export for squad-cli). The inverse
 * of rewriteSquadPaths, by the same rule.
 */
export function pointAtSquadDir(text: string): { text: string; count: number } {
  let count = 0;
  const rewritten = text.replace(AI_TEAM_PATH, () => {
    count++;
    return '.squad/';
  });
  return { text: rewritten, count };
}

/** The 1-based numbers of the lines of `text` that name a `.squad/` path. */
export function staleSquadPathLines(text: string): number[] {
  const lines: number[] = [];
  text.split('\n').forEach((line, index) => {
    STALE_SQUAD_PATH.lastIndex = 0;
    if (STALE_SQUAD_PATH.test(line)) lines.push(index + 1);
  });
  return lines;
}

/** Whether `text` names a `.squad/` path at all. */
export function hasStaleSquadPath(text: string): boolean {
  STALE_SQUAD_PATH.lastIndex = 0;
  return STALE_SQUAD_PATH.test(text);
}

/** Folders of the squad folder that hold no text of the team's: old copies, and squad-cli's copy of its templates. */
const NOT_TEAM_TEXT = ['backups', 'templates'];

/**
 * Whether `relPath` (repo-relative, in the squad folder `dir`, or a team skill) is text of the
 * team's whose `.squad/` paths are rewritten: see the header.
 */
export function isTeamTextPath(relPath: string, dir: string = AI_TEAM_DIR): boolean {
  if (!relPath.endsWith('.md')) return false;
  for (const skills of [TEAM_SKILLS_DIR, COPILOT_SKILLS_DIR]) {
    if (relPath.startsWith(`${skills}/`)) return relPath.split('/').length === 4 && relPath.endsWith(`/${SKILL_FILE}`);
  }
  if (!relPath.startsWith(`${dir}/`)) return false;
  const segments = relPath.slice(dir.length + 1).split('/');
  return !NOT_TEAM_TEXT.includes(segments[0]!) && !segments.some((segment) => segment.startsWith('.'));
}

/** The squad's instructions to its members: when they name `.squad/` paths, the squad came from there. */
export function isInstructionPath(relPath: string, dir: string = AI_TEAM_DIR): boolean {
  if (!relPath.startsWith(`${dir}/`)) return false;
  const rest = relPath.slice(dir.length + 1);
  return ['team.md', 'routing.md', 'ceremonies.md'].includes(rest) || /^agents\/[^/]+\/charter\.md$/.test(rest);
}

/** Where squad-cli installs a skill (before and after the move): its project skill folders. */
const SQUAD_CLI_SKILL_DIRS = [TEAM_SKILLS_DIR, COPILOT_SKILLS_DIR];

/**
 * squad-cli's coordinator-only skills: those its coordinator loads for itself (found in squad-cli
 * 0.10's squad, each with `allowedTools`). A skill of one of these names is squad-cli's only
 * when it carries that field (at the top, or under `metadata` once made standard).
 */
export const SQUAD_CLI_COORDINATOR_SKILLS: ReadonlySet<string> = new Set([
  'coordinator-init-mode',
  'coordinator-response-mode',
  'coordinator-source-of-truth',
  'squad',
  'squad-help',
  'squad-version-check',
]);

/** squad-cli's field on its coordinator-only skills. */
const SQUAD_CLI_FIELD = 'allowedTools';

const KEPT_FIELDS: ReadonlySet<string> = new Set<string>([...STANDARD_FIELDS, ...KNOWN_EXTENSION_FIELDS]);

/**
 * The SKILL.md at `relPath` (holding `text`) marked coordinator-only, when it is one of
 * squad-cli's coordinator-only skills not marked yet; undefined otherwise. The body is kept byte
 * for byte.
 */
export function markCoordinatorOnly(relPath: string, text: string): { text: string; changes: string[] } | undefined {
  const segments = relPath.split('/');
  const folder = segments.at(-2);
  if (segments.length !== 4 || segments[3] !== SKILL_FILE || folder === undefined || !SQUAD_CLI_COORDINATOR_SKILLS.has(folder)) return undefined;
  if (!SQUAD_CLI_SKILL_DIRS.includes(`${segments[0]}/${segments[1]}`)) return undefined;
  let frontmatter: Record<string, unknown>;
  try {
    frontmatter = parseSkill(text).frontmatter;
  } catch {
    return undefined;
  }
  const metadata: Record<string, unknown> = isMapping(frontmatter.metadata) ? { ...frontmatter.metadata } : {};
  if (!Object.hasOwn(frontmatter, SQUAD_CLI_FIELD) && !Object.hasOwn(metadata, SQUAD_CLI_FIELD)) return undefined;
  const moved = Object.keys(frontmatter).filter((key) => !KEPT_FIELDS.has(key));
  if (frontmatter['disable-model-invocation'] === true && moved.length === 0) return undefined;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(frontmatter)) {
    if (key === 'metadata' || key === 'disable-model-invocation') continue;
    if (KEPT_FIELDS.has(key)) kept[key] = value;
    else if (value !== null && value !== undefined) metadata[key] ??= asText(value);
  }
  const head = { ...kept, 'disable-model-invocation': true, ...(Object.keys(metadata).length > 0 ? { metadata } : {}) };
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const changes = ["squad-cli's coordinator-only procedure: disable-model-invocation: true (never offered to members)"];
  if (moved.length > 0) changes.push(`${moved.join(', ')} → metadata`);
  return { text: `${renderHead(head, eol)}${bodyOf(text)}`, changes };
}

/** The text after the frontmatter's closing `---` line (parseSkill succeeded, so there is one). */
function bodyOf(text: string): string {
  const close = /^---[ \t]*(?:\r?\n|$)/gm;
  close.lastIndex = text.indexOf('\n') + 1;
  const found = close.exec(text);
  return found === null ? '' : text.slice(found.index + found[0].length);
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string' || typeof item === 'number')) return value.join(', ');
  return JSON.stringify(value);
}

/** A frontmatter block: every value as JSON (which YAML reads as it is), `metadata` one level deep. */
function renderHead(fields: Record<string, unknown>, eol: string): string {
  const key = (name: string) => (/^[A-Za-z0-9_][A-Za-z0-9_-]*$/.test(name) ? name : JSON.stringify(name));
  const lines = ['---'];
  for (const [name, value] of Object.entries(fields)) {
    if (name === 'metadata' && isMapping(value)) {
      lines.push('metadata:');
      for (const [metaName, metaValue] of Object.entries(value)) lines.push(`  ${key(metaName)}: ${JSON.stringify(metaValue)}`);
    } else {
      lines.push(`${key(name)}: ${JSON.stringify(value)}`);
    }
  }
  lines.push('---');
  return `${lines.join(eol)}${eol}`;
}
