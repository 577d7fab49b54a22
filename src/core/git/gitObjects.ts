import git from 'isomorphic-git';
import { PakoDeflater } from './pakoDeflate';
import { PackWriter } from './packWriter';
import type { VaultPort } from '../ports';
import type { Slicer } from '../util/Slicer';
import { commitContent, type CommitObject, type Signature } from './commitObjects';
import { createGitFs, GIT_ROOT, uniqueSuffix, type GitFs, type GitFsPromises } from './gitFs';
import type { ObjectWrites } from './objectWrites';
import { hashedObject } from './objectHash';
import { sharedMode, treeContent, type TreeEntry } from './treeObjects';

/** The id git gives an empty tree; it need not exist in the object store. */
export const EMPTY_TREE_OID = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/**
 * Git objects of one repository through the vault port: read by isomorphic-git, whose pack
 * indexes stay in `cache`, shared by every call; hashed, deflated and written here. Loose objects
 * are written beside their final name and moved into place, so a crash never leaves a truncated one.
 */
export class GitObjectStore {
  readonly fs: GitFs;
  /** isomorphic-git's cache (pack indexes), shared by every call on this repository. */
  readonly cache: object = {};

  constructor(
    private readonly vault: VaultPort,
    readonly gitdir = '.git',
    /** Compresses objects as stored (the platform's own zlib where there is one): a push packs with it too. */
    readonly deflate: Deflate = deflateWithPako,
  ) {
    this.fs = createGitFs(vault);
  }

  /**
   * A pack to store many new blobs in at once (a first snapshot), see `PackWriter`; null where
   * the platform has no Web Crypto to checksum it (blobs are then stored loose).
   */
  newPack(slicer?: Slicer): PackWriter | null {
    return typeof crypto !== 'undefined' && typeof crypto.subtle?.digest === 'function' ? new PackWriter(this.vault, this.gitdir, this.deflate, { slicer }) : null;
  }

  async readBlob(oid: string): Promise<Uint8Array> {
    return (await git.readBlob(this.args({ oid }))).blob;
  }

  async readTree(oid: string): Promise<TreeEntry[]> {
    const { tree } = await git.readTree(this.args({ oid }));
    // isomorphic-git pads a tree's mode to six digits; git writes `40000` (`sharedMode` says so).
    return tree.map((entry) => ({ mode: sharedMode(entry.mode), name: entry.path, oid: entry.oid }));
  }

  async readCommit(oid: string): Promise<CommitObject> {
    const { commit } = await git.readCommit(this.args({ oid }));
    return { tree: commit.tree, parents: commit.parent, author: fromPerson(commit.author), committer: fromPerson(commit.committer), message: commit.message };
  }

  /** The commit a tag (or a chain of tags) points at; a commit's own id for a commit. */
  async peelToCommit(oid: string): Promise<string> {
    try {
      return (await git.readCommit(this.args({ oid }))).oid;
    } catch (error) {
      const actual = (error as { code?: unknown; data?: { actual?: unknown } }).data?.actual;
      if ((error as { code?: unknown }).code !== 'ObjectTypeError' || actual !== 'tag') throw error;
      return this.peelToCommit((await git.readTag(this.args({ oid }))).tag.object);
    }
  }

  /** Whether the object is stored (loose or packed). */
  async has(oid: string): Promise<boolean> {
    try {
      return (await git.expandOid(this.args({ oid }))) === oid;
    } catch {
      return false;
    }
  }

  /**
   * Stores a blob; resolves to its id. The deflate is pako's, because isomorphic-git's own (a
   * `CompressionStream` per object) costs about 3.5× as much for note-sized blobs, and a first
   * snapshot stores thousands of them. A blob already stored (a
   * note the agent wrote back unchanged, say) is not compressed again, unless `likelyNew` says
   * the look is not worth it (a first snapshot, where almost every blob is new).
   */
  async writeBlob(content: Uint8Array, likelyNew = false): Promise<string> {
    const { oid, object } = await hashedObject('blob', content);
    await this.storeLoose(oid, object, likelyNew);
    return oid;
  }

  /**
   * Stores a tree of `entries` (in any order: they are put in git's). An empty tree is written too:
   * a commit may name it, and git needs the object then. With `writes`, resolves to its id once
   * hashed, its write started there.
   */
  writeTree(entries: readonly TreeEntry[], writes?: ObjectWrites): Promise<string> {
    return this.writeObject('tree', treeContent(entries), writes);
  }

  /** Stores a commit; with `writes`, resolves to its id once hashed and its write started there. */
  writeCommit(commit: CommitObject, writes?: ObjectWrites): Promise<string> {
    return this.writeObject('commit', new TextEncoder().encode(commitContent(commit)), writes);
  }

  /**
   * Stores a tree or a commit, hashed and deflated here as blobs are: isomorphic-git's own writers
   * deflate through a `CompressionStream`, several tasks and a `Blob` per object.
   */
  private async writeObject(type: 'tree' | 'commit', content: Uint8Array, writes?: ObjectWrites): Promise<string> {
    const { oid, object } = await hashedObject(type, content);
    if (writes === undefined) await this.storeLoose(oid, object, false);
    else await writes.start(() => this.storeLoose(oid, object, false, writes));
    return oid;
  }

  /**
   * Stores `object` (header and content) as the loose object `oid`, unless it is there already.
   * As git does, it is written beside its place and moved there whole, so that a crash never
   * leaves a truncated object that `git fsck` rejects.
   */
  private async storeLoose(oid: string, object: Uint8Array, likelyNew: boolean, writes?: ObjectWrites): Promise<void> {
    const folder = `${this.gitdir}/objects/${oid.slice(0, 2)}`;
    const path = `${folder}/${oid.slice(2)}`;
    if (!likelyNew && (await this.vault.stat(path)) !== null) return;
    await writes?.pace();
    const deflated = this.deflate(object);
    const temporary = `${folder}/tmp_obj_${uniqueSuffix()}`;
    await this.vault.writeBinary(temporary, deflated);
    await this.vault.replace(temporary, path, deflated);
  }

  private get gitdirPath(): string {
    return `/${this.gitdir}`;
  }

  private args<T extends object>(extra: T): T & { fs: { promises: GitFsPromises }; dir: string; gitdir: string; cache: object } {
    return { fs: this.fs, dir: GIT_ROOT, gitdir: this.gitdirPath, cache: this.cache, ...extra };
  }
}

/**
 * Compresses a loose object to zlib's format, as git does by default (`core.looseCompression` 1:
 * best speed). Any conforming zlib will do; where the platform has a native one (Node's `zlib`,
 * Electron's on Obsidian desktop) it is several times faster than pako, which is the default
 * because it runs everywhere, mobile included.
 */
export type Deflate = (bytes: Uint8Array) => Uint8Array;

const pakoDeflater = new PakoDeflater();

/** Compresses a loose object with pako at level 1 (see `PakoDeflater`). */
export function deflateWithPako(bytes: Uint8Array): Uint8Array {
  return pakoDeflater.deflate(bytes);
}

interface Person {
  name: string;
  email: string;
  timestamp: number;
  timezoneOffset: number;
}

// isomorphic-git counts time-zone minutes the way Date#getTimezoneOffset does (west is positive);
// a Signature counts them as git prints them (east is positive).
function fromPerson(person: Person): Signature {
  return { name: person.name, email: person.email, timestamp: person.timestamp, timezoneOffset: -person.timezoneOffset || 0 };
}

