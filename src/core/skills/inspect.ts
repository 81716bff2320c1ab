/**
 * Read one skill from disk and validate it, turning parse failures into report entries rather than
 * exceptions, so one broken skill never stops a listing.
 */
import path from 'node:path';
import { SquadError } from '../base/errors.js';
import type { ReadConfinement } from '../fs/confined.js';
import { FrontmatterError } from './frontmatter.js';
import { readSkillFile, readSkillFrontmatter, readSkillHead, type Frontmatter, type SkillHead } from './skill.js';
import { PlainSkillHead } from './plain-head.js';
import { validateSkill, type SkillIssue } from './validate.js';
import { skillFields, type SkillFields } from './skill-fields.js';

export interface SkillReport {
  /** Absolute path of SKILL.md. */
  file: string;
  /** Absolute path of the skill folder. */
  dir: string;
  /** Name of the skill folder: the skill's identity on disk (a valid skill's `name` equals it). */
  dirName: string;
  /** The skill's name: its frontmatter `name` when that is a string, else its folder name. */
  name: string;
  /** Parsed frontmatter; undefined when the file could not be parsed. */
  frontmatter: Frontmatter | undefined;
  /** The frontmatter, typed (skill-fields.ts): from the same run as the issues; every field absent when it could not be parsed. */
  fields: SkillFields;
  valid: boolean;
  errors: SkillIssue[];
  warnings: SkillIssue[];
}

/** Issue code of a SKILL.md that does not exist (discovery then explains the folder instead). */
export const FILE_MISSING = 'file-missing';
/** Issue code of a SKILL.md left unread because it leads outside the repository (discovery reports the skill as refused). */
export const READ_REFUSED = 'read-refused';

export interface InspectOptions {
  /** Read the body too (for its length limits). Discovery leaves it unread. */
  readBody: boolean;
  /** The skill's folder and its name, when the caller has them (discovery, listing thousands). */
  dir?: string;
  dirName?: string;
  /** Read SKILL.md only if it is really inside this repository (a skill of the squad); see openConfined. */
  confinedTo?: ReadConfinement;
}

export function inspectSkill(file: string, options: InspectOptions): SkillReport {
  const dir = options.dir ?? path.dirname(file);
  const dirName = options.dirName ?? path.basename(dir);
  let frontmatter: Frontmatter;
  let body: string | undefined;
  try {
    if (options.readBody) {
      const parsed = readSkillFile(file, options.confinedTo);
      frontmatter = parsed.frontmatter;
      body = parsed.body;
    } else {
      frontmatter = readSkillFrontmatter(file, options.confinedTo).frontmatter;
    }
  } catch (error) {
    return unreadReport(file, dir, dirName, error);
  }
  return checkedReport(file, dir, dirName, frontmatter, body);
}

/**
 * inspectSkill for a listing (frontmatter only): a skill whose frontmatter is plain comes back as
 * its PlainSkillHead, read from the bytes (valid, nothing to say: plain-head.ts); any other as its
 * report.
 */
export function inspectSkillForListing(file: string, dir: string, dirName: string, confinedTo?: ReadConfinement): SkillReport | PlainSkillHead {
  let head: SkillHead | PlainSkillHead;
  try {
    head = readSkillHead(file, dirName, confinedTo);
  } catch (error) {
    return unreadReport(file, dir, dirName, error);
  }
  return head instanceof PlainSkillHead ? head : checkedReport(file, dir, dirName, head.frontmatter, undefined);
}

function unreadReport(file: string, dir: string, dirName: string, error: unknown): SkillReport {
  return { file, dir, dirName, name: dirName, frontmatter: undefined, fields: skillFields({}), valid: false, errors: [toIssue(error)], warnings: [] };
}

function checkedReport(file: string, dir: string, dirName: string, frontmatter: Frontmatter, body: string | undefined): SkillReport {
  const result = validateSkill(body === undefined ? { frontmatter, dirName } : { frontmatter, dirName, body });
  return {
    file,
    dir,
    dirName,
    name: result.fields.name ?? dirName,
    frontmatter,
    fields: result.fields,
    valid: result.valid,
    errors: result.errors,
    warnings: result.warnings,
  };
}

function toIssue(error: unknown): SkillIssue {
  if (error instanceof FrontmatterError) {
    return { code: error.issue, message: error.detail, ...(error.line === undefined ? {} : { line: error.line }) };
  }
  if (error instanceof SquadError && error.code === 'unsafe-path') return { code: READ_REFUSED, message: error.message };
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return { code: FILE_MISSING, message: 'the file does not exist' };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'read-failed', message: code ? `cannot read file (${code})` : message };
}
