/**
 * `compact`'s read step: the histories (one member's or every member's), decisions.md, the
 * archives beside them and the decisions inbox, read once through the confined reader
 * (fs/confined.ts). A file that is not UTF-8 is left alone with a warning: compaction moves bytes
 * exactly, and a text that would not decode back to the same bytes cannot promise that.
 */
import { SquadError } from '../base/errors.js';
import { historyArchivePath, historyPath, squadPaths } from '../base/paths.js';
import { warning, type Warning } from '../base/warnings.js';
import { compareCodePoints } from '../base/util.js';
import { readStateBytes } from '../fs/confined.js';
import { agentNamed, listAgents, requireSquad } from '../roster/roster.js';
import { listFolder } from '../squad/state.js';
import type { CompactFile, CompactState, InboxFile } from './compaction.js';

/** What to compact: every member's history and the decisions, one member's history, or the decisions. */
export type CompactTarget = { kind: 'all' } | { kind: 'member'; member: string } | { kind: 'decisions' };

/** The text of `bytes` when it decodes to exactly them; undefined otherwise. */
function exactText(bytes: Buffer): string | undefined {
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : undefined;
}

/** A live file and its archive, read; undefined (with a warning) when either is not UTF-8. */
function readPair(root: string, path: string, archivePath: string, warnings: Warning[]): CompactFile | undefined {
  const pair: CompactFile = { path, text: undefined, archivePath, archiveText: undefined };
  for (const [relPath, key] of [
    [path, 'text'],
    [archivePath, 'archiveText'],
  ] as const) {
    const bytes = readStateBytes(root, relPath);
    if (bytes === undefined) continue;
    const text = exactText(bytes);
    if (text === undefined) {
      warnings.push(warning('not-utf8', `${relPath} is not UTF-8 text: ${path} is left as it is`, relPath));
      return undefined;
    }
    pair[key] = text;
  }
  return pair;
}

function readInbox(root: string, warnings: Warning[]): InboxFile[] {
  const files: InboxFile[] = [];
  const names = listFolder(root, squadPaths.decisionsInbox)
    .filter((entry) => entry.file && entry.name.toLowerCase().endsWith('.md') && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort(compareCodePoints);
  for (const name of names) {
    const path = `${squadPaths.decisionsInbox}/${name}`;
    const bytes = readStateBytes(root, path);
    if (bytes === undefined) continue;
    const text = exactText(bytes);
    if (text === undefined) {
      warnings.push(warning('not-utf8', `${path} is not UTF-8 text: it stays in the inbox`, path));
      continue;
    }
    files.push({ name, path, text });
  }
  return files;
}

/** Read what compacting `target` decides from. */
export function readCompactState(root: string, target: CompactTarget): CompactState {
  requireSquad(root);
  const agents = listAgents(root).filter((agent) => agent.hasFolder);
  const warnings: Warning[] = [];
  const chosen = target.kind === 'member' ? [agentNamed(agents, target.member)] : target.kind === 'all' ? agents : [];
  const histories: CompactState['histories'] = [];
  for (const agent of chosen) {
    const pair = readPair(root, historyPath(agent.name), historyArchivePath(agent.name), warnings);
    if (pair) histories.push({ ...pair, member: agent.name });
  }
  if (target.kind === 'member' && histories[0]?.text === undefined && warnings.length === 0) {
    throw new SquadError('not-found', `${historyPath(chosen[0]!.name)} does not exist: there is nothing to compact`, {
      hint: 'a member gets a history when it is hired; run "create-squad init" to recreate missing files',
    });
  }
  const decisions = target.kind === 'member' ? undefined : readPair(root, squadPaths.decisions, squadPaths.decisionsArchive, warnings);
  return {
    histories,
    decisions,
    inbox: decisions === undefined ? [] : readInbox(root, warnings),
    members: agents.map((agent) => agent.name),
    warnings,
  };
}
