import { GitUnavailableError } from '../errors';
import type { GitService } from '../git/GitService';
import type { MemContext } from './MemContext';

export function requireGit(ctx: MemContext): GitService {
  if (ctx.git === null) throw new GitUnavailableError('this vault was opened without version history, so there are no commits to work with.');
  return ctx.git;
}
