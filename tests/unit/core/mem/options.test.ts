import { describe, expect, it } from 'vitest';
import { DEFAULT_MEM_OPTIONS, resolveMemOptions } from '../../../../src/core/mem';
import { nodeRuntime, useMemFixture } from '../../../helpers/memHarness';

describe('resolveMemOptions', () => {
  const vault = useMemFixture(nodeRuntime);

  describe('when Logseq mode is not given', () => {
    it('is off for an ordinary vault', async () => {
      expect((await resolveMemOptions(vault.context.vault)).logseq).toBe(false);
    });

    it('is on when the vault has logseq/config.edn', async () => {
      await vault.seed('logseq/config.edn', '{}');
      expect((await resolveMemOptions(vault.context.vault)).logseq).toBe(true);
    });
  });

  it('keeps explicit values and fills the rest from the defaults', async () => {
    await vault.seed('logseq/config.edn', '{}');
    const options = await resolveMemOptions(vault.context.vault, { logseq: false, maxReadBytes: 10, configDir: undefined });
    expect(options).toEqual({ ...DEFAULT_MEM_OPTIONS, logseq: false, maxReadBytes: 10 });
  });
});
