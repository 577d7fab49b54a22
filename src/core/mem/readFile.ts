import { readTextFile } from './fileAccess';
import { resolvePath } from './resolvePath';
import type { MemContext } from './MemContext';

/**
 * Reads the full text of a file.
 *
 * @param filePath Vault-relative path, e.g. `"Projects/Plan.md"`.
 * @returns The file's content exactly as stored (line endings and any byte-order mark kept), so it
 *   can be passed unchanged as `oldContent` to `mem.updateFile`.
 * @throws NotFound if nothing is at the path; WrongKind if it is a folder; BinaryFile if the file is
 *   not UTF-8 text (an image, a PDF); FileTooLarge if it is over the read limit (4 MiB by default);
 *   PathRefused if the path is outside what the agent may touch.
 * @example
 * const plan = await mem.readFile('Projects/Plan.md');
 * return plan.split('\n').length;
 */
export async function readFile(ctx: MemContext, filePath: string): Promise<string> {
  const path = await resolvePath(ctx, filePath, 'read');
  return readTextFile(ctx, path);
}
