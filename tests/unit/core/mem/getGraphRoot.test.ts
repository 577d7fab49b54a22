import { describe, expect, it } from 'vitest';
import { RUNTIMES, useMemFixture } from '../../../helpers/memHarness';

describe.each(RUNTIMES)('getGraphRoot ($name)', (runtime) => {
  const vault = useMemFixture(runtime);

  it('returns the absolute folder of the vault', async () => {
    expect(await vault.mem.getGraphRoot()).toBe(vault.dir);
  });
});
