import { constants } from 'node:fs';
import { appendFile, copyFile, cp, mkdir, readdir, readFile, rename, rm, rmdir, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { basename, extname, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/** What `stat` tells the adapter about one path on disk. */
export interface HostStat {
  isDirectory: boolean;
  birthtimeMs: number;
  ctimeMs: number;
  mtimeMs: number;
  size: number;
}

/**
 * The host's file system as the test `FileSystemAdapter` uses it: Node's `fs` here, the same calls
 * bridged to Node from a browser page in `hostFs.browser.ts` (the browser build swaps the module).
 * Failures are Node's errors, with their `code`.
 */
export interface HostFs {
  readonly sep: string;
  resolve(...parts: string[]): string;
  basename(path: string): string;
  extname(path: string): string;
  fileUrl(path: string): string;
  stat(path: string): Promise<HostStat>;
  readdir(path: string): Promise<{ name: string; isDirectory: boolean }[]>;
  readText(path: string): Promise<string>;
  readBytes(path: string): Promise<Uint8Array>;
  writeText(path: string, data: string): Promise<void>;
  writeBytes(path: string, data: Uint8Array): Promise<void>;
  appendText(path: string, data: string): Promise<void>;
  appendBytes(path: string, data: Uint8Array): Promise<void>;
  mkdirp(path: string): Promise<void>;
  rmdir(path: string): Promise<void>;
  rmTree(path: string): Promise<void>;
  unlink(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /** Copies a file or a folder; refuses an existing destination. */
  copyNew(from: string, to: string): Promise<void>;
  setMtime(path: string, mtimeMs: number): Promise<void>;
}

export const hostFs: HostFs = {
  sep,
  resolve: (...parts) => resolve(...parts),
  basename: (path) => basename(path),
  extname: (path) => extname(path),
  fileUrl: (path) => pathToFileURL(path).href,
  async stat(path) {
    const info = await stat(path);
    return { isDirectory: info.isDirectory(), birthtimeMs: info.birthtimeMs, ctimeMs: info.ctimeMs, mtimeMs: info.mtimeMs, size: info.size };
  },
  async readdir(path) {
    return (await readdir(path, { withFileTypes: true })).map((entry) => ({ name: entry.name, isDirectory: entry.isDirectory() }));
  },
  readText: (path) => readFile(path, 'utf8'),
  async readBytes(path) {
    return new Uint8Array(await readFile(path));
  },
  writeText: (path, data) => writeFile(path, data, 'utf8'),
  writeBytes: (path, data) => writeFile(path, data),
  appendText: (path, data) => appendFile(path, data, 'utf8'),
  appendBytes: (path, data) => appendFile(path, data),
  async mkdirp(path) {
    await mkdir(path, { recursive: true });
  },
  rmdir: (path) => rmdir(path),
  rmTree: (path) => rm(path, { recursive: true }),
  unlink: (path) => unlink(path),
  rename: (from, to) => rename(from, to),
  async copyNew(from, to) {
    if ((await stat(from)).isDirectory()) await cp(from, to, { recursive: true, errorOnExist: true, force: false });
    else await copyFile(from, to, constants.COPYFILE_EXCL);
  },
  async setMtime(path, mtimeMs) {
    const mtime = new Date(mtimeMs);
    await utimes(path, mtime, mtime);
  },
};
