import { createRequire } from 'node:module';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VaultChange } from '../../../src/core/ports';
import { ObsidianVaultPort } from '../../../src/obsidian/ObsidianVaultPort';
import { createTestApp, type App } from '../../helpers/obsidian/app';
import { setTestPlatform } from '../../helpers/obsidian/platform';
import { makeTempDir } from '../../helpers/tempVault';
import { describeVaultPortContract } from '../../helpers/vaultPortContract';

const nodeRequire = createRequire(import.meta.url);

/** The desktop renderer's `window.require` (Electron), which loads Node's builtins. */
function stubDesktopWindow(): void {
  vi.stubGlobal('window', { require: (id: string) => nodeRequire(id) as unknown });
}

describeVaultPortContract('ObsidianVaultPort on desktop', async (dir) => {
  stubDesktopWindow();
  const port = new ObsidianVaultPort(await createTestApp(dir));
  return {
    port,
    dispose: async () => {
      vi.unstubAllGlobals();
      return Promise.resolve();
    },
  };
});

// A phone has no Node `fs`: exclusive creation, replace and listings fall back to the adapter alone.
describeVaultPortContract(
  'ObsidianVaultPort on a phone',
  async (dir) => {
    setTestPlatform('phone');
    const port = new ObsidianVaultPort(await createTestApp(dir));
    return {
      port,
      dispose: async () => {
        setTestPlatform('desktop');
        return Promise.resolve();
      },
    };
  },
  { nodeFs: false },
);

describe('ObsidianVaultPort', () => {
  let dir: string;
  let removeDir: () => Promise<void>;
  let app: App;
  let port: ObsidianVaultPort;
  let changes: VaultChange[];
  let unsubscribe: () => void;

  const seed = async (path: string, content: string | Uint8Array): Promise<void> => {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), content);
  };
  const onDisk = (path: string): Promise<string> => readFile(join(dir, path), 'utf8');

  beforeEach(async () => {
    ({ dir, remove: removeDir } = await makeTempDir());
    await seed('Notes/note.md', 'note');
    await seed('top.md', 'top');
    app = await createTestApp(dir);
    port = new ObsidianVaultPort(app);
    changes = [];
    unsubscribe = port.onChange((change) => changes.push(change));
  });

  afterEach(async () => {
    unsubscribe();
    vi.restoreAllMocks();
    await removeDir();
  });

  describe('root', () => {
    it('is the folder of the vault on desktop', () => {
      expect(port.root).toBe(app.vault.adapter.getBasePath());
    });
  });

  describe('write', () => {
    it('modifies a known file through the vault: a modify, no create', async () => {
      const modify = vi.spyOn(app.vault, 'modify');
      const create = vi.spyOn(app.vault, 'create');
      await port.write('Notes/note.md', 'changed');
      expect(modify).toHaveBeenCalledTimes(1);
      expect(create).not.toHaveBeenCalled();
      expect(changes).toEqual([{ type: 'modify', path: 'Notes/note.md', kind: 'file' }]);
      expect(await onDisk('Notes/note.md')).toBe('changed');
    });

    it('creates a new file and its folders through the vault, which indexes them', async () => {
      await port.write('New/Sub/n.md', 'fresh');
      expect(app.vault.getFolderByPath('New/Sub')).not.toBeNull();
      expect(app.vault.getFileByPath('New/Sub/n.md')?.stat.size).toBe(5);
      expect(changes).toEqual([
        { type: 'create', path: 'New', kind: 'folder' },
        { type: 'create', path: 'New/Sub', kind: 'folder' },
        { type: 'create', path: 'New/Sub/n.md', kind: 'file' },
      ]);
    });

    it('writes a file the index has not caught up with through the adapter, and reports it', async () => {
      await seed('late.md', 'old');
      await port.write('late.md', 'new');
      expect(await onDisk('late.md')).toBe('new');
      expect(changes).toEqual([{ type: 'modify', path: 'late.md', kind: 'file' }]);
    });
  });

  describe('hidden paths', () => {
    it('go through the adapter, stay out of the index, and still report every change', async () => {
      const create = vi.spyOn(app.vault, 'create');
      await port.write('.github/x.yml', 'on: push');
      expect(await port.readText('.github/x.yml')).toBe('on: push');
      expect(await port.process('.github/x.yml', (text) => `${text}\n`)).toBe('on: push\n');
      await port.rename('.github/x.yml', '.github/y.yml');
      await port.remove('.github');
      expect(create).not.toHaveBeenCalled();
      expect(app.vault.getAbstractFileByPath('.github')).toBeNull();
      expect(await port.exists('.github')).toBe(false);
      expect(changes).toEqual([
        { type: 'create', path: '.github', kind: 'folder' },
        { type: 'create', path: '.github/x.yml', kind: 'file' },
        { type: 'modify', path: '.github/x.yml', kind: 'file' },
        { type: 'rename', path: '.github/y.yml', oldPath: '.github/x.yml', kind: 'file' },
        { type: 'delete', path: '.github', kind: 'folder' },
      ]);
    });
  });

  describe('process', () => {
    it('goes through vault.process for a known file', async () => {
      const process = vi.spyOn(app.vault, 'process');
      expect(await port.process('top.md', (text) => `${text}!`)).toBe('top!');
      expect(process).toHaveBeenCalledTimes(1);
      expect(process.mock.calls[0]?.[0]).toBe(app.vault.getFileByPath('top.md'));
      expect(changes).toEqual([{ type: 'modify', path: 'top.md', kind: 'file' }]);
    });
  });

  describe('remove', () => {
    it('moves an indexed file to the Obsidian trash, where it can be recovered', async () => {
      await port.remove('top.md');
      expect(await port.exists('top.md')).toBe(false);
      expect(await onDisk('.trash/top.md')).toBe('top');
      expect(app.vault.getAbstractFileByPath('top.md')).toBeNull();
      expect(changes).toEqual([{ type: 'delete', path: 'top.md', kind: 'file' }]);
    });

    it('moves an indexed folder to the trash with its content, reporting each entry', async () => {
      await port.remove('Notes');
      expect(await onDisk('.trash/Notes/note.md')).toBe('note');
      expect(changes).toEqual([
        { type: 'delete', path: 'Notes/note.md', kind: 'file' },
        { type: 'delete', path: 'Notes', kind: 'folder' },
      ]);
    });
  });

  describe('rename', () => {
    it('moves through vault.rename, not fileManager.renameFile (core rewrites links)', async () => {
      const rename = vi.spyOn(app.vault, 'rename');
      const renameFile = vi.spyOn(app.fileManager, 'renameFile');
      await port.rename('Notes', 'Archive/Notes');
      expect(rename).toHaveBeenCalledTimes(1);
      expect(renameFile).not.toHaveBeenCalled();
      expect(app.vault.getFileByPath('Archive/Notes/note.md')).not.toBeNull();
      expect(changes).toEqual([
        { type: 'create', path: 'Archive', kind: 'folder' },
        { type: 'rename', path: 'Archive/Notes', oldPath: 'Notes', kind: 'folder' },
        { type: 'rename', path: 'Archive/Notes/note.md', oldPath: 'Notes/note.md', kind: 'file' },
      ]);
    });

    it('turns a platform failure into an Io error', async () => {
      await expect(port.rename('Notes', 'Notes/Inside')).rejects.toMatchObject({ code: 'Io', data: { operation: 'rename', path: 'Notes' } });
    });
  });

  describe('writeBinary and readBinary', () => {
    it('round-trip the bytes of a view at a non-zero offset', async () => {
      const backing = Uint8Array.from([7, 7, 7, 0, 255, 128, 1, 7]);
      const view = backing.subarray(3, 7);
      await port.writeBinary('img/pixel.bin', view);
      const read = await port.readBinary('img/pixel.bin');
      expect(read).toBeInstanceOf(Uint8Array);
      expect(Array.from(read)).toEqual([0, 255, 128, 1]);
      expect(app.vault.getFileByPath('img/pixel.bin')?.stat.size).toBe(4);
      await port.writeBinary('img/pixel.bin', backing.subarray(1, 3));
      expect(Array.from(await readFile(join(dir, 'img/pixel.bin')))).toEqual([7, 7]);
    });

    it('hand Obsidian the buffer itself, uncopied, when the view covers all of it', async () => {
      const write = vi.spyOn(app.vault.adapter, 'writeBinary');
      const whole = Uint8Array.from([1, 2, 3]);
      await port.writeBinary('.git/whole.bin', whole);
      expect(write.mock.calls[0]?.[1]).toBe(whole.buffer);
      expect(Array.from(await readFile(join(dir, '.git/whole.bin')))).toEqual([1, 2, 3]);
    });
  });

  describe('when Node\'s fs cannot be loaded (mobile)', () => {
    it('sees no links: listings put a link with the files or folders it points at, and readLink is null', async () => {
      await symlink('top.md', join(dir, 'alias.md'));
      expect(await port.readLink('alias.md')).toBeNull();
      expect((await port.list('')).links).toEqual([]);
    });

    it('replaces by writing over the target in place, then removing the source', async () => {
      const remove = vi.spyOn(app.vault.adapter, 'remove');
      const rename = vi.spyOn(app.vault.adapter, 'rename');
      await seed('.git/HEAD', 'old');
      await seed('.git/HEAD.lock', 'new');
      await port.replace('.git/HEAD.lock', '.git/HEAD');
      expect(await onDisk('.git/HEAD')).toBe('new');
      expect(remove.mock.calls).toEqual([['.git/HEAD.lock']]);
      expect(rename).not.toHaveBeenCalled();
    });

    it('writes the content the caller gives over the target without reading the source back', async () => {
      const read = vi.spyOn(app.vault.adapter, 'readBinary');
      const readText = vi.spyOn(app.vault.adapter, 'read');
      await seed('.git/index', 'old index');
      await seed('.git/index.lock', 'new index');
      const backing = Uint8Array.from([0, ...new TextEncoder().encode('new index'), 0]);
      await port.replace('.git/index.lock', '.git/index', backing.subarray(1, backing.length - 1));
      expect(await onDisk('.git/index')).toBe('new index');
      await seed('.git/HEAD', 'old');
      await seed('.git/HEAD.lock', 'ref: refs/heads/main\n');
      await port.replace('.git/HEAD.lock', '.git/HEAD', 'ref: refs/heads/main\n');
      expect(await onDisk('.git/HEAD')).toBe('ref: refs/heads/main\n');
      expect(await port.exists('.git/index.lock')).toBe(false);
      expect(await port.exists('.git/HEAD.lock')).toBe(false);
      expect(read).not.toHaveBeenCalled();
      expect(readText).not.toHaveBeenCalled();
    });

    it('still refuses a missing source when the caller gives its content', async () => {
      await seed('.git/index', 'old index');
      await expect(port.replace('.git/index.lock', '.git/index', 'new index')).rejects.toMatchObject({ code: 'NotFound' });
      expect(await onDisk('.git/index')).toBe('old index');
    });

    it('writes two files into one new folder at once, where the adapter refuses to make a folder that exists', async () => {
      const mkdirOnce = app.vault.adapter.mkdir.bind(app.vault.adapter);
      // Assumed of a phone's adapter (Capacitor's mkdir fails on an existing folder); each write
      // fails for the missing folder first, so both ask for it.
      vi.spyOn(app.vault.adapter, 'mkdir').mockImplementation(async (path: string) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        if ((await app.vault.adapter.stat(path)) !== null) throw new Error('Directory exists');
        await mkdirOnce(path);
      });
      await Promise.all([port.writeBinary('.git/objects/ab/tmp_obj_1', Uint8Array.of(1)), port.writeBinary('.git/objects/ab/tmp_obj_2', Uint8Array.of(2))]);
      expect(Array.from(await readFile(join(dir, '.git/objects/ab/tmp_obj_1')))).toEqual([1]);
      expect(Array.from(await readFile(join(dir, '.git/objects/ab/tmp_obj_2')))).toEqual([2]);
    });

    it('writes a file whose folder another write made between its failure and a look at the folder', async () => {
      const writeOnce = app.vault.adapter.writeBinary.bind(app.vault.adapter);
      let first = true;
      vi.spyOn(app.vault.adapter, 'writeBinary').mockImplementation(async (path: string, data: ArrayBuffer) => {
        if (path !== '.git/objects/ab/tmp_obj_1' || !first) return writeOnce(path, data);
        first = false;
        // Sent while the folder was missing, this write fails once the other has made it.
        const failure = writeOnce(path, data).catch((error: unknown) => error);
        await vi.waitFor(async () => expect((await app.vault.adapter.stat('.git/objects/ab/tmp_obj_2'))?.type).toBe('file'));
        throw await failure;
      });
      await Promise.all([port.writeBinary('.git/objects/ab/tmp_obj_1', Uint8Array.of(1)), port.writeBinary('.git/objects/ab/tmp_obj_2', Uint8Array.of(2))]);
      expect(Array.from(await readFile(join(dir, '.git/objects/ab/tmp_obj_1')))).toEqual([1]);
      expect(Array.from(await readFile(join(dir, '.git/objects/ab/tmp_obj_2')))).toEqual([2]);
    });

    it('still fails a write whose folder cannot be made', async () => {
      vi.spyOn(app.vault.adapter, 'mkdir').mockRejectedValue(new Error('Permission denied'));
      await expect(port.writeBinary('.git/objects/cd/tmp_obj_1', Uint8Array.of(1))).rejects.toThrow('Permission denied');
    });

    it('moves a file to a path nothing is at with the adapter\'s rename, its bytes never read', async () => {
      await seed('.git/objects/ab/tmp_obj_1', 'object');
      await mkdir(join(dir, '.git/objects/cd'));
      const read = vi.spyOn(app.vault.adapter, 'readBinary');
      const rename = vi.spyOn(app.vault.adapter, 'rename');
      const stat = vi.spyOn(app.vault.adapter, 'stat');
      await port.replace('.git/objects/ab/tmp_obj_1', '.git/objects/cd/ef01');
      expect(await onDisk('.git/objects/cd/ef01')).toBe('object');
      expect(await port.exists('.git/objects/ab/tmp_obj_1')).toBe(false);
      expect(rename.mock.calls).toEqual([['.git/objects/ab/tmp_obj_1', '.git/objects/cd/ef01']]);
      expect(read).not.toHaveBeenCalled();
      // The folders on the way exist: not looked at.
      expect(stat.mock.calls.map(([path]) => path)).not.toContainEqual(expect.stringMatching(/^\.git(\/objects(\/cd)?)?$/));
    });

    it('makes the missing folders of a move\'s target once the adapter refuses it for them', async () => {
      await seed('.git/objects/ab/tmp_obj_1', 'object');
      const rename = vi.spyOn(app.vault.adapter, 'rename');
      await port.replace('.git/objects/ab/tmp_obj_1', '.git/objects/cd/ef01');
      expect(await onDisk('.git/objects/cd/ef01')).toBe('object');
      expect(rename).toHaveBeenCalledTimes(2);
      expect(changes).toContainEqual({ type: 'create', path: '.git/objects/cd', kind: 'folder' });
    });

    it('writes a new hidden file without looking at its folders when they exist, and makes them when they do not', async () => {
      await mkdir(join(dir, '.git/objects/ab'), { recursive: true });
      const stat = vi.spyOn(app.vault.adapter, 'stat');
      await port.writeBinary('.git/objects/ab/tmp_obj_1', Uint8Array.of(1));
      expect(stat.mock.calls.map(([path]) => path)).not.toContainEqual(expect.stringMatching(/^\.git(\/objects(\/ab)?)?$/));
      stat.mockClear();
      await port.writeBinary('.git/objects/cd/tmp_obj_2', Uint8Array.of(2));
      expect(Array.from(await readFile(join(dir, '.git/objects/cd/tmp_obj_2')))).toEqual([2]);
      expect(stat.mock.calls.map(([path]) => path)).toContain('.git/objects/cd');
      expect(changes).toContainEqual({ type: 'create', path: '.git/objects/cd/tmp_obj_2', kind: 'file' });
    });

    it('refuses to move a folder over nothing, as a move of a file', async () => {
      await mkdir(join(dir, '.git/objects/ab'), { recursive: true });
      await expect(port.replace('.git/objects/ab', '.git/objects/cd')).rejects.toMatchObject({ code: 'WrongKind' });
      expect(await port.exists('.git/objects/ab')).toBe(true);
    });

    it('falls back to writing the bytes when the adapter refuses the rename', async () => {
      vi.spyOn(app.vault.adapter, 'rename').mockRejectedValueOnce(new Error('Destination file already exists!'));
      await seed('.git/refs/heads/main.lock', 'abc\n');
      await port.replace('.git/refs/heads/main.lock', '.git/refs/heads/topic');
      expect(await onDisk('.git/refs/heads/topic')).toBe('abc\n');
      expect(await port.exists('.git/refs/heads/main.lock')).toBe(false);
    });
  });

  describe('on desktop', () => {
    beforeEach(() => {
      stubDesktopWindow();
      port = new ObsidianVaultPort(app);
    });
    afterEach(() => vi.unstubAllGlobals());

    it('replaces with one rename on disk, never removing the target', async () => {
      const remove = vi.spyOn(app.vault.adapter, 'remove');
      await seed('.git/HEAD', 'old');
      await seed('.git/HEAD.lock', 'new');
      await port.replace('.git/HEAD.lock', '.git/HEAD');
      expect(await onDisk('.git/HEAD')).toBe('new');
      expect(remove).not.toHaveBeenCalled();
    });

    it('creates missing parents of an exclusive file as the vault does, reporting each folder', async () => {
      const events: VaultChange[] = [];
      port.onChange((change) => events.push(change));
      expect(await port.createExclusive('.git/refs/heads/main.lock', 'x')).toBe(true);
      expect(events).toEqual([
        { type: 'create', path: '.git', kind: 'folder' },
        { type: 'create', path: '.git/refs', kind: 'folder' },
        { type: 'create', path: '.git/refs/heads', kind: 'folder' },
        { type: 'create', path: '.git/refs/heads/main.lock', kind: 'file' },
      ]);
    });
  });

  describe('onChange', () => {
    it('reports changes made outside the vault API once the watcher (reconcile) catches up', async () => {
      await seed('Outside/new.md', 'x');
      await writeFile(join(dir, 'top.md'), 'changed from outside');
      await rm(join(dir, 'Notes'), { recursive: true });
      await app.vault.reconcile();
      expect(changes).toEqual([
        { type: 'delete', path: 'Notes/note.md', kind: 'file' },
        { type: 'delete', path: 'Notes', kind: 'folder' },
        { type: 'create', path: 'Outside', kind: 'folder' },
        { type: 'create', path: 'Outside/new.md', kind: 'file' },
        { type: 'modify', path: 'top.md', kind: 'file' },
      ]);
    });

    it('subscribes to the vault once and lets go of it when the last listener leaves', async () => {
      const offref = vi.spyOn(app.vault, 'offref');
      const second: VaultChange[] = [];
      const leave = port.onChange((change) => second.push(change));
      leave();
      expect(offref).not.toHaveBeenCalled();
      unsubscribe();
      expect(offref).toHaveBeenCalledTimes(4);
      await port.write('top.md', 'quiet');
      expect(changes).toEqual([]);
      expect(second).toEqual([]);
    });
  });
});
