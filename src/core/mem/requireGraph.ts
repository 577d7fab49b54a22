import { GitUnavailableError } from '../errors';
import type { GraphIndex } from '../graph/GraphIndex';
import type { MemContext } from './MemContext';

export function requireGraph(ctx: MemContext): GraphIndex {
  if (ctx.graph === null) throw new GitUnavailableError('this vault was opened without its graph index, so links and search are not available.');
  return ctx.graph;
}
