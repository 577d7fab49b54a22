import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, NotFoundError } from '../../../../src/core/errors';
import { rejectionOf } from '../../../helpers/errors';
import { gitCli } from '../../../helpers/gitCli';
import { useGitVault } from '../../../helpers/gitVault';
import { RUNTIMES } from '../../../helpers/memHarness';

/** A history made by the CLI: edits, a rename, a deletion, and a merge of a side branch. */
async function buildHistory(dir: string): Promise<void> {
  const commit = (message: string, date: number) => {
    gitCli(dir, 'add', '-A');
    gitCli(dir, '-c', `user.name=Test User`, 'commit', '-q', '-m', message, `--date=@${date} +0000`);
  };
  const write = async (path: string, text: string) => {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  };
  gitCli(dir, 'init', '-q', '-b', 'main');
  await write('Plan.md', '# Plan\n\nStep one.\n');
  await write('Notes/a.md', 'a\n');
  commit('Start', 1_700_000_000);
  await write('Plan.md', '# Plan\n\nStep one.\nStep two.\n');
  commit('Add step two', 1_700_000_100);
  await write('Notes/b.md', 'b\n');
  commit('Add b', 1_700_000_200);
  gitCli(dir, 'checkout', '-q', '-b', 'side');
  await write('Notes/a.md', 'a from side\n');
  commit('Side edits a', 1_700_000_300);
  gitCli(dir, 'checkout', '-q', 'main');
  await write('Plan.md', '# Plan\n\nStep one.\nStep two.\nStep three.\n');
  commit('Add step three', 1_700_000_400);
  gitCli(dir, '-c', 'user.name=Test User', 'merge', '-q', '--no-edit', 'side');
  await rm(join(dir, 'Notes/b.md'));
  commit('Drop b', 1_700_000_600);
}

const cliLog = (dir: string, ...args: string[]): string[] => {
  const out = gitCli(dir, 'log', '--format=%H', ...args).trim();
  return out === '' ? [] : out.split('\n');
};

describe.each(RUNTIMES)('GitService history ($name)', (runtime) => {
  const vault = useGitVault(runtime, { before: buildHistory });

  describe('gitLog', () => {
    it('lists the same commits as git log, for the repository, files, folders and deleted files', async () => {
      for (const [path, max] of [['', 20], ['', 2], ['Plan.md', 5], ['Plan.md', 1], ['Notes/a.md', 5], ['Notes', 10], ['Notes/b.md', 5], ['Missing.md', 5]] as const) {
        const ours = (await vault.mem.gitLog(path, max)).map((entry) => entry.hash);
        expect(ours, `${path} ${max}`).toEqual(cliLog(vault.dir, '-n', String(max), ...(path === '' ? [] : ['--', path])));
      }
    });

    it('gives message, ISO date, author and run per commit, 5 by default', async () => {
      const log = await vault.mem.gitLog('Plan.md');
      expect(log[0]).toMatchObject({ message: 'Add step three', date: '2023-11-14T22:20:00.000Z', author: 'Test User', run: null });
      expect(await vault.mem.gitLog('')).toHaveLength(5);
      await vault.mem.writeFile('Plan.md', '# Plan\n');
      await vault.mem.commitChanges('Shorten the plan\n\nDetails here.');
      expect((await vault.mem.gitLog('Plan.md', 1))[0]).toMatchObject({ message: 'Shorten the plan\n\nDetails here.', run: 'run-test', author: 'Recursa' });
    });

    it('refuses a bad maxCommits', async () => {
      for (const bad of [0, -1, 1.5, 1000, Number.NaN]) {
        await expect(vault.mem.gitLog('', bad)).rejects.toBeInstanceOf(InvalidArgumentError);
      }
    });
  });

  describe('gitDiff', () => {
    it('prints what git diff prints, between commits and against the working tree', async () => {
      await writeFile(join(vault.dir, 'Plan.md'), '# Plan\n\nStep one, revised.\nStep two.\nStep three.\n');
      await vault.mem.writeFile('Notes/c.md', 'c\n');
      const cases: [string, string?, string?][] = [
        ['Plan.md'],
        ['Plan.md', 'HEAD~3'],
        ['Plan.md', 'HEAD~4', 'HEAD'],
        ['Notes', 'HEAD~4', 'HEAD'],
        ['', 'HEAD~1', 'HEAD'],
        ['Notes/b.md', 'main~1', 'main'],
      ];
      for (const [path, from, to] of cases) {
        const cli = gitCli(vault.dir, 'diff', from ?? 'HEAD', ...(to === undefined ? [] : [to]), '--', ...(path === '' ? [] : [path]));
        expect(await vault.mem.gitDiff(path, from, to), `${path} ${from} ${to}`).toBe(cli);
        expect(cli).not.toBe('');
      }
    });

    it('accepts abbreviated hashes and is empty when nothing differs', async () => {
      const head = gitCli(vault.dir, 'rev-parse', 'HEAD').trim();
      expect(await vault.mem.gitDiff('Plan.md', head.slice(0, 7))).toBe('');
      expect(await vault.mem.gitDiff('Plan.md', head.slice(0, 8), 'HEAD')).toBe('');
    });

    it('refuses unknown and malformed commits', async () => {
      await expect(vault.mem.gitDiff('Plan.md', 'deadbeef')).rejects.toBeInstanceOf(NotFoundError);
      await expect(vault.mem.gitDiff('Plan.md', 'HEAD~40')).rejects.toBeInstanceOf(NotFoundError);
      for (const bad of ['--output=/tmp/x', 'HEAD..main', '../../etc', 'a b', '']) {
        const error = await rejectionOf(() => vault.mem.gitDiff('Plan.md', bad), InvalidArgumentError);
        expect(error.data).toMatchObject({ argument: 'fromCommit' });
      }
    });
  });
});
