import { IoError, isRecursaError } from '../errors';
import { pathPolicyOf, type MemOptions } from './options';
import type { MemContext } from './MemContext';
import type { VaultPort } from '../ports';
import { WriteSet } from './WriteSet';
import { createDir } from './createDir';
import { deletePath } from './deletePath';
import { fileExists } from './fileExists';
import { getGraphRoot } from './getGraphRoot';
import { getTokenCount } from './getTokenCount';
import { getTokenCountForPaths } from './getTokenCountForPaths';
import { listFiles } from './listFiles';
import { readFile } from './readFile';
import { rename } from './rename';
import { replaceInFile } from './replaceInFile';
import { updateFile } from './updateFile';
import { writeFile } from './writeFile';

/**
 * Every `mem` operation, by the name the model calls it. Each takes the context first; `createMem`
 * binds it. Adding a method: its own file in this folder with the full doc comment (the model's
 * reference is generated from it), an entry here, a test beside the others.
 */
export const MEM_OPERATIONS = {
  readFile,
  writeFile,
  updateFile,
  replaceInFile,
  deletePath,
  rename,
  fileExists,
  createDir,
  listFiles,
  getGraphRoot,
  getTokenCount,
  getTokenCountForPaths,
} as const;

type Bound<F> = F extends (ctx: MemContext, ...args: infer A) => infer R ? (...args: A) => R : never;

/** The `mem` API as the agent's code sees it. */
export type Mem = { readonly [K in keyof typeof MEM_OPERATIONS]: Bound<(typeof MEM_OPERATIONS)[K]> };

export type MemMethodName = keyof Mem;

export const MEM_METHOD_NAMES = Object.keys(MEM_OPERATIONS) as MemMethodName[];

export interface MemInstance {
  mem: Mem;
  context: MemContext;
}

/**
 * Builds `mem` over a vault. Every method validates its arguments, runs, and tags any error with
 * `caller: 'mem.<name>'`; unexpected errors from below become `IoError`s, so what reaches the
 * model is always a `RecursaError` with a code and a plain message.
 */
export function createMem(vault: VaultPort, options: MemOptions, writeSet = new WriteSet()): MemInstance {
  const context: MemContext = { vault, options, policy: pathPolicyOf(options), writeSet };
  const mem: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const name of MEM_METHOD_NAMES) {
    const operation = MEM_OPERATIONS[name] as (ctx: MemContext, ...args: unknown[]) => Promise<unknown>;
    const caller = `mem.${name}`;
    mem[name] = async (...args: unknown[]) => {
      try {
        return await operation(context, ...args);
      } catch (error) {
        throw tagCaller(error, caller);
      }
    };
  }
  return { mem: Object.freeze(mem) as unknown as Mem, context };
}

function tagCaller(error: unknown, caller: string): Error {
  if (isRecursaError(error)) {
    error.data.caller ??= caller;
    return error;
  }
  const wrapped = new IoError(caller, error instanceof Error ? error.message : String(error));
  wrapped.data.caller = caller;
  return wrapped;
}
