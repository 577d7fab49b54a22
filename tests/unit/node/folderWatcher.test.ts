import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchFolderTree, type FolderWatcher, type WatchEvent } from '../../../src/node/folderWatcher';
import { makeTempDir } from '../../helpers/tempVault';

async function eventually(predicate: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error(`not seen in time: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 150));

describe('watchFolderTree', () => {
  let dir: string;
  let removeDir: () => Promise<void>;
  let watcher: FolderWatcher;
  let events: { event: WatchEvent; path: string }[];
  let errors: number;

  const seen = (path: string): boolean => events.some((entry) => entry.path === path);
  const start = async (): Promise<void> => {
    events = [];
    errors = 0;
    watcher = watchFolderTree(dir, {
      ignore: (path) => path === '.git' || path.startsWith('.git/'),
      onEvent: (event, path) => events.push({ event, path }),
      onError: () => (errors += 1),
    });
    // The folders present at the start are taken in asynchronously.
    await settle();
  };

  beforeEach(async () => {
    ({ dir, remove: removeDir } = await makeTempDir());
    await mkdir(join(dir, '.git', 'objects'), { recursive: true });
    await mkdir(join(dir, 'Projects', 'Deep'), { recursive: true });
  });

  afterEach(async () => {
    watcher.close();
    await removeDir();
  });

  it('reports changes in folders that existed when it started, at any depth, with / paths', async () => {
    await start();
    await writeFile(join(dir, 'Projects', 'Deep', 'plan.md'), 'one');
    await eventually(() => seen('Projects/Deep/plan.md'), 'a new file two folders down');
    events = [];
    await writeFile(join(dir, 'Projects', 'Deep', 'plan.md'), 'two');
    await eventually(() => events.some((entry) => entry.path === 'Projects/Deep/plan.md' && entry.event === 'change'), 'a change of content');
  });

  it('takes in a folder made after it started, and reports the files already in it', async () => {
    await start();
    // Made and filled at once: the file may exist before the new folder is watched.
    await mkdir(join(dir, 'Later', 'Inner'), { recursive: true });
    await writeFile(join(dir, 'Later', 'Inner', 'early.md'), 'x');
    await eventually(() => seen('Later/Inner/early.md'), 'a file written as its folder appeared');
    await settle();
    events = [];
    await writeFile(join(dir, 'Later', 'Inner', 'late.md'), 'y');
    await eventually(() => seen('Later/Inner/late.md'), 'a file written once the new folder was watched');
  });

  it('follows a folder renamed inside the tree under its new name', async () => {
    await writeFile(join(dir, 'Projects', 'Deep', 'a.md'), 'a');
    await start();
    await rename(join(dir, 'Projects'), join(dir, 'Work'));
    await eventually(() => seen('Work/Deep/a.md'), 'the moved file under its new path');
    await settle();
    events = [];
    await writeFile(join(dir, 'Work', 'Deep', 'b.md'), 'b');
    await eventually(() => seen('Work/Deep/b.md'), 'a new file in the moved folder');
    expect(events.some((entry) => entry.path.startsWith('Projects/'))).toBe(false);
  });

  it('reports the files of a removed folder as gone, and goes on watching the rest', async () => {
    await writeFile(join(dir, 'Projects', 'Deep', 'a.md'), 'a');
    await start();
    await rm(join(dir, 'Projects'), { recursive: true });
    await eventually(() => seen('Projects/Deep/a.md') && seen('Projects'), 'the removed file and folder');
    await writeFile(join(dir, 'after.md'), 'x');
    await eventually(() => seen('after.md'), 'a file written after the removal');
    expect(errors).toBe(0);
  });

  it('never reports, nor watches into, an ignored folder', async () => {
    await start();
    await writeFile(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await mkdir(join(dir, '.git', 'refs', 'heads'), { recursive: true });
    await writeFile(join(dir, '.git', 'refs', 'heads', 'main'), '0'.repeat(40));
    await writeFile(join(dir, 'marker.md'), 'x');
    await eventually(() => seen('marker.md'), 'a file outside the ignored folder');
    await settle();
    expect(events.filter((entry) => entry.path.startsWith('.git'))).toEqual([]);
  });

  it('stops reporting once closed', async () => {
    await start();
    watcher.close();
    await writeFile(join(dir, 'Projects', 'closed.md'), 'x');
    await settle();
    expect(events).toEqual([]);
  });
});
