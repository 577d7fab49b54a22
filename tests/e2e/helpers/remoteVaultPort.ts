// A `VaultPort` in the page whose every call runs on a real folder in Node (through a function the
// test exposes with `page.exposeFunction('recursaVault', …)`), so core runs in the browser against
// the same files the git CLI then checks. Bytes cross as base64.
import { AlreadyExistsError, IoError, isRecursaError, NotFoundError, WrongKindError } from '../../../src/core/errors';
import type { VaultListing, VaultPort, VaultStat } from '../../../src/core/ports';

export type VaultCall =
  | { method: 'readText' | 'readBinary' | 'exists' | 'stat' | 'list' | 'mkdir' | 'remove' | 'readLink'; path: string }
  | { method: 'write' | 'append'; path: string; data: string }
  | { method: 'writeBinary'; path: string; base64: string }
  | { method: 'createExclusive'; path: string; content: { text: string } | { base64: string } }
  | { method: 'rename' | 'replace'; path: string; to: string };

/** What crosses back: the value, or the port's error as data (classes do not cross the page boundary). */
export type VaultReply = { ok: true; value: unknown } | { ok: false; code: string; message: string; data: Record<string, unknown> };

declare global {
  interface Window {
    recursaVault: (call: VaultCall) => Promise<VaultReply>;
  }
}

/** The port's own error again, by its code, as core expects it. */
function rebuild(reply: Extract<VaultReply, { ok: false }>): Error {
  const path = typeof reply.data.path === 'string' ? reply.data.path : '';
  switch (reply.code) {
    case 'NotFound':
      return new NotFoundError(path);
    case 'WrongKind':
      return new WrongKindError(path, reply.data.expected === 'folder' ? 'folder' : 'file');
    case 'AlreadyExists':
      return new AlreadyExistsError(path);
    default:
      return new IoError('vault', reply.message, path);
  }
}

function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

function fromBase64(base64: string): Uint8Array {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

export class RemoteVaultPort implements VaultPort {
  readonly root = '';

  private async call<T>(call: VaultCall): Promise<T> {
    const reply = await window.recursaVault(call);
    if (!reply.ok) throw rebuild(reply);
    return reply.value as T;
  }

  readText(path: string): Promise<string> {
    return this.call({ method: 'readText', path });
  }
  async readBinary(path: string): Promise<Uint8Array> {
    return fromBase64(await this.call<string>({ method: 'readBinary', path }));
  }
  write(path: string, data: string): Promise<void> {
    return this.call({ method: 'write', path, data });
  }
  writeBinary(path: string, data: Uint8Array): Promise<void> {
    return this.call({ method: 'writeBinary', path, base64: toBase64(data) });
  }
  async process(path: string, fn: (current: string) => string): Promise<string> {
    const next = fn(await this.readText(path));
    await this.write(path, next);
    return next;
  }
  exists(path: string): Promise<boolean> {
    return this.call({ method: 'exists', path });
  }
  stat(path: string): Promise<VaultStat | null> {
    return this.call({ method: 'stat', path });
  }
  list(path: string): Promise<VaultListing> {
    return this.call({ method: 'list', path });
  }
  mkdir(path: string): Promise<void> {
    return this.call({ method: 'mkdir', path });
  }
  remove(path: string): Promise<void> {
    return this.call({ method: 'remove', path });
  }
  rename(from: string, to: string): Promise<void> {
    return this.call({ method: 'rename', path: from, to });
  }
  createExclusive(path: string, data: string | Uint8Array): Promise<boolean> {
    const content = typeof data === 'string' ? { text: data } : { base64: toBase64(data) };
    return this.call({ method: 'createExclusive', path, content });
  }
  replace(from: string, to: string): Promise<void> {
    return this.call({ method: 'replace', path: from, to });
  }
  append(path: string, data: string): Promise<void> {
    return this.call({ method: 'append', path, data });
  }
  readLink(path: string): Promise<string | null> {
    return this.call({ method: 'readLink', path });
  }
  onChange(): () => void {
    return () => undefined;
  }
}

/** Serves `RemoteVaultPort` calls from a real port in Node. */
export async function serveVaultCall(port: VaultPort, call: VaultCall): Promise<VaultReply> {
  try {
    return { ok: true, value: await run(port, call) };
  } catch (error) {
    if (isRecursaError(error)) return { ok: false, code: error.code, message: error.message, data: { ...error.data } };
    return { ok: false, code: 'Io', message: error instanceof Error ? error.message : String(error), data: {} };
  }
}

async function run(port: VaultPort, call: VaultCall): Promise<unknown> {
  switch (call.method) {
    case 'readText':
      return port.readText(call.path);
    case 'readBinary':
      return Buffer.from(await port.readBinary(call.path)).toString('base64');
    case 'write':
      return port.write(call.path, call.data);
    case 'writeBinary':
      return port.writeBinary(call.path, new Uint8Array(Buffer.from(call.base64, 'base64')));
    case 'exists':
      return port.exists(call.path);
    case 'stat':
      return port.stat(call.path);
    case 'list':
      return port.list(call.path);
    case 'mkdir':
      return port.mkdir(call.path);
    case 'remove':
      return port.remove(call.path);
    case 'rename':
      return port.rename(call.path, call.to);
    case 'createExclusive':
      return port.createExclusive(call.path, 'text' in call.content ? call.content.text : new Uint8Array(Buffer.from(call.content.base64, 'base64')));
    case 'replace':
      return port.replace(call.path, call.to);
    case 'append':
      return port.append(call.path, call.data);
    case 'readLink':
      return port.readLink(call.path);
  }
}
