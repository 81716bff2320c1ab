/**
 * `exportSquad(root)`: a squad as a `.squad` document (docs/squad-format.md), built in memory.
 *
 * What travels: the roster, routing, ceremonies, standing rules, decisions and the decisions inbox;
 * the casting files; every member's charter and history (split into portable knowledge and project
 * learnings, see history.ts; e-mail addresses and credentials redacted by default, see redact.ts);
 * and every learned skill, agent and team scope, whole: every file, byte for byte, binary files as
 * base64, executable bits kept, with the record of where it was added from (its skills-lock.json entry).
 * Every other file under `.ai-team/` is listed in `skipped` with its reason (STAYS_WITH_REPOSITORY:
 * the manifest, logs, backups, alumni, and the script allowlist, since trust is per repository). Built-in skills
 * (`squad-*` that this package ships or that the squad's manifest records as installed) do not
 * travel: the target installs its own, and files changed or added in them are reported as skipped.
 * Nothing is followed or garbled silently: symlinks (a symlinked `.ai-team/` is refused), `.git`
 * folders in skills, special files and state files that are not UTF-8 text are reported as skipped.
 *
 * The document is checked with the same validator import uses before it is returned, so an export
 * always imports. Keys are sorted: two exports of the same squad differ only in `exported_at`.
 */
import { expectManyLongLivedObjects } from '../base/heap.js';
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';
import { SquadError, isSquadError } from '../base/errors.js';
import { notRegularFileError, pathProblem, readDirNames, sha256, specialKind, writeFileAtomic } from '../fs/fs-safe.js';
import { splitHistory, type HistoryParts } from '../roster/history.js';
import { readManifest } from '../squad/manifest.js';
import { isValidName } from '../base/names.js';
import { builtinSkillsIn, installedBuiltinSkillDirs, shippedOwnedFiles, type BuiltinPlacement } from '../squad/owned.js';
import {
  ALUMNI_DIR,
  IMPORT_MARKER_PATH,
  NATIVE_SKILL_DIRS,
  AI_TEAM_DIR,
  SKILL_FILE,
  agentDir,
  agentSkillDir,
  agentSkillsDir,
  charterPath,
  historyPath,
  historyArchivePath,
  resolveIn,
  squadPaths,
} from '../base/paths.js';
import { SKILL_SOURCES_PATH } from '../skills/skill-sources.js';
import { SKILL_LOCK_PATH, emptyLock, lockKey, parseLock, parseLockKey, type SkillLock } from '../skills/skill-lock.js';
import { SKILLS_ALLOWLIST_PATH } from '../skills/script-plan.js';
import { redactText, type RedactionCounts } from '../base/redact.js';
import { parseRoster, requireSquad } from '../roster/roster.js';
import { parseProjectContext } from '../scaffold/scaffold.js';
import {
  CASTING_FILES,
  SQUAD_FORMAT_VERSION,
  SQUAD_LIMITS,
  TEAM_FILES,
  SquadFormatError,
  fileTable,
  type CastingFileKey,
  type FileEntry,
  type SkillBucket,
  type SquadAgent,
  type SquadCasting,
  type SquadDocument,
  type SquadLimits,
  type SquadSkill,
  type SquadTeam,
} from './squad-format.js';
import { bucketOf, encodeFile, squadPathProblem } from './squad-files.js';
import { castingFileProblem, inboxNameProblem, validateSquadDocument } from './squad-validate.js';
import { parseJsonText } from './squad-json.js';
import { serializeSquad } from './canonical-json.js';
import { listTree, type Tree, type TreeFile } from '../fs/tree.js';
import { compareCodePoints, formatBytes, isMapping, quoted } from '../base/util.js';
import { SKILL_NESTING_MAX_DEPTH, STATE_FILE_MAX_BYTES } from '../base/limits.js';
import { packageVersion } from '../fs/version.js';

export interface ExportOptions {
  /** Include histories (default true; `--no-history` turns it off). */
  history?: boolean;
  /** Redact e-mail addresses and credentials in histories (default true; `--keep-private` turns it off). */
  redact?: boolean;
  now?: Date;
  /** Recorded in `exported_by` (default: this package's version). */
  version?: string;
  limits?: SquadLimits;
  /** The file the export is for: checked (see checkExportTarget) before the squad is read. */
  out?: { path: string; shown: string; force: boolean };
}

export interface ExportedSkill {
  name: string;
  scope: 'team' | 'agent';
  agent?: string;
  /** Files, SKILL.md included. */
  files: number;
}

export interface ExportedAgent {
  /** Folder name. */
  name: string;
  displayName: string;
  role: string;
  skills: number;
  history: boolean;
}

export interface ExportSkip {
  /** Repo-relative path. */
  path: string;
  reason: string;
}

export interface ExportRedaction {
  /** false with `--keep-private`: the counts are what was found and kept. */
  enabled: boolean;
  email: number;
  secret: number;
  /** Agents whose history had something to redact. */
  agents: string[];
}

export interface ExportReport {
  source: string;
  agents: ExportedAgent[];
  skills: ExportedSkill[];
  /** Built-in skills left out. */
  builtinSkills: string[];
  skipped: ExportSkip[];
  history: boolean;
  redaction: ExportRedaction;
}

export interface SquadExport {
  document: SquadDocument;
  /** The .squad file's text. */
  text: string;
  report: ExportReport;
}

const NOT_FOLLOWED = 'a symlink; not followed';

/**
 * What stays with the repository, by design, and why: every file under `.ai-team/` that does not
 * travel is listed in `skipped`, these with their own reason (a folder stands for every file in it).
 */
export const STAYS_WITH_REPOSITORY: Readonly<Record<string, string>> = {
  [squadPaths.manifest]: "create-squad's record of the files it installed here; import writes the target's own",
  [SKILLS_ALLOWLIST_PATH]: 'trust stays with each repository: which skills may run scripts is decided there, after a review (import names the skills with scripts to review)',
  [squadPaths.log]: "this repository's session logs; they stay with it",
  [squadPaths.orchestrationLog]: "this repository's orchestration logs; they stay with it",
  [squadPaths.backups]: 'backups of changes made in this repository; they stay with it',
  [ALUMNI_DIR]: 'retired members stay with this repository (the casting registry travels and still names them)',
  [IMPORT_MARKER_PATH]: "an unfinished import's marker; finish that import first",
};
/** Whether a skip is one every squad has by design (STAYS_WITH_REPOSITORY, a placeholder), not something the user should look at. */
export function isExpectedSkip(skip: ExportSkip): boolean {
  return STAYS_WITH_REPOSITORY[skip.path] === skip.reason || skip.reason === PLACEHOLDER_REASON;
}

const PLACEHOLDER = '.gitkeep';
const PLACEHOLDER_REASON = 'an empty-folder placeholder; import creates its own';
const NOT_IN_FORMAT = 'not part of a .squad file; not exported';
const BUILTIN_LEFT_OUT = 'built-in skills do not travel (the target installs its own): copy the change into a skill of your own to take it along';

function cannotExport(relPath: string, reason: string): SquadError {
  return new SquadError('invalid-input', `cannot export ${relPath}: ${reason}`, {
    hint: 'rename, shrink or move that file, then export again; nothing was written',
  });
}

type EntryKind = 'file' | 'dir' | 'other' | 'missing' | 'skipped';

class Collector {
  readonly skipped: ExportSkip[] = [];
  readonly skills: ExportedSkill[] = [];
  /** Repo-relative paths that travel (a folder: everything in it). */
  readonly travelled = new Set<string>();

  constructor(
    readonly root: string,
    readonly limits: SquadLimits,
  ) {}

  skip(relPath: string, reason: string): void {
    this.skipped.push({ path: relPath, reason });
  }

  /**
   * What is at a repo-relative path. A symlink, or a path through one that leads out of the
   * repository, is reported as skipped and never followed.
   */
  kind(relPath: string): EntryKind {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(resolveIn(this.root, relPath));
    } catch {
      return 'missing';
    }
    if (stat.isSymbolicLink()) {
      this.skip(relPath, NOT_FOLLOWED);
      return 'skipped';
    }
    // A folder on the way that is a symlink out of the repository (callers check each level, so
    // this is a safety net).
    const problem = pathProblem(this.root, relPath);
    if (problem) {
      this.skip(relPath, `${problem}; not followed`);
      return 'skipped';
    }
    return stat.isFile() ? 'file' : stat.isDirectory() ? 'dir' : 'other';
  }

  /** The entries of a state folder, or none when it is missing or skipped. */
  names(relDir: string): string[] {
    return this.kind(relDir) === 'dir' ? readDirNames(resolveIn(this.root, relDir)) : [];
  }

  /** A state text file (charter, team.md, …): skipped, with the reason, when it is not a UTF-8 file. */
  text(relPath: string): string | undefined {
    const kind = this.kind(relPath);
    if (kind === 'dir' || kind === 'other') this.skip(relPath, 'not a file; not exported');
    if (kind !== 'file') return undefined;
    // A state file is held to what every command reads whole (and import takes), not only to what a .squad file holds.
    const limit = Math.min(this.limits.fileBytes, STATE_FILE_MAX_BYTES);
    const size = fs.statSync(resolveIn(this.root, relPath)).size;
    if (size > limit) throw cannotExport(relPath, `it is ${formatBytes(size)}; squad files are read up to ${formatBytes(limit)}`);
    const data = fs.readFileSync(resolveIn(this.root, relPath));
    if (data.length > limit) throw cannotExport(relPath, `it is ${formatBytes(data.length)}; squad files are read up to ${formatBytes(limit)}`);
    if (!isUtf8(data)) {
      this.skip(relPath, 'not UTF-8 text; not exported (a .squad file would garble it)');
      return undefined;
    }
    this.travelled.add(relPath);
    return data.toString('utf8');
  }

  /** A team skill another folder's skill of the same name wins over: listed, not exported. */
  shadow(relPath: string, winner: string): void {
    this.travelled.delete(relPath);
    // The report lists it no more: the first team skill of that name is the shadowed one (folders are read lowest precedence first).
    const name = path.posix.basename(relPath);
    const at = this.skills.findIndex((skill) => skill.scope === 'team' && skill.name === name);
    if (at !== -1) this.skills.splice(at, 1);
    this.skip(relPath, `${winner}/ has the same name and wins (as Copilot and create-squad read them); not exported`);
  }

  /** Whether `relPath` travels or is already listed in `skipped` (itself or a folder holding it). */
  accounted(relPath: string): boolean {
    const covers = (folder: string) => relPath === folder || relPath.startsWith(`${folder}/`);
    return [...this.travelled].some(covers) || this.skipped.some((skip) => covers(skip.path));
  }

  /**
   * Every file under `.ai-team/` that neither travels nor is listed yet, listed with its reason
   * (STAYS_WITH_REPOSITORY, a placeholder, or not part of the format), so nothing is left out silently.
   */
  reportTheRest(): void {
    const visit = (relDir: string) => {
      for (const entry of fs.readdirSync(resolveIn(this.root, relDir), { withFileTypes: true }).sort((a, b) => compareCodePoints(a.name, b.name))) {
        const relPath = `${relDir}/${entry.name}`;
        if (this.accounted(relPath)) continue;
        const stays = STAYS_WITH_REPOSITORY[relPath];
        if (stays !== undefined) this.skip(relPath, stays);
        else if (entry.isSymbolicLink()) this.skip(relPath, NOT_FOLLOWED);
        else if (entry.isDirectory()) visit(relPath);
        else if (entry.name === PLACEHOLDER) this.skip(relPath, PLACEHOLDER_REASON);
        else this.skip(relPath, entry.isFile() ? NOT_IN_FORMAT : 'a special file; not exported');
      }
    };
    visit(AI_TEAM_DIR);
  }

  /** The decisions inbox: each UTF-8 text file by its name. */
  inbox(): Record<string, string> {
    const relDir = squadPaths.decisionsInbox;
    const files: [string, string][] = [];
    for (const name of this.names(relDir).sort(compareCodePoints)) {
      const relPath = `${relDir}/${name}`;
      if (name === PLACEHOLDER) continue;
      const problem = inboxNameProblem(name, this.limits);
      if (problem) {
        this.skip(relPath, `${problem}; not exported`);
        continue;
      }
      const text = this.text(relPath);
      if (text !== undefined) files.push([name, text]);
    }
    return Object.fromEntries(files);
  }

  /**
   * The entries of the project lock (skills-lock.json), by the folder of the skill each names (a team
   * skill's entry under each team skills folder, since the folder that wins carries it); for a squad
   * not yet upgraded, the records of `.ai-team/skill-sources.json`. None (the file skipped, with the
   * reason) when it is not a lock, or not the file `skills add` wrote.
   */
  sourceRecords(): Map<string, Record<string, unknown>> {
    const lockText = this.kind(SKILL_LOCK_PATH) === 'file' ? this.text(SKILL_LOCK_PATH) : undefined;
    if (lockText !== undefined) {
      let lock: SkillLock;
      try {
        lock = parseLock(lockText);
      } catch (error) {
        if (!isSquadError(error)) throw error;
        lock = { ...emptyLock(), problem: error.message.replace(`${SKILL_LOCK_PATH}: `, '') };
      }
      if (lock.problem !== undefined) {
        this.travelled.delete(SKILL_LOCK_PATH);
        this.skip(SKILL_LOCK_PATH, `${lock.problem}; left out (skills update needs the sources added again)`);
        return new Map();
      }
      const teamDirs = [squadPaths.aiTeamSkills, ...NATIVE_SKILL_DIRS];
      return new Map(
        Object.entries(lock.entries).flatMap(([key, entry]) => {
          const { name, agent } = parseLockKey(key);
          return (agent === undefined ? teamDirs.map((dir) => `${dir}/${name}`) : [agentSkillDir(agent, name)]).map((folder) => [folder, entry] as const);
        }),
      );
    }
    const text = this.text(SKILL_SOURCES_PATH);
    if (text === undefined) return new Map();
    let value: unknown;
    try {
      value = parseJsonText(text, this.limits.depth);
    } catch (error) {
      if (!(error instanceof SquadFormatError)) throw error;
      this.travelled.delete(SKILL_SOURCES_PATH);
      this.skip(SKILL_SOURCES_PATH, `${error.detail}; left out (skills update needs the sources added again)`);
      return new Map();
    }
    const skills = isMapping(value) ? value.skills : undefined;
    if (!isMapping(skills)) {
      this.travelled.delete(SKILL_SOURCES_PATH);
      this.skip(SKILL_SOURCES_PATH, 'not the records skills add writes (no "skills" object); left out');
      return new Map();
    }
    return new Map(Object.entries(skills).flatMap(([folder, record]) => (isMapping(record) ? [[folder, record] as const] : [])));
  }

  /** A casting file's JSON object, or undefined (missing, or skipped when it is not a casting file create-squad can use). */
  casting(key: CastingFileKey, relPath: string): Record<string, unknown> | undefined {
    const text = this.text(relPath);
    if (text === undefined) return undefined;
    let value: unknown;
    try {
      value = parseJsonText(text, this.limits.depth);
    } catch (error) {
      if (!(error instanceof SquadFormatError)) throw error;
      this.skip(relPath, `${error.detail}; left out`);
      return undefined;
    }
    if (!isMapping(value)) {
      this.skip(relPath, 'not a JSON object; left out');
      return undefined;
    }
    const problem = castingFileProblem(key, value, '');
    if (problem) {
      this.skip(relPath, `${problem.where ? `${problem.where}: ` : ''}${problem.detail}; left out`);
      return undefined;
    }
    return value;
  }

  /** The trees of the skill folders `relDirs` (already checked to be folders), walked in parallel. */
  async walk(relDirs: readonly string[]): Promise<Map<string, Tree>> {
    const trees = await Promise.all(relDirs.map(async (relDir): Promise<[string, Tree]> => [relDir, await listTree(resolveIn(this.root, relDir))]));
    return new Map(trees);
  }

  /** Report what the walk of `relDir` left out below the skill folder `name`. */
  private reportLeftOut(relDir: string, tree: Tree, name: string): void {
    const below = (entry: string) => entry.startsWith(`${name}/`);
    for (const entry of tree.skipped.filter(below)) this.skip(`${relDir}/${entry}`, 'a symlink or special file; not exported');
    for (const entry of tree.git.filter(below)) this.skip(`${relDir}/${entry}`, 'a .git folder or file; not exported');
  }

  /**
   * Every skill folder of `relDir` (except those `exclude` names), with all its files, from its
   * walked `tree`. Folders starting with `.` or `_` are ignored, as discovery ignores them.
   */
  skillsIn(relDir: string, tree: Tree | undefined, scope: 'team' | 'agent', agent?: string, exclude?: ReadonlySet<string>): Record<string, SquadSkill> {
    if (!tree) return {};
    const bySkill = new Map<string, TreeFile[]>();
    for (const file of tree.files) {
      const head = file.path.slice(0, file.path.indexOf('/'));
      if (!head) continue;
      const list = bySkill.get(head);
      if (list) list.push(file);
      else bySkill.set(head, [file]);
    }
    // Each skill folder (a nested one of a project folder too, as Copilot reads it), then the first by path of each name.
    const found: { name: string; prefix: string }[] = [];
    const nests = scope === 'team' && (NATIVE_SKILL_DIRS as readonly string[]).includes(relDir);
    for (const name of readDirNames(resolveIn(this.root, relDir))) {
      if (exclude?.has(name)) continue;
      const skillRel = `${relDir}/${name}`;
      const kind = this.kind(skillRel);
      if (kind === 'file' || kind === 'other') this.skip(skillRel, 'not a skill folder; not exported');
      if (kind !== 'dir') continue;
      const files = bySkill.get(name) ?? [];
      const nested = nests && !files.some((file) => file.path === `${name}/${SKILL_FILE}`) ? nestedSkillFolders(name, files) : [];
      if (nested.length > 0) {
        found.push(...nested.map((prefix) => ({ name: prefix.slice(prefix.lastIndexOf('/') + 1), prefix })));
        continue;
      }
      if (!isValidName(name)) {
        this.skip(skillRel, 'the folder name is not a valid skill name; not exported');
        continue;
      }
      found.push({ name, prefix: name });
    }
    const first = new Map<string, string>();
    for (const { name, prefix } of found) if (!first.has(name) || compareCodePoints(prefix, first.get(name)!) < 0) first.set(name, prefix);
    const skills: [string, SquadSkill][] = [];
    for (const { name, prefix } of found) {
      const skillRel = `${relDir}/${prefix}`;
      if (!isValidName(name)) {
        this.skip(skillRel, 'the folder name is not a valid skill name; not exported');
        continue;
      }
      if (first.get(name) !== prefix) {
        this.skip(skillRel, `the skill of that name at ${relDir}/${first.get(name)} comes first; not exported`);
        continue;
      }
      this.reportLeftOut(relDir, tree, prefix);
      const below = `${prefix}/`;
      const skill = this.skill(
        relDir,
        prefix,
        prefix === name ? (bySkill.get(name) ?? []) : bySkill.get(prefix.slice(0, prefix.indexOf('/')))!.filter((file) => file.path.startsWith(below)),
      );
      if (!skill) continue;
      this.travelled.add(skillRel);
      skills.push([name, skill.skill]);
      this.skills.push({ name, scope, ...(agent === undefined ? {} : { agent }), files: skill.files });
    }
    skills.sort(([a], [b]) => compareCodePoints(a, b));
    return Object.fromEntries(skills);
  }

  /**
   * Built-in skills stay behind, wherever they live (`builtins`; `trees`: the walked skills folders);
   * say which of their files differ from what create-squad installed (the manifest's hashes, or this
   * package's files), since those changes stay behind with them. Returns the built-ins present.
   */
  async builtinChanges(trees: ReadonlyMap<string, Tree>, builtins: BuiltinPlacement, version: string): Promise<string[]> {
    const present: string[] = [];
    const files: string[] = [];
    for (const [dir, tree] of trees) {
      const here = builtinSkillsIn(builtins, dir);
      if (here.size === 0) continue;
      const names = readDirNames(resolveIn(this.root, dir)).filter((name) => here.has(name));
      present.push(...names);
      // Listed in the report's builtinSkills: accounted for (their changed files are listed as skipped below).
      for (const name of names) this.travelled.add(`${dir}/${name}`);
      for (const file of tree.files) if (here.has(file.path.slice(0, file.path.indexOf('/')))) files.push(`${dir}/${file.path}`);
    }
    present.sort(compareCodePoints);
    if (files.length === 0) return present;
    const manifest = readManifest(this.root);
    const recorded = manifest.state === 'ok' ? manifest.manifest.files : {};
    const shipped = new Map((await shippedOwnedFiles(version, builtins)).map((file) => [file.path, sha256(file.content)]));
    for (const relPath of files.sort(compareCodePoints)) {
      const known = [recorded[relPath], shipped.get(relPath)].filter((hash): hash is string => hash !== undefined);
      if (known.length > 0 && known.includes(sha256(fs.readFileSync(resolveIn(this.root, relPath))))) continue;
      this.skip(relPath, `${known.length > 0 ? 'changed in a built-in skill' : 'added to a built-in skill'}; ${BUILTIN_LEFT_OUT}`);
    }
    return present;
  }

  /** The skill in the folder `prefix` of `relDir` (its files as the walk of `relDir` lists them). */
  private skill(relDir: string, prefix: string, files: readonly TreeFile[]): { skill: SquadSkill; files: number } | undefined {
    const skillRel = `${relDir}/${prefix}`;
    const skillFile = `${prefix}/${SKILL_FILE}`;
    const readFile = (file: TreeFile): Buffer => {
      const rel = `${relDir}/${file.path}`;
      if (file.size > this.limits.fileBytes) throw cannotExport(rel, `it is ${formatBytes(file.size)}; a .squad file holds files up to ${formatBytes(this.limits.fileBytes)}`);
      return fs.readFileSync(path.join(resolveIn(this.root, skillRel), ...file.path.slice(prefix.length + 1).split('/')));
    };
    const main = files.find((file) => file.path === skillFile);
    if (!main) {
      this.skip(skillRel, `no ${SKILL_FILE}; not exported`);
      return undefined;
    }
    const skillMd = readFile(main);
    if (!isUtf8(skillMd)) {
      this.skip(skillRel, `its ${SKILL_FILE} is not UTF-8 text; not exported`);
      return undefined;
    }
    const buckets: Record<SkillBucket, [string, FileEntry][]> = { references: [], scripts: [], assets: [], files: [] };
    for (const file of files) {
      if (file === main) continue;
      const rel = file.path.slice(prefix.length + 1);
      const problem = squadPathProblem(rel, this.limits);
      if (problem) throw cannotExport(`${skillRel}/${rel}`, problem);
      const { bucket, path: inBucket } = bucketOf(rel);
      buckets[bucket].push([inBucket, encodeFile(readFile(file), file.executable)]);
    }
    return {
      skill: {
        skill_md: skillMd.toString('utf8'),
        references: Object.fromEntries(buckets.references),
        scripts: Object.fromEntries(buckets.scripts),
        assets: Object.fromEntries(buckets.assets),
        files: Object.fromEntries(buckets.files),
      },
      files: files.length,
    };
  }
}

/**
 * The skill folders grouped below the folder `name` of a project skills folder (its walked files):
 * each nearest folder holding a SKILL.md, at most SKILL_NESTING_MAX_DEPTH levels down, as discovery
 * and the Copilot CLI find them.
 */
function nestedSkillFolders(name: string, files: readonly TreeFile[]): string[] {
  const holders = files
    .filter((file) => file.path.endsWith(`/${SKILL_FILE}`))
    .map((file) => file.path.slice(0, -SKILL_FILE.length - 1))
    .filter((folder) => folder.split('/').length - 1 <= SKILL_NESTING_MAX_DEPTH && folder.startsWith(`${name}/`))
    .sort(compareCodePoints);
  // A folder inside a skill is that skill's, not a skill of its own.
  return holders.filter((folder, i) => !holders.slice(0, i).some((outer) => folder.startsWith(`${outer}/`)));
}

function addCounts(total: RedactionCounts, counts: RedactionCounts): void {
  total.email += counts.email;
  total.secret += counts.secret;
}

/** The skills of `relDir`, each with the record of where it was added from (`records`, by skill folder), when there is one. */
function withSources(skills: Record<string, SquadSkill>, relDir: string, records: ReadonlyMap<string, Record<string, unknown>>): Record<string, SquadSkill> {
  for (const [name, skill] of Object.entries(skills)) {
    const record = records.get(`${relDir}/${name}`);
    if (record !== undefined) skill.source = record;
  }
  return skills;
}

/** Refuse a `.ai-team/` that is a symlink (or leads out of the repository): export never follows one. */
function checkSquadFolder(root: string): void {
  const problem = pathProblem(root, AI_TEAM_DIR);
  if (problem) {
    throw new SquadError('unsafe-path', `cannot export: ${problem}; export never follows symlinks`, {
      hint: `export from the folder the link points to, or replace ${AI_TEAM_DIR} with a real folder; nothing was written`,
    });
  }
}

/** Read the squad at `root` into a .squad document. Reads only. */
export async function exportSquad(root: string, options: ExportOptions = {}): Promise<SquadExport> {
  requireSquad(root);
  checkSquadFolder(root);
  if (options.out) checkExportTarget(options.out.path, options.out.shown, options.out.force);
  const limits = options.limits ?? SQUAD_LIMITS;
  const version = options.version ?? packageVersion();
  const withHistory = options.history !== false;
  const redact = options.redact !== false;
  // Every file collected is kept until the document is written (see base/heap.ts).
  expectManyLongLivedObjects();
  const collect = new Collector(root, limits);

  const team: SquadTeam = {};
  for (const [key, relPath] of fileTable(TEAM_FILES)) {
    const text = collect.text(relPath);
    if (text !== undefined) team[key] = text;
  }
  const casting: SquadCasting = {};
  if (collect.kind(squadPaths.casting) === 'dir') {
    for (const [key, relPath] of fileTable(CASTING_FILES)) {
      const value = collect.casting(key, relPath);
      if (value !== undefined) casting[key] = value;
    }
  }
  const fromTeam = team.team_md === undefined ? '' : parseProjectContext(team.team_md).project;
  // A one-line field: control characters (a terminal escape in team.md) do not travel.
  const project = fromTeam.replace(/\p{Cc}/gu, '') || path.basename(path.resolve(root));

  const rosterList = team.team_md === undefined ? [] : parseRoster(team.team_md);
  const roster = new Map(rosterList.map((member) => [member.name, member]));
  const rosterOrder = (name: string) => {
    const index = rosterList.findIndex((member) => member.name === name);
    return index === -1 ? rosterList.length : index;
  };

  // The members' folders, then every skill folder to walk (team, agents) at once.
  const members: string[] = [];
  for (const name of collect.names(squadPaths.agents)) {
    const kind = collect.kind(agentDir(name));
    if (kind === 'file' || kind === 'other') collect.skip(agentDir(name), 'not an agent folder; not exported');
    if (kind !== 'dir') continue;
    if (isValidName(name)) members.push(name);
    else if (agentDir(name) !== ALUMNI_DIR) collect.skip(agentDir(name), 'the folder name is not a valid agent name; not exported');
  }
  // Team skills, lowest precedence first (as discovery reads them): a later folder's skill wins.
  const teamDirs = [squadPaths.aiTeamSkills, ...[...NATIVE_SKILL_DIRS].reverse()];
  const skillDirs = [...teamDirs, ...members.map(agentSkillsDir)].filter((relDir) => collect.kind(relDir) === 'dir');
  const trees = await collect.walk(skillDirs);

  const records = collect.sourceRecords();
  const redaction: ExportRedaction = { enabled: redact, email: 0, secret: 0, agents: [] };
  const agents: [string, SquadAgent][] = [];
  const exportedAgents: ExportedAgent[] = [];
  for (const name of members) {
    const charter = collect.text(charterPath(name));
    const historyText = withHistory ? collect.text(historyPath(name)) : undefined;
    let history: HistoryParts | undefined;
    if (historyText !== undefined) {
      const parts = splitHistory(historyText);
      const found: RedactionCounts = { email: 0, secret: 0 };
      const cleaned = { portable: redactText(parts.portable), project: redactText(parts.project) };
      addCounts(found, cleaned.portable.counts);
      addCounts(found, cleaned.project.counts);
      if (found.email + found.secret > 0) redaction.agents.push(name);
      addCounts(redaction, found);
      history = redact ? { portable: cleaned.portable.text, project: cleaned.project.text } : parts;
    }
    if (!withHistory && collect.kind(historyPath(name)) === 'file') collect.skip(historyPath(name), 'left out (--no-history)');
    // The archive compact made travels with the history, redacted the same way.
    const archiveText = withHistory ? collect.text(historyArchivePath(name)) : undefined;
    let historyArchive: string | undefined;
    if (archiveText !== undefined) {
      const cleaned = redactText(archiveText);
      if (cleaned.counts.email + cleaned.counts.secret > 0 && !redaction.agents.includes(name)) redaction.agents.push(name);
      addCounts(redaction, cleaned.counts);
      historyArchive = redact ? cleaned.text : archiveText;
    }
    if (!withHistory && collect.kind(historyArchivePath(name)) === 'file') collect.skip(historyArchivePath(name), 'left out (--no-history)');
    const travels = new Set([charterPath(name), historyPath(name), historyArchivePath(name), agentSkillsDir(name)]);
    for (const other of readDirNames(resolveIn(root, agentDir(name)))) {
      const relPath = `${agentDir(name)}/${other}`;
      if (!travels.has(relPath)) collect.skip(relPath, 'not part of a .squad file; not exported');
    }
    const skills = withSources(collect.skillsIn(agentSkillsDir(name), trees.get(agentSkillsDir(name)), 'agent', name), agentSkillsDir(name), records);
    agents.push([
      name,
      {
        ...(charter === undefined ? {} : { charter }),
        ...(history === undefined ? {} : { history }),
        ...(historyArchive === undefined ? {} : { history_archive: historyArchive }),
        skills,
      },
    ]);
    const member = roster.get(name);
    exportedAgents.push({
      name,
      displayName: member?.displayName ?? name,
      role: member?.role ?? '',
      skills: Object.keys(skills).length,
      history: history !== undefined,
    });
  }

  exportedAgents.sort((a, b) => rosterOrder(a.name) - rosterOrder(b.name) || compareCodePoints(a.name, b.name));

  // Built-in skills never travel, wherever they live: the target installs its own.
  const builtins = installedBuiltinSkillDirs(root);
  const merged: Record<string, SquadSkill> = {};
  const foundIn = new Map<string, string>();
  for (const dir of teamDirs) {
    const found = withSources(collect.skillsIn(dir, trees.get(dir), 'team', undefined, builtinSkillsIn(builtins, dir)), dir, records);
    for (const name of Object.keys(found)) {
      const shadowed = foundIn.get(name);
      if (shadowed !== undefined) collect.shadow(`${shadowed}/${name}`, `${dir}/${name}`);
      foundIn.set(name, dir);
    }
    Object.assign(merged, found);
  }
  const teamSkills = Object.fromEntries(
    Object.keys(merged)
      .sort(compareCodePoints)
      .map((name) => [name, merged[name]!]),
  );
  const presentBuiltins = await collect.builtinChanges(new Map(teamDirs.flatMap((dir) => (trees.has(dir) ? [[dir, trees.get(dir)!] as const] : []))), builtins, version);

  // A record travels with its skill; one whose skill does not travel (shadowed, built-in, gone) is listed.
  const carried = new Set([...Object.entries(merged)].flatMap(([, skill]) => (skill.source ? [skill.source] : [])));
  for (const [, agent] of agents) for (const skill of Object.values(agent.skills)) if (skill.source) carried.add(skill.source);
  const reported = new Set<Record<string, unknown>>();
  for (const [folder, record] of records) {
    if (carried.has(record) || reported.has(record)) continue;
    reported.add(record);
    const from = collect.kind(SKILL_LOCK_PATH) === 'file' ? SKILL_LOCK_PATH : SKILL_SOURCES_PATH;
    collect.skip(from, `the record of ${from === SKILL_LOCK_PATH ? quoted(lockKey(folder)) : folder}: that skill is not exported, so its record is left out`);
  }
  const inbox = collect.inbox();
  collect.reportTheRest();

  const document: SquadDocument = {
    squad_format_version: SQUAD_FORMAT_VERSION,
    exported_at: (options.now ?? new Date()).toISOString(),
    exported_by: `create-squad@${version}`,
    source: { project },
    team,
    casting,
    agents: Object.fromEntries(agents),
    team_skills: teamSkills,
    ...(Object.keys(inbox).length > 0 ? { decisions_inbox: inbox } : {}),
  };
  try {
    validateSquadDocument(document, { limits });
  } catch (error) {
    if (!(error instanceof SquadFormatError)) throw error;
    throw new SquadError('invalid-input', `cannot export this squad: ${error.where === undefined ? '' : `${error.where}: `}${error.detail}`, {
      hint: 'fix that entry (a file name, a size), then export again; nothing was written',
    });
  }
  return {
    document,
    text: serializeSquad(document),
    report: {
      source: project,
      agents: exportedAgents,
      skills: collect.skills,
      builtinSkills: presentBuiltins,
      skipped: collect.skipped,
      history: withHistory,
      redaction,
    },
  };
}

/**
 * Refuse, before any work, an output path that cannot be written: a folder, a symlink, anything
 * else that is not a regular file (a FIFO, a socket, a device: never replaced, even with `force`,
 * as the atomic writer refuses it), or an existing file without `force`.
 */
export function checkExportTarget(absPath: string, shown: string, force: boolean): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(absPath);
  } catch {
    return;
  }
  if (stat.isSymbolicLink()) {
    throw new SquadError('unsafe-path', `${shown} is a symlink; create-squad does not write through symlinks`, { hint: 'choose another file with --out' });
  }
  if (stat.isDirectory()) throw new SquadError('invalid-input', `${shown} is a folder`, { hint: 'give a file name with --out, e.g. --out team.squad' });
  const kind = specialKind(stat);
  if (kind !== undefined) throw notRegularFileError(shown, kind);
  if (!force) {
    throw new SquadError('file-exists', `${shown} already exists`, { hint: 'pass --force to replace it, or choose another file with --out' });
  }
}

/** Write the .squad text atomically (temp file + rename); without `force`, only if the file is new. */
export function writeSquadFile(absPath: string, text: string, force: boolean): void {
  const dir = path.dirname(absPath);
  writeFileAtomic(dir, path.basename(absPath), text, { exclusive: !force });
}
