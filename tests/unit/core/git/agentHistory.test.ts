import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentHistory } from '../../../../src/core/git/agentHistory';
import { gitCli } from '../../../helpers/gitCli';
import { useGitVault } from '../../../helpers/gitVault';
import { RUNTIMES } from '../../../helpers/memHarness';

/** A local date at `hour` on `day` days from 2026-03-10. */
const at = (day: number, hour: number): Date => new Date(2026, 2, 10 + day, hour, 0, 0);

describe.each(RUNTIMES)('agentHistory ($name)', (runtime) => {
  const clock = { now: at(0, 9) };
  const vault = useGitVault(runtime, { options: { now: () => clock.now } });

  /** The agent writes `files` and commits them at `when`. */
  const agentCommit = async (when: Date, message: string, files: Record<string, string>): Promise<string> => {
    clock.now = when;
    for (const [path, text] of Object.entries(files)) await vault.mem.writeFile(path, text);
    return vault.mem.commitChanges(message);
  };
  /** The user commits with the git CLI at `when`. */
  const userCommit = async (when: Date, message: string, files: Record<string, string>): Promise<void> => {
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(vault.dir, path)), { recursive: true });
      await writeFile(join(vault.dir, path), text);
    }
    gitCli(vault.dir, 'add', '-A');
    const date = `@${Math.floor(when.getTime() / 1000)} +0000`;
    gitCli(vault.dir, '-c', 'user.name=Test User', '-c', 'user.email=u@example.com', 'commit', '-q', '-m', message, `--date=${date}`);
    // The CLI's committer date must follow the clock too, as git orders by it.
    gitCli(vault.dir, 'commit', '-q', '--amend', '--no-edit', `--date=${date}`);
  };
  const cliAgentCommits = (): string[] =>
    gitCli(vault.dir, 'log', '--format=%H', '--grep=^Recursa-Run: ').trim().split('\n').filter((line) => line !== '');

  it('lists only the agent\'s commits, newest first, as git log finds them by their trailer', async () => {
    const first = await agentCommit(at(-1, 22), 'Create the plan\n\nWith two steps.', { 'Plan.md': '# Plan\n', 'Notes/a.md': 'a\n' });
    await userCommit(at(-1, 23), 'My own edit', { 'Mine.md': 'mine\n' });
    const second = await agentCommit(at(0, 8), 'Add a step', { 'Plan.md': '# Plan\n\n- step\n' });
    const history = await agentHistory(vault.git.repo, { now: at(0, 9) });
    expect(history.commits.map((commit) => commit.hash)).toEqual(cliAgentCommits());
    expect(history.commits.map((commit) => commit.hash)).toEqual([second, first]);
    expect(history.commits[1]).toEqual({
      hash: first,
      message: 'Create the plan\n\nWith two steps.',
      subject: 'Create the plan',
      run: 'run-test',
      parent: gitCli(vault.dir, 'rev-parse', `${first}^`).trim(),
      time: at(-1, 22).getTime(),
      author: 'Recursa',
      files: ['Notes/a.md', 'Plan.md'],
    });
    for (const commit of history.commits) {
      const cliFiles = gitCli(vault.dir, 'show', '--format=', '--name-only', commit.hash).trim().split('\n');
      expect(commit.files).toEqual(cliFiles);
    }
  });

  it('counts the agent\'s commits since local midnight', async () => {
    await agentCommit(at(-1, 23), 'Yesterday', { 'a.md': '1\n' });
    await agentCommit(at(0, 0), 'Just after midnight', { 'a.md': '2\n' });
    await userCommit(at(0, 1), 'User today', { 'b.md': 'b\n' });
    await agentCommit(at(0, 10), 'Morning', { 'a.md': '3\n' });
    expect((await agentHistory(vault.git.repo, { now: at(0, 12) })).today).toBe(2);
    expect((await agentHistory(vault.git.repo, { now: at(1, 12) })).today).toBe(0);
    expect((await agentHistory(vault.git.repo, { now: at(0, 12), max: 0 })).commits).toEqual([]);
    expect((await agentHistory(vault.git.repo, { now: at(0, 12), max: 0 })).today).toBe(2);
  });

  it('includes reverts, which are the agent\'s commits too', async () => {
    const hash = await agentCommit(at(0, 8), 'Write a', { 'a.md': 'a\n' });
    clock.now = at(0, 9);
    const revert = await vault.mem.revertCommit(hash);
    const history = await agentHistory(vault.git.repo, { now: at(0, 10) });
    expect(history.commits.map((commit) => [commit.hash, commit.subject, commit.files])).toEqual([
      [revert, 'Revert "Write a"', ['a.md']],
      [hash, 'Write a', ['a.md']],
    ]);
    expect(history.today).toBe(2);
  });

  it('stops at max, and says when it stopped looking before the end', async () => {
    for (let i = 0; i < 4; i++) await agentCommit(at(0, 8 + i), `Step ${i}`, { 'a.md': `${i}\n` });
    const two = await agentHistory(vault.git.repo, { now: at(0, 20), max: 2 });
    expect(two.commits.map((commit) => commit.subject)).toEqual(['Step 3', 'Step 2']);
    expect(two.today).toBe(4);
    expect(two.truncated).toBe(false);
    const cut = await agentHistory(vault.git.repo, { now: at(0, 20), maxScanned: 3 });
    expect(cut.commits).toHaveLength(3);
    expect(cut.truncated).toBe(true);
  });

  it('is empty in a repository without commits by the agent, or without commits at all', async () => {
    expect(await agentHistory(vault.git.repo)).toEqual({ commits: [], today: 0, truncated: false });
    await userCommit(at(0, 8), 'User only', { 'u.md': 'u\n' });
    expect(await agentHistory(vault.git.repo, { now: at(0, 9) })).toEqual({ commits: [], today: 0, truncated: false });
  });
});
