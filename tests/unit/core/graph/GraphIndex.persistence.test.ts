import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GraphIndex, type IndexProgress } from '../../../../src/core/graph/GraphIndex';
import type { VaultPort } from '../../../../src/core/ports';
import { NodeVaultPort } from '../../../../src/node/NodeVaultPort';
import { packArrays, unpackArrays, type PackedArray } from '../../../../src/core/util/packedArrays';
import { useTempDir } from '../../../helpers/tempVault';

const CACHE = '.obsidian/plugins/recursa/graph-index.json';

/** The arrays and the first part of the save the header names. */
async function savedFiles(dir: string): Promise<{ arrays: string; part: string }> {
  const { generation } = JSON.parse(await readFile(join(dir, CACHE), 'utf8')) as { generation: string };
  return { arrays: join(dir, `.obsidian/plugins/recursa/graph-index.${generation}.0.bin`), part: join(dir, `.obsidian/plugins/recursa/graph-index.${generation}.0.jsonl`) };
}

/** The port, counting the notes it reads (by either way of reading one). */
function counting(port: VaultPort): { port: VaultPort; reads: string[] } {
  const reads: string[] = [];
  const wrapped = Object.create(port) as VaultPort;
  wrapped.readText = async (path: string) => {
    if (path.endsWith('.md')) reads.push(path);
    return port.readText(path);
  };
  const readWithStat = port.readWithStat?.bind(port);
  if (readWithStat !== undefined) {
    wrapped.readWithStat = async (path, options) => {
      if (path.endsWith('.md')) reads.push(path);
      return readWithStat(path, options);
    };
  }
  return { port: wrapped, reads };
}

describe('the graph index on disk', () => {
  const temp = useTempDir();
  let port: NodeVaultPort;
  const skipFolder = (folder: string): boolean => folder === '.obsidian';

  beforeEach(async () => {
    for (let i = 0; i < 30; i++) {
      await mkdir(join(temp.dir, `F${i % 3}`), { recursive: true });
      await writeFile(join(temp.dir, `F${i % 3}/Note ${i}.md`), `# Note ${i}\nLinks to [[Note ${(i + 1) % 30}]] #topic/n${i % 5}\nkind:: sample\n`);
    }
    port = await NodeVaultPort.open(temp.dir, { watch: false });
  });
  afterEach(() => port.close());

  /** Builds an index of the vault as it is, saves it, and lets it go. */
  async function saveIndex(): Promise<void> {
    const index = new GraphIndex(port, { skipFolder, cacheFile: CACHE });
    await index.build();
    await index.save();
    index.close();
  }

  it('loads a saved index without reading unchanged notes, and re-reads only what changed while closed', async () => {
    const first = new GraphIndex(port, { skipFolder, cacheFile: CACHE });
    await first.build();
    expect(await first.save()).toBe(true);
    first.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeFile(join(temp.dir, 'F0/Note 0.md'), '# Note 0\nNow links to [[Note 7]] instead.\n');
    await writeFile(join(temp.dir, 'F1/New.md'), '# New\nAlso links to [[Note 7]].\n');
    const { port: watched, reads } = counting(port);
    const second = new GraphIndex(watched, { skipFolder, cacheFile: CACHE });
    expect(await second.backlinksOf('F1/Note 7.md')).toEqual(['F0/Note 0.md', 'F0/Note 6.md', 'F1/New.md']);
    expect(reads.sort()).toEqual(['F0/Note 0.md', 'F1/New.md']);
    expect(await second.backlinksOf('F1/Note 1.md')).toEqual([]);
    expect((await second.searchText('instead')).map((hit) => hit.path)).toEqual(['F0/Note 0.md']);
    expect((await second.query('(tag #topic/n2) AND (property kind:: sample)')).map((match) => match.filePath)).toEqual(['F0/Note 12.md', 'F0/Note 27.md', 'F1/Note 22.md', 'F1/Note 7.md', 'F2/Note 17.md', 'F2/Note 2.md']);
    second.close();
  });

  it('answers full-text searches after a load exactly as the index that was saved', async () => {
    const first = new GraphIndex(port, { skipFolder, cacheFile: CACHE });
    await first.build();
    // Re-indexed notes move to the end of the index's own order; equal scores must not follow it.
    for (const i of [3, 4, 5]) await port.write(`F${i % 3}/Note ${i}.md`, `# Note ${i}\nLinks to [[Note ${(i + 1) % 30}]] #topic/n${i % 5}\nkind:: sample\n`);
    const queries = ['note', 'links', 'note 7', 'samplo', 'topic', 'n3'];
    const before = await Promise.all(queries.map((query) => first.searchText(query, { limit: 50 })));
    expect(before.every((hits) => hits.length > 0)).toBe(true);
    await first.save();
    first.close();
    const { port: watched, reads } = counting(port);
    const second = new GraphIndex(watched, { skipFolder, cacheFile: CACHE });
    expect(await Promise.all(queries.map((query) => second.searchText(query, { limit: 50 })))).toEqual(before);
    expect(reads).toEqual([]);
    second.close();
  });

  it('rebuilds from the notes when the saved index is corrupt, damaged or from another version', async () => {
    // Size and mtime match the file, so only the check of the record's shape keeps it out.
    const stat = await port.stat('F0/Note 0.md');
    const damaged = { path: 'F0/Note 0.md', text: '# Note 0\n', size: stat?.size, mtime: stat?.mtime, terms: 'note', parsed: { links: [], tags: [], properties: [], aliases: [], headings: 'not a list', bodyStart: 0 } };
    const header = JSON.stringify({ version: 3 });
    for (const broken of ['{"version": 1, "notes": [', JSON.stringify({ version: 999 }), 'not json', `${header}\n${JSON.stringify(damaged)}`, `${header}\nnull`, `${header}\n{"path":`]) {
      await mkdir(join(temp.dir, '.obsidian/plugins/recursa'), { recursive: true });
      await writeFile(join(temp.dir, CACHE), broken);
      const { port: watched, reads } = counting(port);
      const index = new GraphIndex(watched, { skipFolder, cacheFile: CACHE });
      expect(await index.backlinksOf('F1/Note 1.md')).toEqual(['F0/Note 0.md']);
      expect(reads).toHaveLength(30);
      index.close();
    }
  });

  it('rebuilds from the notes when any file of a saved index is damaged, and answers as before', async () => {
    await saveIndex();
    const { arrays: ARRAYS, part: PART } = await savedFiles(temp.dir);
    const savedArrays = await readFile(ARRAYS);
    const savedPart = await readFile(PART, 'utf8');
    /** The saved arrays with array `which` (in the saved order: strings, text starts, texts, field lengths, terms, starts, documents, frequencies, other files, link targets) changed by `change`. */
    const withArray = (which: number, change: (array: PackedArray) => PackedArray): Uint8Array => {
      // The first array is the save's generation, which the header names.
      const arrays = unpackArrays(new Uint8Array(savedArrays)) as PackedArray[];
      arrays[which + 1] = change(arrays[which + 1] as PackedArray);
      return packArrays(arrays);
    };
    const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
    const damages: [string, () => Promise<void>][] = [
      ['arrays cut short', () => writeFile(ARRAYS, savedArrays.subarray(0, savedArrays.length - 9))],
      ['arrays missing', () => rm(ARRAYS)],
      ['arrays of another byte order', () => writeFile(ARRAYS, Buffer.concat([Buffer.from(savedArrays.subarray(0, 4)).reverse(), savedArrays.subarray(4)]))],
      ['a posting naming no note', () => writeFile(ARRAYS, withArray(6, (documents) => documents.map((document, i) => (i === 0 ? 999 : document))))],
      ['terms out of order', () => writeFile(ARRAYS, withArray(4, () => encode('zebra\napple')))],
      ['a string table that is not JSON', () => writeFile(ARRAYS, withArray(0, () => encode('["note", ')))],
      ['a text range past the texts', () => writeFile(ARRAYS, withArray(1, (starts) => starts.map((start, i) => (i === starts.length - 1 ? start + 5 : start))))],
      ['a file list that is not JSON', () => writeFile(ARRAYS, withArray(8, () => encode('["a.png"')))],
      ['link targets of the wrong kind', () => writeFile(ARRAYS, withArray(9, () => encode('1')))],
      ['a link naming no string', () => writeFile(PART, savedPart.replace(/"links":\[\d+/, '"links":[99999'))],
      ['facts of the wrong shape', () => writeFile(PART, savedPart.replace(/"tags":\[[^\]]*\]/, '"tags":"topic"'))],
    ];
    // Each damage alone: the saved files as written, then one of them changed.
    const restore = async (): Promise<void> => {
      await writeFile(ARRAYS, savedArrays);
      await writeFile(PART, savedPart);
    };
    for (const [what, damage] of damages) {
      await restore();
      await damage();
      const { port: watched, reads } = counting(port);
      const index = new GraphIndex(watched, { skipFolder, cacheFile: CACHE });
      expect(await index.backlinksOf('F1/Note 1.md'), what).toEqual(['F0/Note 0.md']);
      expect((await index.searchText('note 7')).map((hit) => hit.path)[0], what).toBe('F1/Note 7.md');
      expect(reads, what).toHaveLength(30);
      index.close();
    }

    // Saved link targets naming no file: the notes hold, the links are resolved again.
    await restore();
    await writeFile(ARRAYS, withArray(9, (targets) => targets.map(() => 999)));
    const { port: watched, reads } = counting(port);
    const index = new GraphIndex(watched, { skipFolder, cacheFile: CACHE });
    expect(await index.backlinksOf('F1/Note 1.md')).toEqual(['F0/Note 0.md']);
    expect(await index.outgoingOf('F2/Note 29.md')).toEqual(['F0/Note 0.md']);
    expect(reads).toEqual([]);
    index.close();
  });

  it('forgets notes deleted while closed, in every answer and in the next save', async () => {
    await saveIndex();
    await rm(join(temp.dir, 'F1/Note 7.md'));
    const second = new GraphIndex(port, { skipFolder, cacheFile: CACHE });
    expect((await second.searchText('note 7', { limit: 50 })).map((hit) => hit.path)).not.toContain('F1/Note 7.md');
    expect(await second.isNote('F1/Note 7.md')).toBe(false);
    expect(await second.backlinksOf('F1/Note 7.md')).toEqual(['F0/Note 6.md']);
    expect(await second.outgoingOf('F0/Note 6.md')).toEqual(['Note 7']);
    const answers = await Promise.all(['note', 'links', 'n3'].map((query) => second.searchText(query, { limit: 50 })));
    await second.save();
    second.close();
    const { port: watched, reads } = counting(port);
    const third = new GraphIndex(watched, { skipFolder, cacheFile: CACHE });
    expect(await Promise.all(['note', 'links', 'n3'].map((query) => third.searchText(query, { limit: 50 })))).toEqual(answers);
    expect(reads).toEqual([]);
    const fresh = new GraphIndex(port, { skipFolder });
    expect(await Promise.all(['note', 'links', 'n3'].map((query) => fresh.searchText(query, { limit: 50 })))).toEqual(answers);
    third.close();
    fresh.close();
  });

  it('resolves links after a load as a fresh build does, whatever files and aliases changed while closed', async () => {
    const graphOf = async (index: GraphIndex): Promise<Record<string, unknown>> => {
      const answers: Record<string, unknown> = {};
      const paths = ['F0/Hub.md', 'Note 1.md', 'F2/diagram.png', ...Array.from({ length: 30 }, (_, i) => `F${i % 3}/Note ${i}.md`)];
      for (const path of paths) answers[path] = { out: await index.outgoingOf(path), in: await index.backlinksOf(path) };
      return answers;
    };
    const whileClosed: Record<string, () => Promise<void>> = {
      nothing: async () => {},
      'an attachment added': () => writeFile(join(temp.dir, 'F2/diagram.png'), 'png'),
      'an alias changed': () => writeFile(join(temp.dir, 'F1/Note 4.md'), '---\naliases: [Renamed]\n---\n# Note 4\n'),
      'a shorter path for a name': () => writeFile(join(temp.dir, 'Note 1.md'), '# Note 1 at the root\n'),
      'a note deleted': () => rm(join(temp.dir, 'F2/Note 5.md')),
    };
    for (const [what, change] of Object.entries(whileClosed)) {
      await rm(join(temp.dir, '.obsidian'), { recursive: true, force: true });
      await rm(join(temp.dir, 'F2/diagram.png'), { force: true });
      await rm(join(temp.dir, 'Note 1.md'), { force: true });
      await writeFile(join(temp.dir, 'F1/Note 4.md'), '---\naliases: [Four, Hub target]\n---\n# Note 4\n');
      await writeFile(join(temp.dir, 'F2/Note 5.md'), '# Note 5\nLinks to [[Note 6]]\n');
      await writeFile(join(temp.dir, 'F0/Hub.md'), '# Hub\n[[Four]] [[Hub target]] [[Renamed]] [[diagram.png]] [[Note 1]] [[F1/Note 1]] [[Note 5]]\n');
      await saveIndex();
      await change();
      const loaded = new GraphIndex(port, { skipFolder, cacheFile: CACHE });
      const fresh = new GraphIndex(port, { skipFolder });
      expect(await graphOf(loaded), what).toEqual(await graphOf(fresh));
      loaded.close();
      fresh.close();
    }
  });

  it('writes the cache again only when a note changed since it was written or loaded', async () => {
    const writes: string[] = [];
    const watched = Object.create(port) as VaultPort;
    watched.write = async (path: string, data: string) => {
      writes.push(path);
      return port.write(path, data);
    };
    const first = new GraphIndex(watched, { skipFolder, cacheFile: CACHE });
    await first.build();
    await first.save();
    expect(writes).toContain(CACHE);
    writes.length = 0;
    await first.save();
    expect(writes).toEqual([]);
    await port.write('F0/Note 0.md', '# Note 0\nchanged\n');
    await first.save();
    expect(writes).toContain(CACHE);
    first.close();

    writes.length = 0;
    const second = new GraphIndex(watched, { skipFolder, cacheFile: CACHE });
    await second.build();
    await second.save();
    expect(writes).toEqual([]);
    second.close();
    await rm(join(temp.dir, 'F2/Note 2.md'));
    const third = new GraphIndex(watched, { skipFolder, cacheFile: CACHE });
    await third.build();
    await third.save();
    expect(writes).toContain(CACHE);
    third.close();
  });

  it('answers every query asked while it catches up on many changes with all of them', async () => {
    const index = new GraphIndex(port, { skipFolder });
    await index.build();
    for (let i = 0; i < 60; i++) await port.write(`New/Fresh ${i}.md`, `# Fresh ${i}\nquokka ${i} links to [[Note 3]]\n`);
    const [first, second, third] = await Promise.all([index.searchText('quokka', { limit: 100 }), index.backlinksOf('F0/Note 3.md'), index.searchText('quokka', { limit: 100 })]);
    expect(first).toHaveLength(60);
    expect(second.filter((path) => path.startsWith('New/'))).toHaveLength(60);
    expect(third).toEqual(first);
    index.close();
  });

  it('follows a folder renamed with its notes and attachments, reading each note once', async () => {
    await writeFile(join(temp.dir, 'F1/chart.png'), 'png');
    await writeFile(join(temp.dir, 'F0/Hub.md'), '# Hub\n![[chart.png]] [[F1/Note 1]]\n');
    const { port: watched, reads } = counting(port);
    const index = new GraphIndex(watched, { skipFolder });
    await index.build();
    reads.length = 0;
    await port.rename('F1', 'Archive/F1');
    // The same notes again, one by one, as a watcher may also report them.
    for (let i = 1; i < 30; i += 3) await port.write(`Archive/F1/Note ${i}.md`, `# Note ${i}\nLinks to [[Note ${(i + 1) % 30}]] #topic/n${i % 5}\nkind:: sample\n`);
    reads.length = 0;
    expect(await index.outgoingOf('F0/Hub.md')).toEqual(['Archive/F1/Note 1.md', 'Archive/F1/chart.png']);
    expect(await index.backlinksOf('Archive/F1/Note 1.md')).toEqual(['F0/Hub.md', 'F0/Note 0.md']);
    expect(await index.isNote('F1/Note 1.md')).toBe(false);
    expect((await index.searchText('note 4', { limit: 50 })).map((hit) => hit.path)).toContain('Archive/F1/Note 4.md');
    expect((await index.searchText('note 4', { limit: 50 })).map((hit) => hit.path)).not.toContain('F1/Note 4.md');
    expect(reads.sort()).toEqual(Array.from({ length: 10 }, (_, k) => `Archive/F1/Note ${1 + 3 * k}.md`).sort());
    await port.remove('Archive');
    expect(await index.outgoingOf('F0/Hub.md')).toEqual(['F1/Note 1', 'chart.png']);
    expect(await index.backlinksOf('F2/Note 2.md')).toEqual([]);
    index.close();
  });

  it('runs saves asked for at once one after the other, so the cache they leave loads', async () => {
    const first = new GraphIndex(port, { skipFolder, cacheFile: CACHE, sliceMs: 0 });
    await first.build();
    const saves = [first.save()];
    await port.write('F0/Note 0.md', '# Note 0\nchanged while saving\n');
    saves.push(first.save(), first.save());
    expect(await Promise.all(saves)).toEqual([true, true, true]);
    first.close();
    const { port: watched, reads } = counting(port);
    const second = new GraphIndex(watched, { skipFolder, cacheFile: CACHE });
    expect((await second.searchText('saving')).map((hit) => hit.path)).toEqual(['F0/Note 0.md']);
    expect(reads).toEqual([]);
    second.close();
  });

  it('reports progress from 0 to all notes while it builds', async () => {
    const progress: IndexProgress[] = [];
    const index = new GraphIndex(port, { skipFolder, sliceMs: 0, onProgress: (p) => progress.push(p) });
    await index.build();
    expect(progress[0]).toEqual({ done: 0, total: 30 });
    expect(progress.at(-1)).toEqual({ done: 30, total: 30 });
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.every((p, i) => i === 0 || p.done >= (progress[i - 1]?.done ?? 0))).toBe(true);
    index.close();
  });
});
