import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { GitService, type GitServiceOptions } from '../../src/core/git/GitService';
import { createMem, DEFAULT_MEM_OPTIONS, WriteSet, type Mem, type MemSession } from '../../src/core/mem';
import type { VaultPort } from '../../src/core/ports';
import type { Runtime } from './memHarness';
import { makeTempDir } from './tempVault';

/** A real folder with `mem` and git over it, for one test. */
export interface GitVault {
  dir: string;
  port: VaultPort;
  git: GitService;
  mem: Mem;
  writeSet: WriteSet;
  session: MemSession;
  /** An edit by the user (through the vault, as Obsidian's editor makes it; not through `mem`). */
  userWrite: (path: string, content: string) => Promise<void>;
  /** Puts a file on disk behind the vault's back (another program, a sync client). */
  seed: (path: string, content: string | Uint8Array) => Promise<void>;
  disk: (path: string) => Promise<string>;
}

export interface GitVaultSetup {
  /** Runs on the empty folder before the vault is opened (seed files, make a repository with the CLI). */
  before?: (dir: string) => Promise<void> | void;
  options?: Partial<GitServiceOptions>;
}

export async function openGitVault(runtime: Runtime, dir: string, options: Partial<GitServiceOptions> = {}): Promise<GitVault & { dispose: () => Promise<void> }> {
  const { port, dispose, catchUp } = await runtime.open(dir);
  const writeSet = new WriteSet(port);
  const git = await GitService.open(port, writeSet, { configDir: '.obsidian', ...options });
  await git.whenSnapshotDone();
  const session = { runId: 'run-test' };
  const { mem } = createMem(port, DEFAULT_MEM_OPTIONS, { writeSet, git, session });
  return {
    dir,
    port,
    git,
    mem,
    writeSet,
    session,
    userWrite: (path, content) => port.write(path, content),
    seed: async (path, content) => {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), content);
      await catchUp?.();
    },
    disk: (path) => readFile(join(dir, path), 'utf8'),
    dispose: async () => {
      git.close();
      await dispose();
    },
  };
}

/** A fresh `GitVault` for each test of the enclosing `describe`. */
export function useGitVault(runtime: Runtime, setup: GitVaultSetup = {}): GitVault {
  const fixture = {} as GitVault;
  let cleanup: () => Promise<void> = () => Promise.resolve();
  beforeEach(async () => {
    const { dir, remove } = await makeTempDir();
    await setup.before?.(dir);
    const opened = await openGitVault(runtime, dir, setup.options);
    Object.assign(fixture, opened);
    cleanup = async () => {
      await opened.dispose();
      await remove();
    };
  });
  afterEach(async () => cleanup());
  return fixture;
}
