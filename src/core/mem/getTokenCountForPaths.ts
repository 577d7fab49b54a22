import { countTokensInSlices } from '../tokens/countTokens';
import { requireArray, requirePath } from '../validate';
import { resolvePath } from './resolvePath';
import { readTextFile } from './fileAccess';
import type { MemContext } from './MemContext';
import { runSlicer } from './runScope';

/** One result of `mem.getTokenCountForPaths`. */
export interface PathTokenCount {
  path: string;
  tokenCount: number;
}

/**
 * Counts the BPE tokens of several text files in one call (cheaper than one call per file).
 * Reads every file in full.
 *
 * @param paths Vault-relative paths of text files (at most 1000 per call by default).
 * @returns One `{ path, tokenCount }` per input path, in the same order; `path` is normalized.
 * @throws InvalidArgument if `paths` is not an array or too long; NotFound, WrongKind, BinaryFile,
 *   FileTooLarge or PathRefused for the first path that fails (the error names it).
 * @example
 * const counts = await mem.getTokenCountForPaths(['a.md', 'b.md']);
 * return counts.filter((c) => c.tokenCount < 2000).map((c) => c.path);
 */
export async function getTokenCountForPaths(ctx: MemContext, paths: string[]): Promise<PathTokenCount[]> {
  const checked = requireArray(paths, 'paths', ctx.options.maxPathsPerCall).map((p) => requirePath(p, ctx.policy));
  // Every path is checked, links followed, before any file is read.
  const resolved: string[] = [];
  for (const path of checked) resolved.push(await resolvePath(ctx, path, 'read'));
  const results: PathTokenCount[] = [];
  const slicer = runSlicer(ctx.run?.signal, 'the token count');
  for (const [i, path] of checked.entries()) {
    results.push({ path, tokenCount: await countTokensInSlices(await readTextFile(ctx, resolved[i] as string), slicer) });
  }
  return results;
}
