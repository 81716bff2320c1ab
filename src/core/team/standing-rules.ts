/**
 * Standing rules: what the user taught that holds in every task ("Use tabs", "Never commit to
 * main"), as opposed to a procedure (how to do one kind of task), which stays a skill.
 *
 * A member's rules are a `## Standing rules` section of its charter: the charter is inlined into
 * every standard spawn prompt and is the first file a member's Copilot agent is told to read. The
 * team's rules are `.ai-team/rules.md`, which every spawn prompt inlines and every member's agent
 * reads before it starts. Rules are only ever added, one bullet each; teaching the same rule again
 * changes nothing.
 *
 * What is taught is held to limits (base/limits.ts): a rule of at most RULE_MAX_BYTES, a charter
 * or rules file that stays within its total, since every prompt inlines it. Control characters
 * (a terminal escape, NUL) and bidirectional controls are removed, and text that reads as an
 * order aimed at the agent (SUSPICIOUS_INSTRUCTIONS) is kept but warned about (`checkInstruction`).
 *
 * Everything here is pure: `decideStandingRule` decides adding a rule from what teach-state.ts
 * `readRuleState` read, as a plan of one change (none when the rule is there already).
 */
import { replay, type Recorded } from '../base/disk-facts.js';
import { SquadError, usageError } from '../base/errors.js';
import { CHARTER_MAX_BYTES, RULE_MAX_BYTES, bytesText, TAUGHT_PROCEDURE_MAX_BYTES, TEAM_RULES_MAX_BYTES } from '../base/limits.js';
import { hiddenCharacterCount, withoutHidden } from '../base/visible-text.js';
import { charterPath, squadPaths } from '../base/paths.js';
import { formatBytes } from '../base/util.js';
import type { Change, Plan } from '../base/plan.js';
import { warning, type Warning } from '../base/warnings.js';
import { normalizeNewlines } from '../skills/frontmatter.js';
import { SUSPICIOUS_INSTRUCTIONS } from '../skills/audit-rules.js';
import type { Agent } from '../roster/roster.js';

export type InstructionKind = 'rule' | 'procedure';

export interface InstructionClass {
  kind: InstructionKind;
  /** Why, in a few words (shown by teach). */
  reason: string;
}

/** The heading of the rules section in a charter (and of the team's rules file). */
export const STANDING_RULES_HEADING = '## Standing rules';
export const TEAM_RULES_PATH = squadPaths.rules;

/** Words that say something holds always: the mark of a standing rule. */
const RULE_MARKERS = /\b(always|never|don'?t|do not|does not|must|must not|mustn'?t|shall not|should not|shouldn'?t|avoid|prefer|only|no more|stop)\b/i;
/** "use X for Y", "use X", "X over Y": a choice that holds everywhere. */
const USE_FOR = /^(please\s+)?(use|keep|write|name|put|format|indent|stick to)\b/i;
/** Lines that look like the steps of a procedure: "1.", "2)", "- ", "* ", "Step 3". */
const STEP_LINE = /^\s*(\d+[.)]|[-*•]|step\s+\d+\b)/i;
/** Words that sequence steps. */
const SEQUENCE_WORDS = /\b(first|then|next|afterwards|after that|finally|once done)\b/gi;
/** A how-to or a conditional trigger: a procedure for one kind of task. */
const PROCEDURE_START = /^(how to|to\s+\w+|when|whenever|before|after|if|for)\b/i;

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => /[a-z0-9]/i.test(s));
}

/**
 * Is an instruction a standing rule or a procedure? Several steps (listed, or sequenced with
 * first/then/finally), or three sentences and more, make a procedure; so does a how-to or a
 * conditional ("When you release, …") without always/never. Otherwise a short imperative with
 * always/never/don't/must/prefer/avoid or "use X for Y" is a rule, and any other single sentence too.
 * `forced` (the --rule / --skill flags) wins.
 */
export function classifyInstruction(instruction: string, forced?: InstructionKind): InstructionClass {
  if (forced) return { kind: forced, reason: forced === 'rule' ? 'asked for with --rule' : 'asked for as a skill' };
  const text = normalizeNewlines(instruction).trim();
  const steps = text.split('\n').filter((line) => STEP_LINE.test(line)).length;
  if (steps >= 2) return { kind: 'procedure', reason: `it lists ${steps} steps` };
  const sequence = text.match(SEQUENCE_WORDS)?.length ?? 0;
  if (sequence >= 2) return { kind: 'procedure', reason: 'it describes steps in order' };
  const count = sentences(text).length;
  if (count >= 3) return { kind: 'procedure', reason: `it is ${count} sentences long` };
  const marked = RULE_MARKERS.test(text);
  if (PROCEDURE_START.test(text) && !marked) return { kind: 'procedure', reason: 'it says how or when to do a task' };
  if (marked) return { kind: 'rule', reason: 'it says what always (or never) holds' };
  if (USE_FOR.test(text)) return { kind: 'rule', reason: 'it states a standing choice' };
  if (count <= 1) return { kind: 'rule', reason: 'it is a single instruction' };
  return { kind: 'procedure', reason: 'it is more than one instruction' };
}

/** Words that carry no content on their own: an instruction made only of these says nothing. */
const EMPTY_WORDS = new Set(
  (
    'a an the and or but of to for in on at by with from into as is are be it this that we our us you your they i me my ' +
    'should must shall will would can could may might do does don dont t s not no never always ever please ok okay yes ' +
    'use make sure just only also so then thing things stuff something anything everything it that this'
  ).split(' '),
);

/** Why an instruction carries no content (stop words, punctuation, "Don't"), or undefined when it does. */
export function instructionContentProblem(instruction: string): string | undefined {
  const trimmed = instruction.trim();
  if (!trimmed) return 'the instruction is empty';
  const words = trimmed
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  if (words.length === 0) return `the instruction "${oneLine(trimmed)}" has no words`;
  if (words.every((word) => EMPTY_WORDS.has(word))) return `the instruction "${oneLine(trimmed)}" says nothing to follow`;
  return undefined;
}

/** Throw the usage error for an instruction without content. */
export function requireInstructionContent(instruction: string): void {
  const problem = instructionContentProblem(instruction);
  if (problem) throw usageError(problem, 'say what to do, e.g. teach fenster "always use tabs for indentation"');
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/** A complete terminal escape sequence (CSI such as `ESC[31m`, or OSC ending in BEL or `ESC\\`): removed whole, not only its ESC. */
const ESCAPE_SEQUENCE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?)/g;

/** An instruction made safe to store, and what was found in it. */
export interface CheckedInstruction {
  /** The text to store: line endings normalised, control and bidirectional characters removed. */
  text: string;
  /** How many control characters, escape sequences and bidirectional controls were removed. */
  removed: number;
  /** What each suspicious pattern it matched says (SUSPICIOUS_INSTRUCTIONS), in that order. */
  suspicious: string[];
}

/**
 * The text of an instruction without escape sequences, and without every character a prompt would
 * show as an escape (controls, bidirectional and hidden characters: base/visible-text.ts).
 */
export function safeInstructionText(instruction: string): string {
  return withoutHidden(normalizeNewlines(instruction).replace(ESCAPE_SEQUENCE, ''));
}

/** Clean an instruction (safeInstructionText) and look for text aimed at the agent. Pure. */
export function checkInstruction(instruction: string): CheckedInstruction {
  const normalized = normalizeNewlines(instruction);
  const escapes = normalized.match(ESCAPE_SEQUENCE)?.length ?? 0;
  const controls = hiddenCharacterCount(normalized.replace(ESCAPE_SEQUENCE, ''));
  const text = safeInstructionText(normalized);
  const suspicious = SUSPICIOUS_INSTRUCTIONS.filter(({ pattern }) => pattern.test(text)).map(({ says }) => says);
  return { text, removed: escapes + controls, suspicious };
}

/** The warnings for what checkInstruction found, about the file the instruction goes into. */
export function instructionWarnings(checked: CheckedInstruction, path: string): Warning[] {
  const warnings: Warning[] = [];
  if (checked.removed > 0) {
    warnings.push(
      warning(
        'control-characters-removed',
        `removed ${checked.removed} control character${checked.removed === 1 ? '' : 's'} (terminal escapes, NUL, bidirectional controls) from the instruction before writing ${path}`,
        path,
      ),
    );
  }
  if (checked.suspicious.length > 0) {
    warnings.push(
      warning(
        'suspicious-instruction',
        `the instruction reads like an order aimed at the agent (${checked.suspicious.join('; ')}); it was kept as given: check it, and remove it from ${path} if you did not mean it`,
        path,
      ),
    );
  }
  return warnings;
}

/** invalid-input for a rule over RULE_MAX_BYTES. */
function requireRuleSize(rule: string): void {
  const bytes = Buffer.byteLength(rule);
  if (bytes <= RULE_MAX_BYTES) return;
  throw new SquadError('invalid-input', `the rule is ${bytesText(bytes)}; a standing rule holds at most ${bytesText(RULE_MAX_BYTES)}`, {
    hint: `say in one line what always holds, or teach a longer text as a procedure with --skill (up to ${formatBytes(TAUGHT_PROCEDURE_MAX_BYTES)}); nothing was written`,
  });
}

/** The most a file that standing rules go into may hold: a charter, or the team's rules file. */
export function standingRulesFileLimit(forMember: boolean): number {
  return forMember ? CHARTER_MAX_BYTES : TEAM_RULES_MAX_BYTES;
}

/** The rule as one bullet's text: on one line, ending with a full stop. */
export function ruleText(instruction: string): string {
  const line = instruction.replace(/\s+/g, ' ').trim();
  return /[.!?]$/.test(line) ? line : `${line}.`;
}

/** How two rules are compared: case, spacing and final punctuation do not count. */
function ruleKey(rule: string): string {
  return rule
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[.!?\s]+$/, '')
    .trim();
}

/** The bullets of the `## Standing rules` section of `text` (none when it has no such section). */
export function readRulesSection(text: string): string[] {
  const lines = normalizeNewlines(text).split('\n');
  const start = lines.findIndex((line) => line.trim().toLowerCase() === STANDING_RULES_HEADING.toLowerCase());
  if (start < 0) return [];
  const rules: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,2}\s/.test(line)) break;
    const bullet = /^\s*[-*]\s+(.+)$/.exec(line);
    if (bullet) rules.push(bullet[1]!.trim());
  }
  return rules;
}

const MEMBER_SECTION_INTRO = 'Rules the user taught me. They hold in every task, without being reminded; a newer one wins over an older one.';
const TEAM_FILE_HEADER =
  '# Team standing rules\n\n' +
  'Rules the user taught the whole team (`create-squad teach --team`). Every member follows them in every task,\n' +
  "without being reminded. Add or remove lines by hand as you like; a member's own rules are in its charter.\n";

/**
 * `text` with `rule` added as the last bullet of its rules section (made at the end when there is
 * none). Nothing else in the text changes: every line the user wrote stays where it is.
 */
export function addRuleToText(text: string, rule: string, intro: string = MEMBER_SECTION_INTRO): string {
  const normalized = normalizeNewlines(text);
  const lines = normalized.replace(/\n+$/, '').split('\n');
  const start = lines.findIndex((line) => line.trim().toLowerCase() === STANDING_RULES_HEADING.toLowerCase());
  if (start < 0) {
    const body = normalized.trim() === '' ? '' : `${normalized.replace(/\n+$/, '')}\n\n`;
    return `${body}${STANDING_RULES_HEADING}\n\n${intro}\n\n- ${rule}\n`;
  }
  let end = lines.length;
  for (let i = start + 1; i < lines.length; i += 1) {
    if (/^#{1,2}\s/.test(lines[i]!)) {
      end = i;
      break;
    }
  }
  // After the section's last non-blank line.
  let at = end;
  while (at > start + 1 && lines[at - 1]!.trim() === '') at -= 1;
  const before = lines.slice(0, at);
  const lastIsBullet = /^\s*[-*]\s+/.test(before[before.length - 1] ?? '');
  const inserted = lastIsBullet || at === start + 1 ? [`- ${rule}`] : ['', `- ${rule}`];
  const after = lines.slice(at);
  return `${[...before, ...inserted, ...after].join('\n')}\n`;
}

export interface StandingRules {
  /** The team's rules (`.ai-team/rules.md`). */
  team: string[];
  /** The member's own rules (its charter's section). */
  member: string[];
}

/** The rules every spawn of a member must see, from the texts read: the team's rules file and the member's charter (undefined: missing). */
export function standingRulesOf(teamRulesText: string | undefined, charterText: string | undefined): StandingRules {
  return { team: readRulesSection(teamRulesText ?? ''), member: readRulesSection(charterText ?? '') };
}

/** The file the rules of `agent` (a folder name) go into: its charter; the team's rules file when undefined. */
export function standingRulesPath(agent: string | undefined): string {
  return agent === undefined ? TEAM_RULES_PATH : charterPath(agent);
}

/** What adding a standing rule decides from (teach-state.ts readRuleState), read once. */
export interface RuleState {
  root: string;
  /** The taught member; undefined for the team. */
  agent?: Agent;
  /** The bytes of the file the rule goes into (standingRulesPath; undefined: missing), or what reading it threw. */
  current: Recorded<Buffer | undefined>;
}

export interface RulePlan extends Plan {
  root: string;
  /** The taught member; undefined for the team. */
  agent?: Agent;
  /** Repo-relative file the rule goes into. */
  path: string;
  rule: string;
  /** The rule was there already: nothing to write. */
  present: boolean;
  /** The whole new text of `path` (undefined when present). */
  content?: string;
  /** The file created or replaced with `content`; none when the rule was there already. */
  changes: Change[];
}

/** Decide adding the standing rule `instruction` from what was read. No disk access. */
export function decideStandingRule(state: RuleState, instruction: string): RulePlan {
  const { root, agent } = state;
  const text = safeInstructionText(instruction);
  requireInstructionContent(text);
  const rule = ruleText(text);
  requireRuleSize(rule);
  const path = standingRulesPath(agent?.name);
  const bytes = replay(state.current);
  const current = bytes?.toString('utf8');
  if (agent && current === undefined) {
    throw new SquadError('not-found', `${agent.displayName} has no charter at ${path}, where standing rules go`, {
      hint: 'run "create-squad upgrade" (or write the charter), or teach it as a skill with --skill',
    });
  }
  const existing = readRulesSection(current ?? '');
  const who = agent ? { agent } : {};
  if (existing.some((line) => ruleKey(line) === ruleKey(rule))) return { root, ...who, path, rule, present: true, changes: [] };
  const content = agent ? addRuleToText(current!, rule) : addRuleToText(current ?? TEAM_FILE_HEADER, rule, TEAM_RULES_INTRO);
  const limit = standingRulesFileLimit(agent !== undefined);
  const size = Buffer.byteLength(content);
  if (size > limit) {
    throw new SquadError(
      'invalid-input',
      `the rule would make ${path} ${bytesText(size)}; teach keeps ${agent ? 'a charter' : "the team's rules"} within ${bytesText(limit)}, since every prompt inlines it`,
      {
        hint: `remove rules that no longer hold (or other long text) from ${path}, or teach a procedure as a skill with --skill; nothing was written`,
      },
    );
  }
  // The file is replaced only while it holds what was read; the team's rules file is made on first use.
  const change: Change = bytes === undefined ? { kind: 'create', path, content } : { kind: 'replace', path, content, base: bytes };
  return { root, ...who, path, rule, present: false, content, changes: [change] };
}

const TEAM_RULES_INTRO = 'One rule a line:';
