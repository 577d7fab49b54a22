import { afterEach, beforeEach } from 'vitest';
import { Sandbox, type SandboxOptions } from '../../src/core/sandbox/Sandbox';
import type { Mem } from '../../src/core/mem';
import { createNodeSandboxWorker } from '../../src/node/nodeSandboxWorker';
import { openVault } from '../../src/node/openVault';
import { makeTempDir } from './tempVault';

/** A vault in a temp folder with a sandbox (real `worker_threads` Worker, real SES) over its `mem`. */
export interface SandboxVault {
  dir: string;
  mem: Mem;
  sandbox: Sandbox;
  /** Workers started so far (a warm run starts none). */
  workersStarted: () => number;
}

export function useSandboxVault(options: SandboxOptions = {}): SandboxVault {
  const fixture = {} as SandboxVault;
  let cleanup: () => Promise<void> = () => Promise.resolve();
  beforeEach(async () => {
    const { dir, remove } = await makeTempDir();
    const opened = await openVault(dir, { watch: false, git: false });
    let started = 0;
    const sandbox = new Sandbox(
      () => {
        started++;
        return createNodeSandboxWorker();
      },
      opened.mem,
      options,
    );
    Object.assign(fixture, { dir, mem: opened.mem, sandbox, workersStarted: () => started });
    cleanup = async () => {
      sandbox.dispose();
      await opened.close();
      await remove();
    };
  });
  afterEach(async () => cleanup());
  return fixture;
}
