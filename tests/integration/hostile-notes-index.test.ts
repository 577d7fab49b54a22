import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GraphIndex, MAX_INDEXED_NOTE_BYTES } from '../../src/core/graph/GraphIndex';
import { NodeVaultPort } from '../../src/node/NodeVaultPort';
import { openVault } from '../../src/node/openVault';
import { obsidianDesktopRuntime } from '../helpers/memHarness';
import { useTempDir } from '../helpers/tempVault';

/** What notes anyone could have written can do to the index: lead it outside, or exhaust memory. */
describe('the index with hostile notes', () => {
  const temp = useTempDir();
  const outside = useTempDir('recursa-outside-');

  it('never indexes through a link, even when Obsidian reports the files behind it', async () => {
    await writeFile(join(outside.dir, 'secret.md'), 'the word zanzibarite lives outside\n');
    await writeFile(join(temp.dir, 'inside.md'), 'the word zanzibarite lives inside too\n');
    const { port, catchUp } = await obsidianDesktopRuntime.open(temp.dir);
    const graph = new GraphIndex(port);
    await graph.build();
    // A link made while Obsidian is open: its file watcher reports `ext/secret.md` as created.
    await symlink(outside.dir, join(temp.dir, 'ext'));
    await catchUp?.();
    expect((await graph.searchText('zanzibarite')).map((hit) => hit.path)).toEqual(['inside.md']);
    expect(await graph.isNote('ext/secret.md')).toBe(false);
    graph.close();
  });

  it('indexes a note over the size limit by its beginning only, and says so', async () => {
    const words = 'early '.repeat(200);
    await writeFile(join(temp.dir, 'huge.md'), `${words}${'é'.repeat(3000)} latecomer\n`);
    const port = await NodeVaultPort.open(temp.dir, { watch: false });
    const partial: [string, number][] = [];
    const graph = new GraphIndex(port, { maxNoteBytes: 4096, onPartialNote: (path, size) => partial.push([path, size]) });
    await graph.build();
    expect((await graph.searchText('early')).map((hit) => hit.path)).toEqual(['huge.md']);
    expect(await graph.searchText('latecomer')).toEqual([]);
    expect(partial).toEqual([['huge.md', 1200 + 6000 + 11]]);
    graph.close();
  });

  it(`holds at most ${MAX_INDEXED_NOTE_BYTES / 1024 / 1024} MiB of one note by default`, async () => {
    await mkdir(join(temp.dir, 'Logs'));
    const size = MAX_INDEXED_NOTE_BYTES + 1024 * 1024;
    const line = 'log line with ordinary words\n';
    await writeFile(join(temp.dir, 'Logs/export.md'), `${line.repeat(Math.floor((size - 20) / line.length))}finalmarker\n`);
    const partial: string[] = [];
    const { mem, graph, close } = await openVault(temp.dir, { watch: false, git: false, onPartialNote: (path) => partial.push(path) });
    expect(await mem.searchGlobal('ordinary')).toEqual(['Logs/export.md']);
    expect(await mem.searchGlobal('finalmarker')).toEqual([]);
    expect(partial).toEqual(['Logs/export.md']);
    expect(graph).not.toBeNull();
    await close();
  });
});
