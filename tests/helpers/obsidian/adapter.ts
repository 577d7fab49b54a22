import { constants } from 'node:fs';
import { appendFile, copyFile, cp, mkdir, readdir, readFile, rename, rm, rmdir, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { basename, extname, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Obsidian from 'obsidian';
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
    this.basePath = resolve(basePath);
  }

  getName(): string {
    return basename(this.basePath);
  }

  getBasePath(): string {
    return this.basePath;
  }

  getFullPath(normalizedPath: string): string {
    if (isRootPath(normalizedPath)) return this.basePath;
    const full = resolve(this.basePath, ...normalizedPath.split('/'));
    if (!full.startsWith(this.basePath + sep)) throw new Error(`Path outside the vault: ${normalizedPath}`);
    return full;
  }

  getFilePath(normalizedPath: string): string {
    return pathToFileURL(this.getFullPath(normalizedPath)).href;
  }

  getResourcePath(normalizedPath: string): string {
    return `${Platform.resourcePathPrefix}${pathToFileURL(this.getFullPath(normalizedPath)).pathname}`;
  }

  async exists(normalizedPath: string, sensitive?: boolean): Promise<boolean> {
    if ((await this.stat(normalizedPath)) === null) return false;
    if (sensitive !== true || isRootPath(normalizedPath)) return true;
    // A case-insensitive file system finds `Note.md` at `note.md`; check each name as stored.
    const names = await readdir(this.getFullPath(parentPath(normalizedPath)));
    return names.includes(lastSegment(normalizedPath)) && this.exists(parentPath(normalizedPath), true);
  }

  async stat(normalizedPath: string): Promise<Obsidian.Stat | null> {
    try {
      const info = await stat(this.getFullPath(normalizedPath));
      return {
        type: info.isDirectory() ? 'folder' : 'file',
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
    const entries = await readdir(this.getFullPath(normalizedPath), { withFileTypes: true });
    const listing: Obsidian.ListedFiles = { files: [], folders: [] };
    for (const entry of entries) {
      (entry.isDirectory() ? listing.folders : listing.files).push(childPath(normalizedPath, entry.name));
    }
    return listing;
  }

  async read(normalizedPath: string): Promise<string> {
    return readFile(this.getFullPath(normalizedPath), 'utf8');
  }

  async readBinary(normalizedPath: string): Promise<ArrayBuffer> {
    return new Uint8Array(await readFile(this.getFullPath(normalizedPath))).buffer;
  }

  async write(normalizedPath: string, data: string, options?: Obsidian.DataWriteOptions): Promise<void> {
    await writeFile(this.getFullPath(normalizedPath), data, 'utf8');
    await this.applyTimes(normalizedPath, options);
  }

  async writeBinary(normalizedPath: string, data: ArrayBuffer, options?: Obsidian.DataWriteOptions): Promise<void> {
    await writeFile(this.getFullPath(normalizedPath), new Uint8Array(requireArrayBuffer(data)));
    await this.applyTimes(normalizedPath, options);
  }

  async append(normalizedPath: string, data: string, options?: Obsidian.DataWriteOptions): Promise<void> {
    await appendFile(this.getFullPath(normalizedPath), data, 'utf8');
    await this.applyTimes(normalizedPath, options);
  }

  async appendBinary(normalizedPath: string, data: ArrayBuffer, options?: Obsidian.DataWriteOptions): Promise<void> {
    await appendFile(this.getFullPath(normalizedPath), new Uint8Array(requireArrayBuffer(data)));
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
    await mkdir(this.getFullPath(normalizedPath), { recursive: true });
  }

  async trashSystem(_normalizedPath: string): Promise<boolean> {
    return Promise.resolve(false);
  }

  /** Moves the file or folder to `.trash/` at the vault root, numbering the name if it is taken. */
  async trashLocal(normalizedPath: string): Promise<void> {
    await this.mkdir(LOCAL_TRASH_FOLDER);
    const name = lastSegment(normalizedPath);
    const extension = extname(name);
    const stem = name.slice(0, name.length - extension.length);
    let target = childPath(LOCAL_TRASH_FOLDER, name);
    for (let n = 2; (await this.stat(target)) !== null; n++) target = childPath(LOCAL_TRASH_FOLDER, `${stem} ${n}${extension}`);
    await rename(this.getFullPath(normalizedPath), this.getFullPath(target));
  }

  async rmdir(normalizedPath: string, recursive: boolean): Promise<void> {
    const full = this.getFullPath(normalizedPath);
    if (!recursive) {
      await rmdir(full);
      return;
    }
    if (!(await stat(full)).isDirectory()) throw nodeError('ENOTDIR', 'not a directory', 'rmdir', full);
    await rm(full, { recursive: true });
  }

  async remove(normalizedPath: string): Promise<void> {
    await unlink(this.getFullPath(normalizedPath));
  }

  async rename(normalizedPath: string, normalizedNewPath: string): Promise<void> {
    const caseOnly = normalizedPath.toLowerCase() === normalizedNewPath.toLowerCase();
    if (!caseOnly && (await this.stat(normalizedNewPath)) !== null) throw new Error('Destination file already exists!');
    await rename(this.getFullPath(normalizedPath), this.getFullPath(normalizedNewPath));
  }

  async copy(normalizedPath: string, normalizedNewPath: string): Promise<void> {
    const from = this.getFullPath(normalizedPath);
    const to = this.getFullPath(normalizedNewPath);
    if ((await stat(from)).isDirectory()) await cp(from, to, { recursive: true, errorOnExist: true, force: false });
    else await copyFile(from, to, constants.COPYFILE_EXCL);
  }

  private async applyTimes(normalizedPath: string, options: Obsidian.DataWriteOptions | undefined): Promise<void> {
    if (options?.mtime === undefined) return;
    const mtime = new Date(options.mtime);
    await utimes(this.getFullPath(normalizedPath), mtime, mtime);
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
