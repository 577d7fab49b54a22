import type { Deflate } from '../core/git/gitObjects';

/** Node's `zlib.deflateSync`, as the command line imports it or Obsidian desktop `require`s it. */
export type DeflateSync = (bytes: Uint8Array, options: { level: number }) => Uint8Array;

/** Loose git objects compressed by a native zlib at git's default level (1, best speed). */
export function zlibDeflate(deflateSync: DeflateSync): Deflate {
  return (bytes) => {
    const out = deflateSync(bytes, { level: 1 });
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  };
}
