import type { HostFs, HostStat } from './hostFs';

/**
 * `HostFs` in a browser page: every call goes to Node's `fs` through the function the test exposes
 * on the page (`window.recursaHostCall`, see `tests/e2e/harness/hostBridge.ts`), so the page's
 * vault is a real folder on disk, as it is for Obsidian's desktop `FileSystemAdapter`. Bytes
 * cross as base64; a failure comes back with Node's `code`, `syscall` and `path`.
 * Paths are POSIX (the browser tests run on Linux and macOS).
 */
declare global {
  interface Window {
    recursaHostCall?: (module: string, operation: string, args: unknown[]) => Promise<HostAnswer>;
  }
}

/** What the bridge answers: the value, or Node's error as plain data. */
export type HostAnswer = { value: unknown } | { error: { message: string; code?: string; syscall?: string; path?: string } };

/** Calls `operation` of the Node-side `module` through the page bridge. */
export async function callHost(module: string, operation: string, args: unknown[]): Promise<unknown> {
  const call = window.recursaHostCall;
  if (call === undefined) throw new Error('The host bridge is not installed on this page (window.recursaHostCall).');
  const answer = await call(module, operation, args);
  if ('error' in answer) throw Object.assign(new Error(answer.error.message), answer.error);
  return answer.value;
}

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const fs = (operation: string, ...args: unknown[]): Promise<unknown> => callHost('fs', operation, args);

function resolvePosix(...parts: string[]): string {
  const segments: string[] = [];
  for (const part of parts) {
    if (part.startsWith('/')) segments.length = 0;
    for (const segment of part.split('/')) {
      if (segment === '' || segment === '.') continue;
      if (segment === '..') segments.pop();
      else segments.push(segment);
    }
  }
  return `/${segments.join('/')}`;
}

export const hostFs: HostFs = {
  sep: '/',
  resolve: resolvePosix,
  basename: (path) => path.slice(path.lastIndexOf('/') + 1),
  extname(path) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    const dot = name.lastIndexOf('.');
    return dot <= 0 ? '' : name.slice(dot);
  },
  fileUrl: (path) => `file://${path.split('/').map(encodeURIComponent).join('/')}`,
  stat: async (path) => (await fs('stat', path)) as HostStat,
  readdir: async (path) => (await fs('readdir', path)) as { name: string; isDirectory: boolean }[],
  readText: async (path) => (await fs('readText', path)) as string,
  readBytes: async (path) => fromBase64((await fs('readBytes', path)) as string),
  writeText: async (path, data) => void (await fs('writeText', path, data)),
  writeBytes: async (path, data) => void (await fs('writeBytes', path, toBase64(data))),
  appendText: async (path, data) => void (await fs('appendText', path, data)),
  appendBytes: async (path, data) => void (await fs('appendBytes', path, toBase64(data))),
  mkdirp: async (path) => void (await fs('mkdirp', path)),
  rmdir: async (path) => void (await fs('rmdir', path)),
  rmTree: async (path) => void (await fs('rmTree', path)),
  unlink: async (path) => void (await fs('unlink', path)),
  rename: async (from, to) => void (await fs('rename', from, to)),
  copyNew: async (from, to) => void (await fs('copyNew', from, to)),
  setMtime: async (path, mtimeMs) => void (await fs('setMtime', path, mtimeMs)),
};
