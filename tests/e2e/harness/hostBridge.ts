import http from 'node:http';
import https from 'node:https';
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
  const streams = new StreamedRequests();
  page.on('close', () => streams.abortAll());
  await page.exposeFunction('recursaHostCall', async (module: string, operation: string, args: unknown[]): Promise<Answer> => {
    try {
      if (module === 'http' && operation === 'requestUrl') return { value: await bridgedRequest(args[0] as Obsidian.RequestUrlParam & { body?: unknown }) };
      if (module === 'http') return { value: await streams.call(operation, args) };
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

/**
 * Node's `http`/`https` requests for the page's `window.require` shim: `open` resolves with the
 * status and headers once the response starts, `read` hands over the body a chunk at a time as it
 * arrives (waiting for the next), `abort` destroys the request. Failures carry Node's `code`.
 */
class StreamedRequests {
  private nextId = 1;
  private readonly open = new Map<number, { req: http.ClientRequest; chunks: Buffer[]; ended: boolean; complete: boolean; wake: (() => void) | null }>();

  async call(operation: string, args: unknown[]): Promise<unknown> {
    if (operation === 'open') return this.start(args[0] as { url: string; method: string; headers: Record<string, string>; body: string | null });
    const id = Number(args[0]);
    if (operation === 'read') return this.read(id);
    if (operation === 'abort') {
      this.open.get(id)?.req.destroy();
      this.open.delete(id);
      return null;
    }
    throw new Error(`unknown http operation ${operation}`);
  }

  abortAll(): void {
    for (const entry of this.open.values()) entry.req.destroy();
    this.open.clear();
  }

  private start(param: { url: string; method: string; headers: Record<string, string>; body: string | null }): Promise<{ id: number; status: number; headers: Record<string, string> }> {
    return new Promise((resolve, reject) => {
      const url = new URL(param.url);
      const req = (url.protocol === 'https:' ? https : http).request(url, { method: param.method, headers: param.headers });
      const id = this.nextId++;
      const entry = { req, chunks: [] as Buffer[], ended: false, complete: false, wake: null as (() => void) | null };
      const wake = (): void => {
        const waiting = entry.wake;
        entry.wake = null;
        waiting?.();
      };
      req.on('error', (error) => {
        entry.ended = true;
        wake();
        reject(error);
      });
      req.on('response', (res) => {
        this.open.set(id, entry);
        res.on('data', (chunk: Buffer) => {
          entry.chunks.push(chunk);
          wake();
        });
        res.on('error', () => undefined);
        res.on('close', () => {
          entry.ended = true;
          entry.complete = res.complete;
          wake();
        });
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        resolve({ id, status: res.statusCode ?? 0, headers });
      });
      req.end(param.body === null ? undefined : Buffer.from(param.body, 'base64'));
    });
  }

  private async read(id: number): Promise<{ chunk: string } | { done: true; complete: boolean }> {
    const entry = this.open.get(id);
    if (entry === undefined) return { done: true, complete: false };
    while (entry.chunks.length === 0 && !entry.ended) await new Promise<void>((resolve) => (entry.wake = resolve));
    const chunk = entry.chunks.shift();
    if (chunk !== undefined) return { chunk: chunk.toString('base64') };
    this.open.delete(id);
    return { done: true, complete: entry.complete };
  }
}
