import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitUnavailableError, NothingToCommitError } from '../../../../src/core/errors';
import { SNAPSHOT_MESSAGE } from '../../../../src/core/git/GitService';
import { rejectionOf } from '../../../helpers/errors';
import { gitCli } from '../../../helpers/gitCli';
import { useGitVault } from '../../../helpers/gitVault';
import { RUNTIMES } from '../../../helpers/memHarness';

const seedNotes = async (dir: string): Promise<void> => {
  await mkdir(join(dir, 'People'), { recursive: true });
  await writeFile(join(dir, 'People/Ada.md'), '# Ada\n');
  await writeFile(join(dir, 'Inbox.md'), '- call Bob\n');
};

describe.each(RUNTIMES)('GitService commits ($name)', (runtime) => {
  describe('in a vault without a repository', () => {
    const vault = useGitVault(runtime, { before: seedNotes });

    it('commits the existing notes as a snapshot the git CLI accepts', () => {
      expect(gitCli(vault.dir, 'log', '--format=%s').trim()).toBe(SNAPSHOT_MESSAGE);
      expect(gitCli(vault.dir, 'ls-files').trim().split('\n')).toEqual(['.gitignore', 'Inbox.md', 'People/Ada.md']);
      expect(gitCli(vault.dir, 'status', '--porcelain')).toBe('');
      expect(gitCli(vault.dir, 'fsck', '--full', '--strict')).toBe('');
    });

    it('commits exactly the agent write-set, with the run trailer', async () => {
      await vault.mem.writeFile('People/Bob.md', '# Bob\n');
      await vault.mem.replaceInFile('Inbox.md', 'call Bob', 'called Bob');
      await vault.userWrite('People/Ada.md', '# Ada Lovelace\n');
      const hash = await vault.mem.commitChanges('Add Bob and tick the inbox');
      expect(gitCli(vault.dir, 'rev-parse', 'HEAD').trim()).toBe(hash);
      expect(gitCli(vault.dir, 'show', '--name-status', '--format=', hash).trim().split('\n')).toEqual(['M\tInbox.md', 'A\tPeople/Bob.md']);
      expect(gitCli(vault.dir, 'log', '-1', '--format=%(trailers:key=Recursa-Run,valueonly)').trim()).toBe('run-test');
      expect(gitCli(vault.dir, 'log', '-1', '--format=%an <%ae>').trim()).toBe('Recursa <recursa@localhost>');
      expect(gitCli(vault.dir, 'status', '--porcelain')).toBe(' M People/Ada.md\n');
      expect(gitCli(vault.dir, 'fsck', '--full', '--strict')).toBe('');
      expect(await vault.mem.getChangedFiles()).toEqual(['People/Ada.md']);
    });

    it('commits deletions and renames, folders included', async () => {
      await vault.mem.rename('People', 'Contacts');
      await vault.mem.deletePath('Inbox.md');
      await vault.mem.commitChanges('Reorganise');
      expect(gitCli(vault.dir, 'ls-files').trim().split('\n')).toEqual(['.gitignore', 'Contacts/Ada.md']);
      expect(gitCli(vault.dir, 'status', '--porcelain')).toBe('');
    });

    it('answers NothingToCommit instead of making an empty commit', async () => {
      expect(await rejectionOf(() => vault.mem.commitChanges('nothing'), NothingToCommitError)).toMatchObject({ code: 'NothingToCommit' });
      await vault.mem.writeFile('Inbox.md', '- call Bob\n');
      expect(await rejectionOf(() => vault.mem.commitChanges('same content'), NothingToCommitError)).toMatchObject({ code: 'NothingToCommit' });
      expect(gitCli(vault.dir, 'rev-list', '--count', 'HEAD').trim()).toBe('1');
    });

    it('keeps entries the user staged with another tool staged', async () => {
      await writeFile(join(vault.dir, 'Inbox.md'), '- staged by the user\n');
      gitCli(vault.dir, 'add', 'Inbox.md');
      await vault.mem.writeFile('New.md', 'new\n');
      await vault.mem.commitChanges('Add New');
      expect(gitCli(vault.dir, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('New.md');
      expect(gitCli(vault.dir, 'status', '--porcelain')).toBe('M  Inbox.md\n');
    });
  });

  describe('in a repository another tool manages', () => {
    const vault = useGitVault(runtime, {
      before: async (dir) => {
        await seedNotes(dir);
        await writeFile(join(dir, '.gitignore'), 'private/\n');
        gitCli(dir, 'init', '-q', '-b', 'trunk');
        gitCli(dir, 'add', '-A');
        gitCli(dir, 'commit', '-q', '-m', 'User commit');
      },
    });

    it('keeps its branch, history and .gitignore, and adds commits on top', async () => {
      const before = gitCli(vault.dir, 'rev-parse', 'HEAD').trim();
      expect(await vault.disk('.gitignore')).toBe('private/\n');
      await vault.mem.writeFile('People/Ada.md', '# Ada Lovelace\n');
      const hash = await vault.mem.commitChanges('Rename Ada');
      expect(gitCli(vault.dir, 'rev-parse', 'trunk').trim()).toBe(hash);
      expect(gitCli(vault.dir, 'rev-parse', `${hash}^`).trim()).toBe(before);
      expect(gitCli(vault.dir, 'log', '--format=%s').trim().split('\n')).toEqual(['Rename Ada', 'User commit']);
      expect(gitCli(vault.dir, 'status', '--porcelain')).toBe('');
      expect(gitCli(vault.dir, 'fsck', '--full', '--strict')).toBe('');
    });

    it('refuses to commit while a merge or a rebase is under way, naming it, and commits once it is over', async () => {
      const before = gitCli(vault.dir, 'rev-parse', 'HEAD').trim();
      await vault.mem.writeFile('People/Ada.md', '# Ada Lovelace\n');
      await mkdir(join(vault.dir, '.git/rebase-merge'));
      await writeFile(join(vault.dir, '.git/REVERT_HEAD'), `${before}\n`);
      const refused = await rejectionOf(() => vault.mem.commitChanges('Rename Ada'), GitUnavailableError);
      expect(refused.message).toContain('.git/REVERT_HEAD exists');
      await rm(join(vault.dir, '.git/REVERT_HEAD'));
      expect((await rejectionOf(() => vault.mem.commitChanges('Rename Ada'), GitUnavailableError)).message).toContain('.git/rebase-merge exists');
      expect(gitCli(vault.dir, 'rev-parse', 'HEAD').trim()).toBe(before);
      await rm(join(vault.dir, '.git/rebase-merge'), { recursive: true });
      await vault.mem.commitChanges('Rename Ada');
      expect(gitCli(vault.dir, 'log', '-1', '--format=%s').trim()).toBe('Rename Ada');
    });
  });
});

describe('GitService.whenIdle', () => {
  const vault = useGitVault(RUNTIMES[0] as (typeof RUNTIMES)[number], { before: seedNotes });

  it('resolves at once with nothing to do, and only after a commit under way is done', async () => {
    await vault.git.whenIdle();
    await vault.mem.writeFile('Idle.md', 'x\n');
    let committed = false;
    const commit = vault.git.commitAgentChanges('While idle is awaited', 'run-idle').then(() => (committed = true));
    await vault.git.whenIdle();
    expect(committed).toBe(true);
    await commit;
  });
});
