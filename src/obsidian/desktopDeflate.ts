import type { Deflate } from '../core/git/gitObjects';
import { zlibDeflate, type DeflateSync } from '../desktop/zlibDeflate';
import { desktopRequire } from './desktopRequire';

/**
 * Electron's native zlib on Obsidian desktop (through `window.require`, which the bundler leaves
 * alone), at git's default level (1, best speed); null on mobile, where the git layer uses pako.
 */
export function loadDesktopDeflate(): Deflate | null {
  const load = desktopRequire();
  if (load === null) return null;
  try {
    const { deflateSync } = load('zlib') as { deflateSync?: DeflateSync };
    return typeof deflateSync === 'function' ? zlibDeflate(deflateSync) : null;
  } catch {
    return null;
  }
}
