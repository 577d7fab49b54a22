import type { Deflate } from '../core/git/gitObjects';
import { desktopRequire } from './desktopRequire';

/**
 * Electron's native zlib on Obsidian desktop (through `window.require`, which the bundler leaves
 * alone), at git's default level (1, best speed); null on mobile, where the git layer uses pako.
 */
export function loadDesktopDeflate(): Deflate | null {
  const load = desktopRequire();
  if (load === null) return null;
  try {
    const { deflateSync } = load('zlib') as { deflateSync?: (bytes: Uint8Array, options: { level: number }) => Uint8Array };
    if (typeof deflateSync !== 'function') return null;
    return (bytes) => {
      const out = deflateSync(bytes, { level: 1 });
      return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
    };
  } catch {
    return null;
  }
}
