import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { gitCli } from '../helpers/gitCli';
import { useTempDir } from '../helpers/tempVault';

type Library = typeof import('../../src/node/index');

// The built ES module, as `import { openVault } from 'recursa'` gets it.
const LIBRARY_URL = pathToFileURL(join(process.cwd(), 'dist/recursa.mjs')).href;
const library = (): Promise<Library> =>
  // eslint-disable-next-line no-unsanitized/method -- a fixed URL into this repository's build output
  import(/* @vite-ignore */ LIBRARY_URL) as Promise<Library>;

describe('dist/recursa.mjs', () => {
  const temp = useTempDir();

  it('opens a real folder and works on it through mem', async () => {
    const { openVault } = await library();
    await writeFile(join(temp.dir, 'Existing.md'), '# Existing\n');
    const { mem, close } = await openVault(temp.dir);
    expect(await mem.getGraphRoot()).toBe(temp.dir);
    await mem.writeFile('People/Ada.md', '---\ntags: [person]\n---\n# Ada\n');
    await mem.replaceInFile('Existing.md', '# Existing', '# Existing, edited');
    expect(await mem.listFiles()).toEqual(['.gitignore', 'Existing.md', 'People/']);
    expect(await readFile(join(temp.dir, 'People/Ada.md'), 'utf8')).toContain('# Ada');
    expect(await mem.getTokenCountForPaths(['Existing.md'])).toEqual([{ path: 'Existing.md', tokenCount: expect.any(Number) as number }]);
    expect(await mem.getChangedFiles()).toEqual(['Existing.md', 'People/Ada.md']);
    const hash = await mem.commitChanges('Add Ada');
    expect(gitCli(temp.dir, 'log', '--format=%H %s').trim().split('\n')[0]).toBe(`${hash} Add Ada`);
    expect(gitCli(temp.dir, 'status', '--porcelain')).toBe('');
    await close();
  });

  it('opens a folder without history when asked', async () => {
    const { openVault, GitUnavailableError } = await library();
    const { mem, git, close } = await openVault(temp.dir, { git: false });
    expect(git).toBeNull();
    await expect(mem.gitLog('')).rejects.toBeInstanceOf(GitUnavailableError);
    expect(existsSync(join(temp.dir, '.git'))).toBe(false);
    await close();
  });

  it('refuses paths outside the vault with a typed error', async () => {
    const { openVault, PathRefusedError } = await library();
    const { mem, close } = await openVault(temp.dir);
    const error = await mem.readFile('../../etc/passwd').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PathRefusedError);
    await close();
  });

  it('turns on Logseq rules for a Logseq graph', async () => {
    const { openVault } = await library();
    await mkdir(join(temp.dir, 'logseq'));
    await writeFile(join(temp.dir, 'logseq/config.edn'), '{}');
    const { mem, close } = await openVault(temp.dir, { watch: false });
    await expect(mem.writeFile('pages/x.md', 'not a block\n')).rejects.toMatchObject({ code: 'InvalidContent' });
    await close();
  });

  it('reports an index that cannot be built instead of dropping the failure', async () => {
    // Folders nested deeper than the operating system's longest path: listing the innermost fails.
    execFileSync('bash', ['-c', `cd "$1" && for i in $(seq 20); do n=$(printf 'n%.0s' $(seq 240)); mkdir "$n" && cd "$n"; done`, 'bash', temp.dir]);
    try {
      const { openVault } = await library();
      const failures: unknown[] = [];
      const { mem, close } = await openVault(temp.dir, { watch: false, git: false, onIndexError: (error) => failures.push(error) });
      await expect(mem.searchGlobal('anything')).rejects.toBeDefined();
      expect(failures).toHaveLength(1);
      await close().catch(() => undefined);
    } finally {
      // Node's rm cannot reach so deep; GNU rm walks the tree relative to each folder.
      execFileSync('rm', ['-rf', temp.dir]);
    }
  });

  it('fails clearly for a folder that does not exist', async () => {
    const { openVault } = await library();
    await expect(openVault(join(temp.dir, 'nope'))).rejects.toMatchObject({ code: 'NotFound' });
  });
});
