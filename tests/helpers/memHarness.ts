import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { createMem, DEFAULT_MEM_OPTIONS, type Mem, type MemContext, type MemOptions } from '../../src/core/mem';
import type { VaultPort } from '../../src/core/ports';
import { NodeVaultPort } from '../../src/node/NodeVaultPort';
import { ObsidianVaultPort } from '../../src/obsidian/ObsidianVaultPort';
import { createTestApp } from './obsidian/app';
import { makeTempDir } from './tempVault';

/** A way to put a `VaultPort` over a real folder: one per runtime the plugin ships on. */
export interface Runtime {
  name: string;
  open(dir: string): Promise<OpenedRuntime>;
}

export interface OpenedRuntime {
  port: VaultPort;
  dispose: () => Promise<void>;
  /** Lets the runtime notice files put on disk behind its back (Obsidian's file watcher). */
  catchUp?: () => Promise<void>;
}

export const nodeRuntime: Runtime = {
  name: 'node',
  open: async (dir) => {
    const port = await NodeVaultPort.open(dir, { watch: false });
    return { port, dispose: async () => port.close() };
  },
};

export const obsidianRuntime: Runtime = {
  name: 'obsidian',
  open: async (dir) => {
    const app = await createTestApp(dir);
    const port = new ObsidianVaultPort(app);
    return { port, dispose: async () => Promise.resolve(), catchUp: () => app.vault.reconcile() };
  },
};

/**
 * Obsidian desktop: the port finds Electron's `fs` through `window.require`, as in the app, and
 * so sees symbolic links. (`obsidianRuntime` has no `window.require`: the mobile case, no links.)
 */
export const obsidianDesktopRuntime: Runtime = {
  name: 'obsidian desktop',
  open: async (dir) => {
    const app = await createTestApp(dir);
    const scope = globalThis as { window?: unknown };
    const before = scope.window;
    scope.window = { require: createRequire(import.meta.url) };
    try {
      const port = new ObsidianVaultPort(app);
      return { port, dispose: async () => Promise.resolve(), catchUp: () => app.vault.reconcile() };
    } finally {
      scope.window = before;
    }
  },
};

/** The runtimes that have symbolic links (desktop and the command line); mobile has none. */
export const LINK_RUNTIMES: Runtime[] = [nodeRuntime, obsidianDesktopRuntime];

/** Every runtime `mem` ships on; `mem` tests run against each. */
export const RUNTIMES: Runtime[] = [nodeRuntime, obsidianRuntime];

/** A vault in a real temp folder with `mem` over it, rebuilt for every test. */
export interface MemFixture {
  dir: string;
  mem: Mem;
  context: MemContext;
  /** Puts a file straight on disk, as the user or another program would. */
  seed: (path: string, content: string | Uint8Array) => Promise<void>;
  /** Reads a file straight from disk. */
  disk: (path: string) => Promise<string>;
}

export function useMemFixture(runtime: Runtime, options: Partial<MemOptions> = {}): MemFixture {
  const fixture = {} as MemFixture;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    const { dir, remove } = await makeTempDir();
    const { port, dispose, catchUp } = await runtime.open(dir);
    const { mem, context } = createMem(port, { ...DEFAULT_MEM_OPTIONS, ...options });
    Object.assign(fixture, {
      dir,
      mem,
      context,
      seed: async (path: string, content: string | Uint8Array) => {
        await mkdir(dirname(join(dir, path)), { recursive: true });
        await writeFile(join(dir, path), content);
        await catchUp?.();
      },
      disk: (path: string) => readFile(join(dir, path), 'utf8'),
    });
    cleanup = async () => {
      await dispose();
      await remove();
    };
  });
  afterEach(async () => cleanup());
  return fixture;
}
