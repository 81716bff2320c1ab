/**
 * Additive migrations of a squad's state, run by `upgrade` in version order.
 *
 * A step only ever adds (a folder the layout expects, lines a file lacks) or moves a folder whole
 * to where the layout now keeps it (one rename, so a kill leaves it in one place or the other).
 * It never rewrites or removes what is there, with one exception: the command line create-squad
 * itself wrote into team.md, which names the version that wrote it, is set to the new version
 * (only while it stands as create-squad wrote it). Each step is idempotent by construction: `plan` looks at the repository
 * and returns the writes still missing, so a step that has run (fully, or partly before a crash)
 * asks for nothing more, or only for the rest. Nothing records which steps ran — the state on
 * disk is the record — so there is no ledger that could disagree with the files.
 *
 * A step returns its writes instead of writing, so `--dry-run` can show them and `upgrade` carries
 * them out through the same atomic writer as everything else (one write = one crash point). A step
 * decides from what upgrade's read step read (`MigrationState`, see upgrade-state.ts): it never
 * touches the disk itself.
 */
import type { DiskFacts } from '../base/disk-facts.js';
import { builtinSkillDirsOf } from '../squad/owned.js';
import { GITIGNORE_PATH, MEMBER_FACING_BUILTIN_SKILLS, NATIVE_SKILL_DIRS, SKILL_FILE, nativeTeamSkillDir, squadPaths, aiTeamSkillDir } from '../base/paths.js';
import { KEEP_FILE, KEEP_FOLDERS, planGitattributesFrom, planGitignoreFrom, type AppendPlan } from './scaffold.js';
import type { ManifestRead } from '../squad/manifest.js';
import type { AppendTarget } from './scaffold-state.js';
import { compareVersions } from '../fs/version.js';
import { squadCommand } from '../base/cli-invocation.js';
import { COPILOT_SKILLS_DIR } from '../squad/original/stale-paths.js';
import { SKILL_LOCK_PATH, lockWith } from '../skills/skill-lock.js';
import { SKILL_SOURCES_PATH, type LegacySources } from '../skills/skill-sources.js';

export interface MigrationWrite {
  /** Repo-relative path. */
  path: string;
  content: string;
  /** true: the file exists and `content` is its current content plus additions (atomic replace). */
  update: boolean;
}

export interface MigrationMove {
  /** Repo-relative folder to move, and where it goes (which does not exist). */
  from: string;
  to: string;
}

export interface MigrationPlan {
  writes: MigrationWrite[];
  /** Folders to move whole, each with one rename. */
  moves?: MigrationMove[];
  /** Things the step could not do and the user should know. */
  notes: string[];
}

export interface Migration {
  /** The create-squad version that introduced the step; steps run in version order. */
  version: string;
  /** Stable identifier, for reports. */
  id: string;
  description: string;
  /** The writes this step still needs in the squad `state` was read from (none once applied). */
  plan(state: MigrationState): Promise<MigrationPlan>;
}

/** What the migrations decide from, read once (upgrade-state.ts readUpgradeState). */
export interface MigrationState {
  /** The version upgraded to. */
  version: string;
  /** What stands at the paths the steps look at, and their contents. */
  disk: DiskFacts;
  manifest: ManifestRead;
  /** The names of the built-in skills this package ships. */
  shippedBuiltins: readonly string[];
  /** `.ai-team/skill-sources.json`'s records as lock entries, and where the file is backed up (upgrade-state.ts); undefined when there is none. */
  legacySources?: LegacySources & { backup: string };
}

/** What stands at a shared file (.gitattributes, .gitignore) and its text, as scaffold-state.ts readAppendTarget reads it. */
export function appendTargetIn(disk: DiskFacts, relPath: string): AppendTarget {
  const kind = disk.kind(relPath);
  return { kind, text: kind === 'missing' ? '' : kind === 'file' ? disk.bytes(relPath)?.toString('utf8') : undefined };
}

/** A migration's plan from lines planned to be appended to a shared file (.gitattributes, .gitignore). */
function appendedLines(path: string, planned: AppendPlan): MigrationPlan {
  return {
    writes: planned.content === undefined ? [] : [{ path, content: planned.content, update: planned.existed }],
    notes: planned.note === undefined ? [] : [planned.note],
  };
}

/** The registry, in the order the steps were introduced. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: '0.1.0',
    id: 'state-folders',
    description: 'create the decision drop-box and the log folders (kept in git by an empty .gitkeep)',
    async plan(state) {
      const writes = KEEP_FOLDERS.filter((folder) => state.disk.missingOrEmpty(folder)).map((folder) => ({
        path: `${folder}/${KEEP_FILE}`,
        content: '',
        update: false,
      }));
      return { writes, notes: [] };
    },
  },
  {
    version: '0.1.0',
    id: 'gitattributes-union',
    description: 'add the merge=union lines for the append-only state files to .gitattributes',
    async plan(state) {
      return appendedLines(squadPaths.gitattributes, await planGitattributesFrom(appendTargetIn(state.disk, squadPaths.gitattributes)));
    },
  },
  {
    version: '0.1.0',
    id: 'gitignore-hygiene',
    description: 'add ignore rules to .gitignore for the backups, what interrupted runs leave, the local usage log and the default export file',
    async plan(state) {
      return appendedLines(GITIGNORE_PATH, await planGitignoreFrom(appendTargetIn(state.disk, GITIGNORE_PATH)));
    },
  },
  {
    version: '0.1.0',
    id: 'team-hire-hint',
    description: "pin team.md's hint on hiring to this version, so that it runs with or without an install of create-squad in the repository",
    async plan(state) {
      return planTeamHireHint(state);
    },
  },
  {
    version: '0.1.0',
    id: 'team-skills-native',
    description: "move team skills from .ai-team/skills/ (and squad-cli's .copilot/skills/) to .github/skills/, where every Copilot host finds them",
    async plan(state) {
      return decideTeamSkillMoves(state);
    },
  },
  {
    version: '0.1.0',
    id: 'skills-lock',
    description: "move the skills' source records from .ai-team/skill-sources.json into skills-lock.json, the skills ecosystem's project lock (the old file is backed up)",
    async plan(state) {
      return planSkillsLock(state);
    },
  },
  {
    version: '0.1.0',
    id: 'builtin-skills-native',
    description: 'move the member-facing built-in skills from .ai-team/skills/ to .github/skills/, where every Copilot host finds them',
    async plan(state) {
      return decideBuiltinSkillMoves(state);
    },
  },
];

/**
 * Team skills still in `.ai-team/skills/` (every skill folder there but the built-ins) or in
 * squad-cli's `.copilot/skills/`, and their place in `.github/skills/`. A name already taken there is left where it is, with a note: the
 * skill in `.github/skills/` wins, nothing is overwritten. Import uses this too, after its swap.
 */
export function decideTeamSkillMoves(state: Pick<MigrationState, 'disk' | 'manifest' | 'shippedBuiltins'>): MigrationPlan {
  const { disk } = state;
  const builtins = builtinSkillDirsOf(state.shippedBuiltins, state.manifest, (relPath) => disk.exists(relPath));
  const moves: MigrationMove[] = [];
  const notes: string[] = [];
  for (const name of disk.names(squadPaths.aiTeamSkills)) {
    if (builtins.has(name) || !disk.isFile(`${aiTeamSkillDir(name)}/${SKILL_FILE}`)) continue;
    const to = nativeTeamSkillDir(name);
    if (disk.exists(to)) {
      notes.push(`${aiTeamSkillDir(name)}/ stays where it is: ${to}/ already exists and is the one Copilot and create-squad use; merge the two by hand, then delete the older one`);
      continue;
    }
    moves.push({ from: aiTeamSkillDir(name), to });
  }
  // squad-cli's `squad import` keeps learned skills in .copilot/skills/: they move the same way.
  for (const name of disk.names(COPILOT_SKILLS_DIR)) {
    const from = `${COPILOT_SKILLS_DIR}/${name}`;
    if (!disk.isFile(`${from}/${SKILL_FILE}`)) continue;
    const to = nativeTeamSkillDir(name);
    if (disk.exists(to) || moves.some((move) => move.to === to)) {
      notes.push(`${from}/ stays where it is: ${to}/ already exists and is the one Copilot and create-squad use; merge the two by hand, then delete the older one`);
      continue;
    }
    moves.push({ from, to });
  }
  return { writes: [], moves, notes };
}

/**
 * Member-facing built-in skills (MEMBER_FACING_BUILTIN_SKILLS) still in `.ai-team/skills/` and their
 * place in `.github/skills/`: each folder moves whole, as it is (an edited file or a file the user
 * added inside travels with it; upgrade then refreshes what is untouched). A name a native skill
 * folder already holds is a skill of the user's: the built-in stays where it is, with a note, so
 * that Copilot never finds two skills of one name. A link stands where the folder is: left as it is.
 * Import uses this too, after its swap.
 */
export function decideBuiltinSkillMoves(state: Pick<MigrationState, 'disk'>): MigrationPlan {
  const { disk } = state;
  const moves: MigrationMove[] = [];
  const notes: string[] = [];
  for (const name of [...MEMBER_FACING_BUILTIN_SKILLS].sort()) {
    const from = aiTeamSkillDir(name);
    const kind = disk.kind(from);
    if (kind === 'missing') continue; // not there: upgrade installs it in .github/skills/
    if (kind !== 'folder') {
      notes.push(
        `${from} stays where it is: it is not a folder (${kind === 'symlink' ? 'a symlink' : 'a file'}); replace it with the real folder, then run "create-squad upgrade" again`,
      );
      continue;
    }
    const taken = NATIVE_SKILL_DIRS.map((dir) => `${dir}/${name}`).find((dir) => disk.exists(dir));
    if (taken !== undefined) {
      notes.push(builtinKeptNote(name, taken));
      continue;
    }
    moves.push({ from, to: nativeTeamSkillDir(name) });
  }
  return { writes: [], moves, notes };
}

/** Why the member-facing built-in `name` stays in `.ai-team/skills/`: `taken` holds a skill of that name. */
export function builtinKeptNote(name: string, taken: string): string {
  return `the built-in skill ${name} stays in ${aiTeamSkillDir(name)}/: ${taken}/ holds a skill of yours with that name (create-squad never writes over it, and Copilot would find two); rename or move yours, then run "create-squad upgrade" to move the built-in to ${nativeTeamSkillDir(name)}/`;
}

/**
 * team.md's hint on hiring in each form create-squad has written it: pinned to a version, unpinned,
 * or through the repository's install (with the note that said so). Text around it is the team's.
 */
const TEAM_HIRE_HINT = /`npx (?:--no-install )?create-squad(?:@[0-9A-Za-z.+-]+)? hire <role>`( \(the repository's own install; the name)?/g;

/** `teamText` with create-squad's hint on hiring pinned to `version` (base/cli-invocation.ts squadCommand); unchanged when it has none. */
function pinTeamHireHint(teamText: string, version: string): string {
  return teamText.replace(TEAM_HIRE_HINT, (_match, note: string | undefined) => `\`${squadCommand('hire <role>', version)}\`${note === undefined ? '' : ' (the name'}`);
}

/**
 * The write that pins team.md's hint on hiring to the version upgraded to; none when it is pinned
 * already, or team.md is absent, not a regular file or not writable (a link, say): upgrade never
 * refuses to run over a hint.
 */
function planTeamHireHint(state: Pick<MigrationState, 'disk' | 'version'>): MigrationPlan {
  const { disk } = state;
  if (disk.kind(squadPaths.team) !== 'file' || disk.blocked(squadPaths.team) !== undefined) return { writes: [], notes: [] };
  const text = disk.bytes(squadPaths.team)?.toString('utf8');
  if (text === undefined) return { writes: [], notes: [] };
  const pinned = pinTeamHireHint(text, state.version);
  return { writes: pinned === text ? [] : [{ path: squadPaths.team, content: pinned, update: true }], notes: [] };
}

/**
 * The records of `.ai-team/skill-sources.json` written into the project lock (an entry the lock has
 * already wins: it is the newer), then the old file moved into this run's backups. A rerun after a
 * kill between the two finds the lock holding them and only moves the file.
 */
function planSkillsLock(state: Pick<MigrationState, 'legacySources'>): MigrationPlan {
  const legacy = state.legacySources;
  if (legacy === undefined) return { writes: [], notes: [] };
  const { lock } = legacy;
  const notes = legacy.skipped.map((skipped) => `${SKILL_SOURCES_PATH}: ${skipped}; left out of ${SKILL_LOCK_PATH}`);
  if (lock.problem !== undefined) {
    return { writes: [], notes: [...notes, `${SKILL_SOURCES_PATH} stays where it is: ${SKILL_LOCK_PATH} ${lock.problem}; correct it, then run "create-squad upgrade" again`] };
  }
  const added = Object.fromEntries(Object.entries(legacy.entries).filter(([key]) => !Object.hasOwn(lock.entries, key)));
  const text = lockWith(lock, added);
  return {
    writes: text === undefined ? [] : [{ path: SKILL_LOCK_PATH, content: text, update: lock.text !== undefined }],
    moves: [{ from: SKILL_SOURCES_PATH, to: legacy.backup }],
    notes: [...notes, `the skills' source records moved into ${SKILL_LOCK_PATH}; ${SKILL_SOURCES_PATH} is backed up to ${legacy.backup}`],
  };
}

/** The steps that belong to versions up to `version`, in version order (registry order on a tie). */
export function migrationsUpTo(version: string, registry: readonly Migration[] = MIGRATIONS): Migration[] {
  return registry
    .map((migration, index) => ({ migration, index }))
    .filter(({ migration }) => compareVersions(migration.version, version) <= 0)
    .sort((a, b) => compareVersions(a.migration.version, b.migration.version) || a.index - b.index)
    .map(({ migration }) => migration);
}
