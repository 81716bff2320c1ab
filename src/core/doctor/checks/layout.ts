/** The squad as a whole: is there one, in the right place, with the layout every command reads. */
import path from 'node:path';
import { COORDINATOR_PATH, ORIGINAL_SQUAD_DIR, SCRIBE_AGENT, charterPath, historyPath, squadPaths } from '../../base/paths.js';
import { confinementFix } from '../../fs/confined.js';
import { factsAt, isFileFact, isFolderFact, type PathFacts } from '../../squad/state.js';
import { recreatedSquadDir } from '../../squad/original/squad-dir-plan.js';
import { RECREATE_FIX, type Finding, type Severity } from '../catalog.js';
import type { DoctorState } from '../read.js';

/** Files and folders of the layout (docs/state-layout.md) that a healthy squad has, and how bad it is to miss each one. */
export const LAYOUT: { path: string; kind: 'file' | 'folder'; severity: Severity }[] = [
  { path: squadPaths.team, kind: 'file', severity: 'error' },
  { path: squadPaths.routing, kind: 'file', severity: 'warning' },
  { path: squadPaths.decisions, kind: 'file', severity: 'warning' },
  { path: squadPaths.decisionsInbox, kind: 'folder', severity: 'warning' },
  { path: squadPaths.ceremonies, kind: 'file', severity: 'warning' },
  { path: squadPaths.agents, kind: 'folder', severity: 'warning' },
  { path: squadPaths.log, kind: 'folder', severity: 'warning' },
  { path: squadPaths.orchestrationLog, kind: 'folder', severity: 'warning' },
  { path: squadPaths.castingPolicy, kind: 'file', severity: 'warning' },
  { path: squadPaths.castingRegistry, kind: 'file', severity: 'warning' },
  { path: squadPaths.castingHistory, kind: 'file', severity: 'warning' },
  { path: charterPath(SCRIBE_AGENT), kind: 'file', severity: 'warning' },
];

/**
 * A squad the original Squad keeps in `.squad/`, beside the one in `.ai-team/`; or a `.squad/`
 * recreated after the move (no team.md: its files are to be merged into `.ai-team/`, which stays).
 */
export function checkTwoSquads(state: DoctorState): Finding[] {
  if (!state.squad.originalSquadDir) return [];
  if (state.recreatedSquadDir !== undefined) {
    return [{ severity: 'error', code: 'squad-dir-recreated', path: ORIGINAL_SQUAD_DIR, ...recreatedSquadDir(state.recreatedSquadDir) }];
  }
  return [
    {
      severity: 'error',
      code: 'two-squads',
      path: ORIGINAL_SQUAD_DIR,
      message: `${ORIGINAL_SQUAD_DIR}/ holds a squad made by the original Squad beside the one in ${squadPaths.root}/: two teams, and create-squad sees only the second`,
      fix: `keep one: move ${squadPaths.root}/ aside and run "create-squad upgrade" to move ${ORIGINAL_SQUAD_DIR}/ into its place, or move ${ORIGINAL_SQUAD_DIR}/ out of the repository`,
    },
  ];
}

/** Histories and decisions squad-cli keeps on its `squad-state` branch that `.ai-team/` does not have: upgrade brings them, with consent. */
export function checkStateBranch(state: DoctorState): Finding[] {
  const files = state.stateBranchFiles;
  if (files.length === 0) return [];
  const shown = files.slice(0, 5).join(', ') + (files.length > 5 ? ` and ${files.length - 5} more` : '');
  return [
    {
      severity: 'warning',
      code: 'state-branch-not-brought',
      path: squadPaths.root,
      message: `squad-cli keeps ${files.length} file${files.length === 1 ? '' : 's'} of this team's histories and decisions on its squad-state branch that ${squadPaths.root}/ does not have (${shown}): the members do not see them`,
      fix: `run "create-squad upgrade --from-state-branch": it reads the branch with git (no checkout) and brings them into ${squadPaths.root}/, backing up any file it replaces`,
    },
  ];
}

/** Shown lines of one file that names `.squad/` paths; the rest are counted. */
const SHOWN_LINES = 5;

/** The team's text that still names `.squad/` paths: a member following one recreates `.squad/`. */
export function checkStaleSquadPaths(state: DoctorState): Finding[] {
  return state.stalePaths.map(({ path: relPath, lines }) => ({
    severity: 'warning' as const,
    code: 'squad-path-stale',
    path: relPath,
    message: `${relPath} still names ${ORIGINAL_SQUAD_DIR}/ paths (line${lines.length === 1 ? '' : 's'} ${lines.slice(0, SHOWN_LINES).join(', ')}${lines.length > SHOWN_LINES ? ` and ${lines.length - SHOWN_LINES} more` : ''}), where the squad was before it moved to ${squadPaths.root}/: a member following them recreates ${ORIGINAL_SQUAD_DIR}/`,
    fix: `run "create-squad upgrade": it points them at ${squadPaths.root}/ (the old text backed up), or edit them by hand`,
  }));
}

/** What stands at a path that is not what the layout expects: a description, and whether it is a link. */
function whatStands(facts: PathFacts): { what: string; link: boolean } {
  if (facts.kind === 'symlink') {
    if (facts.target === 'dangling') return { what: 'a dangling symlink (it points to nothing)', link: true };
    return { what: `a symlink to ${facts.target === 'folder' ? 'a folder' : facts.target === 'file' ? 'a file' : 'something that is neither a file nor a folder'}`, link: true };
  }
  return { what: facts.kind === 'folder' ? 'a folder' : facts.kind === 'file' ? 'a file' : 'neither a file nor a folder', link: false };
}

export function checkLayout(state: DoctorState): Finding[] {
  const findings: Finding[] = [];
  for (const entry of LAYOUT) {
    const facts = factsAt(state, entry.path);
    if ((entry.kind === 'file' ? isFileFact : isFolderFact)(facts)) continue;
    if (facts.kind === 'missing' && state.stateBranchFiles.includes(entry.path)) continue; // on squad-cli's branch: checkStateBranch says so
    if (facts.kind === 'missing') {
      findings.push({
        severity: entry.severity,
        code: 'layout-missing',
        path: entry.path,
        message: `${entry.path}${entry.kind === 'folder' ? '/' : ''} is missing`,
        fix: RECREATE_FIX,
      });
      continue;
    }
    const standing = whatStands(facts);
    findings.push({
      severity: entry.severity,
      code: 'layout-blocked',
      path: entry.path,
      message: `${entry.path} is ${standing.what}, not a ${entry.kind}: commands cannot use it, and init will not replace it`,
      fix: `${standing.link ? 'remove the link' : 'move it aside'}, then run "create-squad init" (it recreates ${entry.path})`,
    });
  }
  return findings;
}

/**
 * Squad files every command reads, and each member's charter and history (printed into or pointed
 * at by spawn prompts), that are links leading outside the repository: commands refuse to read
 * them, so the squad is broken until they are real files.
 */
export function checkConfinedReads(state: DoctorState): Finding[] {
  const members = state.squad.agentEntries.filter((entry) => !entry.name.startsWith('.')).map((entry) => entry.name);
  const files = [
    ...LAYOUT.filter((entry) => entry.kind === 'file').map((entry) => entry.path),
    squadPaths.manifest,
    ...members.flatMap((name) => [charterPath(name), historyPath(name)]),
  ];
  const findings: Finding[] = [];
  for (const relPath of new Set(files)) {
    const facts = factsAt(state, relPath);
    const exists = facts.kind !== 'missing' && !(facts.kind === 'symlink' && facts.target === 'dangling');
    if (facts.readProblem === undefined || !exists) continue;
    findings.push({
      severity: 'error',
      code: 'read-refused',
      path: relPath,
      message: `${relPath} cannot be read: ${facts.readProblem}, so create-squad refuses it (its content could reach a model's prompt)`,
      fix: confinementFix(relPath),
    });
  }
  return findings;
}

/** Copilot finds custom agents in `.github/agents/` at the root of the git repository only. */
export function checkRepositoryRoot(state: DoctorState): Finding[] {
  const { root, gitRoot } = state;
  if (gitRoot === undefined || path.resolve(gitRoot) === path.resolve(root)) return [];
  return [
    {
      severity: 'warning',
      code: 'squad-below-repository-root',
      path: COORDINATOR_PATH,
      message: `the squad is in ${root}, below the repository root ${gitRoot}: Copilot looks for ${COORDINATOR_PATH} only at the root, so it does not see the Squad agent`,
      fix: `move ${squadPaths.root}/ and ${COORDINATOR_PATH} to ${gitRoot} (git mv keeps their history), or open ${root} as its own repository`,
    },
  ];
}
