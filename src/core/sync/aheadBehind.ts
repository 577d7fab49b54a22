import type { GitService } from '../git/GitService';
import { resolveRef } from '../git/refs';
import { commitsBetween } from './commitGraph';

/** How the current branch stands against the remote's, as of the last fetch. */
export interface AheadBehind {
  /** The branch, or null when HEAD is detached (then there is nothing to compare). */
  branch: string | null;
  /** Commits here that the remote has not got (a push would send them). */
  ahead: number;
  /** Commits the last fetch brought that are not here yet. */
  behind: number;
  /** Whether the remote's branch is known here at all (false before the first sync). */
  tracked: boolean;
}

/**
 * Counts the commits between the current branch and its remote-tracking branch
 * (`refs/remotes/<remote>/<branch>`), as `git status` does, in the git queue. It reads only:
 * nothing is fetched, so "behind" is as of the last sync.
 */
export function aheadBehind(service: GitService, remote = 'origin'): Promise<AheadBehind> {
  return service.runExclusive(async (repo) => {
    const head = await repo.head();
    if (head.branch === null) return { branch: null, ahead: 0, behind: 0, tracked: false };
    const tracking = await resolveRef(repo.vault, `refs/remotes/${remote}/${head.branch}`, repo.gitdir);
    const ahead = (await commitsBetween(repo, [head.oid], [tracking])).length;
    const behind = tracking === null ? 0 : (await commitsBetween(repo, [tracking], [head.oid])).length;
    return { branch: head.branch, ahead, behind, tracked: tracking !== null };
  });
}
