import type { RecallResult } from '../core/mem/recall';
import { isRecursaError } from '../core/errors';
import type { VaultRegistry } from '../core/ports';
import { openVault } from './openVault';

/** The command-line values the memory commands read. */
export interface MemoryCommandValues {
  vault?: string;
  tag?: string[];
  query?: string;
  since?: string;
  limit?: string;
  scope?: string;
  json?: boolean;
  'memory-folder'?: string;
}

type UsageError = (message: string) => number;

/** `recursa remember`: writes a memory note and commits it. */
export async function rememberCommand(values: MemoryCommandValues, words: string[], registry: VaultRegistry, usageError: UsageError): Promise<number> {
  if (values.vault === undefined) return usageError('--vault DIR is required');
  const content = words.join(' ').trim();
  if (content === '') return usageError('the content to remember is missing');
  if (values.query !== undefined || values.since !== undefined || values.limit !== undefined || values.scope !== undefined) {
    return usageError('--query, --since, --limit and --scope belong to the recall command');
  }
  let opened;
  try {
    opened = await openVault(values.vault, { watch: false, vaultRegistry: registry, ...memoryFolder(values) });
  } catch (error) {
    return usageError(messageOf(error));
  }
  try {
    const { id, path } = await opened.mem.remember(content, values.tag ?? []);
    const firstLine = content.split('\n', 1)[0] ?? '';
    const subject = firstLine.length > 60 ? `${firstLine.slice(0, 57)}...` : firstLine;
    const commit = opened.git === null ? null : await opened.mem.commitChanges(`Remember: ${subject}`);
    process.stdout.write(values.json === true ? `${JSON.stringify({ id, path, commit }, null, 2)}\n` : `${id} ${path}\n`);
    return 0;
  } catch (error) {
    return isRecursaError(error) && error.code === 'InvalidArgument' ? usageError(error.message) : failure(error);
  } finally {
    await opened.close();
  }
}

/** `recursa recall`: prints the memories that match. */
export async function recallCommand(values: MemoryCommandValues, words: string[], registry: VaultRegistry, usageError: UsageError): Promise<number> {
  if (values.vault === undefined) return usageError('--vault DIR is required');
  if (words.length > 0) return usageError(`unexpected arguments: ${words.join(' ')} (give the words with --query)`);
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 100)) return usageError('--limit wants a whole number from 1 to 100');
  if (values.scope !== undefined && values.scope !== 'vault' && values.scope !== 'all') return usageError(`unknown scope "${values.scope}" (use vault or all)`);
  let opened;
  try {
    // No history and no index to build: recall reads the memory folder alone (the plain scan), so
    // it stays quick in a vault of any size.
    opened = await openVault(values.vault, { watch: false, git: false, graph: false, vaultRegistry: registry, ...memoryFolder(values) });
  } catch (error) {
    return usageError(messageOf(error));
  }
  try {
    const result = await opened.mem.recall({ query: values.query, tags: values.tag, since: values.since, limit, scope: values.scope });
    process.stdout.write(values.json === true ? `${JSON.stringify(result, null, 2)}\n` : formatRecall(result));
    if (result.note !== null && values.json !== true) process.stderr.write(`recursa: ${result.note}\n`);
    return 0;
  } catch (error) {
    return isRecursaError(error) && error.code === 'InvalidArgument' ? usageError(error.message) : failure(error);
  } finally {
    await opened.close();
  }
}

/** Memories for a person to read: a header line each, the text indented under it. */
export function formatRecall(result: RecallResult): string {
  if (result.memories.length === 0) return '';
  return result.memories
    .map((memory) => {
      const header = [memory.timestamp.slice(0, 16).replace('T', ' ') + ' UTC', memory.id, memory.tags.length === 0 ? null : `[${memory.tags.join(', ')}]`, memory.vault === null ? memory.path : `${memory.vault}: ${memory.path}`]
        .filter((part) => part !== null)
        .join('  ');
      return `${header}\n${memory.content.split('\n').map((line) => `    ${line}`.trimEnd()).join('\n')}\n`;
    })
    .join('\n');
}

function memoryFolder(values: MemoryCommandValues): { memoryFolder?: string } {
  return values['memory-folder'] === undefined ? {} : { memoryFolder: values['memory-folder'] };
}

function failure(error: unknown): number {
  process.stderr.write(`recursa: ${messageOf(error)}\n`);
  return 1;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
