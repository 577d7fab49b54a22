import { MatchCountError } from '../errors';
import { requireString } from '../validate';
import { checkContent, verifyWritten } from './fileAccess';
import type { MemContext } from './MemContext';
import { resolvePath } from './resolvePath';

/**
 * Replaces exactly one occurrence of `search` in a file with `replacement`. The search text is
 * matched literally (no regular expressions, no `$` patterns in the replacement). If the text
 * occurs zero times or more than once nothing is written and the error says how many times it
 * occurs: include more surrounding text to make it unique. Atomic with respect to Obsidian's
 * editor; for `.md` files the result is validated first.
 *
 * @param filePath Vault-relative path of an existing file.
 * @param search The exact text to find; must occur exactly once.
 * @param replacement The text to put in its place (may be empty to delete).
 * @returns `true` once the file is written and verified.
 * @throws MatchCount if the search text occurs zero or several times (`data.count`); NotFound if
 *   the file does not exist; InvalidContent if the result breaks a note format rule; PathRefused
 *   for a refused path.
 * @example
 * await mem.replaceInFile('Projects/Plan.md', 'status:: draft', 'status:: active');
 */
export async function replaceInFile(
  ctx: MemContext,
  filePath: string,
  search: string,
  replacement: string,
): Promise<boolean> {
  const path = await resolvePath(ctx, filePath, 'write');
  const needle = requireString(search, 'search', { nonEmpty: true });
  const insert = requireString(replacement, 'replacement');
  const written = await ctx.writeSet.track([path], () =>
    ctx.vault.process(path, (current) => {
      const at = current.indexOf(needle);
      const count = at === -1 ? 0 : countOccurrences(current, needle, at);
      if (count !== 1) throw new MatchCountError(path, count);
      const next = current.slice(0, at) + insert + current.slice(at + needle.length);
      checkContent(ctx, path, next, 'replacement');
      return next;
    }),
  );
  await verifyWritten(ctx, path, written);
  return true;
}

/** Occurrences of `needle` in `text` from `first` on, overlapping ones included (they are ambiguous too). */
function countOccurrences(text: string, needle: string, first: number): number {
  let count = 0;
  for (let at = first; at !== -1; at = text.indexOf(needle, at + 1)) count++;
  return count;
}
