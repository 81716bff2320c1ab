/** What `model` decides from, read once (model-change.ts decides from it without the disk). */
import { factsFrom } from '../base/disk-facts.js';
import { DiskReader } from '../fs/disk-reader.js';
import { packageVersion } from '../fs/version.js';
import { readModelSources } from '../roster/models.js';
import { listAgents, requireSquad } from '../roster/roster.js';
import { readSquadSkills } from '../squad/agents/profile-input.js';
import { activeMembersOf } from '../squad/agents/profile-plan.js';
import type { SquadModelState } from './model-change.js';
import { readProfileFacts } from './teach-state.js';

/** Read what setting the squad's default model decides from: the config, every active member and its agent. */
export function readSquadModelState(root: string): SquadModelState {
  requireSquad(root);
  const members = activeMembersOf(listAgents(root));
  const models = readModelSources(
    root,
    members.map((member) => member.folder),
  );
  const disk = new DiskReader(root);
  readProfileFacts(
    disk,
    members.map((member) => member.folder),
  );
  return { root, configText: models.configText, members, squad: readSquadSkills(root), models, disk: factsFrom(disk.record()), version: packageVersion() };
}
