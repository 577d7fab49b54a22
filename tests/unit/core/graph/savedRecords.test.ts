import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadRecords, saveRecords } from '../../../../src/core/graph/savedRecords';
import { Slicer } from '../../../../src/core/util/Slicer';
import { NodeVaultPort } from '../../../../src/node/NodeVaultPort';
import { useTempDir } from '../../../helpers/tempVault';

const FILE = 'cache/index.json';

async function* recordsOf(count: number, tag: string): AsyncGenerator<string> {
  for (let i = 0; i < count; i++) yield JSON.stringify({ i, tag, text: `line one\nline two ${i}` });
}

describe('records saved in parts', () => {
  const temp = useTempDir();
  let port: NodeVaultPort;
  beforeEach(async () => {
    port = await NodeVaultPort.open(temp.dir, { watch: false });
  });
  afterEach(() => port.close());

  /** The files of saves beside the header, each save's generation written `G`, `H`… (generations sort by time). */
  const savedFiles = async (): Promise<string[]> => {
    const letters = new Map<string, string>();
    return (await readdir(join(temp.dir, 'cache')))
      .filter((name) => name !== 'index.json')
      .sort()
      .map((name) => {
        const [stem, generation = '', ...rest] = name.split('.');
        if (!letters.has(generation)) letters.set(generation, 'GHIJ'.charAt(letters.size));
        return [stem, letters.get(generation), ...rest].join('.');
      });
  };

  it('reads back every record in order, across parts, and removes the files of earlier saves', async () => {
    await saveRecords(port, FILE, 1, recordsOf(2500, 'big'), [new Uint8Array([1, 2, 3])]);
    expect(await savedFiles()).toEqual(['index.G.0.bin', 'index.G.0.jsonl', 'index.G.1.jsonl', 'index.G.2.jsonl']);
    const loaded = await loadRecords(port, FILE, 1, new Slicer());
    const records = loaded?.records as { i: number; tag: string; text: string }[];
    expect(records.map((record) => record.i)).toEqual(Array.from({ length: 2500 }, (_, i) => i));
    expect(records[7]?.text).toBe('line one\nline two 7');
    expect(loaded?.arrays).toEqual([new Uint8Array([1, 2, 3])]);

    await saveRecords(port, FILE, 1, recordsOf(10, 'small'));
    expect(await savedFiles()).toEqual(['index.G.0.jsonl']);
    expect(((await loadRecords(port, FILE, 1, new Slicer()))?.records as { tag: string }[]).map((record) => record.tag)).toEqual(Array(10).fill('small'));

    await saveRecords(port, FILE, 1, recordsOf(0, 'none'));
    expect(await loadRecords(port, FILE, 1, new Slicer())).toEqual({ records: [], arrays: [] });
  });

  it('keeps the previous save whole when a save is cut short, and the next save clears what it left', async () => {
    await saveRecords(port, FILE, 1, recordsOf(1500, 'a'), [new Uint8Array([7])]);
    // The app quits as a save writes its header: its parts and arrays are written, the header is not.
    const quitting = Object.create(port) as NodeVaultPort;
    quitting.write = async (path: string, data: string) => {
      if (path === FILE) throw new Error('the app quit');
      return port.write(path, data);
    };
    await expect(saveRecords(quitting, FILE, 1, recordsOf(1200, 'b'), [new Uint8Array([8])])).rejects.toThrow('the app quit');
    expect(await savedFiles()).toEqual(['index.G.0.bin', 'index.G.0.jsonl', 'index.G.1.jsonl', 'index.H.0.bin', 'index.H.0.jsonl', 'index.H.1.jsonl']);
    const loaded = await loadRecords(port, FILE, 1, new Slicer());
    expect((loaded?.records as { tag: string }[]).every((record) => record.tag === 'a')).toBe(true);
    expect(loaded?.records).toHaveLength(1500);
    expect(loaded?.arrays).toEqual([new Uint8Array([7])]);

    await saveRecords(port, FILE, 1, recordsOf(5, 'c'));
    expect(await savedFiles()).toEqual(['index.G.0.jsonl']);
    expect(((await loadRecords(port, FILE, 1, new Slicer()))?.records as { tag: string }[]).map((record) => record.tag)).toEqual(Array(5).fill('c'));
  });

  it('spreads the arrays over files of at most the part size, and joins them back', async () => {
    const big = Uint32Array.from({ length: 3000 }, (_, i) => i * 2654435761);
    const bytes = Uint8Array.from({ length: 777 }, (_, i) => i % 251);
    await saveRecords(port, FILE, 1, recordsOf(3, 'a'), [bytes, big], new Slicer(), 4096);
    const files = await savedFiles();
    expect(files.filter((name) => name.endsWith('.bin'))).toEqual(['index.G.0.bin', 'index.G.1.bin', 'index.G.2.bin', 'index.G.3.bin']);
    for (const name of await readdir(join(temp.dir, 'cache'))) if (name.endsWith('.bin')) expect((await readFile(join(temp.dir, 'cache', name))).length).toBeLessThanOrEqual(4096);
    const loaded = await loadRecords(port, FILE, 1, new Slicer());
    expect(loaded?.arrays).toEqual([bytes, big]);

    // A part missing, or one too short, and the save is not read.
    const header = JSON.parse(await readFile(join(temp.dir, FILE), 'utf8')) as { generation: string };
    const third = join(temp.dir, `cache/index.${header.generation}.2.bin`);
    const content = await readFile(third);
    await writeFile(third, content.subarray(0, 100));
    expect(await loadRecords(port, FILE, 1, new Slicer())).toBeNull();
    await port.remove(`cache/index.${header.generation}.2.bin`);
    expect(await loadRecords(port, FILE, 1, new Slicer())).toBeNull();
  });

  it('refuses another version, a missing or foreign part, damaged lines, and a header naming files elsewhere', async () => {
    expect(await loadRecords(port, FILE, 1, new Slicer())).toBeNull();
    await saveRecords(port, FILE, 1, recordsOf(1500, 'a'));
    expect(await loadRecords(port, FILE, 2, new Slicer())).toBeNull();

    const header = JSON.parse(await readFile(join(temp.dir, FILE), 'utf8')) as { generation: string };
    const second = join(temp.dir, `cache/index.${header.generation}.1.jsonl`);
    const text = await readFile(second, 'utf8');
    // A part of another save under this save's name.
    await writeFile(second, text.replace(header.generation, 'other'));
    expect(await loadRecords(port, FILE, 1, new Slicer())).toBeNull();
    await writeFile(second, `${text}\n{"i":`);
    expect(await loadRecords(port, FILE, 1, new Slicer())).toBeNull();
    await writeFile(second, text);
    expect(await loadRecords(port, FILE, 1, new Slicer())).not.toBeNull();
    await writeFile(join(temp.dir, FILE), JSON.stringify({ ...header, generation: '../../elsewhere' }));
    expect(await loadRecords(port, FILE, 1, new Slicer())).toBeNull();
    await writeFile(join(temp.dir, FILE), JSON.stringify(header));
    await port.remove(`cache/index.${header.generation}.1.jsonl`);
    expect(await loadRecords(port, FILE, 1, new Slicer())).toBeNull();
  });
});
