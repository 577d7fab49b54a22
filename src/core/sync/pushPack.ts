import git from 'isomorphic-git';
import { GIT_ROOT } from '../git/gitFs';
import type { Deflate } from '../git/gitObjects';
import type { GitRepository } from '../git/repository';
import { assemblePack, packEntry, type PackObjectType } from '../git/packFormat';
import { toHex } from '../git/sha1';
import { sharedMode, TREE_MODE } from '../git/treeObjects';
import { Slicer } from '../util/Slicer';

/**
 * The pack a push sends: what to send (`listPushObjects`) and the pack file of it
 * (`buildPushPack`), in git's pack format version 2 (`Documentation/gitformat-pack.txt`), every
 * object whole (no deltas), so the remote needs nothing but the pack to read it.
 */

type ObjectType = PackObjectType;

/** Objects read at once: file reads overlap the inflating and hashing of those already read. */
const PARALLEL_READS = 16;

/** Commits and trees are read while listing (their content is needed then); blobs only when packed. */
export interface PushObjects {
  read: StoredObject[];
  blobs: string[];
}

interface StoredObject {
  oid: string;
  type: ObjectType;
  content: Uint8Array;
}

interface TreeLine {
  mode: string;
  /** The name's bytes, one character each: exact for any encoding. */
  name: string;
  oid: string;
}

/**
 * What a push of `commits` (the commits the remote lacks, from `commitsBetween(ours, theirs)`)
 * must send: those commits, and every tree and blob they reach that the remote's side does not.
 * The remote's side is `theirs` and each parent of `commits` outside them (ancestors of
 * `theirs`), whose trees the remote has whole. Each new tree is compared with the remote's
 * trees at the same path: an entry whose id is there is skipped with all it reaches; anything
 * else is sent. So nothing the remote lacks is left out, and little it has is sent (a blob moved
 * to another folder, say).
 */
export async function listPushObjects(repo: GitRepository, commits: readonly string[], theirs: string | null, onCount?: (count: number) => void): Promise<PushObjects> {
  const sending = new Set(commits);
  const remoteCommits = new Set<string>(theirs === null ? [] : [theirs]);
  for (const oid of commits) for (const parent of (await repo.readCommit(oid)).parents) if (!sending.has(parent)) remoteCommits.add(parent);
  const remoteRoots = [...new Set(await Promise.all([...remoteCommits].map(async (oid) => (await repo.readCommit(oid)).tree)))];

  const read: StoredObject[] = [];
  const blobs: string[] = [];
  const seen = new Set<string>(remoteRoots);
  const remoteTrees = new Map<string, Promise<TreeLine[]>>();
  const remoteTree = (oid: string): Promise<TreeLine[]> => {
    let lines = remoteTrees.get(oid);
    if (lines === undefined) {
      lines = readObject(repo, oid).then((object) => parseTree(object.content));
      remoteTrees.set(oid, lines);
    }
    return lines;
  };

  let level: { oid: string; remote: string[] }[] = [];
  await inParallel(commits, async (oid) => {
    read.push(await readObject(repo, oid));
    const tree = (await repo.readCommit(oid)).tree;
    if (seen.has(tree)) return;
    seen.add(tree);
    level.push({ oid: tree, remote: remoteRoots });
  });
  onCount?.(read.length);
  // A folder level at a time, so the reads of one level overlap.
  while (level.length > 0) {
    const next: typeof level = [];
    await inParallel(level, async ({ oid, remote }) => {
      const tree = await readObject(repo, oid);
      read.push(tree);
      const theirsHere = (await Promise.all(remote.map(remoteTree))).flat();
      const known = new Set(theirsHere.map((line) => line.oid));
      const subtrees = new Map<string, string[]>();
      for (const line of theirsHere) if (isTree(line.mode)) subtrees.set(line.name, [...(subtrees.get(line.name) ?? []), line.oid]);
      for (const line of parseTree(tree.content)) {
        // A submodule's commit lives in another repository.
        if (line.mode === '160000' || known.has(line.oid) || seen.has(line.oid)) continue;
        seen.add(line.oid);
        if (isTree(line.mode)) next.push({ oid: line.oid, remote: subtrees.get(line.name) ?? [] });
        else blobs.push(line.oid);
      }
    });
    onCount?.(read.length + blobs.length);
    level = next;
  }
  return { read, blobs };
}

/**
 * The pack of `objects`, each deflated by `deflate`; `onProgress` hears how many are packed.
 * Work is cut into slices (see `Slicer`) so the app can show that progress.
 */
export async function buildPushPack(repo: GitRepository, objects: PushObjects, deflate: Deflate, onProgress?: (packed: number, total: number) => void): Promise<Uint8Array> {
  const total = objects.read.length + objects.blobs.length;
  const every = Math.max(1, Math.floor(total / 100));
  const entries: Uint8Array[] = [];
  const slicer = new Slicer();
  const add = async (object: StoredObject): Promise<void> => {
    entries.push(packEntry(object.type, object.content, deflate(object.content)));
    if (entries.length % every === 0 || entries.length === total) onProgress?.(entries.length, total);
    await slicer.maybeYield();
  };
  for (const object of objects.read) await add(object);
  await inParallel(objects.blobs, async (oid) => add({ oid, type: 'blob', content: await repo.store.readBlob(oid) }));

  const { pack } = await assemblePack(entries);
  return pack;
}

/**
 * A commit's or tree's content exactly as stored (without the `type size` header), loose or
 * packed: the store's readers parse them, and a tree written again from its parsed entries need
 * not come out byte for byte the same (modes other tools wrote, say), which would change its id.
 */
async function readObject(repo: GitRepository, oid: string): Promise<StoredObject> {
  // The one command that returns a tree's or commit's stored bytes; isomorphic-git marks it
  // deprecated for being general, and keeps it (lint warns here, knowingly, as in gitObjects).
  const { type, object } = await git.readObject({ fs: repo.store.fs, dir: GIT_ROOT, gitdir: `/${repo.gitdir}`, cache: repo.store.cache, oid, format: 'content' });
  if (type !== 'commit' && type !== 'tree') throw new Error(`object ${oid} is a ${type}, where a commit or a tree was expected`);
  return { oid, type, content: object as Uint8Array };
}

/** A tree's lines: `<mode> <name>\0` and the entry's id in 20 bytes, each. */
export function parseTree(content: Uint8Array): TreeLine[] {
  const lines: TreeLine[] = [];
  let at = 0;
  while (at < content.length) {
    const space = content.indexOf(0x20, at);
    const nul = space < 0 ? -1 : content.indexOf(0, space + 1);
    if (nul < 0 || nul + 21 > content.length) throw new Error('a tree object does not parse');
    lines.push({ mode: latin1(content.subarray(at, space)), name: latin1(content.subarray(space + 1, nul)), oid: toHex(content.subarray(nul + 1, nul + 21)) });
    at = nul + 21;
  }
  return lines;
}

function isTree(mode: string): boolean {
  // Some old tools wrote trees' mode with a leading zero, as isomorphic-git spells it.
  return sharedMode(mode) === TREE_MODE;
}

function latin1(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return text;
}

/** `work` on every item, at most `PARALLEL_READS` at a time. */
async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, items.length) }, worker));
}
