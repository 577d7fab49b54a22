import { describe, expect, it } from 'vitest';
import type { AgentCommit } from '../../../../src/core/git/agentHistory';
import { commitDiff, diffLines, formatCommitTime, loadHistory, revertAgentCommit, revertedHashes } from '../../../../src/obsidian/history/historyModel';
import { gitCli } from '../../../helpers/gitCli';
import { useGitVault } from '../../../helpers/gitVault';
import { nodeRuntime } from '../../../helpers/memHarness';

describe('diffLines', () => {
  it('classifies file headers, metadata, hunks, added, removed and context lines', () => {
    const diff = [
      'diff --git a/a.md b/a.md',
      'index 1111111..2222222 100644',
      '--- a/a.md',
      '+++ b/a.md',
      '@@ -1,3 +1,3 @@',
      ' keep',
      '-old',
      '+new',
      '--- a line that starts like a header',
      '\\ No newline at end of file',
      'diff --git a/b.md b/b.md',
      'new file mode 100644',
      '',
    ].join('\n');
    expect(diffLines(diff).map((line) => line.kind)).toEqual(['file', 'meta', 'meta', 'meta', 'hunk', 'context', 'removed', 'added', 'removed', 'meta', 'file', 'meta']);
    expect(diffLines('')).toEqual([]);
  });
});

describe('revertedHashes', () => {
  it('finds the commits a revert in the list undid', () => {
    const hash = 'a'.repeat(40);
    const commits = [{ message: `Revert "x"\n\nThis reverts commit ${hash}.` }, { message: 'x' }] as AgentCommit[];
    expect([...revertedHashes(commits)]).toEqual([hash]);
    expect(revertedHashes([{ message: 'This reverts commit abc.' }] as AgentCommit[]).size).toBe(0);
  });
});

describe('formatCommitTime', () => {
  const now = new Date(2026, 2, 10, 15, 30);
  it('says today and yesterday, else the date, in local time', () => {
    expect(formatCommitTime(new Date(2026, 2, 10, 9, 5).getTime(), now)).toBe('Today 09:05');
    expect(formatCommitTime(new Date(2026, 2, 9, 23, 59).getTime(), now)).toBe('Yesterday 23:59');
    expect(formatCommitTime(new Date(2026, 1, 28, 7, 0).getTime(), now)).toBe('2026-02-28 07:00');
  });
});

describe('history over a real repository', () => {
  const vault = useGitVault(nodeRuntime);

  it('lists, diffs and reverts the agent\'s commit, and the git CLI agrees', async () => {
    await vault.mem.writeFile('Plan.md', '# Plan\n\n- one\n');
    const hash = await vault.mem.commitChanges('Start the plan');
    const history = await loadHistory(vault.git);
    expect(history.commits.map((commit) => commit.hash)).toEqual([hash]);
    const commit = history.commits[0] as AgentCommit;
    const diff = await commitDiff(vault.git, commit);
    const cli = commit.parent === null ? gitCli(vault.dir, 'show', '--format=', hash) : gitCli(vault.dir, 'diff', commit.parent, hash);
    expect(diff).toBe(cli);
    expect(diffLines(diff).filter((line) => line.kind === 'added').map((line) => line.text)).toEqual(['+# Plan', '+', '+- one']);

    const outcome = await revertAgentCommit(vault.git, hash, 'revert-from-history');
    expect(outcome.ok).toBe(true);
    expect(gitCli(vault.dir, 'ls-files', 'Plan.md').trim()).toBe('');
    expect(gitCli(vault.dir, 'log', '-1', '--format=%B').trim()).toBe(`Revert "Start the plan"\n\nThis reverts commit ${hash}.\n\nRecursa-Run: revert-from-history`);
    const after = await loadHistory(vault.git);
    expect([...revertedHashes(after.commits)]).toEqual([hash]);
  });

  it('reports a refused revert as a message, with nothing changed', async () => {
    await vault.mem.writeFile('Plan.md', 'one\n');
    const hash = await vault.mem.commitChanges('Write');
    await vault.userWrite('Plan.md', 'one\nmine\n');
    const head = gitCli(vault.dir, 'rev-parse', 'HEAD').trim();
    const outcome = await revertAgentCommit(vault.git, hash, 'r');
    expect(outcome).toMatchObject({ ok: false, code: 'RevertConflict' });
    expect(!outcome.ok && outcome.message).toContain('Nothing was changed');
    expect(gitCli(vault.dir, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(await vault.disk('Plan.md')).toBe('one\nmine\n');
    expect(await revertAgentCommit(vault.git, 'not a hash!', 'r')).toMatchObject({ ok: false, code: 'InvalidArgument' });
  });
});
