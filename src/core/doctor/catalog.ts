/**
 * What doctor can find: the finding shape, every finding code with what it means, and the fixes
 * several checks share. A check emits only codes listed here (a test holds it to that), so this
 * file is the one list of what doctor reports.
 */

export type Severity = 'error' | 'warning';

export interface Finding {
  severity: Severity;
  /** Stable identifier of the kind of finding (FINDING_CODES). */
  code: string;
  message: string;
  /** How to fix it. */
  fix: string;
  /** Repo-relative path the finding is about, when there is one. */
  path?: string;
}

export const RECREATE_FIX = 'run "create-squad init": it recreates missing files and never touches existing ones';
export const UPGRADE_FIX = 'run "create-squad upgrade": it restores what create-squad owns and backs up anything you changed';
export const PROFILE_SYNC_FIX = 'run "create-squad upgrade": it writes the members\' agents from the roster and their skills';

/**
 * Every finding code, by check group, with what it means. Skill findings also carry the validator's
 * codes as `skill-<code>` (docs/skills.md lists those).
 */
export const FINDING_CODES = {
  // squad and layout
  'two-squads': '.squad/ and .ai-team/ both hold a squad',
  'squad-dir-recreated': '.squad/ was recreated beside the squad in .ai-team/ (it holds no team.md): its files belong in .ai-team/',
  'squad-path-stale': "the team's text still names .squad/ paths, where the squad was before it moved to .ai-team/",
  'state-branch-not-brought': "histories and decisions on squad-cli's squad-state branch that .ai-team/ does not have",
  'layout-missing': 'a file or folder of the layout is missing',
  'layout-blocked': 'something else stands where a file or folder of the layout goes',
  'read-refused': 'a squad file is a link leading outside the repository',
  'squad-below-repository-root': 'the squad is below the git root, where Copilot does not look',
  // casting
  'casting-invalid': 'a casting file is not valid JSON of its shape',
  'casting-member-invalid': 'a casting registry entry is malformed',
  'casting-member-unfinished': 'a registry member with no roster row or folder (an interrupted hire)',
  // what create-squad owns
  'gitattributes-union': '.gitattributes lacks merge=union lines',
  'coordinator-missing': 'the coordinator profile is missing',
  'coordinator-frontmatter': 'the coordinator profile has bad or missing frontmatter',
  'coordinator-too-large': 'the coordinator prompt is over the Copilot limit',
  'coordinator-newer': 'the coordinator is from a newer create-squad',
  'coordinator-unstamped': 'the coordinator has no version stamp',
  'coordinator-outdated': 'the coordinator is from an older create-squad',
  'owned-blocked': 'something stands where a file create-squad owns goes',
  'owned-missing': 'files create-squad ships are missing',
  'builtin-old-place': 'a member-facing built-in skill is still in .ai-team/skills/, where Copilot does not find it',
  'manifest-missing': 'the manifest is missing',
  'manifest-invalid': 'the manifest is not valid',
  // roster and members
  'roster-empty': 'the roster lists no members',
  'charter-missing': 'a roster member has no charter',
  'history-missing': 'a roster member has no history',
  'agent-folder-invalid-name': 'an agent folder name no command accepts',
  'member-not-in-roster': 'a member folder with a charter but no roster row',
  // limits (base/limits.ts)
  'file-too-large': 'a charter, rules, history or decisions file larger than create-squad reads',
  'standing-rules-too-large': 'a charter or rules.md over what teach keeps it to',
  'standing-rule-too-long': 'a standing rule longer than a rule may be',
  'control-characters': 'control or bidirectional characters in a charter or rules.md',
  'hooks-invalid': "the squad's hooks file is not JSON: no host runs the squad's hooks",
  'hooks-edited': "the squad's hooks file differs from the one create-squad writes",
  'hooks-not-installed': "the repository does not install create-squad, which the squad's hooks file runs: the hooks do nothing",
  // members' Copilot agents
  'copilot-agent-blocked': "something stands where a member's agent goes",
  'copilot-agent-missing': 'a member has no Copilot agent',
  'copilot-agent-dropped': "the Copilot runtime would ignore a member's agent",
  'copilot-agent-stale': "a member's agent is out of step with the squad",
  'copilot-agent-edited': "a member's agent was edited or not written by create-squad",
  'copilot-agent-retired': 'the agent of a retired member is still offered',
  'copilot-agent-orphan': 'the agent of someone not on the roster is still offered',
  // skills (also the validator's codes as skill-<code>, and discovery's warnings below)
  'skill-original-style': "a skill in the original Squad's style",
  'skill-coordinator-only': "one of squad-cli's coordinator-only skills, not marked so: offered to every member",
  'no-skill-file': 'a skill folder without SKILL.md',
  'skill-file-case': 'a skill folder with skill.md instead of SKILL.md',
  'skill-overridden': 'a skill hidden by another of the same name',
  'skill-outside': 'a skills folder that leads outside the repository',
  'skill-file-outside': "a skill's SKILL.md that is a link leading outside the repository",
  'skill-host-differs': 'a project skill a Copilot host reads differently from create-squad (nested, invalid, or hidden by a same-named one)',
  'skill-set-aside': 'a project skill folder starting with "_": create-squad sets it aside, the Copilot CLI loads it',
  'skills-folder-is-skill': 'a SKILL.md directly in a project skills folder: the Copilot CLI then loads none of the skills inside it',
  // the project lock (skills-lock.json)
  'skill-lock-invalid': 'skills-lock.json cannot be read (not a lock, or a git conflict both sides of which changed one skill)',
  'skill-lock-conflict': 'skills-lock.json holds git conflict markers, read with both sides joined',
  'skill-lock-modified': 'an installed skill differs from what skills-lock.json records (edited here)',
  'skill-lock-not-installed': 'skills-lock.json records a skill that is not installed',
  // MCP
  'mcp-config-unread': 'an MCP configuration file no Copilot host reads',
  'mcp-config-invalid': 'an MCP configuration file a host cannot use',
  'mcp-not-configured': 'a required MCP server no host has',
  'mcp-host-missing': 'a required MCP server some hosts lack',
  'mcp-server-not-starting': 'a registered squad MCP server that does not start and answer the MCP handshake',
  'mcp-server-not-checked': 'a registered squad MCP server doctor did not start: it runs a create-squad the repository brings',
  // leftovers
  'import-staging-leftover': 'a staging folder of an interrupted import',
  'skill-staging-leftover': 'a staging folder of an interrupted skills add',
  'temp-file-leftover': 'a temporary file of an interrupted write',
  'probe-leftover': 'a writability probe of an interrupted run',
  'scratch-leftover': "scratch work of an interrupted run in the repository's temp folder",
  'import-unfinished': 'an import that stopped after putting its squad in place',
  'stale-lock': 'the lock of a create-squad that did not finish (the next writing command takes it over)',
  'lock-held': 'a create-squad is writing now',
  'lock-obstructed': 'something that is not a create-squad lock is at .create-squad.lock: every writing command refuses',
  'lock-other-host': 'the lock of a create-squad on another host, which is never taken over',
  'lock-debris': 'a file a killed writing command left beside the lock (the next writing command removes it)',
  // context (context/gauge.ts)
  'context-over-threshold': 'a member\'s spawn starts above the share of its model\'s window set as "over" (docs/budgets.md)',
} as const;

export type FindingCode = keyof typeof FINDING_CODES;

/** Whether `code` is one doctor may report: listed, or a validator code of a skill. */
export function isKnownFindingCode(code: string): boolean {
  return code in FINDING_CODES || code.startsWith('skill-');
}
