/**
 * Squad-owned files: what create-squad ships and may refresh on upgrade. Everything else in a
 * squad (roster, charters, histories, decisions, casting, logs, learned skills) belongs to the team.
 *
 *   squad.agent.md (package root)       → .github/agents/squad.agent.md   (version-stamped, CLI pinned)
 *   templates/squad/{name}.hbs          → .ai-team-templates/{name}       (verbatim copies; paths.ts
 *                                                                          templateCopyPath)
 *   templates/skills/squad-*\/**         → .github/skills/squad-*\/**       member-facing ones
 *                                          .ai-team/skills/squad-*\/**      coordinator-only ones
 *                                                                          (*.md: CLI pinned; the split:
 *                                                                          MEMBER_FACING_BUILTIN_SKILLS)
 *
 * The `.ai-team-templates/` copies are the very handlebars templates the CLI renders, so a
 * coordinator working by hand fills in the same shapes the CLI would.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pinCliVersion, stampCoordinator } from './coordinator.js';
import {
  BUILTIN_SKILL_PREFIX,
  COORDINATOR_PATH,
  MEMBER_FACING_BUILTIN_SKILLS,
  PACKAGE_BUILTIN_SKILLS_DIR,
  PACKAGE_COORDINATOR_SOURCE,
  PACKAGE_STATE_TEMPLATES_DIR,
  SKILL_FILE,
  STATE_TEMPLATES_FOLDER,
  agentSkillDir,
  agentSkillsDir,
  isBuiltinSkillName,
  resolveIn,
  squadPaths,
  aiTeamSkillDir,
  NATIVE_SKILL_DIRS,
  TEAM_SKILLS_DIR,
  nativeTeamSkillDir,
  templateCopyPath,
} from '../base/paths.js';
import { compareCodePoints } from '../base/util.js';
import { HOOKS_FILE_PATH, squadHooksFile } from '../base/hook-events.js';
import { existsInside, isFile, readDirNames, sha256 } from '../fs/fs-safe.js';
import { readManifest, type ManifestRead } from './manifest.js';
import { listTree, modeFor } from '../fs/tree.js';
import { packageVersion } from '../fs/version.js';

export type OwnedKind = 'coordinator' | 'hooks' | 'template' | 'builtin-skill';

export interface OwnedFile {
  /** Repo-relative destination path. */
  path: string;
  content: Buffer;
  mode: number;
  kind: OwnedKind;
  /** For built-in skill files: the skill's name. */
  skill?: string;
  /** For built-in skill files: the skill's folder (repo-relative). */
  skillDir?: string;
}

/** Content with CRLF turned into LF, for text (no NUL byte); binary content as it is. */
function withLf(data: Buffer): Buffer {
  if (!data.includes(13) || data.includes(0)) return data;
  return Buffer.from(data.toString('latin1').replace(/\r\n/g, '\n'), 'latin1');
}

/**
 * Whether `data` is exactly what create-squad ships as `shipped`: the same bytes, or the same text
 * with CRLF line endings (a checkout with core.autocrlf is not an edit). The one rule `init` and
 * `upgrade` use to tell an untouched squad-owned file from one the user changed.
 */
export function isShippedContent(data: Buffer, shipped: Buffer): boolean {
  return data.equals(shipped) || withLf(data).equals(withLf(shipped));
}

/** Whether `data` is the content whose sha256 the manifest recorded, by the same rule. */
export function matchesRecordedHash(data: Buffer, hash: string): boolean {
  return sha256(data) === hash || sha256(withLf(data)) === hash;
}

let shippedNames: string[] | undefined;

/** Names of the built-in skills this package ships, sorted. */
export function shippedBuiltinSkills(): string[] {
  shippedNames ??= readDirNames(PACKAGE_BUILTIN_SKILLS_DIR).filter((name) => name.startsWith(BUILTIN_SKILL_PREFIX));
  return [...shippedNames];
}

/** Where this package installs the built-in skill `skill` in a new squad. */
export function shippedBuiltinSkillDir(skill: string): string {
  return MEMBER_FACING_BUILTIN_SKILLS.has(skill) ? nativeTeamSkillDir(skill) : aiTeamSkillDir(skill);
}

/** Where each built-in skill goes: repo-relative folder by name. */
export type BuiltinPlacement = ReadonlyMap<string, string>;

/**
 * The built-in skills of a squad and the folder each one lives in. The built-ins are the `squad-*`
 * skills this package ships, and those the manifest says create-squad installed (built-ins an
 * older version shipped); other skills, even with the reserved prefix (an imported
 * "squad-x-imported"), are the team's own.
 *
 * A built-in lives in `.ai-team/skills/` while a folder of its name is there: every coordinator-only
 * procedure, and a member-facing one of a squad not yet upgraded (or kept there by upgrade because
 * a skill of the same name is in a native folder). Otherwise a member-facing one (by
 * MEMBER_FACING_BUILTIN_SKILLS, or because the manifest records it in `.github/skills/`) lives in
 * `.github/skills/`. The one rule every command uses to tell a built-in from a team skill.
 */
export function installedBuiltinSkillDirs(root: string): Map<string, string> {
  return builtinSkillDirsOf(shippedBuiltinSkills(), readManifest(root), (relPath) => existsInside(root, relPath));
}

/** The built-in skills' names installedBuiltinSkillDirs looks at: the shipped ones and those the manifest records. */
export function builtinSkillCandidates(shipped: readonly string[], manifest: ManifestRead): string[] {
  return [...builtinSkillDirsOf(shipped, manifest, () => false).keys()];
}

/** installedBuiltinSkillDirs from what was read: the names shipped, the manifest, and whether a path exists. */
export function builtinSkillDirsOf(shipped: readonly string[], manifest: ManifestRead, exists: (relPath: string) => boolean): Map<string, string> {
  const names = new Set(shipped);
  const recordedNative = new Set<string>();
  if (manifest.state === 'ok') {
    for (const file of Object.keys(manifest.manifest.files)) {
      for (const [dir, native] of [
        [squadPaths.aiTeamSkills, false],
        [TEAM_SKILLS_DIR, true],
      ] as const) {
        if (!file.startsWith(`${dir}/`)) continue;
        const name = file.slice(dir.length + 1).split('/')[0]!;
        names.add(name);
        if (native) recordedNative.add(name);
      }
    }
  }
  const dirs = new Map<string, string>();
  for (const name of [...names].filter(isBuiltinSkillName).sort(compareCodePoints)) {
    const native = (MEMBER_FACING_BUILTIN_SKILLS.has(name) || recordedNative.has(name)) && !exists(aiTeamSkillDir(name));
    dirs.set(name, native ? nativeTeamSkillDir(name) : aiTeamSkillDir(name));
  }
  return dirs;
}

/** Names of the built-in skills of a squad (see installedBuiltinSkillDirs). */
export function installedBuiltinSkills(root: string): Set<string> {
  return new Set(installedBuiltinSkillDirs(root).keys());
}

/** The built-in skills installed in `dir` (a skills folder) of the squad: their names. */
export function builtinSkillsIn(dirs: BuiltinPlacement, dir: string): Set<string> {
  return new Set([...dirs].filter(([name, at]) => at === `${dir}/${name}`).map(([name]) => name));
}

/**
 * Every squad-owned file this package ships, as it would be installed: each built-in skill where
 * `placement` puts it (by default where a new squad gets it; ownedFilesIn: where a squad keeps it).
 */
export async function shippedOwnedFiles(version: string = packageVersion(), placement: BuiltinPlacement = new Map()): Promise<OwnedFile[]> {
  const shippedFiles = await readPackageFiles();
  const files: OwnedFile[] = [];
  const coordinator = stampCoordinator(shippedFiles.coordinator, version);
  files.push({ path: COORDINATOR_PATH, content: Buffer.from(coordinator), mode: 0o644, kind: 'coordinator' });
  files.push({ path: HOOKS_FILE_PATH, content: Buffer.from(squadHooksFile()), mode: 0o644, kind: 'hooks' });
  for (const file of shippedFiles.templates) {
    files.push({ path: templateCopyPath(`${STATE_TEMPLATES_FOLDER}/${file.path}`), content: file.content, mode: 0o644, kind: 'template' });
  }
  for (const [skill, skillFiles] of shippedFiles.skills) {
    const skillDir = placement.get(skill) ?? shippedBuiltinSkillDir(skill);
    for (const file of skillFiles) {
      files.push({
        path: `${skillDir}/${file.path}`,
        content: file.path.endsWith('.md') ? Buffer.from(pinCliVersion(file.content.toString('utf8'), version)) : file.content,
        mode: modeFor(file.executable),
        kind: 'builtin-skill',
        skill,
        skillDir,
      });
    }
  }
  return files;
}

/** A file of the package's templates or built-in skills, as read from the package. */
interface PackageFile {
  path: string;
  content: Buffer;
  executable: boolean;
}

let packageFiles: Promise<{ coordinator: string; templates: PackageFile[]; skills: [string, PackageFile[]][] }> | undefined;

/**
 * The package's own files that shippedOwnedFiles installs, read once per process as the list of
 * built-in names is: they are part of the running program, and init, upgrade, doctor, export and
 * import each ask for all of them (a walk of a dozen folders and a read of every file each time).
 */
function readPackageFiles(): NonNullable<typeof packageFiles> {
  packageFiles ??= (async () => {
    const readTree = async (dir: string): Promise<PackageFile[]> =>
      (await listTree(dir)).files.map((file) => ({ path: file.path, content: fs.readFileSync(path.join(dir, ...file.path.split('/'))), executable: file.executable }));
    const skills: [string, PackageFile[]][] = [];
    for (const skill of shippedBuiltinSkills()) skills.push([skill, await readTree(path.join(PACKAGE_BUILTIN_SKILLS_DIR, skill))]);
    return { coordinator: fs.readFileSync(PACKAGE_COORDINATOR_SOURCE, 'utf8'), templates: await readTree(PACKAGE_STATE_TEMPLATES_DIR), skills };
  })();
  // A failed read (a broken install) is not kept: the next call reads again and fails the same way.
  packageFiles.catch(() => {
    packageFiles = undefined;
  });
  return packageFiles;
}

/** Owned files placed as `placement` says: each built-in skill's files moved to its folder there (the rest as they are). */
export function placeOwnedFiles(files: readonly OwnedFile[], placement: BuiltinPlacement): OwnedFile[] {
  return files.map((file) => {
    if (file.kind !== 'builtin-skill' || file.skill === undefined || file.skillDir === undefined) return file;
    const skillDir = placement.get(file.skill) ?? shippedBuiltinSkillDir(file.skill);
    return skillDir === file.skillDir ? file : { ...file, path: `${skillDir}${file.path.slice(file.skillDir.length)}`, skillDir };
  });
}

/** The squad-owned files as the squad at `root` has them: each built-in skill in the folder it lives in. */
export async function ownedFilesIn(root: string, version: string = packageVersion()): Promise<OwnedFile[]> {
  return shippedOwnedFiles(version, installedBuiltinSkillDirs(root));
}

/** Learned skills of the squad: skill folders (with SKILL.md) of the agents, and team skills that are not built-ins. */
export function countLearnedSkills(root: string, builtins: BuiltinPlacement = installedBuiltinSkillDirs(root)): number {
  const isSkill = (relDir: string) => isFile(resolveIn(root, `${relDir}/${SKILL_FILE}`));
  let count = 0;
  for (const dir of [squadPaths.aiTeamSkills, ...NATIVE_SKILL_DIRS]) {
    const inDir = builtinSkillsIn(builtins, dir);
    count += readDirNames(resolveIn(root, dir)).filter((name) => !inDir.has(name) && isSkill(`${dir}/${name}`)).length;
  }
  for (const agent of readDirNames(resolveIn(root, squadPaths.agents))) {
    count += readDirNames(resolveIn(root, agentSkillsDir(agent))).filter((name) => isSkill(agentSkillDir(agent, name))).length;
  }
  return count;
}
