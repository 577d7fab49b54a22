import { countTokensInSlices } from '../tokens/countTokens';
import { readTextFile } from './fileAccess';
import { resolvePath } from './resolvePath';
import type { MemContext } from './MemContext';

/**
 * Counts the BPE tokens of a text file (the `cl100k_base` encoding), to judge whether it fits in
 * the context before reading it. Costs a full read of the file.
 *
 * @param filePath Vault-relative path of a text file.
 * @returns The number of tokens.
 * @throws NotFound, WrongKind, BinaryFile, FileTooLarge as for `mem.readFile`; PathRefused for a
 *   refused path.
 * @example
 * if ((await mem.getTokenCount('Books/Notes.md')) > 4000) return 'too long to read whole';
 */
export async function getTokenCount(ctx: MemContext, filePath: string): Promise<number> {
  const path = await resolvePath(ctx, filePath, 'read');
  return countTokensInSlices(await readTextFile(ctx, path));
}
