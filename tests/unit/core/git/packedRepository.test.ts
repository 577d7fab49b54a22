import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitCli } from '../../../helpers/gitCli';
import { useGitVault } from '../../../helpers/gitVault';
import { RUNTIMES } from '../../../helpers/memHarness';

/** A repository after `git gc`: every object in a pack, every ref in packed-refs, a tag. */
async function packedHistory(dir: string): Promise<void> {
  gitCli(dir, 'init', '-q', '-b', 'main');
  await mkdir(join(dir, 'Notes'));
  for (let i = 1; i <= 3; i++) {
    await writeFile(join(dir, 'Notes/plan.md'), `# Plan\n\n${'- step\n'.repeat(i)}`);
    gitCli(dir, 'add', '-A');
    gitCli(dir, 'commit', '-q', '-m', `Plan v${i}`);
  }
  gitCli(dir, 'tag', '-a', 'v1', '-m', 'first release', 'HEAD~1');
  gitCli(dir, 'gc', '-q', '--aggressive');
}

describe.each(RUNTIMES)('a repository whose objects and refs are packed ($name)', (runtime) => {
  const vault = useGitVault(runtime, { before: packedHistory });

  it('is read and extended like any other', async () => {
    expect(gitCli(vault.dir, 'count-objects', '-v')).toMatch(/^count: 0$/m);
    const log = await vault.mem.gitLog('Notes/plan.md', 10);
    expect(log.map((entry) => entry.message)).toEqual(['Plan v3', 'Plan v2', 'Plan v1']);
    expect(await vault.mem.gitDiff('Notes/plan.md', 'v1', 'HEAD')).toBe(gitCli(vault.dir, 'diff', 'v1', 'HEAD', '--', 'Notes/plan.md'));
    expect(await vault.mem.getChangedFiles()).toEqual([]);
    await vault.mem.replaceInFile('Notes/plan.md', '# Plan', '# The plan');
    const hash = await vault.mem.commitChanges('Retitle the plan');
    expect(gitCli(vault.dir, 'rev-parse', 'main').trim()).toBe(hash);
    expect(gitCli(vault.dir, 'status', '--porcelain')).toBe('');
    expect(gitCli(vault.dir, 'fsck', '--full', '--strict')).toBe('');
    await vault.git.revertCommit(hash, 'undo');
    expect(await vault.disk('Notes/plan.md')).toMatch(/^# Plan\n/);
  });
});
