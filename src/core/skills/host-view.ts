/**
 * What each Copilot host does with a project skill create-squad would read differently or refuse:
 * the Copilot CLI's loading rules as measured with its own `skill list` (the differential test in
 * test/e2e/host-skills.test.ts holds this model to the real CLI), VS Code's as its documentation
 * states them, and the Agent Skills standard's (the validator's errors). Pure: facts in, views out.
 */
import type { Frontmatter } from './skill.js';
import type { SkillIssue } from './validate.js';

/** What the Copilot CLI does with one SKILL.md: loads it under a name, or fails to load it and says why. */
export type CopilotCliView = { loads: true; as: string } | { loads: false; why: string };

/** How each host reads one skill that create-squad lists, refuses or sets aside. */
export interface HostView {
  copilotCli: CopilotCliView;
  /** Whether VS Code's documentation admits the skill; when not, why. */
  vscode: { loads: boolean; why?: string };
  /** Whether the Agent Skills standard accepts it (create-squad's validator). */
  standard: { valid: boolean };
}

/** The longest name the Copilot CLI loads (1.0.102), as the standard's. */
const COPILOT_NAME_MAX = 64;
const COPILOT_DESCRIPTION_MAX = 1024;
/** The characters the Copilot CLI admits in a name: it starts with a letter or digit; runs of spaces become one hyphen. */
const COPILOT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.: -]*$/;
/** Frontmatter problems after which the Copilot CLI still loads the skill as if it had no fields. */
const COPILOT_READS_AS_EMPTY = new Set(['frontmatter-not-mapping']);
/** Frontmatter problems measured to make the Copilot CLI fail to load the skill. */
const COPILOT_FAILS_ON = new Set(['frontmatter-missing', 'frontmatter-unclosed', 'frontmatter-yaml']);

/**
 * How the Copilot CLI loads a SKILL.md whose frontmatter parsed to `frontmatter` (undefined when it
 * did not: `frontmatterError` is the parser's code), in the folder `folder`. Undefined where its
 * behaviour was not measured (a frontmatter too large to parse, an alias bomb).
 */
export function copilotCliView(frontmatter: Frontmatter | undefined, frontmatterError: string | undefined, folder: string): CopilotCliView | undefined {
  let fields: Frontmatter = {};
  if (frontmatter !== undefined) fields = frontmatter;
  else if (frontmatterError !== undefined && COPILOT_FAILS_ON.has(frontmatterError)) return { loads: false, why: 'missing or malformed YAML frontmatter' };
  else if (frontmatterError === undefined || !COPILOT_READS_AS_EMPTY.has(frontmatterError)) return undefined;

  let as = folder;
  if ('name' in fields) {
    const name = fields.name;
    if (typeof name !== 'string') return { loads: false, why: 'its name must be a string' };
    const trimmed = name.trim();
    if (trimmed === '') return { loads: false, why: 'its name must not be empty' };
    if (trimmed.length > COPILOT_NAME_MAX) return { loads: false, why: `its name must be at most ${COPILOT_NAME_MAX} characters` };
    if (!COPILOT_NAME.test(trimmed)) return { loads: false, why: 'its name must start with a letter or digit and hold only letters, digits, "-", "_", ".", ":" and spaces' };
    as = trimmed.replace(/ +/g, '-');
  }
  const description = fields.description;
  if (description !== undefined && description !== null) {
    if (typeof description !== 'string') return { loads: false, why: 'its description must be a string' };
    if (description.length > COPILOT_DESCRIPTION_MAX) return { loads: false, why: `its description must be at most ${COPILOT_DESCRIPTION_MAX} characters` };
  }
  return { loads: true, as };
}

/** Whether VS Code's documentation admits a skill: `nested` when it is not directly in its skills folder. */
export function vscodeView(errors: readonly SkillIssue[], nested: boolean): HostView['vscode'] {
  if (nested) return { loads: false, why: 'its documentation places each skill directly in the skills folder' };
  const naming = errors.find((issue) => issue.code.startsWith('name-') || issue.code.startsWith('description-') || issue.code.startsWith('frontmatter-'));
  return naming === undefined ? { loads: true } : { loads: false, why: 'its documentation requires a lowercase name equal to the folder and a description' };
}

/**
 * The view of a listed project skill, or undefined when every host reads it as create-squad does (a
 * valid skill directly in its folder: the common case, decided without building anything).
 */
export function hostViewOf(skill: { frontmatter: Frontmatter | undefined; errors: readonly SkillIssue[]; valid: boolean; dirName: string; nested: boolean }): HostView | undefined {
  if (skill.valid && !skill.nested) return undefined;
  const copilotCli = copilotCliView(skill.frontmatter, skill.frontmatter === undefined ? skill.errors[0]?.code : undefined, skill.dirName);
  if (copilotCli === undefined) return undefined;
  return { copilotCli, vscode: vscodeView(skill.errors, skill.nested), standard: { valid: skill.valid } };
}

/** One sentence: what each host does with the skill, for listings and doctor. */
export function describeHostView(view: HostView, dirName: string): string {
  const cli = view.copilotCli.loads
    ? `the Copilot CLI loads it${view.copilotCli.as === dirName ? '' : ` as "${view.copilotCli.as}"`}`
    : `the Copilot CLI does not load it (${view.copilotCli.why})`;
  const vscode = view.vscode.loads ? 'VS Code reads it' : `VS Code may not (${view.vscode.why})`;
  const standard = view.standard.valid ? '' : '; the Agent Skills standard refuses it';
  return `${cli}; ${vscode}${standard}`;
}
