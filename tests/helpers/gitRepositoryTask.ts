import { GitService } from '../../src/core/git/GitService';
import type { GitRepository } from '../../src/core/git/repository';
import { WriteSet } from '../../src/core/mem';
import { NodeVaultPort } from '../../src/node/NodeVaultPort';

/** Runs `task` on the repository in `dir` with the git queue held, then closes everything it opened. */
export async function withRepository<T>(dir: string, task: (repo: GitRepository) => Promise<T>): Promise<T> {
  const port = await NodeVaultPort.open(dir, { watch: false });
  const service = await GitService.open(port, new WriteSet(port), { configDir: '.obsidian', snapshot: false });
  try {
    return await service.runExclusive(task);
  } finally {
    service.close();
    port.close();
  }
}
