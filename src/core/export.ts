/**
 * `exportSquad(root)`: a squad as a `.squad` document (SPEC §7), built in memory.
 *
 * What travels: the roster, routing and ceremonies; the casting files; every member's charter and
 * history (split into portable knowledge and project learnings, see history.ts; e-mail addresses and
 * credentials redacted by default, see redact.ts); and every learned skill, agent and team scope,
 * whole: every file, byte for byte, binary files as base64, executable bits kept. Built-in skills
 * (`squad-*` that this package ships or that the squad's manifest records as installed) do not
 * travel: the target installs its own. Symlinks are never followed; they are reported as skipped.
 *
 * The document is checked with the same validator import uses before it is returned, so an export
 * always imports. Keys are sorted: two exports of the same squad differ only in `exported_at`.
 */
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';
import { readDirNames } from './fs-safe.js';
import { SquadError } from './errors.js';
import { writeFileAtomic } from './fs-safe.js';
import { splitHistory, type HistoryParts } from './history.js';
import { isValidName } from './names.js';
import { installedBuiltinSkills } from './owned.js';
import {
  SKILL_FILE,
  agentDir,
  agentSkillsDir,
  charterPath,
  historyPath,
  resolveIn,
  squadPaths,
} from './paths.js';
import { redactText, type RedactionCounts } from './redact.js';
import { readRoster, requireSquad } from './roster.js';
import { parseProjectContext } from './scaffold.js';
import {
  CASTING_FILES,
  SQUAD_FORMAT_VERSION,
  SQUAD_LIMITS,
  TEAM_FILES,
  SquadFormatError,
  bucketOf,
  encodeFile,
  fileTable,
  formatBytes,
  parseJsonText,
  serializeSquad,
  squadPathProblem,
  validateSquadDocument,
  type FileEntry,
  type SkillBucket,
  type SquadAgent,
  type SquadCasting,
  type SquadDocument,
  type SquadLimits,
  type SquadSkill,
  type SquadTeam,
} from './squad-format.js';
import { listTree, type Tree, type TreeFile } from './tree.js';
import { compareCodePoints, isMapping } from './util.js';
import { packageVersion } from './version.js';

export interface ExportOptions {
  /** Include histories (default true; `--no-history` turns it off). */
  history?: boolean;
  /** Redact e-mail addresses and credentials in histories (default true; `--keep-private` turns it off). */
  redact?: boolean;
  now?: Date;
  /** Recorded in `exported_by` (default: this package's version). */
  version?: string;
  limits?: SquadLimits;
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

function cannotExport(relPath: string, reason: string): SquadError {
  return new SquadError('INVALID_INPUT', `cannot export ${relPath}: ${reason}`, {
    hint: 'rename, shrink or move that file, then export again; nothing was written',
  });
}

/** What is at a repo-relative path, without following a final symlink. */
function entryKind(root: string, relPath: string): 'file' | 'dir' | 'symlink' | 'other' | 'missing' {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(resolveIn(root, relPath));
  } catch {
    return 'missing';
  }
  if (stat.isSymbolicLink()) return 'symlink';
  return stat.isFile() ? 'file' : stat.isDirectory() ? 'dir' : 'other';
}

class Collector {
  readonly skipped: ExportSkip[] = [];
  readonly skills: ExportedSkill[] = [];

  constructor(
    readonly root: string,
    readonly limits: SquadLimits,
  ) {}

  skip(relPath: string, reason: string): void {
    this.skipped.push({ path: relPath, reason });
  }

  /** A state text file (charter, team.md, …); a symlink is skipped, not followed. */
  text(relPath: string): string | undefined {
    const kind = entryKind(this.root, relPath);
    if (kind === 'symlink') this.skip(relPath, 'a symlink; not followed');
    if (kind !== 'file') return undefined;
    const data = fs.readFileSync(resolveIn(this.root, relPath));
    if (data.length > this.limits.fileBytes) throw cannotExport(relPath, `it is ${formatBytes(data.length)}; a .squad file holds files up to ${formatBytes(this.limits.fileBytes)}`);
    return data.toString('utf8');
  }

  /** A casting file's JSON object, or undefined (missing, or skipped when it is not a JSON object). */
  json(relPath: string): Record<string, unknown> | undefined {
    const text = this.text(relPath);
    if (text === undefined) return undefined;
    try {
      const value = parseJsonText(text, this.limits.depth);
      if (isMapping(value)) return value;
    } catch (error) {
      if (!(error instanceof SquadFormatError)) throw error;
    }
    this.skip(relPath, 'not a valid JSON object; left out');
    return undefined;
  }

  /**
   * The trees of the skill folders `relDirs`, walked in parallel (the walks wait on the disk, not
   * on each other). A folder that is missing or a symlink has none.
   */
  async walk(relDirs: readonly string[]): Promise<Map<string, Tree>> {
    const trees = await Promise.all(
      relDirs.map(async (relDir): Promise<[string, Tree] | undefined> => {
        const kind = entryKind(this.root, relDir);
        if (kind === 'symlink') this.skip(relDir, 'a symlink; not followed');
        return kind === 'dir' ? [relDir, await listTree(resolveIn(this.root, relDir))] : undefined;
      }),
    );
    return new Map(trees.filter((entry) => entry !== undefined));
  }

  /**
   * Every skill folder of `relDir` (except those `exclude` names), with all its files, from its
   * walked `tree`. Folders starting with `.` or `_` are ignored, as discovery ignores them.
   */
  skillsIn(relDir: string, tree: Tree | undefined, scope: 'team' | 'agent', agent?: string, exclude?: ReadonlySet<string>): Record<string, SquadSkill> {
    if (!tree) return {};
    const absDir = resolveIn(this.root, relDir);
    const bySkill = new Map<string, TreeFile[]>();
    for (const file of tree.files) {
      const head = file.path.slice(0, file.path.indexOf('/'));
      if (!head) continue;
      const list = bySkill.get(head);
      if (list) list.push(file);
      else bySkill.set(head, [file]);
    }
    const skills: [string, SquadSkill][] = [];
    for (const name of readDirNames(absDir)) {
      const skillRel = `${relDir}/${name}`;
      if (entryKind(this.root, skillRel) !== 'dir' || exclude?.has(name)) continue;
      for (const link of tree.skipped) if (link === name || link.startsWith(`${name}/`)) this.skip(`${relDir}/${link}`, 'a symlink or special file; not exported');
      if (!isValidName(name)) {
        this.skip(skillRel, 'the folder name is not a valid skill name; not exported');
        continue;
      }
      const skill = this.skill(skillRel, name, bySkill.get(name) ?? []);
      if (!skill) continue;
      skills.push([name, skill.skill]);
      this.skills.push({ name, scope, ...(agent === undefined ? {} : { agent }), files: skill.files });
    }
    return Object.fromEntries(skills);
  }

  private skill(skillRel: string, name: string, files: readonly TreeFile[]): { skill: SquadSkill; files: number } | undefined {
    const skillFile = `${name}/${SKILL_FILE}`;
    const readFile = (file: TreeFile): Buffer => {
      const rel = `${path.posix.dirname(skillRel)}/${file.path}`;
      if (file.size > this.limits.fileBytes) throw cannotExport(rel, `it is ${formatBytes(file.size)}; a .squad file holds files up to ${formatBytes(this.limits.fileBytes)}`);
      return fs.readFileSync(path.join(resolveIn(this.root, skillRel), ...file.path.slice(name.length + 1).split('/')));
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
      const rel = file.path.slice(name.length + 1);
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

function addCounts(total: RedactionCounts, counts: RedactionCounts): void {
  total.email += counts.email;
  total.secret += counts.secret;
}

/** Read the squad at `root` into a .squad document. Reads only. */
export async function exportSquad(root: string, options: ExportOptions = {}): Promise<SquadExport> {
  requireSquad(root);
  const limits = options.limits ?? SQUAD_LIMITS;
  const withHistory = options.history !== false;
  const redact = options.redact !== false;
  const collect = new Collector(root, limits);

  const team: SquadTeam = {};
  for (const [key, relPath] of fileTable(TEAM_FILES)) {
    const text = collect.text(relPath);
    if (text !== undefined) team[key] = text;
  }
  const casting: SquadCasting = {};
  for (const [key, relPath] of fileTable(CASTING_FILES)) {
    const value = collect.json(relPath);
    if (value !== undefined) casting[key] = value;
  }
  const project = (team.team_md === undefined ? '' : parseProjectContext(team.team_md).project) || path.basename(path.resolve(root));

  const rosterList = readRoster(root);
  const roster = new Map(rosterList.map((member) => [member.name, member]));
  const rosterOrder = (name: string) => {
    const index = rosterList.findIndex((member) => member.name === name);
    return index === -1 ? rosterList.length : index;
  };
  const redaction: ExportRedaction = { enabled: redact, email: 0, secret: 0, agents: [] };
  const agentNames = readDirNames(resolveIn(root, squadPaths.agents));
  const walked = agentNames.filter((name) => isValidName(name) && entryKind(root, agentDir(name)) === 'dir');
  const trees = await collect.walk([squadPaths.teamSkills, ...walked.map(agentSkillsDir)]);
  const agents: [string, SquadAgent][] = [];
  const exportedAgents: ExportedAgent[] = [];
  for (const name of agentNames) {
    const kind = entryKind(root, agentDir(name));
    if (kind === 'symlink') collect.skip(agentDir(name), 'a symlink; not followed');
    if (kind !== 'dir') continue;
    if (!isValidName(name)) {
      collect.skip(agentDir(name), 'the folder name is not a valid agent name; not exported');
      continue;
    }
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
    for (const other of readDirNames(resolveIn(root, agentDir(name)))) {
      if (!['charter.md', 'history.md', 'skills'].includes(other)) collect.skip(`${agentDir(name)}/${other}`, 'not part of a .squad file; not exported');
    }
    const skills = collect.skillsIn(agentSkillsDir(name), trees.get(agentSkillsDir(name)), 'agent', name);
    agents.push([name, { ...(charter === undefined ? {} : { charter }), ...(history === undefined ? {} : { history }), skills }]);
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

  const builtins = installedBuiltinSkills(root);
  const teamSkills = collect.skillsIn(squadPaths.teamSkills, trees.get(squadPaths.teamSkills), 'team', undefined, builtins);
  const presentBuiltins = readDirNames(resolveIn(root, squadPaths.teamSkills)).filter((name) => builtins.has(name));

  const document: SquadDocument = {
    squad_format_version: SQUAD_FORMAT_VERSION,
    exported_at: (options.now ?? new Date()).toISOString(),
    exported_by: `create-squad@${options.version ?? packageVersion()}`,
    source: { project },
    team,
    casting,
    agents: Object.fromEntries(agents),
    team_skills: teamSkills,
  };
  try {
    validateSquadDocument(document, { limits });
  } catch (error) {
    if (!(error instanceof SquadFormatError)) throw error;
    throw new SquadError('INVALID_INPUT', `cannot export this squad: ${error.where === undefined ? '' : `${error.where}: `}${error.detail}`, {
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
 * Refuse, before any work, an output path that cannot be written: a folder, a symlink, or an
 * existing file without `force`.
 */
export function checkExportTarget(absPath: string, shown: string, force: boolean): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(absPath);
  } catch {
    return;
  }
  if (stat.isSymbolicLink()) {
    throw new SquadError('UNSAFE_PATH', `${shown} is a symlink; create-squad does not write through symlinks`, { hint: 'choose another file with --out' });
  }
  if (stat.isDirectory()) throw new SquadError('INVALID_INPUT', `${shown} is a folder`, { hint: 'give a file name with --out, e.g. --out team.squad' });
  if (!force) {
    throw new SquadError('FILE_EXISTS', `${shown} already exists`, { hint: 'pass --force to replace it, or choose another file with --out' });
  }
}

/** Write the .squad text atomically (temp file + rename); without `force`, only if the file is new. */
export function writeSquadFile(absPath: string, text: string, force: boolean): void {
  const dir = path.dirname(absPath);
  writeFileAtomic(dir, path.basename(absPath), text, { exclusive: !force });
}
