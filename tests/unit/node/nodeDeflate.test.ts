import { describe, expect, it } from 'vitest';
import { GitObjectStore } from '../../../src/core/git/gitObjects';
import { nodeDeflate } from '../../../src/node/nodeDeflate';
import { NodeVaultPort } from '../../../src/node/NodeVaultPort';
import { gitCli } from '../../helpers/gitCli';
import { useTempDir } from '../../helpers/tempVault';

describe('nodeDeflate', () => {
  const temp = useTempDir();

  it('writes loose objects git reads and fsck accepts, from empty to larger than zlib\'s window', async () => {
    gitCli(temp.dir, 'init', '-q');
    const store = new GitObjectStore(await NodeVaultPort.open(temp.dir, { watch: false }), '.git', nodeDeflate);
    const texts = ['', '# Note\n', 'é'.repeat(40_000) + '\n', Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n')];
    for (const text of texts) {
      const oid = await store.writeBlob(new TextEncoder().encode(text));
      expect(gitCli(temp.dir, 'cat-file', '-p', oid)).toBe(text);
    }
    expect(gitCli(temp.dir, 'fsck', '--full', '--strict', '--no-dangling')).toBe('');
  });

  it('compresses at level 1, as git does by default', () => {
    const bytes = new TextEncoder().encode('abc '.repeat(1000));
    // zlib's header names the level in its second byte: 0x01 is "fastest".
    expect(Array.from(nodeDeflate(bytes).subarray(0, 2))).toEqual([0x78, 0x01]);
  });
});
