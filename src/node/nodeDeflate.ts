import { deflateSync } from 'node:zlib';
import type { Deflate } from '../core/git/gitObjects';

/** Loose git objects compressed by Node's native zlib at git's default level (1, best speed). */
export const nodeDeflate: Deflate = (bytes) => {
  const out = deflateSync(bytes, { level: 1 });
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
};
