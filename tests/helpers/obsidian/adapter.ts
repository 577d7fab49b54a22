import type * as Obsidian from 'obsidian';
import { hostFs } from './hostFs';
import { KeyedMutex } from '../../../src/core/util/KeyedMutex';
import { childPath, isRootPath, lastSegment, parentPath } from './paths';
import { Platform } from './platform';
import { isMissingPathError } from '../../../src/core/errors';

/** The folder Obsidian's local trash uses, at the vault root. */
export const LOCAL_TRASH_FOLDER = '.trash';

/**
 * Obsidian's desktop `FileSystemAdapter` over a real folder, with Node's `fs/promises`.
 *
 * Like Obsidian's adapter it works on disk only: it does not update the vault index or fire vault
 * events (in Obsidian the file watcher catches up later; here `Vault.reconcile()` does). Failures
 * are Node's own errors (`ENOENT`, `EISDIR`, …), as on desktop. Deliberately strict where Obsidian
 * is vague, so callers that lean on lenient behaviour fail here first:
 * - `write`/`writeBinary`/`rename`/`copy` do not create missing parent folders;
 * - `rename` and `copy` refuse an existing destination;
 * - `writeBinary` accepts only an `ArrayBuffer` (not a view, which would write its whole buffer);
 * - `trashSystem` always reports that the system trash is unavailable.
 */
export class FileSystemAdapter implements Obsidian.FileSystemAdapter {
  private readonly basePath: string;
  private readonly locks = new KeyedMutex();

  constructor(basePath: string) {
    this.basePath = hostFs.resolve(basePath);
  }

  getName(): string {
    return hostFs.basename(this.basePath);
  }

  getBasePath(): string {
    return this.basePath;
  }

  getFullPath(normalizedPath: string): string {
    if (isRootPath(normalizedPath)) return this.basePath;
    const full = hostFs.resolve(this.basePath, ...normalizedPath.split('/'));
    if (!full.startsWith(this.basePath + hostFs.sep)) throw new Error(`Path outside the vault: ${normalizedPath}`);
    return full;
  }

  getFilePath(normalizedPath: string): string {
    return hostFs.fileUrl(this.getFullPath(normalizedPath));
  }

  getResourcePath(normalizedPath: string): string {
    return `${Platform.resourcePathPrefix}${new URL(hostFs.fileUrl(this.getFullPath(normalizedPath))).pathname}`;
  }

  async exists(normalizedPath: string, sensitive?: boolean): Promise<boolean> {
    if ((await this.stat(normalizedPath)) === null) return false;
    if (sensitive !== true || isRootPath(normalizedPath)) return true;
    // A case-insensitive file system finds `Note.md` at `note.md`; check each name as stored.
    const names = (await hostFs.readdir(this.getFullPath(parentPath(normalizedPath)))).map((entry) => entry.name);
    return names.includes(lastSegment(normalizedPath)) && this.exists(parentPath(normalizedPath), true);
  }

  async stat(normalizedPath: string): Promise<Obsidian.Stat | null> {
    try {
      const info = await hostFs.stat(this.getFullPath(normalizedPath));
      return {
        type: info.isDirectory ? 'folder' : 'file',
        ctime: Math.round(info.birthtimeMs > 0 ? info.birthtimeMs : info.ctimeMs),
        mtime: Math.round(info.mtimeMs),
        size: info.size,
      };
    } catch (error) {
      if (isMissingPathError(error)) return null;
      throw error;
    }
  }

  async list(normalizedPath: string): Promise<Obsidian.ListedFiles> {
    const entries = await hostFs.readdir(this.getFullPath(normalizedPath));
    const listing: Obsidian.ListedFiles = { files: [], folders: [] };
    for (const entry of entries) {
      (entry.isDirectory ? listing.folders : listing.files).push(childPath(normalizedPath, entry.name));
    }
    return listing;
  }

  async read(normalizedPath: string): Promise<string> {
    return hostFs.readText(this.getFullPath(normalizedPath));
  }

  async readBinary(normalizedPath: string): Promise<ArrayBuffer> {
    return (await hostFs.readBytes(this.getFullPath(normalizedPath))).slice().buffer;
  }

  async write(normalizedPath: string, data: string, options?: Obsidian.DataWriteOptions): Promise<void> {
    await hostFs.writeText(this.getFullPath(normalizedPath), data);
    await this.applyTimes(normalizedPath, options);
  }

  async writeBinary(normalizedPath: string, data: ArrayBuffer, options?: Obsidian.DataWriteOptions): Promise<void> {
    await hostFs.writeBytes(this.getFullPath(normalizedPath), new Uint8Array(requireArrayBuffer(data)));
    await this.applyTimes(normalizedPath, options);
  }

  async append(normalizedPath: string, data: string, options?: Obsidian.DataWriteOptions): Promise<void> {
    await hostFs.appendText(this.getFullPath(normalizedPath), data);
    await this.applyTimes(normalizedPath, options);
  }

  async appendBinary(normalizedPath: string, data: ArrayBuffer, options?: Obsidian.DataWriteOptions): Promise<void> {
    await hostFs.appendBytes(this.getFullPath(normalizedPath), new Uint8Array(requireArrayBuffer(data)));
    await this.applyTimes(normalizedPath, options);
  }

  /** Reads, applies `fn` (synchronous) and writes, one call at a time per path; if `fn` throws, nothing is written. */
  async process(normalizedPath: string, fn: (data: string) => string, options?: Obsidian.DataWriteOptions): Promise<string> {
    return this.locks.run(normalizedPath, async () => {
      const next = fn(await this.read(normalizedPath));
      await this.write(normalizedPath, next, options);
      return next;
    });
  }

  /** Creates the folder and any missing parents; succeeds if it exists. */
  async mkdir(normalizedPath: string): Promise<void> {
    await hostFs.mkdirp(this.getFullPath(normalizedPath));
  }

  async trashSystem(_normalizedPath: string): Promise<boolean> {
    return Promise.resolve(false);
  }

  /** Moves the file or folder to `.trash/` at the vault root, numbering the name if it is taken. */
  async trashLocal(normalizedPath: string): Promise<void> {
    await this.mkdir(LOCAL_TRASH_FOLDER);
    const name = lastSegment(normalizedPath);
    const extension = hostFs.extname(name);
    const stem = name.slice(0, name.length - extension.length);
    let target = childPath(LOCAL_TRASH_FOLDER, name);
    for (let n = 2; (await this.stat(target)) !== null; n++) target = childPath(LOCAL_TRASH_FOLDER, `${stem} ${n}${extension}`);
    await hostFs.rename(this.getFullPath(normalizedPath), this.getFullPath(target));
  }

  async rmdir(normalizedPath: string, recursive: boolean): Promise<void> {
    const full = this.getFullPath(normalizedPath);
    if (!recursive) {
      await hostFs.rmdir(full);
      return;
    }
    if (!(await hostFs.stat(full)).isDirectory) throw nodeError('ENOTDIR', 'not a directory', 'rmdir', full);
    await hostFs.rmTree(full);
  }

  async remove(normalizedPath: string): Promise<void> {
    await hostFs.unlink(this.getFullPath(normalizedPath));
  }

  async rename(normalizedPath: string, normalizedNewPath: string): Promise<void> {
    const caseOnly = normalizedPath.toLowerCase() === normalizedNewPath.toLowerCase();
    if (!caseOnly && (await this.stat(normalizedNewPath)) !== null) throw new Error('Destination file already exists!');
    await hostFs.rename(this.getFullPath(normalizedPath), this.getFullPath(normalizedNewPath));
  }

  async copy(normalizedPath: string, normalizedNewPath: string): Promise<void> {
    await hostFs.copyNew(this.getFullPath(normalizedPath), this.getFullPath(normalizedNewPath));
  }

  private async applyTimes(normalizedPath: string, options: Obsidian.DataWriteOptions | undefined): Promise<void> {
    if (options?.mtime === undefined) return;
    await hostFs.setMtime(this.getFullPath(normalizedPath), options.mtime);
  }
}

function nodeError(code: string, description: string, syscall: string, path: string): Error {
  return Object.assign(new Error(`${code}: ${description}, ${syscall} '${path}'`), { code, syscall, path });
}

function requireArrayBuffer(data: ArrayBuffer): ArrayBuffer {
  // Obsidian hands `data` to the platform as a whole buffer; a view would write every byte of
  // its backing store. Refuse it here so a caller that forgets to slice fails in tests.
  if (!(data instanceof ArrayBuffer)) throw new TypeError('writeBinary expects an ArrayBuffer, not a view; slice the view into an exact ArrayBuffer first.');
  return data;
}
