import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadDesktopDeflate } from '../../../src/obsidian/desktopDeflate';

describe('loadDesktopDeflate', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("uses Electron's zlib on desktop: what it compresses inflates back", () => {
    vi.stubGlobal('window', { require: createRequire(import.meta.url) });
    const deflate = loadDesktopDeflate();
    expect(deflate).not.toBeNull();
    const bytes = new TextEncoder().encode('# Note\n'.repeat(100));
    expect(new Uint8Array(inflateSync((deflate as (b: Uint8Array) => Uint8Array)(bytes)))).toEqual(bytes);
  });

  it('is null on mobile, where there is no window.require', () => {
    vi.stubGlobal('window', {});
    expect(loadDesktopDeflate()).toBeNull();
  });

  it('is null when zlib cannot be loaded', () => {
    vi.stubGlobal('window', { require: () => { throw new Error('no such module'); } });
    expect(loadDesktopDeflate()).toBeNull();
  });
});
