import { WrongKindError } from '../errors';
import { requireString } from '../validate';
import { checkContent, verifyWritten } from './fileAccess';
import type { MemContext } from './MemContext';
import { resolvePath } from './resolvePath';

/**
 * Writes a file, creating it and any missing parent folders, or replacing it whole if it exists.
 * For `.md` files the content is validated first (YAML frontmatter must be a mapping; in Logseq
 * mode, Logseq's block rules apply); invalid content writes nothing. The write is read back to
 * verify it. Prefer `mem.updateFile` or `mem.replaceInFile` to change an existing note.
 *
 * @param filePath Vault-relative path of the file, e.g. `"People/Ada Lovelace.md"`.
 * @param content The complete new content.
 * @returns `true` once the content is written and verified.
 * @throws InvalidContent if a note breaks a format rule (the error names the line and the rule);
 *   WrongKind if a folder is at the path; InvalidArgument if the content is over the write limit;
 *   WriteNotVerified if reading back gave different content; PathRefused for a refused path.
 * @example
 * await mem.writeFile('People/Ada Lovelace.md', '---\ntags: [person]\n---\n# Ada Lovelace\n');
 */
export async function writeFile(ctx: MemContext, filePath: string, content: string): Promise<boolean> {
  const path = await resolvePath(ctx, filePath, 'write');
  const text = requireString(content, 'content');
  checkContent(ctx, path, text);
  const before = await ctx.vault.stat(path);
  if (before?.kind === 'folder') throw new WrongKindError(path, 'file');
  await ctx.writeSet.track([path], () => ctx.vault.write(path, text));
  await verifyWritten(ctx, path, text);
  return true;
}
