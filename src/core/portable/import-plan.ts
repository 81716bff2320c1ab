/**
 * The decision of `import` (read in import.ts): from a `.squad` file read and checked, and the
 * repository as it is, the one plan (base/plan.ts) that rebuilds the squad as `init` would, with
 * the imported members, skills, roster and casting laid over it. Pure: it touches the disk only
 * through the facts the read step recorded.
 *
 * The plan, in the order it is applied, so that a failure or a kill never loses anything:
 *   1. with an old squad in place, move it to `.ai-team-archive-{timestamp}/` (never deleted) and
 *   2. place the complete new `.ai-team/` whole (`tree`: its files are staged in a hidden folder
 *      beside it, then the old one is moved aside and the staged one renamed into place; a failed
 *      rename puts the old one back): the imported files, what init adds (built-in skills,
 *      decisions, logs, Scribe, a roster from the casting registry when the file has none), the
 *      manifest, and the marker;
 *   3. create the squad-owned files missing outside `.ai-team/` (the coordinator, the member-facing
 *      built-in skills, `.ai-team-templates/`), append the missing `.gitattributes` and
 *      `.gitignore` lines;
 *   4. move the team skills and member-facing built-ins to `.github/skills/`, as upgrade moves them;
 *   5. write the members' Copilot agents (squad/agents/profile-sync.ts), decided on the squad as
 *      it will be then (base/planned-facts.ts factsAfter, import-skills.ts);
 *   6. remove the marker.
 * Until the swap the repository is as it was (plus the hidden staging folder if killed). The
 * marker (IMPORT_MARKER_PATH: the file's sha256, the archive it replaced) arrives with the swap and
 * says "this import's swap happened": a rerun of the same file finds it and plans only steps 3–6
 * from the repository as it is then (never refused, never archiving the new squad, with or without
 * --force).
 *
 * Members: every agent in the file is created with what init gives a member. The scaffold gives
 * it to the members of the roster (a file without one has every agent put in the registry the
 * roster is rebuilt from); an agent the file's roster leaves out gets its folder, and a charter and
 * history from init's templates where the file has none, here, with a note to add its row.
 *
 * Skills: built-in skills in the file (a team skill named like a built-in skill this package ships,
 * whose `metadata.author` is `squad`) are skipped: the target gets its own. Every other skill is
 * imported, also a `squad-*` one this package does not ship (export sent it as learned). A learned
 * skill whose name is a built-in skill this package ships is imported as `{name}-imported`, its
 * frontmatter `name` rewritten to match (when the rewritten SKILL.md would not read back with
 * that name, it is kept as it is, with a note). Each imported SKILL.md is checked as `skills
 * validate` checks it: an invalid one is imported all the same, with a note naming its first error.
 */
import { SQUAD_CONFIG_PATH, parseConfig, withModels } from '../roster/models.js';
import type { DiskFacts } from '../base/disk-facts.js';
import { SquadError } from '../base/errors.js';
import { MAX_NAME_LENGTH } from '../base/names.js';
import {
  AI_TEAM_DIR,
  GITATTRIBUTES_PATH,
  GITIGNORE_PATH,
  IMPORT_MARKER_PATH,
  ORIGINAL_SQUAD_DIR,
  SCRIBE_AGENT,
  SKILL_FILE,
  TEAM_SKILLS_DIR,
  agentDir,
  agentSkillDir,
  aiTeamSkillDir,
  archiveDir,
  charterPath,
  folderTimestamp,
  historyPath,
  historyArchivePath,
  nativeTeamSkillDir,
  squadPaths,
} from '../base/paths.js';
import { type Change, type FileContent, type Plan, type TreeFile, summarizeChanges } from '../base/plan.js';
import { factsAfter } from '../base/planned-facts.js';
import { compareCodePoints, controlCharacterProblem, listNames, nonEmptyString } from '../base/util.js';
import { renderTemplate } from '../fs/templates.js';
import { FrontmatterError } from '../skills/frontmatter.js';
import { parseSkill } from '../skills/skill.js';
import { skillFields } from '../skills/skill-fields.js';
import type { ProfileState } from '../squad/agents/profile-sync.js';
import { activeMembersOf, decideMemberProfiles, profileChanges, reportProfileChanges, type ProfileChangeReport } from '../squad/agents/profile-sync.js';
import {
  CASTING_SCHEMA,
  appendCasting,
  castingEvent,
  createPolicy,
  findUniverse,
  parsePolicy,
  parseRegistry,
  resolveUniverse,
  serializeCasting,
  type CastEntry,
  type CastResult,
} from '../roster/casting.js';
import type { DiscoveredSkill } from '../squad/discover.js';
import { demoteHeadings, tidyHistoryPart } from '../roster/history.js';
import { charterIdentity } from '../roster/members.js';
import { MANIFEST_SCHEMA, parseManifest, serializeManifest, type ManifestRead } from '../squad/manifest.js';
import { decideBuiltinSkillMoves, decideTeamSkillMoves } from '../scaffold/migrations.js';
import { builtinSkillDirsOf, type OwnedFile } from '../squad/owned.js';
import { agentsOf, parseRoster, retargetRosterCharters, type RosterMember } from '../roster/roster.js';
import {
  SCRIBE_MEMBER,
  decideScaffold,
  parseProjectContext,
  planGitattributesFrom,
  planGitignoreFrom,
  planOwnedFilesIn,
  renderMemberFiles,
  type AppendPlan,
  type PlannedFile,
} from '../scaffold/scaffold.js';
import { scaffoldStateFromFiles, type AppendTarget, type OwnedState } from '../scaffold/scaffold-state.js';
import { skillReader, squadSkillsAfter, type SkillReader } from './import-skills.js';
import { renameSkillText } from './skill-rename.js';
import { decodeFile, skillFileEntries } from './squad-files.js';
import {
  CASTING_FILES,
  LEGACY_FORMAT_VERSION,
  TEAM_FILES,
  SquadFormatError,
  fileTable,
  type CastingFileKey,
  type FileEntry,
  type OriginalExportChanges,
  type SquadDocument,
  type SquadSkill,
  type ValidatedSquad,
} from './squad-format.js';
import { checkStateFileSizes } from './squad-validate.js';
import { lockEntry, type SourceRecord } from '../skills/skill-sources.js';
import { SKILL_LOCK_PATH, lockKey, lockWith, type SkillLock } from '../skills/skill-lock.js';
import { SKILLS_ALLOWLIST_PATH } from '../skills/script-plan.js';

export const IMPORTED_HISTORY_TEMPLATE = 'import/history.md.hbs';
/** Suffix of a learned skill renamed because a built-in skill has its name. */
export const IMPORTED_SUFFIX = '-imported';
/** The `metadata.author` of the built-in skills create-squad ships. */
export const BUILTIN_AUTHOR = 'squad';
/** The role of an imported member whose role nothing in the file states. */
const DEFAULT_ROLE = 'Member';
/** What the marker (IMPORT_MARKER_PATH, a dot-file no reader of the squad lists) records: the file's bytes' sha256, the squad it replaced. */
export interface ImportMarker {
  file_sha256: string;
  replaced?: { archive: string; members: number; learnedSkills: number };
}

export type SkillScope = 'team' | 'agent';

export interface ImportedAgent {
  /** Folder name. */
  name: string;
  displayName: string;
  role: string;
  skills: number;
}

export interface ImportedSkill {
  name: string;
  scope: SkillScope;
  agent?: string;
  /** Files, SKILL.md included. */
  files: number;
  /** The name in the file, when the skill was renamed. */
  renamedFrom?: string;
}

export interface SkillRename {
  scope: SkillScope;
  agent?: string;
  from: string;
  to: string;
  reason: string;
}

/** An imported skill with scripts, which run here only once allowed here (trust does not travel). */
export interface ScriptReview {
  name: string;
  scope: SkillScope;
  agent?: string;
}

export interface SkillSkip {
  scope: SkillScope;
  agent?: string;
  name: string;
  reason: string;
}

export interface ImportReport {
  file: string;
  format: ValidatedSquad['format'];
  source: string;
  exportedAt: string;
  exportedBy: string;
  universe: string;
  /** Imported members, Scribe left out. */
  agents: ImportedAgent[];
  skills: ImportedSkill[];
  /** Every imported skill with scripts: none runs here until allowed here (the note names the first few). */
  scriptsToReview: ScriptReview[];
  /** Built-in skills installed, as init installs them. */
  builtinSkills: string[];
  renamed: SkillRename[];
  skipped: SkillSkip[];
  /** The squad this import replaced (or would replace): where it went and what it held. */
  replaced?: { archive: string; members: number; learnedSkills: number };
  /** Squad-owned files created outside .ai-team/ (the coordinator, .ai-team-templates/): the plan's creates there, agents and shared files aside. */
  created: string[];
  /** The members' Copilot agents the plan writes after the swap (a dry run lists them too). */
  agentProfiles: ProfileChangeReport[];
  gitattributesAdded: string[];
  /** Lines appended to `.gitignore` (the local files create-squad keeps out of git). */
  gitignoreAdded: string[];
  /**
   * Staging folders of earlier interrupted imports that are still there (a dry run removes none; a
   * real import removes those whose process is gone); safe to delete.
   */
  leftovers: string[];
  notes: string[];
  /** Files written into the new .ai-team/. */
  files: number;
  dryRun: boolean;
}

interface StagedFile {
  /** Repo-relative path as it will be after the swap. */
  path: string;
  entry: FileEntry;
  /** A state file (team files, casting, charters, histories: what planning reads), or a skill's file. */
  kind: 'state' | 'skill';
}

interface MemberInfo {
  name: string;
  role: string;
  /** Position in the roster (or registry); members found in neither come last. */
  order: number;
}

function insideSquad(relPath: string): boolean {
  return relPath === AI_TEAM_DIR || relPath.startsWith(`${AI_TEAM_DIR}/`);
}

function authoredBySquad(skillMd: string): boolean {
  try {
    return skillFields(parseSkill(skillMd).frontmatter).author === BUILTIN_AUTHOR;
  } catch {
    return false;
  }
}

/** `stem` + `suffix`, shortened to the name limit and numbered until it is not in `taken`. */
function freeName(stem: string, suffix: string, taken: ReadonlySet<string>): string {
  for (let n = 1; ; n += 1) {
    const tail = n === 1 ? suffix : `${suffix}-${n}`;
    const candidate = `${stem.slice(0, MAX_NAME_LENGTH - tail.length).replace(/-+$/, '')}${tail}`;
    if (!taken.has(candidate)) return candidate;
  }
}

function titleCase(folder: string): string {
  return folder
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/**
 * The registry's members by folder, read by casting.ts as `hire` and `doctor` read it: its own
 * `members` list, and (`legacy`) the entries of an original Squad `agents` map it does not also list.
 */
export function registryMembers(registry: Record<string, unknown> | undefined): { own: Map<string, CastEntry>; legacy: Map<string, CastEntry> } {
  const read = registry === undefined ? undefined : parseRegistry(JSON.stringify(registry), { legacy: true });
  const own = new Map<string, CastEntry>();
  const legacy = new Map<string, CastEntry>();
  if (read?.state !== 'ok') return { own, legacy };
  const older = new Set(read.value.legacy);
  for (const member of read.value.members) (older.has(member.folder) ? legacy : own).set(member.folder, member);
  return { own, legacy };
}

/**
 * Each imported member's roster name and role: roster, then casting registry, then the name a
 * Squad 1.0 file gave a folder it had to rename (`renamedFrom`: folder → that name), then charter,
 * then folder.
 */
function memberInfos(document: SquadDocument, renamedFrom: ReadonlyMap<string, string> = new Map()): Map<string, MemberInfo> {
  const roster = new Map((document.team.team_md === undefined ? [] : parseRoster(document.team.team_md)).map((m) => [m.name, m]));
  const { own: registered, legacy } = registryMembers(document.casting.registry);
  const order = [...roster.keys(), ...registered.keys(), ...legacy.keys()];
  const infos = new Map<string, MemberInfo>();
  for (const [folder, agent] of Object.entries(document.agents)) {
    const position = order.indexOf(folder);
    const rank = position === -1 ? order.length : position;
    if (folder === SCRIBE_AGENT) {
      infos.set(folder, { name: SCRIBE_MEMBER.name, role: SCRIBE_MEMBER.role, order: rank });
      continue;
    }
    // Names and roles are shown on one line (and written into the roster and the history): one
    // with a control character in it (a terminal escape) is refused, naming where it came from.
    // The casting files were checked with the rest of the document; the roster and charters are
    // multi-line texts, checked here for what is taken from them.
    const oneLine = (value: string | undefined, where: string, what: string): string | undefined => {
      const problem = value === undefined ? undefined : controlCharacterProblem(value);
      if (problem) throw new SquadFormatError(where, `the ${what} of ${folder} ${problem}`);
      return value;
    };
    const inRoster = roster.get(folder);
    const fromCharter = charterIdentity(agent.charter ?? '');
    const charterWhere = `agents.${folder}.charter`;
    // A Squad 1.0 entry without a persistent_name is named by its key, the folder: the charter knows better.
    const legacyName = legacy.get(folder)?.name;
    const name =
      oneLine(nonEmptyString(inRoster?.displayName), 'team.team_md', 'roster name') ??
      nonEmptyString(registered.get(folder)?.name) ??
      oneLine(renamedFrom.get(folder), `agents[${JSON.stringify(renamedFrom.get(folder))}]`, 'name') ??
      (legacyName === folder ? undefined : nonEmptyString(legacyName)) ??
      oneLine(fromCharter.name, charterWhere, 'name') ??
      titleCase(folder);
    const role =
      oneLine(nonEmptyString(inRoster?.role), 'team.team_md', 'roster role') ??
      nonEmptyString(registered.get(folder)?.role) ??
      nonEmptyString(legacy.get(folder)?.role) ??
      oneLine(fromCharter.role, charterWhere, 'role') ??
      '';
    infos.set(folder, { name, role, order: rank });
  }
  return infos;
}

/**
 * The casting files to write. With a roster in the file they travel as they are. Without one (a
 * Squad 1.0 export, a hand-made file) the registry gets every imported member, so the roster is
 * rebuilt from it, not left blank.
 */
function castingTexts(document: SquadDocument, infos: Map<string, MemberInfo>, now: Date): Partial<Record<CastingFileKey, string>> {
  const { policy, registry, history } = document.casting;
  const texts: Partial<Record<CastingFileKey, string>> = {};
  if (policy) texts.policy = serializeCasting(policy);
  if (registry) texts.registry = serializeCasting(registry);
  if (history) texts.history = serializeCasting(history);
  if (document.team.team_md !== undefined) return texts;

  const { own: known, legacy } = registryMembers(registry);
  const added: CastResult[] = [];
  const inOrder = Object.keys(document.agents).sort((a, b) => infos.get(a)!.order - infos.get(b)!.order || compareCodePoints(a, b));
  for (const folder of inOrder) {
    if (folder === SCRIBE_AGENT || known.has(folder)) continue;
    const info = infos.get(folder)!;
    const universe = legacy.get(folder)?.universe ?? null;
    added.push({ entry: { name: info.name, folder, role: info.role || DEFAULT_ROLE, universe }, event: 'adopted', note: 'imported from a .squad file' });
  }
  if (added.length > 0) {
    texts.registry = appendCasting(
      { schema: CASTING_SCHEMA, ...registry },
      'members',
      added.map((r) => r.entry),
    );
    texts.history = appendCasting(
      { schema: CASTING_SCHEMA, ...(history ?? {}) },
      'events',
      added.map((r) => castingEvent(r, now)),
    );
  }
  if (policy === undefined || parsePolicy(JSON.stringify(policy)).state !== 'ok') {
    const named = added.map((r) => r.entry.universe).find((u): u is string => u !== null);
    const known = named === undefined ? undefined : findUniverse(named);
    // A universe create-squad does not ship is the team's own (its names are the registry's): kept, never swapped for the default.
    const custom = named !== undefined && known === undefined ? { universe: named } : {};
    if (policy !== undefined || named !== undefined) texts.policy = serializeCasting({ ...(policy ?? {}), ...createPolicy(known ?? resolveUniverse(undefined)), ...custom });
  }
  return texts;
}

/** An imported skill's record of where it was added from, with where the plan first puts the skill. */
interface CarriedSource {
  /** Repo-relative folder the overlay places the skill in (a team skill may move on to `.github/skills/`). */
  placed: string;
  record: Record<string, unknown>;
}

interface Overlay {
  files: StagedFile[];
  sources: CarriedSource[];
  skills: ImportedSkill[];
  renamed: SkillRename[];
  skipped: SkillSkip[];
  notes: string[];
}

/** The note for a skill whose SKILL.md could not be given the name `target`. */
function nameNote(name: string, target: string, problem: string): string {
  return `${name}: ${problem}, so its name could not be rewritten to "${target}"; it was imported as it is (set "name: ${target}" in its ${SKILL_FILE} by hand)`;
}

/** The first error `skills validate` would report for this SKILL.md in the folder `dirName`, or undefined (the body's rules only warn). */
function skillError(read: SkillReader, skillMd: string, dirName: string): string | undefined {
  const reading = read(skillMd, dirName);
  if ('validation' in reading) return reading.validation.errors[0]?.message;
  const { error } = reading;
  return error instanceof FrontmatterError ? error.detail : error instanceof Error ? error.message : String(error);
}

/**
 * One SKILL.md reader per document read (import-skills.ts skillReader), kept for both decisions
 * made on it (the read step's and the command's): each skill's frontmatter is then read once.
 */
const skillReaders = new WeakMap<ValidatedSquad, SkillReader>();

function skillReaderFor(squad: ValidatedSquad): SkillReader {
  let read = skillReaders.get(squad);
  if (read === undefined) skillReaders.set(squad, (read = skillReader()));
  return read;
}

/**
 * @param unnamed team skills whose SKILL.md could not be given their (normalised) name, already
 *   noted: not reported again as invalid.
 */
async function buildOverlay(
  document: SquadDocument,
  infos: Map<string, MemberInfo>,
  source: string,
  now: Date,
  unnamed: ReadonlySet<string>,
  shippedBuiltins: readonly string[],
  read: SkillReader,
  original?: OriginalExportChanges,
): Promise<Overlay> {
  const shipped = new Set(shippedBuiltins);
  const overlay: Overlay = { files: [], sources: [], skills: [], renamed: [], skipped: [], notes: [] };
  const where = (agent?: string) => (agent === undefined ? {} : { agent });

  const place = (skills: Record<string, SquadSkill>, scope: SkillScope, agent?: string) => {
    const names = Object.keys(skills).sort(compareCodePoints);
    const taken = new Set(names);
    for (const name of names) {
      const skill = skills[name]!;
      if (scope === 'team' && shipped.has(name) && authoredBySquad(skill.skill_md)) {
        overlay.skipped.push({ scope, name, reason: 'built-in skill: this repository gets its own version' });
        continue;
      }
      let target = name;
      let skillMd = skill.skill_md;
      // Whether a note already says this skill's name needs setting by hand.
      let noted = scope === 'team' && unnamed.has(name);
      if (shipped.has(name)) {
        target = freeName(name, IMPORTED_SUFFIX, new Set([...taken, ...shipped]));
        taken.add(target);
        const renamed = renameSkillText(skillMd, target);
        if ('text' in renamed) skillMd = renamed.text;
        else overlay.notes.push(nameNote(name, target, renamed.problem));
        noted ||= 'problem' in renamed;
        overlay.renamed.push({ scope, ...where(agent), from: name, to: target, reason: 'a built-in skill has this name' });
      }
      const invalid = noted ? undefined : skillError(read, skillMd, target);
      if (invalid !== undefined) {
        overlay.notes.push(
          `skill ${target} (${agent ?? 'team'}) is not valid: ${invalid}; it was imported as it is (fix its ${SKILL_FILE}; "create-squad skills validate" checks it)`,
        );
      }
      const dir = agent === undefined ? aiTeamSkillDir(target) : agentSkillDir(agent, target);
      overlay.files.push({ path: `${dir}/${SKILL_FILE}`, entry: skillMd, kind: 'skill' });
      if (skill.source !== undefined) overlay.sources.push({ placed: dir, record: skill.source });
      const files = skillFileEntries(skill);
      for (const [relPath, entry] of files) overlay.files.push({ path: `${dir}/${relPath}`, entry, kind: 'skill' });
      overlay.skills.push({ name: target, scope, ...where(agent), files: files.length + 1, ...(target === name ? {} : { renamedFrom: name }) });
    }
  };

  const date = now.toISOString().slice(0, 10);
  const teamMd = document.team.team_md;
  const roster = teamMd === undefined ? undefined : { members: parseRoster(teamMd), project: parseProjectContext(teamMd) };
  for (const folder of Object.keys(document.agents).sort(compareCodePoints)) {
    const agent = document.agents[folder]!;
    // A member the roster lists gets what init gives a member with the scaffold (and so does every
    // member of a file without a roster: castingTexts puts them in the registry the roster is
    // rebuilt from). One the roster leaves out gets it here: its folder, a charter and a history.
    if (roster !== undefined && folder !== SCRIBE_AGENT && !roster.members.some((member) => member.name === folder)) {
      const info = infos.get(folder)!;
      overlay.notes.push(`${folder} is not in the roster of ${squadPaths.team}: add a row for ${info.name} there, or the coordinator will not know the member`);
      const missing = new Set([...(agent.charter === undefined ? [charterPath(folder)] : []), ...(agent.history === undefined ? [historyPath(folder)] : [])]);
      for (const file of await renderMemberFiles({ name: info.name, role: info.role || DEFAULT_ROLE, folder }, roster.project)) {
        if (missing.has(file.path)) overlay.files.push({ path: file.path, entry: file.content, kind: 'state' });
      }
    }
    if (agent.charter !== undefined) overlay.files.push({ path: charterPath(folder), entry: agent.charter, kind: 'state' });
    if (agent.history !== undefined) {
      const history = await renderTemplate(IMPORTED_HISTORY_TEMPLATE, {
        name: infos.get(folder)!.name,
        source,
        date,
        portable: tidyHistoryPart(agent.history.portable),
        project: demoteHeadings(tidyHistoryPart(agent.history.project)),
      });
      overlay.files.push({ path: historyPath(folder), entry: history, kind: 'state' });
    }
    if (agent.history_archive !== undefined) overlay.files.push({ path: historyArchivePath(folder), entry: agent.history_archive, kind: 'state' });
    place(agent.skills, 'agent', folder);
  }
  place(document.team_skills, 'team');

  for (const [key, relPath] of fileTable(TEAM_FILES)) {
    const text = document.team[key];
    if (text === undefined) continue;
    // A Squad 1.0 roster names charters in .squad/ (squad-cli), or in folders the file had to rename.
    const retargeted = original !== undefined && key === 'team_md' ? retargetRosterCharters(text) : text;
    if (retargeted !== text)
      overlay.notes.push(`${relPath}: the Charter cells that named ${ORIGINAL_SQUAD_DIR}/ or a renamed folder now name the member's charter in ${AI_TEAM_DIR}/`);
    overlay.files.push({ path: relPath, entry: retargeted, kind: 'state' });
  }
  if (original?.decisions !== undefined) overlay.files.push({ path: squadPaths.decisions, entry: original.decisions, kind: 'state' });
  for (const [name, text] of Object.entries(document.decisions_inbox ?? {}).sort(([a], [b]) => compareCodePoints(a, b))) {
    overlay.files.push({ path: `${squadPaths.decisionsInbox}/${name}`, entry: text, kind: 'state' });
  }
  const casting = castingTexts(document, infos, now);
  for (const [key, relPath] of fileTable(CASTING_FILES)) {
    const text = casting[key];
    if (text !== undefined) overlay.files.push({ path: relPath, entry: text, kind: 'state' });
  }
  return overlay;
}
interface SquadPlan {
  /** What init adds inside .ai-team/ (repo-relative paths), the manifest excepted. */
  files: PlannedFile[];
  /** The manifest's text: the squad-owned files inside .ai-team/ and the ones created outside. */
  manifest: string;
  universe: string;
  notes: string[];
  /** The roster as it will be. */
  roster: RosterMember[];
}

/**
 * What init adds to the imported squad, planned before anything is written to the repository, from
 * the imported state files (team files, casting, charters, histories) alone, as if they were all the
 * repository held. A dry run and a real run report from this one plan.
 */
async function planSquad(
  root: string,
  state: readonly StagedFile[],
  outsideManifest: Record<string, string>,
  now: Date,
  version: string,
  owned: readonly OwnedFile[],
): Promise<SquadPlan> {
  const imported = scaffoldStateFromFiles(
    root,
    state.map((file) => ({ path: file.path, data: decodeFile(file.entry).data })),
  );
  const plan = await decideScaffold(imported, { team: false, now, version }, owned);
  const files = plan.files.filter((f) => insideSquad(f.path) && f.kind !== 'manifest');
  const manifestFiles = Object.fromEntries(Object.entries(plan.manifest.files).filter(([relPath]) => insideSquad(relPath)));
  const teamText = state.find((f) => f.path === squadPaths.team)?.entry ?? files.find((f) => f.path === squadPaths.team)?.content;
  return {
    files,
    manifest: serializeManifest({ schema: MANIFEST_SCHEMA, version, files: { ...manifestFiles, ...outsideManifest } }),
    universe: plan.universe,
    notes: plan.notes,
    roster: typeof teamText === 'string' ? parseRoster(teamText) : [],
  };
}

/** What importing a Squad 1.0 file did beyond a create-squad export: one note each. */
function originalExportNotes(document: SquadDocument, original: OriginalExportChanges | undefined): string[] {
  const rebuilt = document.team.team_md === undefined ? 'the roster was rebuilt from the casting registry and the charters' : 'its roster was imported as it is';
  const carried = [document.team.routing_md === undefined ? undefined : 'routing', original?.decisions === undefined ? undefined : 'decisions'].filter(Boolean);
  const notes = [
    `a Squad 1.0 export: histories were split into portable knowledge and project learnings (its "## Learnings" travel as portable, as the original Squad's did), ${rebuilt}${carried.length > 0 ? `, and its ${carried.join(' and ')} too` : ''}`,
  ];
  const listedAs = new Set((original?.rosterFits ?? []).filter((fit) => fit.repointed).map((fit) => fit.folder));
  for (const { from, to } of original?.renamedAgents ?? []) {
    const name = listedAs.has(to) ? 'the roster row pointed at it names it' : `"${from}" stays its name`;
    notes.push(`agent "${from}" is in ${agentDir(to)}/ (a folder name must be lowercase letters, digits and hyphens); ${name}`);
  }
  for (const { name, reason } of original?.skippedAgents ?? []) notes.push(`agents.${name} was not imported as a member: ${reason}`);
  for (const fit of original?.rosterFits ?? []) notes.push(`${squadPaths.team}: ${fit.note}`);
  const stale = original?.stalePaths ?? [];
  if (stale.length > 0) {
    const total = stale.reduce((sum, entry) => sum + entry.paths, 0);
    notes.push(
      `the squad lived in ${ORIGINAL_SQUAD_DIR}/: ${total} ${ORIGINAL_SQUAD_DIR}/ path${total === 1 ? '' : 's'} of its text ${total === 1 ? 'was' : 'were'} pointed at ${AI_TEAM_DIR}/, as upgrade does (${stale.map((entry) => `${entry.where}: ${entry.paths}`).join(', ')})`,
    );
  }
  for (const { where, name, changes } of original?.convertedSkills ?? [])
    notes.push(`skill ${name} (${where}) was in the original Squad's style and was made a standard skill: ${changes.join('; ')}`);
  return notes;
}

/**
 * What happens to team skills beside `.github/skills/`: an imported one whose name is taken there
 * stays in `.ai-team/skills/` (the one in `.github/skills/` wins); with `replacing`, the skills
 * already there stay, since they belong to the repository, not to the archived squad.
 */
function nativeTeamSkillNotes(disk: DiskFacts, skills: readonly ImportedSkill[], replacing: boolean): string[] {
  const notes: string[] = [];
  for (const skill of skills) {
    if (skill.scope !== 'team' || !disk.exists(nativeTeamSkillDir(skill.name))) continue;
    notes.push(`team skill ${skill.name} stays in ${aiTeamSkillDir(skill.name)}/: ${nativeTeamSkillDir(skill.name)}/ already exists and wins; merge the two by hand`);
  }
  const kept = disk.names(TEAM_SKILLS_DIR).length;
  if (replacing && kept > 0)
    notes.push(`the ${kept} team skill folder${kept === 1 ? '' : 's'} in ${TEAM_SKILLS_DIR}/ stay as they are: they belong to the repository, not to the archived squad`);
  return notes;
}
/** What an existing squad in the target holds, and leftovers of older imports. */
export interface TargetState {
  hasSquad: boolean;
  members: number;
  learnedSkills: number;
  /** Staging folders of earlier interrupted imports still there (import.ts inspectTarget). */
  leftovers: string[];
}

/** What an import decides from: the `.squad` file read and checked, and the repository as it is (import.ts readImportState). */
export interface ImportState {
  root: string;
  /** How the file is named in messages. */
  shownFile: string;
  /** The sha256 of the file's bytes: what the marker records. */
  fileHash: string;
  squad: ValidatedSquad;
  target: TargetState;
  /** The marker of this file's import when its swap happened and its last steps did not. */
  unfinished: ImportMarker | undefined;
  version: string;
  /** The names of the built-in skills this package ships. */
  shippedBuiltins: readonly string[];
  /** Every squad-owned file this version ships. */
  owned: readonly OwnedFile[];
  /** What stands where the squad-owned files outside `.ai-team/` go. */
  outside: OwnedState;
  /** The project lock here (skills-lock.json): the carried records join its entries. */
  lock: SkillLock;
  gitattributes: AppendTarget;
  gitignore: AppendTarget;
  /** The disk's answers to what the decision asks (recorded by the read step). */
  disk: DiskFacts;
  /** The skills discovery lists now in the folders an import leaves as they are (`.github/skills/`, …). */
  keptSkills: readonly DiscoveredSkill[];
  /** For an unfinished import: the manifest and the members' agents' inputs of the squad in place. */
  inPlace?: { manifest: ManifestRead; profiles: ProfileState };
}

export interface ImportInput {
  /** Replace an existing squad (archived, never deleted). */
  force?: boolean;
  now?: Date;
  /** Only words change: the notes say what would be done. */
  dryRun?: boolean;
}

export interface ImportPlan extends Plan {
  changes: Change[];
  /** What the import brings and notes, with the lists derived from `changes`. */
  report: Omit<ImportReport, 'dryRun'>;
}

/**
 * The project lock with the carried records, each under the key of the folder its skill ends in
 * (`lock`: the lock as it stands here, its other entries kept); a record in the older shape
 * (`.ai-team/skill-sources.json`'s) becomes a lock entry. No change when none travelled or the lock
 * holds them already.
 */
function lockChanges(lock: SkillLock, carried: readonly CarriedSource[], moves: readonly { from: string; to: string }[]): Change[] {
  if (carried.length === 0 || lock.problem !== undefined) return [];
  const endsIn = (placed: string) => moves.find((move) => move.from === placed)?.to ?? placed;
  const entry = (record: Record<string, unknown>) => (typeof record.sourceType === 'string' ? record : lockEntry(record as unknown as SourceRecord));
  const text = lockWith(lock, Object.fromEntries(carried.map(({ placed, record }) => [lockKey(endsIn(placed)), entry(record)])));
  if (text === undefined) return [];
  return [lock.text === undefined ? { kind: 'create', path: SKILL_LOCK_PATH, content: text } : { kind: 'replace', path: SKILL_LOCK_PATH, content: text, base: lock.text }];
}

/** The imported skills that bring scripts: trust does not travel (export leaves the allowlist behind), so each needs a review here. */
function skillsWithScripts(document: SquadDocument, skills: readonly ImportedSkill[]): ScriptReview[] {
  return skills.flatMap((skill) => {
    const inFile = skill.agent === undefined ? document.team_skills : document.agents[skill.agent]?.skills;
    if (Object.keys(inFile?.[skill.renamedFrom ?? skill.name]?.scripts ?? {}).length === 0) return [];
    return [{ name: skill.name, scope: skill.scope, ...(skill.agent === undefined ? {} : { agent: skill.agent }) }];
  });
}

/** How many of those skills the note names: one line however many came (`--json` has them all). */
const SCRIPT_REVIEW_SHOWN = 8;

/** The note for the skills whose scripts need a review here, their names capped (listNames). */
function scriptReviewNote(review: readonly ScriptReview[]): string | undefined {
  if (review.length === 0) return undefined;
  const names = listNames(
    review.map((skill) => `${skill.name} (${skill.agent ?? 'team'})`),
    SCRIPT_REVIEW_SHOWN,
  );
  const all = review.length > SCRIPT_REVIEW_SHOWN ? '; --json lists them all (scriptsToReview)' : '';
  return `trust does not travel: no script of ${names} runs here until you read its scripts/ and allow it in ${SKILLS_ALLOWLIST_PATH} (docs/commands.md shows its shape)${all}`;
}

/** `relPath` (in `.ai-team/`) as a path inside the folder placed whole. */
function inSquadDir(relPath: string): string {
  return relPath.slice(AI_TEAM_DIR.length + 1);
}

/** A shared file's missing lines as a change: created, or replaced while it still holds what they were planned on. */
function appendChange(relPath: string, planned: AppendPlan, target: AppendTarget): Change[] {
  if (planned.content === undefined) return [];
  if (!planned.existed) return [{ kind: 'create', path: relPath, content: planned.content }];
  return [{ kind: 'replace', path: relPath, content: planned.content, base: planned.base ?? target.text ?? '' }];
}

/** The files `changes` write, by their path once applied (moves followed). */
function plannedFiles(changes: readonly Change[]): Map<string, FileContent> {
  const files = new Map<string, FileContent>();
  const under = (relPath: string, folder: string) => relPath === folder || relPath.startsWith(`${folder}/`);
  for (const change of changes) {
    if (change.kind === 'create' || change.kind === 'replace' || change.kind === 'backup') files.set(change.path, change.content);
    else if (change.kind === 'remove') files.delete(change.path);
    else if (change.kind === 'tree') {
      for (const relPath of [...files.keys()]) if (under(relPath, change.path)) files.delete(relPath);
      for (const file of change.files) if ('content' in file) files.set(`${change.path}/${file.path}`, file.content);
    } else {
      for (const [relPath, content] of [...files]) {
        if (!under(relPath, change.from)) continue;
        files.delete(relPath);
        files.set(`${change.to}${relPath.slice(change.from.length)}`, content);
      }
    }
  }
  return files;
}

/** Who gets an agent and the skills they see, once `changes` are applied (profile-sync.ts ProfileState). */
function profileStateAfter(disk: DiskFacts, changes: readonly Change[], state: ImportState, manifest: ManifestRead): ProfileState {
  const planned = plannedFiles(changes);
  const team = planned.get(squadPaths.team);
  const roster = team === undefined ? [] : parseRoster(typeof team === 'string' ? team : Buffer.from(team).toString('utf8'));
  // Each member's model as the imported registry and charters record it (roster/models.ts).
  const textOf = (relPath: string) => {
    const content = planned.get(relPath);
    return content === undefined ? undefined : typeof content === 'string' ? content : Buffer.from(content).toString('utf8');
  };
  const members = withModels(activeMembersOf(agentsOf(roster, disk.names(squadPaths.agents))), {
    registry: parseConfig(textOf(squadPaths.castingRegistry)),
    config: parseConfig(textOf(SQUAD_CONFIG_PATH)),
    charter: (folder) => textOf(charterPath(folder)),
  });
  const builtins = builtinSkillDirsOf(state.shippedBuiltins, manifest, (relPath) => disk.exists(relPath));
  return { members, squad: squadSkillsAfter({ disk, planned, kept: state.keptSkills, builtins, read: skillReaderFor(state.squad) }) };
}

/** Decide an import from what was read (see the header): the plan, and the report derived from it. */
export async function decideImport(state: ImportState, input: ImportInput = {}): Promise<ImportPlan> {
  const now = input.now ?? new Date();
  const { root, version, target, unfinished, disk } = state;
  const { format, document, legacySkills, original } = state.squad;
  if (target.hasSquad && unfinished === undefined && (target.members > 0 || target.learnedSkills > 0) && !input.force) {
    throw new SquadError(
      'conflict',
      `this repository already has a squad (${target.members} member${target.members === 1 ? '' : 's'}, ${target.learnedSkills} learned skill${target.learnedSkills === 1 ? '' : 's'})`,
      {
        hint: `pass --force to replace it: the current ${AI_TEAM_DIR}/ is moved to ${archiveDir('{timestamp}')}/, never deleted; nothing was written`,
      },
    );
  }
  const archive = target.hasSquad && unfinished === undefined ? archiveDir(folderTimestamp(now)) : undefined;
  const replaced = archive === undefined ? unfinished?.replaced : { archive, members: target.members, learnedSkills: target.learnedSkills };
  const source = document.source.project.trim() || 'another project';
  const infos = memberInfos(document, new Map(original?.renamedAgents.map((r) => [r.to, r.from])));
  const unnamed = new Set(legacySkills?.renamed.filter((r) => r.problem !== undefined).map((r) => r.to));
  const overlay = await buildOverlay(document, infos, source, now, unnamed, state.shippedBuiltins, skillReaderFor(state.squad), original);
  // A file the commands after import could not read is refused here, not written.
  checkStateFileSizes(overlay.files.filter((f) => f.kind === 'state'));

  const outside = planOwnedFilesIn(
    state.outside,
    state.owned.filter((file) => !insideSquad(file.path)),
  );
  const gitattributes = await planGitattributesFrom(state.gitattributes);
  const gitignore = await planGitignoreFrom(state.gitignore);
  const squad = await planSquad(
    root,
    overlay.files.filter((f) => f.kind === 'state'),
    outside.manifestFiles,
    now,
    version,
    state.owned,
  );

  const notes = [...(legacySkills?.renamed ?? []).flatMap((r) => (r.problem === undefined ? [] : [nameNote(r.from, r.to, r.problem)])), ...overlay.notes];
  if (format === LEGACY_FORMAT_VERSION) notes.push(...originalExportNotes(document, original));
  if (gitattributes.note) notes.push(gitattributes.note);
  if (gitignore.note) notes.push(gitignore.note);
  // Squad-owned files that are in the way outside .ai-team/ (a symlink left as it is), then what
  // planning the squad itself noted.
  notes.push(...outside.notes, ...squad.notes);
  if (unfinished !== undefined) {
    notes.push(`${input.dryRun ? 'would finish' : 'finished'} the import of this file that was interrupted after its new ${AI_TEAM_DIR}/ was in place`);
  } else notes.push(...nativeTeamSkillNotes(disk, overlay.skills, archive !== undefined));
  const scriptsToReview = skillsWithScripts(document, overlay.skills);
  const review = scriptReviewNote(scriptsToReview);
  if (review !== undefined) notes.push(review);

  // 1–2. The old squad archived and the new one placed whole, unless this import's swap happened.
  const changes: Change[] = [];
  if (unfinished === undefined) {
    if (archive !== undefined) changes.push({ kind: 'move', from: AI_TEAM_DIR, to: archive });
    const marker: ImportMarker = { file_sha256: state.fileHash, ...(replaced === undefined ? {} : { replaced }) };
    const files: TreeFile[] = [
      ...overlay.files.map((staged) => {
        const { data, mode } = decodeFile(staged.entry);
        return { path: inSquadDir(staged.path), content: data, mode };
      }),
      ...squad.files.map((planned) => ({ path: inSquadDir(planned.path), content: planned.content, mode: planned.mode })),
      { path: inSquadDir(squadPaths.manifest), content: squad.manifest },
      { path: inSquadDir(IMPORT_MARKER_PATH), content: `${JSON.stringify(marker, null, 2)}\n` },
    ];
    changes.push({ kind: 'tree', path: AI_TEAM_DIR, files });
  }
  // 3. Squad-owned files outside .ai-team/, where still missing; the shared files' missing lines.
  for (const planned of outside.files) changes.push({ kind: 'create', path: planned.path, content: planned.content, mode: planned.mode });
  changes.push(...appendChange(GITATTRIBUTES_PATH, gitattributes, state.gitattributes), ...appendChange(GITIGNORE_PATH, gitignore, state.gitignore));
  // 4. Team skills and member-facing built-ins to .github/skills/, as upgrade moves them (one
  //    rename each; a kill leaves a skill in .ai-team/skills/, still read there, and the rerun finishes the move).
  const manifest = state.inPlace?.manifest ?? parseManifest(squad.manifest);
  const beforeMoves = factsAfter(disk, changes);
  const moves = [
    ...(decideTeamSkillMoves({ disk: beforeMoves, manifest, shippedBuiltins: state.shippedBuiltins }).moves ?? []),
    ...(decideBuiltinSkillMoves({ disk: beforeMoves }).moves ?? []),
  ];
  // The skills' source records, keyed by where each skill ends (moves followed), into the project
  // lock: they change nothing the moves were decided on.
  changes.push(...lockChanges(state.lock, overlay.sources, moves));
  for (const move of moves) changes.push({ kind: 'move', from: move.from, to: move.to });
  // 5. The members' Copilot agents, from the roster and skills as they will be.
  const after = factsAfter(disk, changes);
  const profiles = await decideMemberProfiles(after, state.inPlace?.profiles ?? profileStateAfter(after, changes, state, manifest), { version, now });
  changes.push(...profileChanges(profiles));
  // 6. The import is whole: nothing left for a rerun to finish.
  changes.push({ kind: 'remove', path: IMPORT_MARKER_PATH });

  const roster = new Map(squad.roster.map((member) => [member.name, member]));
  const agentPaths = new Set(profiles.changes.map((change) => change.path));
  const sharedFiles = new Set([GITATTRIBUTES_PATH, GITIGNORE_PATH]);
  return {
    changes,
    report: {
      file: state.shownFile,
      format,
      source,
      exportedAt: document.exported_at,
      exportedBy: document.exported_by,
      universe: squad.universe,
      agents: Object.keys(document.agents)
        .filter((folder) => folder !== SCRIBE_AGENT)
        .sort((a, b) => infos.get(a)!.order - infos.get(b)!.order || compareCodePoints(a, b))
        .map((folder) => {
          // As the roster will show the member (the roster's own row, or the one rebuilt from the registry).
          const member = roster.get(folder);
          const info = infos.get(folder)!;
          return { name: folder, displayName: member?.displayName ?? info.name, role: member?.role ?? info.role, skills: Object.keys(document.agents[folder]!.skills).length };
        }),
      skills: overlay.skills,
      scriptsToReview,
      builtinSkills: [...state.shippedBuiltins],
      renamed: [...(legacySkills?.renamed ?? []).map(({ from, to, reason }) => ({ scope: 'team' as const, from, to, reason })), ...overlay.renamed],
      skipped: [...(legacySkills?.skipped ?? []).map(({ name, reason }) => ({ scope: 'team' as const, name, reason })), ...overlay.skipped],
      ...(replaced === undefined ? {} : { replaced }),
      created: summarizeChanges(changes).created.filter((relPath) => !insideSquad(relPath) && !agentPaths.has(relPath) && !sharedFiles.has(relPath)),
      agentProfiles: reportProfileChanges(profiles),
      gitattributesAdded: gitattributes.added,
      gitignoreAdded: gitignore.added,
      leftovers: target.leftovers,
      notes,
      files: overlay.files.length + squad.files.length + 1 + (changes.some((change) => change.kind !== 'move' && change.path === SKILL_LOCK_PATH) ? 1 : 0),
    },
  };
}
