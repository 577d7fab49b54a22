import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GitService } from '../../../../src/core/git/GitService';
import type { GitStep } from '../../../../src/core/git/repository';
import { createMem, DEFAULT_MEM_OPTIONS, WriteSet, type Mem } from '../../../../src/core/mem';
import { NodeVaultPort } from '../../../../src/node/NodeVaultPort';
import { gitCli } from '../../../helpers/gitCli';
import { useTempDir } from '../../../helpers/tempVault';

/** A Recursa of its own on the vault, as another process would open it: its own port, repository and caches. */
async function openRecursa(dir: string, onStep?: (step: GitStep) => Promise<void>): Promise<{ mem: Mem; close: () => void }> {
  const port = await NodeVaultPort.open(dir, { watch: false });
  const writeSet = new WriteSet(port);
  const git = await GitService.open(port, writeSet, { configDir: '.obsidian', onStep });
  const { mem } = createMem(port, DEFAULT_MEM_OPTIONS, { writeSet, git, session: { runId: 'two' } });
  return {
    mem,
    close: () => {
      git.close();
      port.close();
    },
  };
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('two Recursa processes on one repository', () => {
  const temp = useTempDir();
  const opened: { close: () => void }[] = [];
  afterEach(() => {
    for (const recursa of opened.splice(0)) recursa.close();
  });

  it('keeps the other\'s commit in the index when it commits just as this one puts its index in place', async () => {
    await writeFile(join(temp.dir, 'Seed.md'), '# Seed\n');
    gitCli(temp.dir, 'init', '-q', '-b', 'main');
    gitCli(temp.dir, 'add', '-A');
    gitCli(temp.dir, 'commit', '-q', '-m', 'base');

    const other = await openRecursa(temp.dir);
    opened.push(other);
    let interleave = false;
    const first = await openRecursa(temp.dir, async (step) => {
      if (step !== 'index-moved' || !interleave) return;
      interleave = false;
      // Between this process's rename of its index and its look at the file, the other commits,
      // and this process is slow to go on (a loaded machine): longer than any file-time tick.
      await other.mem.writeFile('Other.md', '# Other\n');
      await other.mem.commitChanges('The other process\'s note');
      await pause(250);
    });
    opened.push(first);

    await first.mem.writeFile('First.md', '# First\n');
    interleave = true;
    await first.mem.commitChanges('First note');
    expect(interleave, 'the other process committed in between').toBe(false);
    await first.mem.writeFile('Second.md', '# Second\n');
    await first.mem.commitChanges('Second note');

    expect(gitCli(temp.dir, 'log', '--format=%s').trim().split('\n')).toEqual(['Second note', 'The other process\'s note', 'First note', 'base']);
    expect(gitCli(temp.dir, 'ls-files').trim().split('\n')).toEqual(['First.md', 'Other.md', 'Second.md', 'Seed.md']);
    expect(gitCli(temp.dir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  });
});
