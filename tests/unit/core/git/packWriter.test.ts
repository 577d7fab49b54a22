import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deflateWithPako, GitObjectStore } from '../../../../src/core/git/gitObjects';
import { PackWriter } from '../../../../src/core/git/packWriter';
import { Slicer } from '../../../../src/core/util/Slicer';
import { NodeVaultPort } from '../../../../src/node/NodeVaultPort';
import { gitCli } from '../../../helpers/gitCli';
import { useTempDir } from '../../../helpers/tempVault';

describe('PackWriter', () => {
  const temp = useTempDir();

  /** Bytes that do not compress (a seeded generator: the same every run). */
  const noise = (length: number, seed: number): Uint8Array => {
    let state = seed;
    return Uint8Array.from({ length }, () => (state = (state * 1103515245 + 12345) >>> 0) >>> 24);
  };

  const contents: Uint8Array[] = [
    '',
    '# Note\n',
    'x'.repeat(15),
    'y'.repeat(16),
    'é'.repeat(5000),
    Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join('\n'),
  ].map((text): Uint8Array => new TextEncoder().encode(text)).concat([noise(30_000, 1), noise(30_000, 2)]);

  it('writes packs git verifies, with every blob readable by git and by isomorphic-git', async () => {
    gitCli(temp.dir, 'init', '-q');
    const vault = await NodeVaultPort.open(temp.dir, { watch: false });
    // A small flush size: the blobs spread over several packs.
    const pack = new PackWriter(vault, '.git', deflateWithPako, { flushBytes: 20_000 });
    const oids = await Promise.all([...contents, contents[1] as Uint8Array].map((bytes) => pack.add(bytes)));
    await pack.finish();
    const files = await readdir(join(temp.dir, '.git/objects/pack'));
    const indexes = files.filter((name) => name.endsWith('.idx'));
    expect(indexes.length).toBeGreaterThan(1);
    expect(files.filter((name) => name.endsWith('.pack'))).toHaveLength(indexes.length);
    expect(files.filter((name) => name.startsWith('tmp_'))).toEqual([]);
    for (const index of indexes) expect(gitCli(temp.dir, 'verify-pack', join('.git/objects/pack', index))).toBe('');
    const store = new GitObjectStore(vault);
    for (const [i, bytes] of contents.entries()) {
      const oid = oids[i] as string;
      expect(gitCli(temp.dir, 'cat-file', '-s', oid).trim()).toBe(String(bytes.byteLength));
      expect(await store.readBlob(oid)).toEqual(bytes);
    }
    // The same content added twice is packed once.
    expect(oids[contents.length]).toBe(oids[1]);
    const inPack = gitCli(temp.dir, 'count-objects', '-v').match(/in-pack: (\d+)/)?.[1];
    expect(inPack).toBe(String(contents.length));
    expect(gitCli(temp.dir, 'fsck', '--full', '--strict', '--no-dangling')).toBe('');
  });

  it("compresses, assembles and indexes in the slicer's slices, never in the task the hashes came back in", async () => {
    gitCli(temp.dir, 'init', '-q');
    const vault = await NodeVaultPort.open(temp.dir, { watch: false });
    // No budget at all: every step that can give way does.
    const slicer = new Slicer(0);
    const pack = new PackWriter(vault, '.git', deflateWithPako, { flushBytes: 20_000, slicer });
    await Promise.all(contents.map((bytes) => pack.add(bytes)));
    await pack.finish();
    const packs = (await readdir(join(temp.dir, '.git/objects/pack'))).filter((name) => name.endsWith('.pack')).length;
    // Once before compressing each blob, three times for each pack written.
    expect(slicer.yields).toBeGreaterThanOrEqual(contents.length + 3 * packs);
    expect(gitCli(temp.dir, 'fsck', '--full', '--strict', '--no-dangling')).toBe('');
  });

  it('yields while it indexes a pack of thousands of objects, not only around it', async () => {
    gitCli(temp.dir, 'init', '-q');
    const vault = await NodeVaultPort.open(temp.dir, { watch: false });
    const slicer = new Slicer(0);
    const pack = new PackWriter(vault, '.git', deflateWithPako, { slicer });
    const notes = Array.from({ length: 3000 }, (_, i) => new TextEncoder().encode(`# Note ${i}\n`));
    await Promise.all(notes.map((bytes) => pack.add(bytes)));
    await pack.finish();
    const indexes = (await readdir(join(temp.dir, '.git/objects/pack'))).filter((name) => name.endsWith('.idx'));
    expect(indexes).toHaveLength(1);
    // Once per blob and three times around the pack, as above; then around the sort and every 1,024 entries.
    expect(slicer.yields).toBeGreaterThanOrEqual(notes.length + 3 + 2 + Math.floor(notes.length / 1024));
    expect(gitCli(temp.dir, 'verify-pack', join('.git/objects/pack', indexes[0] as string))).toBe('');
    expect(gitCli(temp.dir, 'count-objects', '-v').match(/in-pack: (\d+)/)?.[1]).toBe('3000');
  });

  it('writes nothing when given nothing', async () => {
    gitCli(temp.dir, 'init', '-q');
    const pack = new PackWriter(await NodeVaultPort.open(temp.dir, { watch: false }), '.git', deflateWithPako);
    await pack.finish();
    expect((await readdir(join(temp.dir, '.git/objects/pack'))).length).toBe(0);
  });
});
