/** The files `init` creates besides the squad-owned ones, for the given member folders. */
import { memberProfilePath } from '../../src/core/squad/agents/member-profile.js';
import { GITIGNORE_PATH, charterPath, historyPath, squadPaths } from '../../src/core/base/paths.js';

export function teamStateLayout(members: string[]): string[] {
  return [
    squadPaths.team,
    squadPaths.routing,
    squadPaths.decisions,
    `${squadPaths.decisionsInbox}/.gitkeep`,
    squadPaths.ceremonies,
    squadPaths.castingPolicy,
    squadPaths.castingRegistry,
    squadPaths.castingHistory,
    ...members.flatMap((agent) => [charterPath(agent), historyPath(agent)]),
    charterPath('scribe'),
    ...[...members, 'scribe'].map(memberProfilePath),
    `${squadPaths.log}/.gitkeep`,
    `${squadPaths.orchestrationLog}/.gitkeep`,
    squadPaths.manifest,
    squadPaths.gitattributes,
    GITIGNORE_PATH,
  ];
}
