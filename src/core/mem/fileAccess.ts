import { validateMarkdown } from '../content/validateMarkdown';
import {
  BinaryFileError,
  FileTooLargeError,
  InvalidArgumentError,
  NotFoundError,
  WriteNotVerifiedError,
  WrongKindError,
} from '../errors';
import { walkEntries } from '../ports';
import { decodeText, utf8Length } from '../text/decodeText';
import type { MemContext } from './MemContext';

/**
 * The shared steps of the file operations, so every `mem` method reads, checks and verifies
 * the same way. Paths given here have already passed the path policy.
 */

/** Reads a whole text file, refusing folders, binaries and files over `maxReadBytes`. */
export async function readTextFile(ctx: MemContext, path: string): Promise<string> {
  const info = await ctx.vault.stat(path);
  if (info === null) throw new NotFoundError(path);
  if (info.kind === 'folder') throw new WrongKindError(path, 'file');
  if (info.size > ctx.options.maxReadBytes) throw new FileTooLargeError(path, info.size, ctx.options.maxReadBytes);
  const bytes = await ctx.vault.readBinary(path);
  if (bytes.length > ctx.options.maxReadBytes) throw new FileTooLargeError(path, bytes.length, ctx.options.maxReadBytes);
  const text = decodeText(bytes);
  if (text === null) throw new BinaryFileError(path, bytes.length);
  return text;
}

/** Checks content about to be written to `path`: its size, and for notes their format rules. */
export function checkContent(ctx: MemContext, path: string, content: string, argument = 'content'): void {
  const bytes = utf8Length(content);
  if (bytes > ctx.options.maxWriteBytes) {
    throw new InvalidArgumentError(argument, `at most ${ctx.options.maxWriteBytes} bytes`, `${bytes} bytes`);
  }
  if (isMarkdown(path)) validateMarkdown(path, content, { logseq: ctx.options.logseq });
}

/** Reads the file back and confirms it holds exactly `expected`. */
export async function verifyWritten(ctx: MemContext, path: string, expected: string): Promise<void> {
  const actual = await ctx.vault.readText(path).catch(() => null);
  if (actual !== expected) throw new WriteNotVerifiedError(path);
}

/**
 * The paths a removal or move of `path` touches, as the write set records them: the file or
 * symbolic link itself (a link is never entered), or every file and link in the folder.
 * Null when nothing is there.
 */
export async function entriesAt(ctx: MemContext, path: string): Promise<string[] | null> {
  if ((await ctx.vault.readLink(path)) !== null) return [path];
  const info = await ctx.vault.stat(path);
  if (info === null) return null;
  if (info.kind === 'file') return [path];
  const { files, links } = await walkEntries(ctx.vault, path);
  return [...files, ...links];
}

export function isMarkdown(path: string): boolean {
  return path.toLowerCase().endsWith('.md');
}
