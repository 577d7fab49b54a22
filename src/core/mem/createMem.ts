import { IoError, isRecursaError } from '../errors';
import { pathPolicyOf, type MemOptions } from './options';
import type { MemContext, MemSession } from './MemContext';
import type { RunScope } from './runScope';
import { RunVault } from './runVault';
import type { VaultPort, VaultRegistry } from '../ports';
import { WriteSet } from './WriteSet';
import type { GitService } from '../git/GitService';
import type { GraphIndex } from '../graph/GraphIndex';
import { commitChanges } from './commitChanges';
import { createDir } from './createDir';
import { deletePath } from './deletePath';
import { discardChanges } from './discardChanges';
import { fileExists } from './fileExists';
import { getBacklinks } from './getBacklinks';
import { getChangedFiles } from './getChangedFiles';
import { getGraphRoot } from './getGraphRoot';
import { getOutgoingLinks } from './getOutgoingLinks';
import { getTokenCount } from './getTokenCount';
import { getTokenCountForPaths } from './getTokenCountForPaths';
import { gitDiff } from './gitDiff';
import { gitLog } from './gitLog';
import { listFiles } from './listFiles';
import { queryGraph } from './queryGraph';
import { readFile } from './readFile';
import { recall } from './recall';
import { remember } from './remember';
import { rename } from './rename';
import { replaceInFile } from './replaceInFile';
import { revertCommit } from './revertCommit';
import { revertToLastCheckpoint } from './revertToLastCheckpoint';
import { saveCheckpoint } from './saveCheckpoint';
import { search } from './search';
import { searchGlobal } from './searchGlobal';
import { updateFile } from './updateFile';
import { workingMemory } from './workingMemory';
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
  gitLog,
  gitDiff,
  getChangedFiles,
  commitChanges,
  getBacklinks,
  getOutgoingLinks,
  queryGraph,
  searchGlobal,
  search,
  saveCheckpoint,
  revertToLastCheckpoint,
  discardChanges,
  revertCommit,
  remember,
  recall,
  workingMemory,
} as const;

type Bound<F> = F extends (ctx: MemContext, ...args: infer A) => infer R ? (...args: A) => R : never;

/** The `mem` API as the agent's code sees it. */
export type Mem = { readonly [K in keyof typeof MEM_OPERATIONS]: Bound<(typeof MEM_OPERATIONS)[K]> };

export type MemMethodName = keyof Mem;

export const MEM_METHOD_NAMES = Object.keys(MEM_OPERATIONS) as MemMethodName[];

export interface MemInstance {
  mem: Mem;
  context: MemContext;
  /**
   * The same `mem` bound to one sandbox run: each call's vault work stops with `Cancelled` once
   * `scope.signal` aborts (long queries and counts between slices), and every byte written to disk
   * is charged to `scope.writeBudget` before it is written.
   */
  forRun(scope: RunScope): Mem;
}

/** Something that gives a `mem` bound to each run; `Sandbox` takes one (or a plain `Mem`). */
export interface RunScopedMem {
  forRun(scope: RunScope): Mem;
}

/** `forRun` of each `mem` made by `createMem`, so a `Mem` handed over alone can still be bound to a run. */
const RUN_BINDERS = new WeakMap<Mem, (scope: RunScope) => Mem>();

/**
 * `mem` bound to the run `scope` (see `MemInstance.forRun`), or null when `mem` was not made by
 * `createMem` (a wrapper of one, say), so it cannot be.
 */
export function memForRun(mem: Mem | RunScopedMem, scope: RunScope): Mem | null {
  if (isRunScoped(mem)) return mem.forRun(scope);
  return RUN_BINDERS.get(mem)?.(scope) ?? null;
}

function isRunScoped(mem: Mem | RunScopedMem): mem is RunScopedMem {
  return typeof (mem as Partial<RunScopedMem>).forRun === 'function';
}

export interface MemParts {
  /** The agent's write-set; a new one by default. */
  writeSet?: WriteSet;
  /** The vault's history; without it the git methods say history is unavailable. */
  git?: GitService | null;
  /** The vault's graph and full-text index; without it the graph methods say so. */
  graph?: GraphIndex | null;
  /** Whose run the calls belong to; the agent loop updates `runId` per run. */
  session?: MemSession;
  /** The vaults Recursa has opened on this device (desktop and the command line); null on mobile. */
  vaultRegistry?: VaultRegistry | null;
}

/**
 * Builds `mem` over a vault. Every method validates its arguments, runs, and tags any error with
 * `caller: 'mem.<name>'`; unexpected errors from below become `IoError`s, so what reaches the
 * model is always a `RecursaError` with a code and a plain message.
 */
export function createMem(vault: VaultPort, options: MemOptions, parts: MemParts = {}): MemInstance {
  const context: MemContext = {
    vault,
    options,
    policy: pathPolicyOf(options),
    writeSet: parts.writeSet ?? new WriteSet(vault),
    git: parts.git ?? null,
    graph: parts.graph ?? null,
    session: parts.session ?? { runId: 'manual' },
    vaultRegistry: parts.vaultRegistry ?? null,
  };
  const mem = bindOperations(() => context);
  const forRun = (scope: RunScope): Mem => bindOperations(() => ({ ...context, vault: new RunVault(context.vault, scope), run: scope }));
  RUN_BINDERS.set(mem, forRun);
  return { mem, context, forRun };
}

/** Every operation with its context (`contextOf()` is asked once per call) and its caller tag. */
function bindOperations(contextOf: () => MemContext): Mem {
  const mem: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const name of MEM_METHOD_NAMES) {
    const operation = MEM_OPERATIONS[name] as (ctx: MemContext, ...args: unknown[]) => Promise<unknown>;
    const caller = `mem.${name}`;
    mem[name] = async (...args: unknown[]) => {
      try {
        return await operation(contextOf(), ...args);
      } catch (error) {
        throw tagCaller(error, caller);
      }
    };
  }
  return Object.freeze(mem) as unknown as Mem;
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
