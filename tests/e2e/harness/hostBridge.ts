import type { Page } from 'playwright-core';
import type * as Obsidian from 'obsidian';
import { hostFs } from '../../helpers/obsidian/hostFs';
import { requestUrl } from '../../helpers/obsidian/requestUrl';

type Answer = { value: unknown } | { error: { message: string; code?: string; syscall?: string; path?: string } };

const fromBase64 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'base64'));
const toBase64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

/**
 * The Node side of the page bridge (`window.recursaHostCall`): file system calls for the page's
 * `FileSystemAdapter`, confined to `root`, and `requestUrl`. Bytes cross as base64.
 */
export async function installHostBridge(page: Page, root: string): Promise<void> {
  await page.exposeFunction('recursaHostCall', async (module: string, operation: string, args: unknown[]): Promise<Answer> => {
    try {
      if (module === 'http' && operation === 'requestUrl') return { value: await bridgedRequest(args[0] as Obsidian.RequestUrlParam & { body?: unknown }) };
      if (module !== 'fs') throw new Error(`unknown host module ${module}`);
      for (const path of args.filter((arg, index) => typeof arg === 'string' && (index === 0 || operation === 'rename' || operation === 'copyNew'))) {
        const full = hostFs.resolve(path as string);
        if (full !== root && !full.startsWith(root + hostFs.sep)) throw new Error(`the bridge refuses a path outside the vault: ${full}`);
      }
      return { value: await callFs(operation, args) };
    } catch (error) {
      const { message, code, syscall, path } = error as Error & { code?: string; syscall?: string; path?: string };
      return { error: { message: String(message), ...(code === undefined ? {} : { code }), ...(syscall === undefined ? {} : { syscall }), ...(path === undefined ? {} : { path }) } };
    }
  });
}

async function callFs(operation: string, args: unknown[]): Promise<unknown> {
  const [a, b] = args as [string, unknown];
  switch (operation) {
    case 'stat':
      return hostFs.stat(a);
    case 'readdir':
      return hostFs.readdir(a);
    case 'readText':
      return hostFs.readText(a);
    case 'readBytes':
      return toBase64(await hostFs.readBytes(a));
    case 'writeText':
      return hostFs.writeText(a, b as string);
    case 'writeBytes':
      return hostFs.writeBytes(a, fromBase64(b as string));
    case 'appendText':
      return hostFs.appendText(a, b as string);
    case 'appendBytes':
      return hostFs.appendBytes(a, fromBase64(b as string));
    case 'mkdirp':
      return hostFs.mkdirp(a);
    case 'rmdir':
      return hostFs.rmdir(a);
    case 'rmTree':
      return hostFs.rmTree(a);
    case 'unlink':
      return hostFs.unlink(a);
    case 'rename':
      return hostFs.rename(a, b as string);
    case 'copyNew':
      return hostFs.copyNew(a, b as string);
    case 'setMtime':
      return hostFs.setMtime(a, b as number);
    default:
      throw new Error(`unknown fs operation ${operation}`);
  }
}

async function bridgedRequest(param: Obsidian.RequestUrlParam & { body?: unknown }): Promise<{ status: number; headers: Record<string, string>; base64: string }> {
  const body = typeof param.body === 'object' && param.body !== null && 'base64' in param.body ? fromBase64(String((param.body as { base64: unknown }).base64)).slice().buffer : param.body;
  const response = await requestUrl({ ...param, body });
  return { status: response.status, headers: response.headers, base64: toBase64(new Uint8Array(response.arrayBuffer)) };
}
