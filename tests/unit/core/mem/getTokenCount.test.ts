import { describe, expect, it } from 'vitest';
import { countTokens } from '../../../../src/core/tokens/countTokens';
import { RUNTIMES, useMemFixture } from '../../../helpers/memHarness';

describe.each(RUNTIMES)('getTokenCount ($name)', (runtime) => {
  const vault = useMemFixture(runtime);

  it('counts the BPE tokens of a file', async () => {
    await vault.seed('a.md', 'hello world');
    expect(await vault.mem.getTokenCount('a.md')).toBe(2);
  });

  it('agrees with counting the text directly', async () => {
    const text = '# Ada Lovelace\n\nAda wrote the first published algorithm. 日本語も。\n';
    await vault.seed('ada.md', text);
    expect(await vault.mem.getTokenCount('ada.md')).toBe(countTokens(text));
  });

  it('refuses binary files like readFile does', async () => {
    await vault.seed('x.bin', Uint8Array.from([0, 1, 2]));
    await expect(vault.mem.getTokenCount('x.bin')).rejects.toMatchObject({ code: 'BinaryFile', data: { caller: 'mem.getTokenCount' } });
  });
});
