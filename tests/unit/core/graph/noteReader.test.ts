import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NoteReader } from '../../../../src/core/graph/noteReader';
import type { VaultPort } from '../../../../src/core/ports';
import { NodeVaultPort } from '../../../../src/node/NodeVaultPort';
import { useTempDir } from '../../../helpers/tempVault';

/** `port` as a port that cannot read a file with its stat in one step (as Obsidian's cannot). */
function withoutReadWithStat(port: VaultPort): VaultPort {
  return new Proxy(port, {
    get: (target, key) => {
      if (key === 'readWithStat') return undefined;
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('NoteReader', () => {
  const temp = useTempDir();

  it('reads a new note the same whether the port reads it with its stat in one step or not', async () => {
    const files: Record<string, string | Uint8Array> = {
      'plain.md': '# Plain\n[[Link]] #tag\n',
      'bom.md': '\ufeff# With a byte order mark\n',
      'invalid.md': Uint8Array.from([0x23, 0x20, 0xff, 0xfe, 0x41, 0xc3]),
      // 1,001 bytes of two-byte characters: the cut falls inside one.
      'long.md': 'é'.repeat(2000),
      'empty.md': '',
      'picture.png': Uint8Array.from([0x89, 0x50, 0x4e, 0x47]),
    };
    for (const [path, content] of Object.entries(files)) await writeFile(join(temp.dir, path), content);
    await mkdir(join(temp.dir, 'folder.md'));
    const port = await NodeVaultPort.open(temp.dir, { watch: false });
    let together = 0;
    const counted = Object.create(port) as VaultPort;
    counted.readWithStat = (path, options) => {
      together += 1;
      return port.readWithStat(path, options);
    };
    const partial: { one: [string, number][]; two: [string, number][] } = { one: [], two: [] };
    const oneStep = new NoteReader(counted, { maxNoteBytes: 1001, onPartialNote: (path, size) => partial.one.push([path, size]) });
    const twoSteps = new NoteReader(withoutReadWithStat(port), { maxNoteBytes: 1001, onPartialNote: (path, size) => partial.two.push([path, size]) });
    const read = new Map<string, unknown>();
    for (const path of [...Object.keys(files), 'folder.md', 'missing.md']) {
      read.set(path, await oneStep.readIfChanged(path, undefined));
      expect(read.get(path), path).toEqual(await twoSteps.readIfChanged(path, undefined));
    }
    expect(read.get('long.md')).toMatchObject({ text: 'é'.repeat(500), size: 4000 });
    expect(read.get('invalid.md')).toMatchObject({ text: '# \ufffd\ufffdA\ufffd' });
    expect(read.get('folder.md')).toBeNull();
    expect(read.get('picture.png')).toBeNull();
    expect(partial.one).toEqual([['long.md', 4000]]);
    expect(partial.two).toEqual(partial.one);
    // Every path that could be a note, the folder and the missing one included.
    expect(together).toBe(7);
    port.close();
  });
});
