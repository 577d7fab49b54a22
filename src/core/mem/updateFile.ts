import { ConflictError } from '../errors';
import { requireString } from '../validate';
import { checkContent, verifyWritten } from './fileAccess';
import type { MemContext } from './MemContext';
import { resolvePath } from './resolvePath';

/**
 * Replaces a file's whole content only if it still equals `oldContent` (compare-and-swap), so an
 * edit made meanwhile by the user is never overwritten. Read the file, transform the text in your
 * code, then call this with the original and the new text. Atomic with respect to Obsidian's
 * editor. For `.md` files the new content is validated first.
 *
 * @param filePath Vault-relative path of an existing file.
 * @param oldContent The exact content you read with `mem.readFile`.
 * @param newContent The complete new content.
 * @returns `true` once the new content is written and verified.
 * @throws Conflict if the file changed since it was read (nothing is written: read it again and
 *   reapply your change); NotFound if the file does not exist; InvalidContent if the new content
 *   breaks a note format rule; PathRefused for a refused path.
 * @example
 * const before = await mem.readFile('Tasks.md');
 * await mem.updateFile('Tasks.md', before, before.replace('- [ ] Call Bob', '- [x] Call Bob'));
 */
export async function updateFile(
  ctx: MemContext,
  filePath: string,
  oldContent: string,
  newContent: string,
): Promise<boolean> {
  const path = await resolvePath(ctx, filePath, 'write');
  const expected = requireString(oldContent, 'oldContent');
  const next = requireString(newContent, 'newContent');
  checkContent(ctx, path, next, 'newContent');
  await ctx.writeSet.track([path], () =>
    ctx.vault.process(path, (current) => {
      if (current !== expected) throw new ConflictError(path);
      return next;
    }),
  );
  await verifyWritten(ctx, path, next);
  return true;
}
