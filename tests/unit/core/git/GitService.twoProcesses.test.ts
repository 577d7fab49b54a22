import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitCli } from '../../../helpers/gitCli';
import { openGitVault } from '../../../helpers/gitVault';
import { RUNTIMES } from '../../../helpers/memHarness';
import { useTempDir } from '../../../helpers/tempVault';

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(RUNTIMES)('two Recursa processes on one repository ($name)', (runtime) => {
  const temp = useTempDir();
  const opened: { dispose: () => Promise<void> }[] = [];
  afterEach(async () => {
    for (const recursa of opened.splice(0)) await recursa.dispose();
  });

  it('keeps the other\'s commit in the index when it commits just as this one puts its index in place', async () => {
    await writeFile(join(temp.dir, 'Seed.md'), '# Seed\n');
    gitCli(temp.dir, 'init', '-q', '-b', 'main');
    gitCli(temp.dir, 'add', '-A');
    gitCli(temp.dir, 'commit', '-q', '-m', 'base');

    // Each as another process would open the vault: its own port, repository and caches.
    const other = await openGitVault(runtime, temp.dir);
    opened.push(other);
    let interleave = false;
    const first = await openGitVault(runtime, temp.dir, {
      onStep: async (step) => {
        if (step !== 'index-moved' || !interleave) return;
        interleave = false;
        // Between this process's move of its index and its look at the file, the other commits,
        // and this process is slow to go on (a loaded machine): longer than any file-time tick.
        await other.mem.writeFile('Other.md', '# Other\n');
        await other.mem.commitChanges('The other process\'s note');
        await pause(250);
      },
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
