import git from 'isomorphic-git';
import pako from 'pako';
import { AlreadyExistsError, isRecursaError } from '../errors';
import type { VaultPort } from '../ports';
import { parseCommit, type CommitObject, type Signature } from './commitObjects';
import { createGitFs, GIT_ROOT, type GitFsPromises } from './gitFs';
import { sha1, toHex } from './sha1';
import { parseTree, TREE_MODE, type TreeEntry } from './treeObjects';

export type GitObjectType = 'blob' | 'tree' | 'commit' | 'tag';

interface GitObject {
  type: GitObjectType;
  content: Uint8Array;
}

/** An id named an object of another type than the caller needs (a blob where a tree was expected, say). */
export class WrongObjectTypeError extends Error {
  constructor(
    readonly oid: string,
    readonly expected: GitObjectType,
    readonly actual: GitObjectType,
  ) {
    super(`git object ${oid} is a ${actual}, not a ${expected}`);
  }
}

/** The id git gives an empty tree; it need not exist in the object store. */
export const EMPTY_TREE_OID = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

const encoder = new TextEncoder();

/** The object id git computes for `content` of `type` (`git hash-object -t type`). */
export async function hashObject(type: GitObjectType, content: Uint8Array): Promise<string> {
  return toHex(await sha1(wrap(type, content)));
}

function wrap(type: GitObjectType, content: Uint8Array): Uint8Array {
  const header = encoder.encode(`${type} ${content.byteLength}\0`);
  const wrapped = new Uint8Array(header.byteLength + content.byteLength);
  wrapped.set(header);
  wrapped.set(content, header.byteLength);
  return wrapped;
}

/**
 * Reads and writes git objects in `.git/objects` through the vault port.
 *
 * Loose objects are read directly (one port call and an inflate); packed ones — a repository
 * another tool has garbage-collected — through isomorphic-git, whose pack indexes stay in `cache`.
 * Reads name the type they expect, and get it or a `WrongObjectTypeError`.
 * Writes are loose objects made the way git makes them: deflated into `tmp_obj_*` beside the
 * final name, then renamed, so a crash never leaves a truncated object (`git fsck` skips
 * `tmp_obj_*` files and `git gc` removes them).
 */
export class GitObjectStore {
  readonly fs: { promises: GitFsPromises };
  /** isomorphic-git's cache (pack indexes), shared by every call on this repository. */
  readonly cache: object = {};
  private tempCounter = 0;

  constructor(
    private readonly vault: VaultPort,
    readonly gitdir = '.git',
  ) {
    this.fs = createGitFs(vault);
  }

  /** A blob's bytes. */
  async readBlob(oid: string): Promise<Uint8Array> {
    const loose = await this.readLoose(oid, 'blob');
    if (loose !== null) return loose;
    return (await git.readBlob(this.packed(oid))).blob;
  }

  async readTree(oid: string): Promise<TreeEntry[]> {
    const loose = await this.readLoose(oid, 'tree');
    if (loose !== null) return parseTree(loose);
    const { tree } = await git.readTree(this.packed(oid));
    // isomorphic-git pads a tree's mode to six digits; git writes `40000`.
    return tree.map((entry) => ({ mode: entry.mode === '040000' ? TREE_MODE : entry.mode, name: entry.path, oid: entry.oid }));
  }

  async readCommit(oid: string): Promise<CommitObject> {
    const loose = await this.readLoose(oid, 'commit');
    if (loose !== null) return parseCommit(loose);
    const { commit } = await git.readCommit(this.packed(oid));
    // isomorphic-git counts time-zone minutes the way Date#getTimezoneOffset does: west is positive.
    const signature = (person: typeof commit.author): Signature => ({ ...person, timezoneOffset: -person.timezoneOffset });
    return { tree: commit.tree, parents: commit.parent, author: signature(commit.author), committer: signature(commit.committer), message: commit.message };
  }

  /** The commit a tag (or a chain of tags) points at; a commit's own id for a commit. */
  async peelToCommit(oid: string): Promise<string> {
    try {
      const tag = await this.readLoose(oid, 'tag');
      if (tag === null) return (await git.readCommit(this.packed(oid))).oid;
      const target = /^object ([0-9a-f]{40})$/m.exec(new TextDecoder().decode(tag))?.[1];
      return target === undefined ? oid : this.peelToCommit(target);
    } catch (error) {
      if (error instanceof WrongObjectTypeError && error.actual === 'commit') return oid;
      throw error;
    }
  }

  /** Whether the object is stored (loose or packed). */
  async has(oid: string): Promise<boolean> {
    if ((await this.vault.stat(this.loosePath(oid))) !== null) return true;
    try {
      return (await git.expandOid(this.packed(oid))) === oid;
    } catch {
      return false;
    }
  }

  private async readLoose(oid: string, expected: GitObjectType): Promise<Uint8Array | null> {
    const deflated = await this.vault.readBinary(this.loosePath(oid)).catch((error: unknown) => {
      if (isRecursaError(error) && error.code === 'NotFound') return null;
      throw error;
    });
    if (deflated === null) return null;
    const object = unwrap(oid, pako.inflate(deflated));
    if (object.type !== expected) throw new WrongObjectTypeError(oid, expected, object.type);
    return object.content;
  }

  private packed(oid: string): { fs: { promises: GitFsPromises }; dir: string; gitdir: string; oid: string; cache: object } {
    return { fs: this.fs, dir: GIT_ROOT, gitdir: `/${this.gitdir}`, oid, cache: this.cache };
  }

  /** Stores the object unless it is there already; resolves to its id. */
  async write(type: GitObjectType, content: Uint8Array): Promise<string> {
    const wrapped = wrap(type, content);
    const oid = toHex(await sha1(wrapped));
    const path = this.loosePath(oid);
    if ((await this.vault.stat(path)) !== null) return oid;
    const temp = `${path.slice(0, path.lastIndexOf('/'))}/tmp_obj_${Date.now().toString(36)}${(this.tempCounter++).toString(36)}`;
    await this.vault.writeBinary(temp, pako.deflate(wrapped));
    try {
      await this.vault.rename(temp, path);
    } catch (error) {
      // Someone stored the same object meanwhile: same id, same bytes.
      if (!(error instanceof AlreadyExistsError)) throw error;
      await this.vault.remove(temp);
    }
    return oid;
  }

  private loosePath(oid: string): string {
    return `${this.gitdir}/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
  }
}

function unwrap(oid: string, wrapped: Uint8Array): GitObject {
  const space = wrapped.indexOf(0x20);
  const nul = wrapped.indexOf(0, space);
  const type = new TextDecoder().decode(wrapped.subarray(0, space));
  const length = Number(new TextDecoder().decode(wrapped.subarray(space + 1, nul)));
  const content = wrapped.subarray(nul + 1);
  if (space < 0 || nul < 0 || content.byteLength !== length || !['blob', 'tree', 'commit', 'tag'].includes(type)) {
    throw new Error(`git object ${oid} is corrupt`);
  }
  return { type: type as GitObjectType, content };
}
