import { deflateSync } from 'node:zlib';
import type { Deflate } from '../core/git/gitObjects';
import { zlibDeflate } from '../desktop/zlibDeflate';

/** Loose git objects compressed by Node's native zlib at git's default level (1, best speed). */
export const nodeDeflate: Deflate = zlibDeflate(deflateSync);
