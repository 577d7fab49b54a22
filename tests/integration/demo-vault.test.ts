import { cp, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openVault } from '../../src/node/openVault';
import { gitCli } from '../helpers/gitCli';
import { useTempDir } from '../helpers/tempVault';

const DEMO = join(process.cwd(), 'demo-vault');

/** The vault every README example uses: it must stay a believable, well-formed, fully linked vault. */
describe('the shipped demo vault', () => {
  const temp = useTempDir();

  it('is a vault of interlinked notes whose every link resolves', async () => {
    await cp(DEMO, temp.dir, { recursive: true });
    const { mem, close } = await openVault(temp.dir, { watch: false, git: false });
    const files = (await readdir(temp.dir, { recursive: true })).map((path) => path.split('\\').join('/'));
    const notes = files.filter((path) => path.endsWith('.md') && !path.startsWith('.'));
    expect(notes.length).toBeGreaterThanOrEqual(30);
    const unresolved: string[] = [];
    for (const note of notes) {
      for (const target of (await mem.getOutgoingLinks(note)) ?? []) if (!files.includes(target)) unresolved.push(`${note} → ${target}`);
    }
    expect(unresolved).toEqual([]);
    expect(await mem.getBacklinks('People/Marco Bellini.md')).not.toEqual([]);
    expect((await mem.queryGraph('(tag #project)')).length).toBeGreaterThan(0);
    expect(await mem.readFile('AGENTS.md')).toContain('Meetings/');
    await close();
  });

  it('becomes a clean repository when Recursa first opens it', async () => {
    await cp(DEMO, temp.dir, { recursive: true });
    const { git, close } = await openVault(temp.dir, { watch: false, graph: false });
    await git?.whenSnapshotDone();
    await close();
    expect(gitCli(temp.dir, 'status', '--porcelain')).toBe('');
    expect(gitCli(temp.dir, 'fsck', '--full', '--strict', '--no-dangling')).toBe('');
    expect(Number(gitCli(temp.dir, 'ls-files').trim().split('\n').length)).toBeGreaterThanOrEqual(30);
  });

  it('ships without a repository of its own or an installed plugin', async () => {
    const top = await readdir(DEMO);
    expect(top).not.toContain('.git');
    expect(gitCli(process.cwd(), 'check-ignore', '-q', '--no-index', 'demo-vault/.obsidian/plugins/recursa/manifest.json')).toBe('');
  });
});
