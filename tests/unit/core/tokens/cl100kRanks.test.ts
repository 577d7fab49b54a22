import pako from 'pako';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import compressedRanks from 'recursa:cl100k-ranks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readCl100kTable } from '../../../../src/core/tokens/cl100kTable';
import { runSteps } from '../../../../src/core/util/steps';

// countTokens carries js-tiktoken's cl100k_base table as its raw-deflated JSON in Z85
// (scripts/cl100k-ranks.mjs) and reads it on first use: once, and only when a count is asked for.
describe('the compressed cl100k_base table', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** A fresh copy of the module, so its table has not been read yet. */
  const freshCountTokens = async (): Promise<typeof import('../../../../src/core/tokens/countTokens')> => {
    vi.resetModules();
    return import('../../../../src/core/tokens/countTokens');
  };

  it('is read on the first count, not on import, and only once', async () => {
    const inflate = vi.spyOn(pako.Inflate.prototype, 'push');
    const { countTokens, countTokensInSlices, loadTokenizer } = await freshCountTokens();
    expect(inflate).not.toHaveBeenCalled();

    expect(countTokens('hello world')).toBe(2);
    const pushes = inflate.mock.calls.length;
    expect(pushes).toBeGreaterThan(1);
    expect(countTokens('tokenization, again')).toBeGreaterThan(2);
    expect(await countTokensInSlices('and once more, in slices')).toBeGreaterThan(4);
    await loadTokenizer();
    expect(inflate).toHaveBeenCalledTimes(pushes);
  });

  it('is read in slices by loadTokenizer, once for callers that wait together, handing the event loop back', async () => {
    const inflate = vi.spyOn(pako.Inflate.prototype, 'push');
    const { countTokens, loadTokenizer } = await freshCountTokens();
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    await Promise.all([loadTokenizer(), loadTokenizer(), loadTokenizer()]);
    expect(timerRan).toBe(true);
    const pushes = inflate.mock.calls.length;
    expect(pushes).toBeGreaterThan(1);
    expect(countTokens('hello world')).toBe(2);
    expect(inflate).toHaveBeenCalledTimes(pushes);
  });

  it('reads exactly js-tiktoken\'s table', () => {
    const table = runSteps(readCl100kTable());
    expect(table.pattern).toBe(cl100kBase.pat_str);
    // Each base64 token of js-tiktoken's lines, ranked from its line's first rank on.
    const expected = new Map<string, number>();
    for (const line of cl100kBase.bpe_ranks.split('\n').filter(Boolean)) {
      const [, first, ...tokens] = line.split(' ');
      tokens.forEach((token, i) => expected.set(Buffer.from(token, 'base64').toString('latin1'), Number(first) + i));
    }
    expect(expected.size).toBe(100_256);
    expect(table.ranks.size).toBe(expected.size);
    for (const [bytes, rank] of expected) if (table.ranks.get(bytes) !== rank) expect({ bytes, rank: table.ranks.get(bytes) }).toEqual({ bytes, rank });
    expect(table.ranks.get('not a token of cl100k_base')).toBeUndefined();
  });

  it('is much smaller than the table it stands for', () => {
    expect(compressedRanks.z85).toMatch(/^[0-9a-zA-Z.\-:+=^!/*?&<>()[\]{}@%$#]+$/);
    expect(compressedRanks.z85.length).toBe(Math.ceil(compressedRanks.byteLength / 4) * 5);
    expect(compressedRanks.z85.length).toBeLessThan(0.6 * JSON.stringify(cl100kBase).length);
  });
});
