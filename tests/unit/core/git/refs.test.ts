import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHead } from '../../../../src/core/git/refs';
import { NodeVaultPort } from '../../../../src/node/NodeVaultPort';
import { useTempDir } from '../../../helpers/tempVault';

const MAIN = 'a'.repeat(40);
const TOPIC = 'b'.repeat(40);
const PACKED = 'c'.repeat(40);

describe('readHead', () => {
  const temp = useTempDir();

  /** A repository's refs as files: HEAD, loose branch files, and `packed-refs`. */
  async function refs(files: Record<string, string>): Promise<NodeVaultPort> {
    for (const [path, text] of Object.entries(files)) {
      await mkdir(join(temp.dir, '.git', path, '..'), { recursive: true });
      await writeFile(join(temp.dir, '.git', path), text);
    }
    return NodeVaultPort.open(temp.dir, { watch: false });
  }

  /** Counts the reads under way at once. */
  function countingReads(port: NodeVaultPort): { most: () => number; paths: string[] } {
    const paths: string[] = [];
    let running = 0;
    let most = 0;
    const read = port.readText.bind(port);
    port.readText = async (path) => {
      paths.push(path);
      most = Math.max(most, ++running);
      try {
        return await read(path);
      } finally {
        running--;
      }
    };
    return { most: () => most, paths };
  }

  it('reads the branch HEAD named last beside HEAD', async () => {
    const port = await refs({ HEAD: 'ref: refs/heads/main\n', 'refs/heads/main': `${MAIN}\n` });
    const reads = countingReads(port);
    expect(await readHead(port, '.git', 'refs/heads/main')).toEqual({ branch: 'main', refFile: '.git/refs/heads/main', oid: MAIN });
    expect(reads.most()).toBe(2);
    port.close();
  });

  it('follows HEAD, not the guess, when HEAD names another branch or no branch', async () => {
    const port = await refs({ HEAD: 'ref: refs/heads/topic\n', 'refs/heads/main': `${MAIN}\n`, 'refs/heads/topic': `${TOPIC}\n` });
    expect(await readHead(port, '.git', 'refs/heads/main')).toEqual({ branch: 'topic', refFile: '.git/refs/heads/topic', oid: TOPIC });
    await writeFile(join(temp.dir, '.git/HEAD'), `${MAIN}\n`);
    expect(await readHead(port, '.git', 'refs/heads/topic')).toEqual({ branch: null, refFile: '.git/HEAD', oid: MAIN });
    port.close();
  });

  it('falls back to packed-refs when the guessed branch has no loose file, and to null when it has no commit', async () => {
    const port = await refs({ HEAD: 'ref: refs/heads/main\n', 'packed-refs': `# pack-refs with: peeled fully-peeled sorted\n${PACKED} refs/heads/main\n` });
    const reads = countingReads(port);
    expect(await readHead(port, '.git', 'refs/heads/main')).toEqual({ branch: 'main', refFile: '.git/refs/heads/main', oid: PACKED });
    // The loose file is looked for once, beside HEAD, not again after it.
    expect(reads.paths.filter((path) => path === '.git/refs/heads/main')).toHaveLength(1);
    await writeFile(join(temp.dir, '.git/HEAD'), 'ref: refs/heads/new\n');
    expect(await readHead(port, '.git', 'refs/heads/new')).toEqual({ branch: 'new', refFile: '.git/refs/heads/new', oid: null });
    port.close();
  });
});
