import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { GitRepository } from '../../../../src/core/git/repository';
import { commitsBetween, isAncestor, mergeBases } from '../../../../src/core/sync/commitGraph';
import { GIT_ENV } from '../../../helpers/gitCli';
import { seededRandom as rng } from '../../../helpers/seededRandom';
import { useTempDir } from '../../../helpers/tempVault';
import { withRepository as withRepositoryIn } from '../../../helpers/gitRepositoryTask';

/**
 * A random history made with `git commit-tree` in `dir`: branches that commit, fork and merge each
 * other (criss-cross merges included), with committer dates that go backwards now and then (clock
 * skew between devices). Returns every commit.
 */
function randomHistory(dir: string, seed: number, size: number): string[] {
  const random = rng(seed);
  const run = (args: string[], env: Record<string, string> = {}): string => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', env: { ...GIT_ENV, ...env } }).trim();
  run(['init', '-q', '--initial-branch=main']);
  const tree = run(['mktree'], {});
  const commits: string[] = [];
  const tips: string[] = [];
  let time = 1_700_000_000;
  const commit = (parents: string[]): string => {
    time += random() < 0.15 ? -Math.floor(random() * 5000) : Math.floor(random() * 1000) + 1;
    const date = `${time} +0000`;
    const oid = run(['commit-tree', tree, ...parents.flatMap((parent) => ['-p', parent]), '-m', `c${commits.length}`], { GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date });
    commits.push(oid);
    return oid;
  };
  tips.push(commit([]));
  const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  while (commits.length < size) {
    const roll = random();
    if (roll < 0.15) tips.push(commit([pick(commits)]));
    else if (roll < 0.4 && tips.length > 1) {
      const a = Math.floor(random() * tips.length);
      let b = Math.floor(random() * tips.length);
      if (b === a) b = (a + 1) % tips.length;
      tips[a] = commit([tips[a] as string, tips[b] as string]);
    } else {
      const at = Math.floor(random() * tips.length);
      tips[at] = commit([tips[at] as string]);
    }
  }
  run(['update-ref', 'refs/heads/main', tips[0] as string]);
  return commits;
}

describe('commitGraph', () => {
  const temp = useTempDir('recursa-commit-graph-');

  const withRepository = <T>(task: (repo: GitRepository) => Promise<T>): Promise<T> => withRepositoryIn(temp.dir, task);

  const cli = (...args: string[]): string => execFileSync('git', ['-C', temp.dir, ...args], { encoding: 'utf8', env: GIT_ENV });
  const sorted = (items: readonly string[]): string[] => [...items].sort();
  const lines = (text: string): string[] => text.split('\n').filter((line) => line !== '');

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('agrees with git merge-base --all, rev-list and --is-ancestor on random histories (seed %i)', async (seed) => {
    const commits = randomHistory(temp.dir, seed, 40);
    const random = rng(seed * 7919);
    const pairs = Array.from({ length: 25 }, () => [commits[Math.floor(random() * commits.length)] as string, commits[Math.floor(random() * commits.length)] as string] as const);
    await withRepository(async (repo) => {
      for (const [a, b] of pairs) {
        const expectedBases = cli('merge-base', '--all', a, b).trim().split('\n').filter((line) => line !== '');
        expect(sorted(await mergeBases(repo, a, b)), `merge bases of ${a} ${b}`).toEqual(sorted(expectedBases));
        // `git rev-list a ^b` stops early on dates too, and skewed dates can fool it: the exact
        // answer is everything reachable from a less everything reachable from b.
        const fromB = new Set(lines(cli('rev-list', b)));
        const expectedBetween = lines(cli('rev-list', a)).filter((oid) => !fromB.has(oid));
        expect(sorted(await commitsBetween(repo, [a], [b])), `rev-list ${a} ^${b}`).toEqual(sorted(expectedBetween));
        const ancestor = spawnSync('git', ['-C', temp.dir, 'merge-base', '--is-ancestor', a, b], { env: GIT_ENV }).status === 0;
        expect(await isAncestor(repo, a, b)).toBe(ancestor);
      }
    });
  });
});
