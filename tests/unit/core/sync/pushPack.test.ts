import { execFileSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deflateWithPako } from '../../../../src/core/git/gitObjects';
import type { GitRepository } from '../../../../src/core/git/repository';
import { commitsBetween } from '../../../../src/core/sync/commitGraph';
import { buildPushPack, listPushObjects } from '../../../../src/core/sync/pushPack';
import { GIT_ENV } from '../../../helpers/gitCli';
import { seededRandom as rng } from '../../../helpers/seededRandom';
import { useTempDir } from '../../../helpers/tempVault';
import { withRepository as withRepositoryIn } from '../../../helpers/gitRepositoryTask';

describe('pushPack', () => {
  const temp = useTempDir('recursa-push-pack-');
  const cli = (...args: string[]): string => execFileSync('git', ['-C', temp.dir, ...args], { encoding: 'utf8', env: GIT_ENV }).trim();
  const objectsOf = (...revisions: string[]): string[] => cli('rev-list', '--objects', ...revisions).split('\n').filter((line) => line !== '').map((line) => line.slice(0, 40));

  const withRepository = <T>(task: (repo: GitRepository) => Promise<T>): Promise<T> => withRepositoryIn(temp.dir, task);

  async function listed(ours: string, theirs: string | null): Promise<string[]> {
    return withRepository(async (repo) => {
      const objects = await listPushObjects(repo, await commitsBetween(repo, [ours], [theirs]), theirs);
      return [...objects.read.map((object) => object.oid), ...objects.blobs];
    });
  }

  async function put(files: Record<string, string | null>): Promise<void> {
    for (const [path, content] of Object.entries(files)) {
      if (content === null) await rm(join(temp.dir, path), { force: true });
      else {
        await mkdir(dirname(join(temp.dir, path)), { recursive: true });
        await writeFile(join(temp.dir, path), content);
      }
    }
  }

  async function commit(files: Record<string, string | null>, message: string): Promise<string> {
    await put(files);
    cli('add', '-A');
    cli('commit', '-q', '--allow-empty', '-m', message);
    return cli('rev-parse', 'HEAD');
  }

  it('lists everything for a remote without the branch, and the pack holds exactly that, valid for git', async () => {
    cli('init', '-q', '--initial-branch=main');
    await commit({ 'a.md': 'a\n', 'Folder/b.md': 'b\n', 'Folder/Deep/c.md': 'c\n', 'empty.md': '' }, 'one');
    const ours = await commit({ 'a.md': 'a2\n', 'Other/b.md': 'b\n' }, 'two');
    const sent = await listed(ours, null);
    expect([...sent].sort()).toEqual(objectsOf(ours).sort());

    const pack = await withRepository(async (repo) => buildPushPack(repo, await listPushObjects(repo, await commitsBetween(repo, [ours], [null]), null), deflateWithPako));
    const file = join(temp.dir, '.git', 'sent.pack');
    await writeFile(file, pack);
    cli('index-pack', '-o', join(temp.dir, '.git', 'sent.idx'), file);
    const inPack = cli('verify-pack', '-v', join(temp.dir, '.git', 'sent.idx')).split('\n').filter((line) => /^[0-9a-f]{40} /.test(line)).map((line) => line.slice(0, 40));
    expect(inPack.sort()).toEqual([...sent].sort());
  });

  it('lists only what is new for a fast-forward', async () => {
    cli('init', '-q', '--initial-branch=main');
    const theirs = await commit({ 'a.md': 'a\n', 'Folder/b.md': 'b\n', 'Folder/Deep/c.md': 'c\n' }, 'one');
    await commit({ 'Folder/Deep/c.md': 'c2\n' }, 'two');
    const ours = await commit({ 'Folder/Deep/c.md': 'c3\n', 'Folder/renamed.md': 'b\n', 'Folder/b.md': null }, 'three');
    expect((await listed(ours, theirs)).sort()).toEqual(objectsOf(ours, `^${theirs}`).sort());
  });

  it('never leaves out what the remote lacks, on random histories with merges, moves and deletions', async () => {
    for (const seed of [1, 2, 3]) {
      await rm(temp.dir, { recursive: true, force: true });
      await mkdir(temp.dir);
      cli('init', '-q', '--initial-branch=main');
      const random = rng(seed);
      const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
      const folders = ['', 'A/', 'A/B/', 'C/'];
      const paths = new Set<string>();
      const commits = [await commit({ 'seed.md': `seed ${seed}\n` }, 'seed')];
      for (let i = 0; i < 14; i++) {
        if (i % 5 === 4) {
          // A side branch from an older commit, merged back.
          cli('checkout', '-q', '-b', `side${i}`, pick(commits));
          await commit({ [`${pick(folders)}side${i}.md`]: `side ${i}\n` }, `side ${i}`);
          cli('checkout', '-q', 'main');
          cli('merge', '-q', '--no-edit', '-X', 'theirs', `side${i}`);
          commits.push(cli('rev-parse', 'HEAD'));
          for (const path of cli('ls-files').split('\n')) paths.add(path);
          continue;
        }
        const changes: Record<string, string | null> = {};
        for (let n = 0; n < 3; n++) {
          const roll = random();
          const existing = [...paths];
          if (roll < 0.4 || existing.length === 0) {
            const path = `${pick(folders)}n${Math.floor(random() * 20)}.md`;
            changes[path] = `note ${i} ${n}\n`;
            paths.add(path);
          } else if (roll < 0.6) {
            const path = pick(existing);
            changes[path] = null;
            paths.delete(path);
          } else if (roll < 0.8) {
            // A move: the same content under another folder.
            const from = pick(existing);
            const to = `${pick(folders)}moved${i}${n}.md`;
            changes[to] = `moved ${from}\n`;
            changes[from] = null;
            paths.delete(from);
            paths.add(to);
          } else changes[pick(existing)] = `edited ${i} ${n}\n`;
        }
        commits.push(await commit(changes, `c${i}`));
      }
      const ours = commits.at(-1) as string;
      for (const theirs of [commits[0] as string, commits[5] as string, commits[9] as string, commits.at(-2) as string]) {
        const sent = new Set(await listed(ours, theirs));
        const needed = objectsOf(ours, `^${theirs}`);
        expect(needed.filter((oid) => !sent.has(oid)), `seed ${seed}, theirs ${theirs}`).toEqual([]);
        const reachable = new Set(objectsOf(ours));
        expect([...sent].filter((oid) => !reachable.has(oid))).toEqual([]);
      }
    }
  });
});
