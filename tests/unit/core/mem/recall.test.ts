import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GraphIndex } from '../../../../src/core/graph/GraphIndex';
import { createMem, DEFAULT_MEM_OPTIONS, type Mem } from '../../../../src/core/mem';
import { memoryNotePath } from '../../../../src/core/memory/memoryLayout';
import { renderMemoryNote } from '../../../../src/core/memory/memoryNote';
import type { VaultRegistry } from '../../../../src/core/ports';
import { NodeVaultPort } from '../../../../src/node/NodeVaultPort';
import { createNodeVaultRegistry } from '../../../../src/node/nodeVaultRegistry';
import { makeTempDir } from '../../../helpers/tempVault';

const HOUR = 3_600_000;
const NOW = Date.now();

/** Koi's three memories, at known distances in the past. */
const KOI = [
  { id: 'mem_1', at: NOW - 1 * HOUR, content: '## Fixed authentication bug\n\nThe login was failing due to an expired token.', tags: ['auth', 'bugfix'] },
  { id: 'mem_2', at: NOW - 3 * 24 * HOUR, content: '## Added OAuth2 integration\n\nImplemented Google OAuth for social sign-in.', tags: ['auth', 'feature'] },
  { id: 'mem_3', at: NOW - 3 * 7 * 24 * HOUR, content: '## Refactored database queries\n\nOptimized N+1 queries in the user service.', tags: ['database', 'performance'] },
];

async function put(dir: string, path: string, text: string): Promise<void> {
  await mkdir(dirname(join(dir, path)), { recursive: true });
  await writeFile(join(dir, path), text);
}

async function seedMemories(dir: string, folder = 'Memories', memories = KOI): Promise<void> {
  for (const memory of memories) {
    const timestamp = new Date(memory.at).toISOString();
    const path = memoryNotePath(folder, new Date(memory.at), memory.id.slice(-4).padStart(4, '0'));
    await put(dir, path, renderMemoryNote({ id: memory.id, timestamp, tags: memory.tags, source: { conversation: null, run: null, note: null, commit: null }, content: memory.content }));
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function vaultWith(options: { graph: boolean; registry?: VaultRegistry | null; seed?: (dir: string) => Promise<void> }): Promise<{ mem: Mem; dir: string }> {
  const { dir, remove } = await makeTempDir();
  await seedMemories(dir);
  await options.seed?.(dir);
  const port = await NodeVaultPort.open(dir, { watch: false });
  const graph = options.graph ? new GraphIndex(port) : null;
  const { mem } = createMem(port, DEFAULT_MEM_OPTIONS, { graph, vaultRegistry: options.registry ?? null });
  cleanups.push(async () => {
    graph?.close();
    port.close();
    await remove();
  });
  return { mem, dir };
}

const ids = (result: { memories: { id: string }[] }): string[] => result.memories.map((memory) => memory.id);

describe.each([
  { name: 'through the search index', graph: true },
  { name: 'by a plain scan (no index)', graph: false },
])('recall $name', ({ graph }) => {
  it('returns every memory newest first without a query', async () => {
    const { mem } = await vaultWith({ graph });
    const result = await mem.recall();
    expect(ids(result)).toEqual(['mem_1', 'mem_2', 'mem_3']);
    expect(result).toMatchObject({ searched: ['this vault'], note: null });
    expect(result.memories[0]).toMatchObject({ tags: ['auth', 'bugfix'], content: KOI[0]!.content, vault: null, score: null, timestamp: new Date(KOI[0]!.at).toISOString() });
    expect(result.memories[0]!.path).toMatch(/^Memories\/\d{4}-\d{2}-\d{2}\/\d{6}_em_1\.md$/);
  });

  it('filters by query', async () => {
    const { mem } = await vaultWith({ graph });
    expect(ids(await mem.recall({ query: 'authentication' }))).toEqual(['mem_1']);
  });

  it('matches fuzzily: a typo, a word prefix', async () => {
    const { mem } = await vaultWith({ graph });
    expect(ids(await mem.recall({ query: 'authentcation' }))).toEqual(['mem_1']);
    expect(ids(await mem.recall({ query: 'optimiz' }))).toEqual(['mem_3']);
    const login = await mem.recall({ query: 'login' });
    expect(ids(login)).toContain('mem_1');
    expect(login.memories[0]!.score).toBeGreaterThan(0);
  });

  it('filters by tags, matching any', async () => {
    const { mem } = await vaultWith({ graph });
    expect(ids(await mem.recall({ tags: ['database'] }))).toEqual(['mem_3']);
    expect(ids(await mem.recall({ tags: ['Performance', 'bugfix'] }))).toEqual(['mem_1', 'mem_3']);
    expect(ids(await mem.recall({ tags: ['nothing'] }))).toEqual([]);
  });

  it('filters by since', async () => {
    const { mem } = await vaultWith({ graph });
    expect(ids(await mem.recall({ since: '1d' }))).toEqual(['mem_1']);
    expect(ids(await mem.recall({ since: '12h' }))).toEqual(['mem_1']);
    expect(ids(await mem.recall({ since: '2w' }))).toEqual(['mem_1', 'mem_2']);
    expect(ids(await mem.recall({ since: new Date(NOW - 30 * 24 * HOUR).toISOString().slice(0, 10) }))).toEqual(['mem_1', 'mem_2', 'mem_3']);
    expect(ids(await mem.recall({ query: 'OAuth', since: '1d' }))).toEqual([]);
  });

  it('respects the limit', async () => {
    const { mem } = await vaultWith({ graph });
    expect(ids(await mem.recall({ limit: 2 }))).toEqual(['mem_1', 'mem_2']);
    expect(ids(await mem.recall({ limit: 1, tags: ['auth'] }))).toEqual(['mem_1']);
  });

  it('combines query and tag filters', async () => {
    const { mem } = await vaultWith({ graph });
    expect(ids(await mem.recall({ query: 'OAuth', tags: ['auth'] }))).toEqual(['mem_2']);
    expect(ids(await mem.recall({ query: 'OAuth', tags: ['database'] }))).toEqual([]);
  });

  it('reads notes the user wrote or edited by hand, and leaves out the working memory and other folders', async () => {
    const { mem } = await vaultWith({
      graph,
      seed: async (dir) => {
        await put(dir, 'Memories/by hand.md', 'Remember the milk for the authentication party.\n');
        await put(dir, 'Memories/Working memory.md', '# Working memory\n\n```yaml\nplan: authentication\n```\n');
        await put(dir, 'Elsewhere/authentication.md', '# authentication elsewhere\n');
      },
    });
    const result = await mem.recall({ query: 'authentication' });
    expect(result.memories.map((memory) => memory.path).sort()).toEqual(['Memories/by hand.md', result.memories.find((m) => m.id === 'mem_1')!.path].sort());
    expect(result.memories.find((memory) => memory.path === 'Memories/by hand.md')).toMatchObject({ id: 'mem_Memories/by hand.md', tags: [] });
  });

  describe('with hostile options', () => {
    it.each([
      ['a since it does not know', { since: 'last tuesday' }, /"12h".*"yesterday"/],
      ['a limit of 0', { limit: 0 }, /1 to 100/],
      ['a fractional limit', { limit: 2.5 }, /1 to 100/],
      ['a limit over 100', { limit: 101 }, /1 to 100/],
      ['a query that is not text', { query: { $ne: 1 } }, /string/],
      ['tags that are not a list', { tags: 'auth' }, /array/],
      ['an unknown scope', { scope: 'global' }, /"vault" or "all"/],
    ])('refuses %s', async (_case, options, message) => {
      const { mem } = await vaultWith({ graph });
      await expect(mem.recall(options as never)).rejects.toMatchObject({ code: 'InvalidArgument', data: { caller: 'mem.recall' }, message: expect.stringMatching(message) as unknown });
    });

    it('refuses options that are not an object', async () => {
      const { mem } = await vaultWith({ graph });
      await expect(mem.recall('auth' as never)).rejects.toMatchObject({ code: 'InvalidArgument' });
      await expect(mem.recall([] as never)).rejects.toMatchObject({ code: 'InvalidArgument' });
    });
  });
});

describe('recall newest first through the index', () => {
  it('answers exactly as the plain scan, hand-edited times included, reading only the newest notes', async () => {
    const { dir, remove } = await makeTempDir();
    cleanups.push(remove);
    const hours = [5, 1, 9, 3, 7, 2, 8, 4, 6, 10, 11, 12];
    await seedMemories(dir, 'Memories', hours.map((h, i) => ({ id: `mem_${String(i).padStart(2, '0')}`, at: NOW - h * HOUR, tags: i % 3 === 0 ? ['alpha'] : ['beta'], content: `Memory ${i}` })));
    // Hand-written: no frontmatter (the mtime or the name is its time), and a timestamp YAML reads as a date.
    await put(dir, 'Memories/by hand.md', 'A note with no frontmatter.\n');
    await put(dir, 'Memories/dated.md', '---\ntimestamp: 2020-01-02\n---\nOld and hand-dated.\n');
    const port = await NodeVaultPort.open(dir, { watch: false });
    let reads = 0;
    const counted = Object.create(port) as NodeVaultPort;
    counted.readText = async (path: string) => {
      if (path.startsWith('Memories/')) reads++;
      return port.readText(path);
    };
    const graph = new GraphIndex(counted);
    const indexed = createMem(counted, DEFAULT_MEM_OPTIONS, { graph }).mem;
    const scanned = createMem(port, DEFAULT_MEM_OPTIONS, { graph: null }).mem;
    cleanups.push(async () => {
      graph.close();
      port.close();
    });
    await graph.build();
    for (const options of [{}, { limit: 3 }, { tags: ['alpha'], limit: 2 }, { since: '6h' }, { since: '2000-01-01', limit: 20 }]) {
      reads = 0;
      const answer = await indexed.recall(options);
      expect(answer).toEqual(await scanned.recall(options));
      if (options.limit === 3) expect(reads).toBe(3);
    }
    // A timestamp YAML reads as a number: the index cannot know that time, so recall scans, and agrees.
    await counted.write('Memories/numbered.md', '---\ntimestamp: 1577923200000\n---\nDated by a number.\n');
    for (const options of [{}, { limit: 3 }, { since: '2019-06-01', limit: 30 }]) expect(await indexed.recall(options)).toEqual(await scanned.recall(options));
    expect((await indexed.recall({ limit: 30 })).memories.at(-1)?.path).toBe('Memories/numbered.md');
  });
});

describe('recall with scope "all"', () => {
  it('also searches every other registered vault, naming it, and skips this one', async () => {
    const home = await makeTempDir();
    cleanups.push(home.remove);
    const registry = createNodeVaultRegistry({ home: home.dir });
    const other = await makeTempDir();
    cleanups.push(other.remove);
    await seedMemories(other.dir, 'Notes/Memory', [{ id: 'mem_9', at: NOW - 2 * HOUR, content: 'Other vault: the authentication server moved.', tags: ['infra'] }]);
    await registry.register({ root: other.dir, name: 'Work', memoryFolder: 'Notes/Memory/' });
    await registry.register({ root: join(home.dir, 'gone'), name: 'Gone', memoryFolder: 'Memories' });
    const { mem, dir } = await vaultWith({ graph: true, registry });
    await registry.register({ root: dir, name: 'This', memoryFolder: 'Memories' });

    const all = await mem.recall({ scope: 'all' });
    expect(ids(all)).toEqual(['mem_1', 'mem_9', 'mem_2', 'mem_3']);
    expect(all.memories[1]).toMatchObject({ vault: 'Work', path: expect.stringMatching(/^Notes\/Memory\//) as unknown });
    expect(all.searched).toEqual(['this vault', 'Gone', 'Work']);
    expect(ids(await mem.recall({ scope: 'all', query: 'authentication' })).sort()).toEqual(['mem_1', 'mem_9']);
    expect(ids(await mem.recall({ scope: 'all', tags: ['infra'] }))).toEqual(['mem_9']);
    expect(ids(await mem.recall({ query: 'authentication' }))).toEqual(['mem_1']);
  });

  it('never reads outside another vault through a hostile memory folder in the registry file', async () => {
    const home = await makeTempDir();
    cleanups.push(home.remove);
    const registry = createNodeVaultRegistry({ home: home.dir });
    const other = await makeTempDir();
    cleanups.push(other.remove);
    await put(home.dir, 'secret.md', 'authentication secret');
    await registry.register({ root: other.dir, name: 'Evil', memoryFolder: `../${home.dir.split('/').at(-1)}` });
    const { mem } = await vaultWith({ graph: false, registry });
    expect((await mem.recall({ scope: 'all', query: 'secret' })).memories).toEqual([]);
  });

  it('searches this vault alone when there is no registry (mobile), and says so', async () => {
    const { mem } = await vaultWith({ graph: true, registry: null });
    const result = await mem.recall({ scope: 'all' });
    expect(ids(result)).toEqual(['mem_1', 'mem_2', 'mem_3']);
    expect(result.searched).toEqual(['this vault']);
    expect(result.note).toMatch(/not available on this device.*only this vault/);
  });
});
