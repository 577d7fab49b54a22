import { Buffer } from 'buffer/index.js';
import { isRecursaError } from '../errors';
import type { VaultPort } from '../ports';

/**
 * The file-system client isomorphic-git needs, over the vault port — so git works wherever the
 * port does (Obsidian's adapter on desktop and mobile, Node's fs headless).
 *
 * isomorphic-git's contract (its `docs/fs.md`): promise-returning `readFile, writeFile, unlink,
 * readdir, mkdir, rmdir, stat, lstat` (+ `readlink, symlink`), failing with Node-style `code`s
 * (`ENOENT`, `EEXIST`, `ENOTDIR`, `ENOTEMPTY`). Paths arrive absolute from `GIT_ROOT`.
 *
 * Two traps it avoids: every method is `async` (isomorphic-git takes an fs whose methods throw
 * synchronously for a callback API and hangs), and `stat` reports stable values for every field
 * the index compares (`mode, uid, gid, ino, dev`), which the vault port does not know — left
 * undefined they become NaN and every status re-hashes every file.
 */
export interface GitFsPromises {
  readFile(path: string, options?: string | { encoding?: string }): Promise<Uint8Array | string>;
  writeFile(path: string, data: Uint8Array | string, options?: unknown): Promise<void>;
  unlink(path: string): Promise<void>;
  readdir(path: string): Promise<string[]>;
  mkdir(path: string, options?: unknown): Promise<void>;
  rmdir(path: string): Promise<void>;
  stat(path: string): Promise<GitStat>;
  lstat(path: string): Promise<GitStat>;
  readlink(path: string): Promise<never>;
  symlink(target: string, path: string): Promise<never>;
}

export interface GitStat {
  type: 'file' | 'dir';
  mode: number;
  size: number;
  ino: number;
  dev: number;
  uid: number;
  gid: number;
  mtimeMs: number;
  ctimeMs: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

const NO_PATH: Error = fsError('EINVAL', '(no path)');

/** A loose object's path: `.git/objects/ab/<38 hex digits>`. */
const LOOSE_OBJECT = /(^|\/)objects\/[0-9a-f]{2}\/[0-9a-f]{38}$/;

let tempCounter = 0;

/** Unique within this process, and (by the random part) across processes writing the same repository. */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${(tempCounter++).toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/** The `dir` to give isomorphic-git: the vault root. */
export const GIT_ROOT = '/';

const FILE_MODE = 0o100644;
const FOLDER_MODE = 0o40000;

/** The fs client isomorphic-git is given. */
export interface GitFs {
  promises: GitFsPromises;
}

export function createGitFs(vault: VaultPort): GitFs {
  // isomorphic-git stats the git folder on every command to tell a folder from a `gitdir:` file;
  // once it is known to be a folder it stays one for as long as the repository is open.
  let gitdirFolder: GitStat | null = null;
  const promises: GitFsPromises = {
    async readFile(path, options) {
      // Every isomorphic-git command first calls `readFile()` with no path, to learn that this fs
      // returns promises; answer that with one prepared error rather than a fresh stack each time.
      if (typeof path !== 'string') throw NO_PATH;
      // isomorphic-git reads objects constantly: one port call, its NotFound/WrongKind mapped below.
      const bytes = await vault.readBinary(toVaultPath(path)).catch(rethrowAsFsError(path));
      const encoding = typeof options === 'string' ? options : options?.encoding;
      return encoding === 'utf8' || encoding === 'utf-8' ? new TextDecoder().decode(bytes) : toBuffer(bytes);
    },
    async writeFile(path, data) {
      const vaultPath = toVaultPath(path);
      // isomorphic-git writes loose objects in place; a crash mid-write would leave a truncated
      // object that `git fsck` rejects. Like git, write beside it and move it into place.
      const target = LOOSE_OBJECT.test(vaultPath) ? `${vaultPath.slice(0, vaultPath.lastIndexOf('/'))}/tmp_obj_${uniqueSuffix()}` : vaultPath;
      const write = typeof data === 'string' ? vault.write(target, data) : vault.writeBinary(target, data);
      await write.catch(rethrowAsFsError(path));
      if (target !== vaultPath) await vault.replace(target, vaultPath).catch(rethrowAsFsError(path));
    },
    async unlink(path) {
      const vaultPath = toVaultPath(path);
      await requireKind(vault, vaultPath, 'file');
      await vault.remove(vaultPath).catch(rethrowAsFsError(path));
    },
    async readdir(path) {
      const { files, folders, links } = await vault.list(toVaultPath(path)).catch(rethrowAsFsError(path));
      return [...folders, ...files, ...links].map((child) => child.slice(child.lastIndexOf('/') + 1));
    },
    async mkdir(path) {
      const vaultPath = toVaultPath(path);
      if ((await vault.stat(vaultPath)) !== null) throw fsError('EEXIST', path);
      await vault.mkdir(vaultPath).catch(rethrowAsFsError(path));
    },
    async rmdir(path) {
      const vaultPath = toVaultPath(path);
      await requireKind(vault, vaultPath, 'folder');
      const { files, folders } = await vault.list(vaultPath).catch(rethrowAsFsError(path));
      // The port removes folders recursively; git only ever means an empty one.
      if (files.length + folders.length > 0) throw fsError('ENOTEMPTY', path);
      await vault.remove(vaultPath).catch(rethrowAsFsError(path));
    },
    async stat(path) {
      const vaultPath = toVaultPath(path);
      if (vaultPath === '.git' && gitdirFolder !== null) return gitdirFolder;
      const info = await vault.stat(vaultPath);
      if (info === null) throw fsError('ENOENT', path);
      const isFile = info.kind === 'file';
      const stat: GitStat = {
        type: isFile ? 'file' : 'dir',
        mode: isFile ? FILE_MODE : FOLDER_MODE,
        size: info.size,
        ino: 0,
        dev: 0,
        uid: 0,
        gid: 0,
        mtimeMs: info.mtime,
        ctimeMs: info.ctime,
        isFile: () => isFile,
        isDirectory: () => !isFile,
        isSymbolicLink: () => false,
      };
      if (vaultPath === '.git' && !isFile) gitdirFolder = stat;
      return stat;
    },
    async lstat(path) {
      return promises.stat(path);
    },
    async readlink(path) {
      throw fsError('ENOENT', path);
    },
    async symlink(_target, path) {
      throw fsError('ENOSYS', path);
    },
  };
  return { promises };
}

/** `/notes/a.md` → `notes/a.md`; `/` → `` (the vault root). */
export function toVaultPath(path: string): string {
  // The usual shape, `/a/b`, in one step.
  const dotSegment = path.charCodeAt(1) === 46 && (path.length === 2 || path.charCodeAt(2) === 47);
  if (path.charCodeAt(0) === 47 && path.charCodeAt(1) !== 47 && !dotSegment && path.charCodeAt(path.length - 1) !== 47) return path.slice(1);
  let start = 0;
  while (path[start] === '/') start++;
  let end = path.length;
  while (end > start && path[end - 1] === '/') end--;
  const trimmed = path.slice(start, end);
  return trimmed === '.' ? '' : trimmed.startsWith('./') ? trimmed.slice(2) : trimmed;
}

async function requireKind(vault: VaultPort, path: string, kind: 'file' | 'folder'): Promise<void> {
  const info = await vault.stat(path);
  if (info === null) throw fsError('ENOENT', `/${path}`);
  if (info.kind !== kind) throw fsError(kind === 'file' ? 'EISDIR' : 'ENOTDIR', `/${path}`);
}

function fsError(code: string, path: string): Error {
  // isomorphic-git asks about missing files all the time (does this object exist yet?) and only
  // reads `code`: a stack trace per answer would cost more than the question.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return Object.assign(new Error(`${code}: ${path}`), { code, path });
  } finally {
    Error.stackTraceLimit = limit;
  }
}

function rethrowAsFsError(path: string): (error: unknown) => never {
  return (error: unknown) => {
    if (isRecursaError(error) && error.code === 'NotFound') throw fsError('ENOENT', path);
    if (isRecursaError(error) && error.code === 'WrongKind') {
      throw fsError(error.data.expected === 'file' ? 'EISDIR' : 'ENOTDIR', path);
    }
    throw error;
  };
}

/**
 * isomorphic-git calls Buffer methods on what it reads; hand it a Buffer view of the same bytes.
 * The npm polyfill (`buffer/`, the same one the plugin build injects) keeps core free of Node.
 */
function toBuffer(bytes: Uint8Array): Uint8Array {
  // Ports hand out views of ordinary ArrayBuffers; wrapping (not copying) keeps large objects cheap.
  return Buffer.from(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
}
