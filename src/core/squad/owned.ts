/**
 * Squad-owned files: what create-squad ships and may refresh on upgrade. Everything else in a
 * squad (roster, charters, histories, decisions, casting, logs, learned skills) belongs to the team.
 *
 *   squad.agent.md (package root)       → .github/agents/squad.agent.md   (version-stamped, CLI pinned)
 *   templates/squad/{name}.hbs          → .ai-team-templates/{name}       (verbatim copies; paths.ts
 *                                                                          templateCopyPath)
 *   templates/skills/squad-*\/**         → .ai-team/skills/squad-*\/**      (*.md: CLI pinned)
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
  teamSkillDir,
  NATIVE_SKILL_DIRS,
  templateCopyPath,
} from '../base/paths.js';
import { isFile, readDirNames, sha256 } from '../fs/fs-safe.js';
import { readManifest } from './manifest.js';
import { listTree, modeFor } from '../fs/tree.js';
import { packageVersion } from '../fs/version.js';


export type OwnedKind = 'coordinator' | 'template' | 'builtin-skill';

export interface OwnedFile {
  /** Repo-relative destination path. */
  path: string;
  content: Buffer;
  mode: number;
  kind: OwnedKind;
  /** For built-in skill files: the skill's name. */
  skill?: string;
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

/**
 * The built-in skills of a squad: the `squad-*` skills this package ships, and those the manifest
 * says create-squad installed (built-ins an older version shipped). Other team skills, even with the
 * reserved prefix (an imported "squad-x-imported"), are the team's own.
 */
export function installedBuiltinSkills(root: string): Set<string> {
  const names = new Set(shippedBuiltinSkills());
  const manifest = readManifest(root);
  if (manifest.state === 'ok') {
    const prefix = `${squadPaths.teamSkills}/`;
    for (const file of Object.keys(manifest.manifest.files)) {
      if (file.startsWith(prefix)) names.add(file.slice(prefix.length).split('/')[0]!);
    }
  }
  return new Set([...names].filter(isBuiltinSkillName));
}

/** Every squad-owned file this package ships, as it would be installed. */
export async function shippedOwnedFiles(version: string = packageVersion()): Promise<OwnedFile[]> {
  const files: OwnedFile[] = [];
  const coordinator = stampCoordinator(fs.readFileSync(PACKAGE_COORDINATOR_SOURCE, 'utf8'), version);
  files.push({ path: COORDINATOR_PATH, content: Buffer.from(coordinator), mode: 0o644, kind: 'coordinator' });

  const templates = await listTree(PACKAGE_STATE_TEMPLATES_DIR);
  for (const file of templates.files) {
    files.push({
      path: templateCopyPath(`${STATE_TEMPLATES_FOLDER}/${file.path}`),
      content: fs.readFileSync(path.join(PACKAGE_STATE_TEMPLATES_DIR, ...file.path.split('/'))),
      mode: 0o644,
      kind: 'template',
    });
  }

  for (const skill of shippedBuiltinSkills()) {
    const dir = path.join(PACKAGE_BUILTIN_SKILLS_DIR, skill);
    const tree = await listTree(dir);
    for (const file of tree.files) {
      const content = fs.readFileSync(path.join(dir, ...file.path.split('/')));
      files.push({
        path: `${teamSkillDir(skill)}/${file.path}`,
        content: file.path.endsWith('.md') ? Buffer.from(pinCliVersion(content.toString('utf8'), version)) : content,
        mode: modeFor(file.executable),
        kind: 'builtin-skill',
        skill,
      });
    }
  }
  return files;
}

/** Learned skills of the squad: skill folders (with SKILL.md) of the agents, and team skills that are not shipped built-ins. */
export function countLearnedSkills(root: string, builtins: ReadonlySet<string> = installedBuiltinSkills(root)): number {
  const isSkill = (relDir: string) => isFile(resolveIn(root, `${relDir}/${SKILL_FILE}`));
  let count = readDirNames(resolveIn(root, squadPaths.teamSkills)).filter((name) => !builtins.has(name) && isSkill(teamSkillDir(name))).length;
  for (const dir of NATIVE_SKILL_DIRS) count += readDirNames(resolveIn(root, dir)).filter((name) => isSkill(`${dir}/${name}`)).length;
  for (const agent of readDirNames(resolveIn(root, squadPaths.agents))) {
    count += readDirNames(resolveIn(root, agentSkillsDir(agent))).filter((name) => isSkill(agentSkillDir(agent, name))).length;
  }
  return count;
}
