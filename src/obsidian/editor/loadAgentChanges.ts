import { agentLineChanges } from '../../core/git/changedLines';
import type { GitService } from '../../core/git/GitService';
import type { AgentChangeMarks } from './agentChangeMarkers';

/**
 * The marks for the note at `path` whose editor holds `text`: the agent's latest commit to it
 * and the lines it changed, located in `text`. Null without history, or when the agent never
 * changed the note (or not within the last 2000 commits).
 */
export async function loadAgentChanges(git: GitService | null, path: string, text: string): Promise<AgentChangeMarks | null> {
  if (git === null) return null;
  const changes = await agentLineChanges(git.repo, path, text);
  return changes === null ? null : { hash: changes.hash, message: changes.message, ranges: changes.ranges };
}
