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

  const parts = async (): Promise<string[]> => (await readdir(join(temp.dir, 'cache'))).filter((name) => name.endsWith('.jsonl')).sort();

  it('reads back every record in order, across parts, and removes parts left by a larger save', async () => {
    await saveRecords(port, FILE, 1, recordsOf(2500, 'big'));
    expect(await parts()).toEqual(['index.0.jsonl', 'index.1.jsonl', 'index.2.jsonl']);
    const loaded = (await loadRecords(port, FILE, 1, new Slicer()))?.records as { i: number; tag: string; text: string }[];
    expect(loaded.map((record) => record.i)).toEqual(Array.from({ length: 2500 }, (_, i) => i));
    expect(loaded[7]?.text).toBe('line one\nline two 7');

    await saveRecords(port, FILE, 1, recordsOf(10, 'small'));
    expect(await parts()).toEqual(['index.0.jsonl']);
    expect(((await loadRecords(port, FILE, 1, new Slicer()))?.records as { tag: string }[]).map((record) => record.tag)).toEqual(Array(10).fill('small'));

    await saveRecords(port, FILE, 1, recordsOf(0, 'none'));
    expect(await loadRecords(port, FILE, 1, new Slicer())).toEqual({ records: [], arrays: [] });
  });

  it('refuses another version, a missing or foreign part, and damaged lines', async () => {
    expect(await loadRecords(port, FILE, 1, new Slicer())).toBeNull();
    await saveRecords(port, FILE, 1, recordsOf(1500, 'a'));
    expect(await loadRecords(port, FILE, 2, new Slicer())).toBeNull();

    // A save cut short after writing its parts: the old header names another generation.
    const header = await readFile(join(temp.dir, FILE), 'utf8');
    await saveRecords(port, FILE, 1, recordsOf(1500, 'b'));
    await writeFile(join(temp.dir, FILE), header);
    expect(await loadRecords(port, FILE, 1, new Slicer())).toBeNull();

    await saveRecords(port, FILE, 1, recordsOf(1500, 'c'));
    const second = join(temp.dir, 'cache/index.1.jsonl');
    const text = await readFile(second, 'utf8');
    await writeFile(second, `${text}\n{"i":`);
    expect(await loadRecords(port, FILE, 1, new Slicer())).toBeNull();
    await port.remove('cache/index.1.jsonl');
    expect(await loadRecords(port, FILE, 1, new Slicer())).toBeNull();
  });
});
