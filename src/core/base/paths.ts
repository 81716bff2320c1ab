/**
 * The state layout (docs/state-layout.md): the one place that knows where things live.
 *
 * Every path here is repo-relative and uses forward slashes, so it can be shown to users, written
 * into prompts and manifests, and joined onto a root with `path.join` on any platform.
 * These paths are a frozen contract: never move them.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const AI_TEAM_DIR = '.ai-team';
/** Where the original Squad keeps a squad from its v0.5 on: read, and migrated to AI_TEAM_DIR by upgrade. */
export const ORIGINAL_SQUAD_DIR = '.squad';
export const TEMPLATES_COPY_DIR = '.ai-team-templates';
export const COORDINATOR_PATH = '.github/agents/squad.agent.md';
export const GITATTRIBUTES_PATH = '.gitattributes';
/** What `export` writes when no --out is given (in the repository; .gitignore keeps it out of git). */
export const DEFAULT_EXPORT_FILE = 'squad-export.squad';
/** The repository's own .gitignore: create-squad only appends its ignore rules (scaffold.ts). */
export const GITIGNORE_PATH = '.gitignore';

export const SKILL_FILE = 'SKILL.md';
/** Prefix reserved for the built-in skills create-squad ships and upgrades. */
export const BUILTIN_SKILL_PREFIX = 'squad-';
/** Sub-folders of a skill the standard names; anything else in a skill is still kept. */
export const SKILL_RESOURCE_DIRS = ['references', 'scripts', 'assets'] as const;

export const SCRIBE_AGENT = 'scribe';

/**
 * Where team skills live: `.github/skills/`, the project skill folder every Copilot host reads
 * (VS Code, the Copilot CLI, the cloud agent), so what the team learned is used in every Copilot
 * turn, not only in the prompts create-squad renders. create-squad writes team skills only here.
 */
export const TEAM_SKILLS_DIR = '.github/skills';

/**
 * The project skill folders Copilot hosts read, highest precedence first. create-squad reads every
 * one as team skills (every member sees them) and writes only the first: skills a user keeps in
 * `.agents/skills/` or `.claude/skills/` for other tools are never written or moved. Below all of
 * them come the team skills of squads made before team skills moved out of `.ai-team/skills/`
 * (upgrade moves them), and above them every member's own skills.
 */
export const NATIVE_SKILL_DIRS = [TEAM_SKILLS_DIR, '.agents/skills', '.claude/skills'] as const;

/**
 * The built-in skills useful to any member, and to Copilot itself in a plain chat or a code review:
 * installed in TEAM_SKILLS_DIR, where every Copilot host finds them. Every other built-in is a
 * coordinator-only procedure (each has `disable-model-invocation: true`) and is installed in
 * `.ai-team/skills/`, out of Copilot's own discovery. The one list of that split.
 */
export const MEMBER_FACING_BUILTIN_SKILLS: ReadonlySet<string> = new Set([
  'squad-code-review',
  'squad-git-workflow',
  'squad-mcp-servers',
  'squad-skill-authoring',
  'squad-work-planning',
]);

/**
 * MCP configuration files create-squad reads (never writes) to tell whether a server is configured:
 * repo-relative ones, and the user's Copilot CLI configuration relative to the home folder.
 */
export const MCP_CONFIG_PATHS = {
  vscode: '.vscode/mcp.json',
  workspace: '.mcp.json',
  copilot: '.copilot/mcp-config.json',
  squad: `${AI_TEAM_DIR}/mcp-config.json`,
  /** Relative to the user's home folder. */
  userCopilot: '.copilot/mcp-config.json',
} as const;

export const squadPaths = {
  root: AI_TEAM_DIR,
  team: `${AI_TEAM_DIR}/team.md`,
  routing: `${AI_TEAM_DIR}/routing.md`,
  decisions: `${AI_TEAM_DIR}/decisions.md`,
  /** Where `compact` moves older decisions, byte for byte (read on demand; docs/state-layout.md). */
  decisionsArchive: `${AI_TEAM_DIR}/decisions-archive.md`,
  /** The team's standing rules (`teach --team --rule`): every spawn sees them. */
  rules: `${AI_TEAM_DIR}/rules.md`,
  decisionsInbox: `${AI_TEAM_DIR}/decisions/inbox`,
  /** The squad's settings (a JSON object): each command reads the keys it knows and keeps the others. */
  config: `${AI_TEAM_DIR}/config.json`,
  ceremonies: `${AI_TEAM_DIR}/ceremonies.md`,
  casting: `${AI_TEAM_DIR}/casting`,
  castingPolicy: `${AI_TEAM_DIR}/casting/policy.json`,
  castingRegistry: `${AI_TEAM_DIR}/casting/registry.json`,
  castingHistory: `${AI_TEAM_DIR}/casting/history.json`,
  agents: `${AI_TEAM_DIR}/agents`,
  /**
   * `.ai-team/skills/`, out of Copilot's own discovery: the coordinator-only built-in procedures, and
   * in squads an older version made, team skills and member-facing built-ins (upgrade moves them
   * to TEAM_SKILLS_DIR).
   */
  aiTeamSkills: `${AI_TEAM_DIR}/skills`,
  log: `${AI_TEAM_DIR}/log`,
  orchestrationLog: `${AI_TEAM_DIR}/orchestration-log`,
  backups: `${AI_TEAM_DIR}/backups`,
  manifest: `${AI_TEAM_DIR}/.squad-manifest.json`,
  mcpConfig: MCP_CONFIG_PATHS.squad,
  templatesCopy: TEMPLATES_COPY_DIR,
  coordinator: COORDINATOR_PATH,
  gitattributes: GITATTRIBUTES_PATH,
} as const;

/** Where a retired member's folder goes (see the squad-team-changes skill); `_` keeps it out of every scan. */
export const ALUMNI_DIR = `${squadPaths.agents}/_alumni`;

export function alumniDir(agent: string): string {
  return `${ALUMNI_DIR}/${agent}`;
}
export function agentDir(agent: string): string {
  return `${squadPaths.agents}/${agent}`;
}
export function charterPath(agent: string): string {
  return `${agentDir(agent)}/charter.md`;
}
export function historyPath(agent: string): string {
  return `${agentDir(agent)}/history.md`;
}
/** Where `compact` moves a member's older history entries, byte for byte (read on demand). */
export function historyArchivePath(agent: string): string {
  return `${agentDir(agent)}/history-archive.md`;
}
export function agentSkillsDir(agent: string): string {
  return `${agentDir(agent)}/skills`;
}
/** A skill's folder in `.ai-team/skills/` (squadPaths.aiTeamSkills): a coordinator-only built-in, or a skill of a squad not yet upgraded. */
export function aiTeamSkillDir(skill: string): string {
  return `${squadPaths.aiTeamSkills}/${skill}`;
}
/** Where a team skill is written: its folder in `.github/skills/`. */
export function nativeTeamSkillDir(skill: string): string {
  return `${TEAM_SKILLS_DIR}/${skill}`;
}
export function agentSkillDir(agent: string, skill: string): string {
  return `${agentSkillsDir(agent)}/${skill}`;
}
export function decisionInboxPath(agent: string, slug: string): string {
  return `${squadPaths.decisionsInbox}/${agent}-${slug}.md`;
}

/** Folder names discovery ignores: dot-folders (staging, VCS) and underscore-folders (drafts). */
export function isIgnoredEntry(name: string): boolean {
  return name.startsWith('.') || name.startsWith('_');
}

export function isBuiltinSkillName(name: string): boolean {
  return name.startsWith(BUILTIN_SKILL_PREFIX);
}

/** Timestamp used for backup and archive folder names: sortable, no characters Windows rejects. */
export function folderTimestamp(date: Date = new Date()): string {
  return date.toISOString().replace(/[:.]/g, '-');
}

export function backupDir(timestamp: string): string {
  return `${squadPaths.backups}/${timestamp}`;
}

/** Where a backup of the repo-relative `relPath` goes: the same path under a timestamped folder. */
export function backupPathFor(timestamp: string, relPath: string): string {
  return `${backupDir(timestamp)}/${relPath}`;
}

/**
 * `import` builds the new squad in a hidden folder at the repository root and swaps it in at the
 * end; a folder with this prefix left behind is the debris of an interrupted import (`doctor`
 * reports it; deleting it loses nothing: it is rebuilt from the .squad file; the next import removes
 * it).
 */
export const IMPORT_STAGING_PREFIX = '.ai-team-import-staging-';
/** An import staging folder named by importStagingDir with a work id (fs-safe's workId): the pid is its first group. */
export const IMPORT_STAGING_PATTERN = /^\.ai-team-import-staging-(\d+)-[0-9a-f]{8}$/;
/**
 * In the new `.ai-team/` from an import's swap until its last step: which .squad file it came from
 * and the squad it replaced, so a rerun of the same import finishes it (portable/import.ts).
 */
export const IMPORT_MARKER_PATH = `${AI_TEAM_DIR}/.import-unfinished.json`;
/** Where `import --force` moves the squad it replaces (never deleted). */
export const ARCHIVE_PREFIX = '.ai-team-archive-';

export function importStagingDir(id: string): string {
  return `${IMPORT_STAGING_PREFIX}${id}`;
}
export function isImportStagingDir(name: string): boolean {
  return name.startsWith(IMPORT_STAGING_PREFIX);
}
export function archiveDir(timestamp: string): string {
  return `${ARCHIVE_PREFIX}${timestamp}`;
}

/** `skills add` stages a skill in a hidden sibling folder of its destination before swapping it in. */
export const SKILL_STAGING_PREFIX = '.staging-';
/** A skill staging folder named by skillStagingDir with a work id (fs-safe's workId): the pid is its first group. */
export const SKILL_STAGING_PATTERN = /^\.staging-.+-(\d+)-[0-9a-f]{8}$/;
export function skillStagingDir(destination: string, id: string): string {
  const slash = destination.lastIndexOf('/');
  // A folder at the repository's top (import's `.ai-team`) is staged at the top too.
  const parent = slash === -1 ? '' : `${destination.slice(0, slash)}/`;
  return `${parent}${SKILL_STAGING_PREFIX}${destination.slice(slash + 1)}-${id}`;
}

/** Absolute path of a repo-relative layout path. */
export function resolveIn(root: string, relPath: string): string {
  return path.join(root, ...relPath.split('/'));
}

/** Repo-relative, forward-slash form of an absolute path under `root`. */
export function toRepoRelative(root: string, absPath: string): string {
  return path.relative(root, absPath).split(path.sep).join('/');
}

/**
 * Folder under the package's templates/ holding the squad's state templates (team.md, charter.md,
 * …): `init` renders them, and their raw copies are the `.ai-team-templates/` files.
 */
export const STATE_TEMPLATES_FOLDER = 'squad';
/** Suffix of the handlebars files under templates/; the `.ai-team-templates/` copies drop it. */
export const TEMPLATE_SUFFIX = '.hbs';

/** A state template, as renderTemplate names it: `stateTemplate('team.md')` → `squad/team.md.hbs`. */
export function stateTemplate(name: string): string {
  return `${STATE_TEMPLATES_FOLDER}/${name}${TEMPLATE_SUFFIX}`;
}

/**
 * Where the raw copy of a state template goes in a squad: `squad/charter.md.hbs` (a template as
 * stateTemplate names it) → `.ai-team-templates/charter.md`.
 */
export function templateCopyPath(template: string): string {
  const name = template.slice(STATE_TEMPLATES_FOLDER.length + 1);
  return `${TEMPLATES_COPY_DIR}/${name.endsWith(TEMPLATE_SUFFIX) ? name.slice(0, -TEMPLATE_SUFFIX.length) : name}`;
}

// This module runs from src/ (tests), from dist/ (tsc) and inlined into bundles at other depths of
// dist/, so the package root is what precedes the last src/ or dist/ folder of its own path.
const packageLayout = /^(.*)[\\/](src|dist)[\\/]/.exec(fileURLToPath(import.meta.url));
if (!packageLayout) throw new Error('create-squad: cannot find the package root from its own path');
/** The installed package's root folder (holds package.json, templates/, squad.agent.md). */
export const PACKAGE_ROOT = packageLayout[1] + path.sep;
/** Whether this code runs from the build (dist/), where build-time artefacts exist. */
export const RUNNING_FROM_BUILD = packageLayout[2] === 'dist';
export const PACKAGE_TEMPLATES_DIR = path.join(PACKAGE_ROOT, 'templates');
export const PACKAGE_BUILTIN_SKILLS_DIR = path.join(PACKAGE_TEMPLATES_DIR, 'skills');
export const PACKAGE_COORDINATOR_SOURCE = path.join(PACKAGE_ROOT, 'squad.agent.md');
export const PACKAGE_STATE_TEMPLATES_DIR = path.join(PACKAGE_TEMPLATES_DIR, STATE_TEMPLATES_FOLDER);

/** Folders whose changes are committed together: a command's hint names the folder, not each file in it. */
const COMMITTED_AS_FOLDER = new Set([AI_TEAM_DIR, TEMPLATES_COPY_DIR]);

/**
 * What `git add -A` needs to record exactly the repository-relative paths a command changed (moved
 * ones by both ends): the squad's folders whole, a folder of `.github/` (agents, skills) whole, any
 * other file by itself. Sorted, each once: the commit hint is derived from what was written.
 */
export function commitPaths(changed: Iterable<string>): string[] {
  const paths = new Set<string>();
  for (const rel of changed) {
    const parts = rel.split('/');
    const top = parts[0]!;
    if (COMMITTED_AS_FOLDER.has(top)) paths.add(top);
    else if (top === '.github' && parts.length > 2) paths.add(`${top}/${parts[1]}`);
    else paths.add(rel);
  }
  return [...paths].sort();
}
