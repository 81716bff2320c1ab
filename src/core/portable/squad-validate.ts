/**
 * Checking a parsed `.squad` document completely before anything is written, and reading the
 * original Squad's 1.0 export into the 1.1 model (see squad-format.ts).
 */
import { legacyRegistryMembers, parseHistory, parsePolicy, parseRegistry, registryEntryProblem, type CastEntry, type CastingRead } from '../roster/casting.js';
import { SquadError } from '../base/errors.js';
import { convertOriginalSkill } from '../squad/original/skills.js';
import { hasStaleSquadPath, rewriteSquadPaths } from '../squad/original/stale-paths.js';
import { fitRosterToAgents as fitRoster } from '../squad/original/roster-fit.js';
import { parseSkill } from '../skills/skill.js';
import { splitHistory } from '../roster/history.js';
import { folderNameProblem, slugify } from '../base/names.js';
import { SKILL_FILE, charterPath } from '../base/paths.js';
import { controlCharacterProblem, formatBytes, isMapping, jsonTypeName } from '../base/util.js';
import {
  CASTING_FILES,
  LEGACY_FORMAT_VERSION,
  SKILL_BUCKETS,
  SQUAD_FORMAT_VERSION,
  SQUAD_LIMITS,
  SquadFormatError,
  TEAM_FILES,
  entryPath,
  fileTable,
  oneLine,
  type CastingFileKey,
  type FileEntry,
  type LegacySkillChanges,
  type OriginalExportChanges,
  type SquadAgent,
  type SquadCasting,
  type SquadDocument,
  type SquadLimits,
  type SquadSkill,
  type SquadTeam,
  type TeamFileKey,
  type ValidatedSquad,
} from './squad-format.js';
import { decodeFile, normalizedKey, skillFilePath, squadPathProblem } from './squad-files.js';
import { STATE_FILE_MAX_BYTES } from '../base/limits.js';
import { parseJsonText, squadText, type JsonStructureProblem } from './squad-json.js';
import { renameSkillText } from './skill-rename.js';
import { squadDocumentSchema, type SquadDocumentOutput } from './squad-schema.js';
import { parseWith, problemWhere, type SchemaProblem } from '../base/schema.js';

type SchemaSkill = SquadDocumentOutput['team_skills'][string];

/** Running totals while a document is checked. */
class Budget {
  files = 0;
  bytes = 0;
  constructor(readonly limits: SquadLimits) {}

  add(where: string, bytes: number): void {
    if (bytes > this.limits.fileBytes) {
      throw new SquadFormatError(where, `the file is ${formatBytes(bytes)}; the limit is ${formatBytes(this.limits.fileBytes)} per file`);
    }
    this.files += 1;
    this.bytes += bytes;
    if (this.files > this.limits.fileCount) throw new SquadFormatError(where, `the squad has more than ${this.limits.fileCount} files, the limit`);
    if (this.bytes > this.limits.totalBytes) {
      throw new SquadFormatError(where, `the files add up to more than ${formatBytes(this.limits.totalBytes)}, the limit for a whole squad`);
    }
  }
}

function mapping(value: unknown, where: string): Record<string, unknown> {
  if (!isMapping(value)) throw new SquadFormatError(where, `must be an object, not ${jsonTypeName(value)}`);
  return value;
}

/** An optional object: absent or null means "none". */
function optionalMapping(value: unknown, where: string): Record<string, unknown> | undefined {
  return value === undefined || value === null ? undefined : mapping(value, where);
}

function text(value: unknown, where: string, budget: Budget): string {
  if (typeof value !== 'string') throw new SquadFormatError(where, `must be a string, not ${jsonTypeName(value)}`);
  budget.add(where, Buffer.byteLength(value));
  return value;
}

function optionalText(value: unknown, where: string, budget: Budget): string | undefined {
  return value === undefined || value === null ? undefined : text(value, where, budget);
}

/** A one-line field (the project, a date, a version): a string without control characters. */
function plainString(value: unknown, where: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new SquadFormatError(where, `must be a string, not ${jsonTypeName(value)}`);
  if (value.length > 1000) throw new SquadFormatError(where, 'is longer than 1000 characters');
  const control = controlCharacterProblem(value);
  if (control) throw new SquadFormatError(where, control);
  return value;
}

function checkNames(names: readonly string[], where: string, what: string): void {
  for (const name of names) {
    const problem = folderNameProblem(name, what);
    if (problem) throw new SquadFormatError(entryPath(where, name), problem);
  }
}

/** A schema problem as a SquadFormatError; files inside a skill are named as `["path"]`. */
function schemaError(problem: SchemaProblem): SquadFormatError {
  const fileKey = (path: readonly (string | number)[], index: number) => (path[0] === 'team_skills' && index === 3) || (path[0] === 'agents' && index === 5);
  return new SquadFormatError(problemWhere(problem, '', fileKey) || undefined, problem.message);
}

/** The decoded size of a FILES value, counted against the limits. */
function addFile(entry: FileEntry, where: string, budget: Budget): FileEntry {
  if (typeof entry === 'string') {
    budget.add(where, Buffer.byteLength(entry));
    return entry;
  }
  const { content, encoding, mode } = entry;
  if (encoding === 'base64') {
    const padding = content.endsWith('==') ? 2 : content.endsWith('=') ? 1 : 0;
    budget.add(where, (content.length / 4) * 3 - padding);
  } else {
    budget.add(where, Buffer.byteLength(content));
  }
  return { content, encoding, mode };
}

/**
 * A skill the schema accepted, against what depends on the limits and on its other files: each
 * path's rules and length, each file once (case and Unicode normalisation ignored), no file where a
 * folder must be, and the sizes.
 */
function checkSkill(raw: SchemaSkill, where: string, budget: Budget): SquadSkill {
  budget.add(entryPath(where, 'skill_md'), Buffer.byteLength(raw.skill_md));
  const skill: SquadSkill = { skill_md: raw.skill_md, references: {}, scripts: {}, assets: {}, files: {}, ...(raw.source ? { source: raw.source } : {}) };
  // Full skill-relative paths, normalised: each file once, no file where a folder must be.
  const taken = new Map<string, string>([[normalizedKey(SKILL_FILE), entryPath(where, 'skill_md')]]);
  const entries: { key: string; where: string }[] = [];
  for (const bucket of SKILL_BUCKETS) {
    const bucketWhere = entryPath(where, bucket);
    const checked: [string, FileEntry][] = [];
    for (const [relPath, entry] of Object.entries(raw[bucket])) {
      const fileWhere = entryPath(bucketWhere, relPath, true);
      const problem = squadPathProblem(relPath, budget.limits);
      if (problem) throw new SquadFormatError(fileWhere, problem);
      const key = normalizedKey(skillFilePath(bucket, relPath));
      const other = taken.get(key);
      if (other !== undefined) throw new SquadFormatError(fileWhere, `the same file as ${other} once case and Unicode normalisation are ignored`);
      taken.set(key, fileWhere);
      entries.push({ key, where: fileWhere });
      checked.push([relPath, addFile(entry, fileWhere, budget)]);
    }
    // Own data properties only: a path such as "__proto__" stays a file name.
    skill[bucket] = Object.fromEntries(checked);
  }
  for (const { key, where: fileWhere } of entries) {
    const segments = key.split('/');
    for (let i = 1; i < segments.length; i += 1) {
      const folder = taken.get(segments.slice(0, i).join('/'));
      if (folder !== undefined) throw new SquadFormatError(fileWhere, `its folder "${segments.slice(0, i).join('/')}" is also a file (${folder})`);
    }
  }
  return skill;
}

function checkSkills(raw: Record<string, SchemaSkill>, where: string, budget: Budget): Record<string, SquadSkill> {
  return Object.fromEntries(Object.entries(raw).map(([name, skill]) => [name, checkSkill(skill, entryPath(where, name), budget)]));
}

/** The casting readers, in create-squad's shapes or the original Squad's (a squad adopted from it keeps its files). */
const CASTING_READERS: Record<CastingFileKey, (text: string) => CastingRead<unknown>> = {
  policy: (text) => parsePolicy(text, { legacy: true }),
  registry: (text) => parseRegistry(text, { legacy: true }),
  history: (text) => parseHistory(text, { legacy: true }),
};

/** The first string (key or value) in `value` with a control character: where it is, and what. */
function controlCharacterIn(value: unknown, where: string): JsonStructureProblem | undefined {
  if (typeof value === 'string') {
    const detail = controlCharacterProblem(value);
    return detail ? { where, detail } : undefined;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = controlCharacterIn(value[i], entryPath(where, i));
      if (found) return found;
    }
  } else if (isMapping(value)) {
    for (const [key, item] of Object.entries(value)) {
      const detail = controlCharacterProblem(key);
      if (detail) return { where: entryPath(where, key, true), detail: `its key ${detail}` };
      const found = controlCharacterIn(item, entryPath(where, key));
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Why a casting file (its parsed JSON) would break the squad it is imported into, or undefined:
 * a shape create-squad reads (its own `universe`, `members`, `events`, or the original Squad's
 * `allowlist_universes`, `agents`, `universe_usage_history`), and no control character in any of
 * its strings (names, roles and universes are shown on one line).
 */
export function castingFileProblem(key: CastingFileKey, value: Record<string, unknown>, where: string = entryPath('casting', key)): JsonStructureProblem | undefined {
  const read = CASTING_READERS[key](JSON.stringify(value));
  if (read.state === 'invalid') return { where, detail: `not a valid casting ${key}: ${read.reason}` };
  return (key === 'registry' ? registryMembersProblem(value, where) : undefined) ?? controlCharacterIn(value, where);
}

/** The first entry of a registry's `members` list that commands would skip (see registryEntryProblem). */
function registryMembersProblem(registry: Record<string, unknown>, where: string): JsonStructureProblem | undefined {
  const members = registry.members;
  if (!Array.isArray(members)) return undefined;
  for (let i = 0; i < members.length; i += 1) {
    const problem = registryEntryProblem(members[i]);
    if (problem) return { where: entryPath(entryPath(where, 'members'), i), detail: `not a registry member create-squad can use: ${problem}` };
  }
  return undefined;
}

/**
 * The casting files. Format 1.1 files must have a shape create-squad reads (castingFileProblem).
 * A Squad 1.0 export carries whatever its casting files held, written back as they are: only
 * objects without control characters are required there, and a registry `members` list (if any)
 * of entries create-squad can use.
 */
function checkCasting(value: unknown, budget: Budget, legacy: boolean): SquadCasting {
  const raw = optionalMapping(value, 'casting');
  const casting: SquadCasting = {};
  if (!raw) return casting;
  for (const [key] of fileTable(CASTING_FILES)) {
    const where = entryPath('casting', key);
    const file = optionalMapping(raw[key], where);
    if (!file) continue;
    const members = legacy && key === 'registry' ? registryMembersProblem(file, where) : undefined;
    const problem = members ?? (legacy ? controlCharacterIn(file, where) : castingFileProblem(key, file, where));
    if (problem) throw new SquadFormatError(problem.where, problem.detail);
    budget.add(where, Buffer.byteLength(JSON.stringify(file)));
    casting[key] = file;
  }
  return casting;
}

/** The `agents` object: names checked, then each agent's charter and what `rest` reads. */
function checkAgents(value: unknown, budget: Budget, rest: (raw: Record<string, unknown>, where: string) => Omit<SquadAgent, 'charter'>): Record<string, SquadAgent> {
  const agentsRaw = mapping(value, 'agents');
  const names = Object.keys(agentsRaw);
  checkNames(names, 'agents', 'agent name');
  return Object.fromEntries(
    names.map((name) => {
      const where = entryPath('agents', name);
      const raw = mapping(agentsRaw[name], where);
      const charter = optionalText(raw.charter, entryPath(where, 'charter'), budget);
      return [name, { ...(charter === undefined ? {} : { charter }), ...rest(raw, where) }];
    }),
  );
}

/** Text that may be absent (undefined or null): counted against the limits when present. */
function counted(value: string | null | undefined, where: string, budget: Budget): string | undefined {
  if (value === undefined || value === null) return undefined;
  budget.add(where, Buffer.byteLength(value));
  return value;
}

/** Why `name` cannot be a file of the decisions inbox (one file name, by the path rules of a skill's files, no dot-file), or undefined. */
export function inboxNameProblem(name: string, limits: SquadLimits): string | undefined {
  if (name.includes('/') || name.includes('\\')) return 'an inbox entry is one file name, not a path';
  if (name.startsWith('.')) return 'an inbox entry does not start with "."';
  return squadPathProblem(name, limits);
}

/** A 1.1 document: its shape by the schema (squad-schema.ts), then the limits, paths and casting files. */
function checkVersion11(root: Record<string, unknown>, budget: Budget): SquadDocument {
  const parsed = parseWith(squadDocumentSchema(), root);
  if ('problem' in parsed) throw schemaError(parsed.problem);
  const raw = parsed.value;
  const agents: Record<string, SquadAgent> = {};
  for (const [name, agent] of Object.entries(raw.agents)) {
    const where = entryPath('agents', name);
    const charter = counted(agent.charter, entryPath(where, 'charter'), budget);
    const historyWhere = entryPath(where, 'history');
    const history = agent.history && {
      portable: counted(agent.history.portable, entryPath(historyWhere, 'portable'), budget) ?? '',
      project: counted(agent.history.project, entryPath(historyWhere, 'project'), budget) ?? '',
    };
    const historyArchive = counted(agent.history_archive, entryPath(where, 'history_archive'), budget);
    const value: SquadAgent = {
      ...(charter === undefined ? {} : { charter }),
      ...(history ? { history } : {}),
      ...(historyArchive === undefined ? {} : { history_archive: historyArchive }),
      skills: checkSkills(agent.skills, entryPath(where, 'skills'), budget),
    };
    Object.defineProperty(agents, name, { value, enumerable: true, writable: true, configurable: true });
  }
  const team: SquadTeam = {};
  for (const [key] of fileTable(TEAM_FILES)) {
    const value = counted(raw.team[key], entryPath('team', key), budget);
    if (value !== undefined) team[key] = value;
  }
  const inbox: [string, string][] = [];
  for (const [name, content] of Object.entries(raw.decisions_inbox)) {
    const where = entryPath('decisions_inbox', name, true);
    const problem = inboxNameProblem(name, budget.limits);
    if (problem) throw new SquadFormatError(where, problem);
    budget.add(where, Buffer.byteLength(content));
    inbox.push([name, content]);
  }
  return {
    squad_format_version: SQUAD_FORMAT_VERSION,
    exported_at: raw.exported_at,
    exported_by: raw.exported_by,
    source: { project: raw.source.project },
    team,
    casting: checkCasting(raw.casting, budget, false),
    agents,
    team_skills: checkSkills(raw.team_skills, 'team_skills', budget),
    ...(inbox.length > 0 ? { decisions_inbox: Object.fromEntries(inbox) } : {}),
  };
}

/**
 * The `skills` list of a Squad 1.0 file: SKILL.md texts named by their frontmatter. The original
 * Squad did not check names: one that breaks the name rules is normalised with slugify (its
 * frontmatter `name` rewritten), and one that cannot be (nothing left, a Windows device name, the
 * name of another skill in the file) is left out; both are reported. A skill without frontmatter (or
 * without a name) is given one from its title (convertOriginalSkill), and reported. Two skills with
 * the same name, and a SKILL.md that cannot be read any of these ways, are refused.
 */
function checkLegacySkills(
  value: unknown,
  budget: Budget,
  converted: OriginalExportChanges['convertedSkills'],
): { skills: Record<string, SquadSkill>; changes: LegacySkillChanges } {
  if (value !== undefined && value !== null && !Array.isArray(value)) {
    throw new SquadFormatError('skills', `must be a list of SKILL.md texts, not ${jsonTypeName(value)}`);
  }
  const read = ((value ?? []) as unknown[]).map((item, index) => {
    const where = entryPath('skills', index);
    let skillMd = text(item, where, budget);
    let name: unknown;
    let failure: string | undefined;
    try {
      name = parseSkill(skillMd).frontmatter.name;
    } catch (error) {
      failure = `the SKILL.md cannot be read: ${error instanceof SquadError ? error.message : String(error)}`;
    }
    if (typeof name !== 'string') {
      const conversion = convertOriginalSkill(skillMd);
      if (conversion === undefined) throw new SquadFormatError(where, failure ?? 'the SKILL.md has no "name" in its frontmatter');
      skillMd = conversion.text;
      name = conversion.name;
      converted.push({ where, name: conversion.name, changes: conversion.changes });
    }
    return { where, skillMd, name: name as string, problem: folderNameProblem(name as string, 'skill name') };
  });
  // Valid names first: a normalised name never takes one that a skill has as it is.
  const seen = new Map<string, string>();
  for (const { where, name, problem } of read) {
    if (problem) continue;
    const first = seen.get(name);
    if (first !== undefined) throw new SquadFormatError(where, `duplicate skill name "${name}" (also ${first})`);
    seen.set(name, where);
  }
  const changes: LegacySkillChanges = { renamed: [], skipped: [] };
  const skills: [string, SquadSkill][] = [];
  for (const { where, skillMd, name, problem } of read) {
    let key = name;
    let content = skillMd;
    if (problem) {
      key = slugify(name);
      const other = seen.get(key);
      const why =
        key === ''
          ? 'it has no letter or digit to keep'
          : (folderNameProblem(key, 'its normalised name') ?? (other === undefined ? undefined : `"${key}" is the name of another skill in the file (${other})`));
      if (why !== undefined) {
        changes.skipped.push({ where, name, reason: `${problem} and cannot be normalised: ${why}` });
        continue;
      }
      seen.set(key, where);
      const renamed = renameSkillText(skillMd, key);
      if ('text' in renamed) content = renamed.text;
      const reason = `${problem} (the original Squad did not check skill names)`;
      changes.renamed.push({ where, from: name, to: key, reason, ...('problem' in renamed ? { problem: renamed.problem } : {}) });
    }
    skills.push([key, { skill_md: content, references: {}, scripts: {}, assets: {}, files: {} }]);
  }
  return { skills: Object.fromEntries(skills), changes };
}

/** The folder under which the original Squad keeps retired members' folders (`agents/_alumni/`). */
const ORIGINAL_ALUMNI_KEY = '_alumni';

/**
 * The `agents` object of a Squad 1.0 file with member folders only, each under a valid name: the
 * alumni folder and other `_`/`.` folders left out (reported), a folder such as `Rai` or `lead
 * architect` renamed with slugify (reported; two that become one name, or one that becomes none,
 * are refused).
 */
function legacyAgentFolders(value: unknown, changes: OriginalExportChanges): Record<string, unknown> {
  const raw = mapping(value, 'agents');
  const folders: [string, unknown][] = [];
  const taken = new Map<string, string>();
  for (const key of Object.keys(raw)) if (folderNameProblem(key) === undefined) taken.set(key, key);
  for (const [key, agent] of Object.entries(raw)) {
    if (key.startsWith('_') || key.startsWith('.')) {
      changes.skippedAgents.push({ name: key, reason: skippedFolderReason(key, agent) });
      continue;
    }
    if (folderNameProblem(key) === undefined) {
      folders.push([key, agent]);
      continue;
    }
    const folder = slugify(key);
    const other = taken.get(folder);
    const problem =
      folder === ''
        ? 'it has no letter or digit to make a folder name from'
        : (folderNameProblem(folder, 'its folder name') ?? (other === undefined ? undefined : `its folder name "${folder}" is also the folder of ${entryPath('agents', other)}`));
    if (problem !== undefined) throw new SquadFormatError(entryPath('agents', key), `agent name ${JSON.stringify(oneLine(key, 80))} cannot be used: ${problem}`);
    taken.set(folder, key);
    changes.renamedAgents.push({ from: key, to: folder });
    folders.push([folder, agent]);
  }
  return Object.fromEntries(folders);
}

function skippedFolderReason(key: string, agent: unknown): string {
  const empty = isMapping(agent) && Object.keys(agent).length === 0;
  if (key === ORIGINAL_ALUMNI_KEY) {
    return `the original Squad's folder of retired members: they stay retired (the casting registry says who they are)${empty ? '' : '; what the file holds for it is not imported'}`;
  }
  return `a folder starting with "${key[0]}" is no member${empty ? '' : '; it is not imported'}`;
}

/** The first of `keys` that `root` holds (squad-cli writes both `team_md` and `team`), as text. */
function legacyDocument(root: Record<string, unknown>, keys: readonly string[], budget: Budget): string | undefined {
  const key = keys.find((candidate) => root[candidate] !== undefined && root[candidate] !== null);
  return key === undefined ? undefined : text(root[key], key, budget);
}

/** squad-cli's team documents, by the key they take in the 1.1 model. */
const LEGACY_DOCUMENTS: readonly [TeamFileKey, readonly string[]][] = [
  ['team_md', ['team_md', 'team']],
  ['routing_md', ['routing_md', 'routing']],
  ['ceremonies_md', ['ceremonies_md', 'ceremonies']],
];

/**
 * A Squad 1.0 roster fitted to the agents the file holds (squad/original/roster-fit.ts, the rule
 * upgrade follows too), each change noted; two agents that are one row's member: refused.
 */
function fitRosterToAgents(teamMd: string, agents: Readonly<Record<string, SquadAgent>>, registered: readonly CastEntry[], changes: OriginalExportChanges): string {
  const fitted = fitRoster(teamMd, agents, registered, (folder) => renamedKey(folder, changes));
  if (fitted.ambiguous !== undefined) {
    const { member, charter, folders } = fitted.ambiguous;
    throw new SquadFormatError(
      'team_md',
      `the roster names ${member} in ${charter}, which the file does not hold, and ${folders.map((folder) => `agents["${renamedKey(folder, changes)}"]`).join(' and ')} are each ${member}: keep one of them in the squad it came from (or point the roster row at it), then export again`,
    );
  }
  const fits: NonNullable<OriginalExportChanges['rosterFits']> = fitted.fits.map((fit) => ({
    folder: fit.folder,
    repointed: fit.repointed,
    note: fit.repointedFrom
      ? `${fit.repointedFrom.member}'s row named ${fit.repointedFrom.charter}, which the file does not hold; agents["${renamedKey(fit.folder, changes)}"] holds ${fit.repointedFrom.member}'s charter, so the row names ${charterPath(fit.folder)}`
      : `agents["${renamedKey(fit.folder, changes)}"] was not in the roster: it has a row now, as ${fit.added!.name} (${fit.added!.role}, from its charter)`,
  }));
  if (fits.length > 0) changes.rosterFits = fits;
  return fitted.text;
}

/**
 * An export of a squad that lived in `.squad/` (squad-cli's: its roster, routing or a charter
 * names `.squad/` paths) has every `.squad/` path of its text pointed at `.ai-team/`, a renamed
 * member folder by its new name, as upgrade does to a squad it moves (stale-paths.ts, one rule):
 * the roster, routing, ceremonies, decisions, charters, histories and SKILL.md files. Each text
 * changed is listed in `stalePaths`. An export that never lived there keeps its text.
 */
function pointTextAtAiTeam(team: SquadTeam, agents: Record<string, SquadAgent>, skills: Record<string, SquadSkill>, changes: OriginalExportChanges): void {
  const instructions = [team.team_md, team.routing_md, team.ceremonies_md, ...Object.values(agents).map((agent) => agent.charter)];
  if (!instructions.some((text) => text !== undefined && hasStaleSquadPath(text))) return;
  const renamed = new Map(changes.renamedAgents.map((rename) => [rename.from, rename.to]));
  const memberFolder = (name: string) => renamed.get(name) ?? (folderNameProblem(name) === undefined ? name : slugify(name));
  const stale: NonNullable<OriginalExportChanges['stalePaths']> = [];
  const point = (where: string, text: string): string => {
    const { text: pointed, count } = rewriteSquadPaths(text, memberFolder);
    if (count > 0) stale.push({ where, paths: count });
    return pointed;
  };
  for (const key of Object.keys(team) as TeamFileKey[]) team[key] = point(key, team[key]!);
  if (changes.decisions !== undefined) changes.decisions = point('decisions_md', changes.decisions);
  for (const [folder, agent] of Object.entries(agents)) {
    const where = entryPath('agents', renamedKey(folder, changes));
    if (agent.charter !== undefined) agent.charter = point(entryPath(where, 'charter'), agent.charter);
    if (agent.history !== undefined) {
      const portable = point(entryPath(where, 'history'), agent.history.portable);
      const project = point(entryPath(where, 'history'), agent.history.project);
      agent.history = { portable, project };
    }
  }
  for (const [name, skill] of Object.entries(skills)) skill.skill_md = point(`skills (${name})`, skill.skill_md);
  if (stale.length > 0) changes.stalePaths = mergeCounts(stale);
}

/** One entry per place, its counts added. */
function mergeCounts(entries: readonly { where: string; paths: number }[]): { where: string; paths: number }[] {
  const merged = new Map<string, number>();
  for (const { where, paths } of entries) merged.set(where, (merged.get(where) ?? 0) + paths);
  return [...merged].map(([where, paths]) => ({ where, paths }));
}

/** The name the file gives an agent folder: the key it had before it was made a valid folder name. */
function renamedKey(folder: string, changes: OriginalExportChanges): string {
  return changes.renamedAgents.find((rename) => rename.to === folder)?.from ?? folder;
}

/** The original Squad's export, as the 1.1 model, and what reading its agents and skills changed. */
function checkLegacy(root: Record<string, unknown>, budget: Budget, sourceName: string): ValidatedSquad {
  const original: OriginalExportChanges = { renamedAgents: [], skippedAgents: [], convertedSkills: [] };
  const agents = checkAgents(legacyAgentFolders(root.agents, original), budget, (raw, where) => {
    const history = optionalText(raw.history, entryPath(where, 'history'), budget);
    return { ...(history === undefined ? {} : { history: splitHistory(history) }), skills: {} };
  });
  const { skills, changes } = checkLegacySkills(root.skills, budget, original.convertedSkills);
  const version = plainString(root.squad_version, 'squad_version');
  const team: SquadTeam = {};
  for (const [key, names] of LEGACY_DOCUMENTS) {
    const found = legacyDocument(root, names, budget);
    if (found !== undefined) team[key] = found;
  }
  const registry = isMapping(root.casting) && isMapping(root.casting.registry) ? legacyRegistryMembers(root.casting.registry) : [];
  if (team.team_md !== undefined) team.team_md = fitRosterToAgents(team.team_md, agents, registry, original);
  const decisions = legacyDocument(root, ['decisions_md', 'decisions'], budget);
  if (decisions !== undefined) original.decisions = decisions;
  pointTextAtAiTeam(team, agents, skills, original);
  const document: SquadDocument = {
    squad_format_version: SQUAD_FORMAT_VERSION,
    exported_at: plainString(root.exported_at, 'exported_at') ?? '',
    exported_by: version === undefined ? 'squad' : `squad@${version}`,
    source: { project: sourceName },
    team,
    casting: checkCasting(root.casting, budget, true),
    agents,
    team_skills: skills,
  };
  return { format: LEGACY_FORMAT_VERSION, document, legacySkills: changes, original };
}

export interface ValidateOptions {
  limits?: SquadLimits;
  /** The source project to record for a 1.0 file (which does not name it): usually the file's name. */
  sourceName?: string;
}

/**
 * Check a parsed .squad document completely and return it as the 1.1 model. Throws
 * SquadFormatError naming the first offending entry. Pure: no I/O.
 */
export function validateSquadDocument(value: unknown, options: ValidateOptions = {}): ValidatedSquad {
  const budget = new Budget(options.limits ?? SQUAD_LIMITS);
  if (!isMapping(value)) throw new SquadFormatError(undefined, `the document must be a JSON object, not ${jsonTypeName(value)}`);
  const version = value.squad_format_version;
  if (version !== undefined) {
    if (version !== SQUAD_FORMAT_VERSION) {
      throw new SquadFormatError(
        'squad_format_version',
        `unknown format version ${oneLine(JSON.stringify(version) ?? String(version), 40)} (this create-squad reads "${SQUAD_FORMAT_VERSION}" and Squad "${LEGACY_FORMAT_VERSION}" exports)`,
      );
    }
    return { format: SQUAD_FORMAT_VERSION, document: checkVersion11(value, budget) };
  }
  if (value.version === LEGACY_FORMAT_VERSION) return checkLegacy(value, budget, options.sourceName ?? '');
  if (value.version !== undefined) {
    throw new SquadFormatError(
      'version',
      `unknown format version ${oneLine(JSON.stringify(value.version) ?? '', 40)} (expected squad_format_version "${SQUAD_FORMAT_VERSION}", or a Squad "${LEGACY_FORMAT_VERSION}" export)`,
    );
  }
  throw new SquadFormatError(undefined, `no format version (expected "squad_format_version": "${SQUAD_FORMAT_VERSION}")`);
}

/**
 * Refuse a squad file import would write that the commands after it could not read: a charter,
 * history, roster, rules or decisions file (state files, read whole) over STATE_FILE_MAX_BYTES,
 * the limit prompt, route and export read them with. invalid-input naming the file. Pure.
 */
export function checkStateFileSizes(files: readonly { path: string; entry: FileEntry }[]): void {
  for (const file of files) {
    const { data } = decodeFile(file.entry);
    const bytes = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    if (bytes <= STATE_FILE_MAX_BYTES) continue;
    throw new SquadError(
      'invalid-input',
      `cannot import: ${file.path} would be ${formatBytes(bytes)}; create-squad reads a squad file up to ${formatBytes(STATE_FILE_MAX_BYTES)}, so prompt, route and export would refuse it`,
      { hint: 'shorten that file in the squad it came from (move old notes out of it), then export again; nothing was written' },
    );
  }
}

/** Bytes → validated document: the whole reading side of import, without touching the disk. */
export function readSquadDocument(data: Uint8Array, options: ValidateOptions = {}): ValidatedSquad {
  const limits = options.limits ?? SQUAD_LIMITS;
  return validateSquadDocument(parseJsonText(squadText(data, limits), limits.depth), options);
}
