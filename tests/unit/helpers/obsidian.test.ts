import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type App } from '../../helpers/obsidian/app';
import { Events, normalizePath, TFile, TFolder, type TAbstractFile } from '../../helpers/obsidian';
import { makeTempDir } from '../../helpers/tempVault';

describe('the test obsidian module', () => {
  let dir: string;
  let removeDir: () => Promise<void>;
  let app: App;
  let events: string[];

  const seed = async (path: string, content: string): Promise<void> => {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), content);
  };

  beforeEach(async () => {
    ({ dir, remove: removeDir } = await makeTempDir());
    await seed('a/b.md', 'b');
    await seed('a/.hidden.md', 'h');
    await seed('.git/HEAD', 'ref');
    await seed('.obsidian/app.json', '{}');
    await seed('Config/app.json', '{}');
    app = await createTestApp(dir);
    events = [];
    const record = (type: string) => (file: TAbstractFile) => events.push(`${type} ${file.path}`);
    app.vault.on('create', record('create'));
    app.vault.on('modify', record('modify'));
    app.vault.on('delete', record('delete'));
    app.vault.on('rename', (file, oldPath) => events.push(`rename ${oldPath} -> ${file.path}`));
  });

  afterEach(async () => {
    await removeDir();
  });

  describe('Vault.load', () => {
    it('indexes every file and folder except hidden paths and the config folder', async () => {
      const paths = app.vault.getAllLoadedFiles().map((file) => file.path).sort();
      expect(paths).toEqual(['/', 'Config', 'Config/app.json', 'a', 'a/b.md']);
      const other = await createTestApp(dir, { configDir: 'Config' });
      expect(other.vault.getAbstractFileByPath('Config')).toBeNull();
    });

    it('builds TFile and TFolder entries like Obsidian', () => {
      const file = app.vault.getAbstractFileByPath('a/b.md');
      expect(file).toBeInstanceOf(TFile);
      expect(file).toMatchObject({ name: 'b.md', basename: 'b', extension: 'md', stat: { size: 1 } });
      expect(file?.parent).toBe(app.vault.getFolderByPath('a'));
      expect(app.vault.getRoot()).toMatchObject({ path: '/', name: '', parent: null });
      expect(app.vault.getRoot().children.map((child) => child.path).sort()).toEqual(['Config', 'a']);
    });
  });

  describe('Vault.create', () => {
    it('refuses an existing path with Obsidian\'s message', async () => {
      await expect(app.vault.create('a/b.md', 'x')).rejects.toThrow('File already exists.');
      expect(await readFile(join(dir, 'a/b.md'), 'utf8')).toBe('b');
    });

    it('needs the parent folder to exist', async () => {
      await expect(app.vault.create('missing/n.md', 'x')).rejects.toThrow();
      expect(app.vault.getAbstractFileByPath('missing/n.md')).toBeNull();
    });

    it('indexes the new file and fires create', async () => {
      const file = await app.vault.create('a/new.md', 'x');
      expect(app.vault.getFileByPath('a/new.md')).toBe(file);
      expect(events).toEqual(['create a/new.md']);
    });
  });

  describe('Vault.createFolder', () => {
    it('creates missing levels, firing create for each, and refuses an existing folder', async () => {
      await app.vault.createFolder('x/y');
      expect(events).toEqual(['create x', 'create x/y']);
      await expect(app.vault.createFolder('x/y')).rejects.toThrow('Folder already exists.');
    });
  });

  describe('Vault.rename', () => {
    it('refuses an existing destination with Obsidian\'s message', async () => {
      const file = app.vault.getFileByPath('a/b.md');
      if (file === null) throw new Error('a/b.md is not indexed');
      await app.vault.create('c.md', 'c');
      await expect(app.vault.rename(file, 'c.md')).rejects.toThrow('Destination file already exists!');
      expect(await readFile(join(dir, 'c.md'), 'utf8')).toBe('c');
    });

    it('moves a folder and fires rename for it and each descendant', async () => {
      const folder = app.vault.getFolderByPath('a');
      if (folder === null) throw new Error('a is not indexed');
      await app.vault.rename(folder, 'z');
      expect(events).toEqual(['rename a -> z', 'rename a/b.md -> z/b.md']);
      expect(app.vault.getFileByPath('z/b.md')?.parent).toBe(folder);
      expect(app.vault.getAbstractFileByPath('a/b.md')).toBeNull();
      expect(await readFile(join(dir, 'z/.hidden.md'), 'utf8')).toBe('h');
    });
  });

  describe('Vault.process', () => {
    it('writes nothing when the callback throws', async () => {
      const file = app.vault.getFileByPath('a/b.md');
      if (file === null) throw new Error('a/b.md is not indexed');
      await expect(
        app.vault.process(file, () => {
          throw new Error('no');
        }),
      ).rejects.toThrow('no');
      expect(await readFile(join(dir, 'a/b.md'), 'utf8')).toBe('b');
      expect(events).toEqual([]);
    });
  });

  describe('FileSystemAdapter', () => {
    it('changes the disk only; reconcile() plays the watcher catching up', async () => {
      await app.vault.adapter.mkdir('n');
      await app.vault.adapter.write('n/new.md', 'x');
      await app.vault.adapter.remove('a/b.md');
      expect(app.vault.getAbstractFileByPath('n/new.md')).toBeNull();
      expect(events).toEqual([]);
      await app.vault.reconcile();
      expect(events).toEqual(['delete a/b.md', 'create n', 'create n/new.md']);
      expect(app.vault.getAbstractFileByPath('n/new.md')).toBeInstanceOf(TFile);
    });

    it('lists children as full vault-relative paths and stats them', async () => {
      expect(await app.vault.adapter.list('a')).toEqual({ files: expect.arrayContaining(['a/b.md', 'a/.hidden.md']) as unknown, folders: [] });
      expect(await app.vault.adapter.stat('a')).toMatchObject({ type: 'folder' });
      expect(await app.vault.adapter.stat('nope')).toBeNull();
    });

    it('refuses a view where an ArrayBuffer is required', async () => {
      const view = new Uint8Array(8).subarray(2, 4);
      // A caller typed against the official API cannot pass a view; plain JavaScript can.
      const write = Reflect.get(app.vault.adapter, 'writeBinary') as (path: string, data: unknown) => Promise<void>;
      await expect(write.call(app.vault.adapter, 'v.bin', view)).rejects.toThrow(TypeError);
    });
  });

  describe('FileManager.trashFile', () => {
    it('moves the file to .trash/ in the vault and fires delete', async () => {
      const folder = app.vault.getFolderByPath('a');
      if (folder === null) throw new Error('a is not indexed');
      await app.fileManager.trashFile(folder);
      expect(await readFile(join(dir, '.trash/a/b.md'), 'utf8')).toBe('b');
      expect(events).toEqual(['delete a/b.md', 'delete a']);
      expect(folder).toBeInstanceOf(TFolder);
    });
  });

  describe('normalizePath', () => {
    it('behaves like Obsidian', () => {
      expect(normalizePath('\\a//b\\\\c/')).toBe('a/b/c');
      expect(normalizePath('')).toBe('/');
      expect(normalizePath('a\u00A0b')).toBe('a b');
      expect(normalizePath('e\u0301.md')).toBe('\u00E9.md');
    });
  });

  describe('Events', () => {
    it('stops calling a callback after off and offref', () => {
      const events = new Events();
      const calls: unknown[] = [];
      const first = (...data: unknown[]): void => {
        calls.push(['first', ...data]);
      };
      const ref = events.on('x', (...data: unknown[]) => calls.push(['second', ...data]));
      events.on('x', first);
      events.trigger('x', 1);
      events.off('x', first);
      events.trigger('x', 2);
      events.offref(ref);
      events.trigger('x', 3);
      expect(calls).toEqual([['second', 1], ['first', 1], ['second', 2]]);
    });
  });
});
