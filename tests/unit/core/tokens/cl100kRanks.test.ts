import pako from 'pako';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import compressedRanks from 'recursa:cl100k-ranks';
import { afterEach, describe, expect, it, vi } from 'vitest';

// countTokens carries js-tiktoken's cl100k_base table as its raw-deflated JSON in Z85
// (scripts/cl100k-ranks.mjs) and inflates it on first use: once, and only when a count is asked for.
describe('the compressed cl100k_base table', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** A fresh copy of the module, so its encoder has not been built yet. */
  const freshCountTokens = async (): Promise<typeof import('../../../../src/core/tokens/countTokens')> => {
    vi.resetModules();
    return import('../../../../src/core/tokens/countTokens');
  };

  it('is inflated on the first count, not on import, and only once', async () => {
    const inflate = vi.spyOn(pako, 'inflateRaw');
    const { countTokens, countTokensInSlices } = await freshCountTokens();
    expect(inflate).not.toHaveBeenCalled();

    expect(countTokens('hello world')).toBe(2);
    expect(inflate).toHaveBeenCalledTimes(1);
    expect(countTokens('tokenization, again')).toBeGreaterThan(2);
    expect(await countTokensInSlices('and once more, in slices')).toBeGreaterThan(4);
    expect(inflate).toHaveBeenCalledTimes(1);
  });

  it('inflates to exactly js-tiktoken\'s table', async () => {
    const inflate = vi.spyOn(pako, 'inflateRaw');
    const { countTokens } = await freshCountTokens();
    countTokens('x');
    const inflated = inflate.mock.results[0];
    expect(inflated?.type).toBe('return');
    const json = new TextDecoder().decode(inflated?.value as Uint8Array);
    expect(JSON.parse(json)).toEqual(cl100kBase);
  });

  it('is much smaller than the table it stands for', () => {
    expect(compressedRanks.z85).toMatch(/^[0-9a-zA-Z.\-:+=^!/*?&<>()[\]{}@%$#]+$/);
    expect(compressedRanks.z85.length).toBe(Math.ceil(compressedRanks.byteLength / 4) * 5);
    expect(compressedRanks.z85.length).toBeLessThan(0.6 * JSON.stringify(cl100kBase).length);
  });
});
