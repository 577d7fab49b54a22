import { mkdir, readFile, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { walkEntries, walkFiles, type VaultChange, type VaultPort } from '../../src/core/ports';
import { makeTempDir } from './tempVault';

export interface OpenedPort {
  port: VaultPort;
  dispose: () => Promise<void>;
}

/** What the platform behind a port offers; the cases that need it run only where it does. */
export interface PortPlatform {
  /**
   * Node's `fs` stands behind the port (Node, Obsidian desktop): symbolic links exist and are
   * reported, and `replace` is one atomic rename. False for mobile-shaped ports.
   */
  nodeFs: boolean;
}

/**
 * The behaviour every `VaultPort` must share (see the edge rules in `src/core/ports/vault.ts`),
 * run against each implementation over a fresh real folder per test.
 */
export function describeVaultPortContract(label: string, open: (dir: string) => Promise<OpenedPort>, platform: PortPlatform = { nodeFs: true }): void {
  describe(`${label} (VaultPort contract)`, () => {
    let dir: string;
    let removeDir: () => Promise<void>;
    let opened: OpenedPort;
    let port: VaultPort;
    let changes: VaultChange[];
    let unsubscribe: () => void;

    const seed = async (path: string, content: string | Uint8Array): Promise<void> => {
      await mkdir(join(dir, path, '..'), { recursive: true });
      await writeFile(join(dir, path), content);
    };
    const onDisk = (path: string): Promise<string> => readFile(join(dir, path), 'utf8');
    const expectCode = async (promise: Promise<unknown>, code: string): Promise<void> => {
      await expect(promise).rejects.toMatchObject({ code });
    };

    beforeEach(async () => {
      ({ dir, remove: removeDir } = await makeTempDir());
      await seed('Notes/existing.md', '# Existing\n');
      await seed('Notes/Deep/inner.md', 'inner');
      await seed('top.md', 'top');
      opened = await open(dir);
      port = opened.port;
      changes = [];
      unsubscribe = port.onChange((change) => changes.push(change));
    });

    afterEach(async () => {
      unsubscribe();
      await opened.dispose();
      await removeDir();
    });

    describe('readText', () => {
      it('returns the text of a file, byte for byte', async () => {
        await seed('u.md', 'héllo — 日本語 🙂\r\nline 2');
        expect(await port.readText('u.md')).toBe('héllo — 日本語 🙂\r\nline 2');
      });
      it('fails with NotFound for a missing file', async () => {
        await expectCode(port.readText('missing.md'), 'NotFound');
      });
      it('fails with WrongKind for a folder', async () => {
        await expectCode(port.readText('Notes'), 'WrongKind');
      });
    });

    describe('readBinary', () => {
      it('returns the exact bytes', async () => {
        const bytes = Uint8Array.from([0, 255, 1, 128, 10, 13]);
        await seed('img.bin', bytes);
        expect(Array.from(await port.readBinary('img.bin'))).toEqual(Array.from(bytes));
      });
      it('fails with NotFound for a missing file', async () => {
        await expectCode(port.readBinary('missing.bin'), 'NotFound');
      });
    });

    describe('write', () => {
      it('creates the file and its missing parents', async () => {
        await port.write('New/Sub/note.md', 'fresh');
        expect(await onDisk('New/Sub/note.md')).toBe('fresh');
        expect(changes).toContainEqual({ type: 'create', path: 'New/Sub/note.md', kind: 'file' });
      });
      it('replaces an existing file and reports a modify', async () => {
        await port.write('Notes/existing.md', 'replaced');
        expect(await onDisk('Notes/existing.md')).toBe('replaced');
        expect(changes).toContainEqual({ type: 'modify', path: 'Notes/existing.md', kind: 'file' });
        expect(changes.some((c) => c.type === 'create' && c.path === 'Notes/existing.md')).toBe(false);
      });
      it('writes into hidden folders too', async () => {
        await port.write('.github/workflows/x.yml', 'on: push');
        expect(await onDisk('.github/workflows/x.yml')).toBe('on: push');
        expect(changes).toContainEqual({ type: 'create', path: '.github/workflows/x.yml', kind: 'file' });
      });
      it('fails with WrongKind when the path is a folder', async () => {
        await expectCode(port.write('Notes', 'x'), 'WrongKind');
      });
    });

    describe('writeBinary', () => {
      it('writes exactly the bytes of a view, not its whole buffer', async () => {
        const backing = Uint8Array.from([9, 9, 1, 2, 3, 9]);
        await port.writeBinary('bin/data.bin', backing.subarray(2, 5));
        expect(Array.from(await readFile(join(dir, 'bin/data.bin')))).toEqual([1, 2, 3]);
        expect(changes).toContainEqual({ type: 'create', path: 'bin/data.bin', kind: 'file' });
      });
    });

    describe('process', () => {
      it('replaces the content with what the function returns', async () => {
        const written = await port.process('Notes/existing.md', (text) => text.toUpperCase());
        expect(written).toBe('# EXISTING\n');
        expect(await onDisk('Notes/existing.md')).toBe('# EXISTING\n');
        expect(changes).toContainEqual({ type: 'modify', path: 'Notes/existing.md', kind: 'file' });
      });
      it('writes nothing and passes the error on when the function throws', async () => {
        const refusal = new Error('refused');
        await expect(
          port.process('Notes/existing.md', () => {
            throw refusal;
          }),
        ).rejects.toBe(refusal);
        expect(await onDisk('Notes/existing.md')).toBe('# Existing\n');
        expect(changes).toEqual([]);
      });
      it('fails with NotFound for a missing file', async () => {
        await expectCode(port.process('missing.md', (text) => text), 'NotFound');
      });
      it('serialises concurrent calls on the same file', async () => {
        await Promise.all(
          Array.from({ length: 20 }, () => port.process('top.md', (text) => `${text}+`)),
        );
        expect(await onDisk('top.md')).toBe(`top${'+'.repeat(20)}`);
      });
    });

    describe('exists', () => {
      it('is true for files and folders and false for missing paths', async () => {
        expect(await port.exists('top.md')).toBe(true);
        expect(await port.exists('Notes/Deep')).toBe(true);
        expect(await port.exists('nope.md')).toBe(false);
        expect(await port.exists('Notes/nope/deeper.md')).toBe(false);
      });
    });

    describe('stat', () => {
      it('describes a file', async () => {
        const info = await port.stat('Notes/existing.md');
        const real = await stat(join(dir, 'Notes/existing.md'));
        expect(info).toMatchObject({ kind: 'file', size: real.size });
        expect(Math.abs((info?.mtime ?? 0) - real.mtimeMs)).toBeLessThan(1000);
      });
      it('describes a folder', async () => {
        expect(await port.stat('Notes')).toMatchObject({ kind: 'folder' });
      });
      it('is null for a missing path', async () => {
        expect(await port.stat('missing.md')).toBeNull();
      });
    });

    describe('list', () => {
      it('returns immediate children as sorted vault-relative paths', async () => {
        await seed('Notes/b.md', 'b');
        await seed('Notes/A.md', 'a');
        await seed('Notes/c/d.md', 'd');
        expect(await port.list('Notes')).toEqual({
          files: ['Notes/A.md', 'Notes/b.md', 'Notes/existing.md'],
          folders: ['Notes/Deep', 'Notes/c'],
          links: [],
        });
      });
      it('lists the vault root with the empty path', async () => {
        const listing = await port.list('');
        expect(listing.files).toContain('top.md');
        expect(listing.folders).toContain('Notes');
      });
      it('fails with NotFound for a missing folder and WrongKind for a file', async () => {
        await expectCode(port.list('missing'), 'NotFound');
        await expectCode(port.list('top.md'), 'WrongKind');
      });
      if (platform.nodeFs) {
        describe('when the folder holds symbolic links', () => {
          let outside: { dir: string; remove: () => Promise<void> };
          beforeEach(async () => {
            outside = await makeTempDir('recursa-outside-');
            await writeFile(join(outside.dir, 'secret.md'), 'outside the vault');
            await symlink('.', join(dir, 'Notes/loop'));
            await symlink(outside.dir, join(dir, 'Notes/Elsewhere'));
            await symlink('existing.md', join(dir, 'Notes/alias.md'));
          });
          afterEach(async () => outside.remove());

          it('lists them apart in links, whatever they point at, and nowhere else', async () => {
            expect(await port.list('Notes')).toEqual({
              files: ['Notes/existing.md'],
              folders: ['Notes/Deep'],
              links: ['Notes/Elsewhere', 'Notes/alias.md', 'Notes/loop'],
            });
          });
          it('lets a recursive walk end, never entering a link loop or leaving the vault', async () => {
            const files = await walkFiles(port, '');
            expect(files.sort()).toEqual(['Notes/Deep/inner.md', 'Notes/existing.md', 'top.md']);
            expect(await walkEntries(port, '')).toMatchObject({ links: ['Notes/Elsewhere', 'Notes/alias.md', 'Notes/loop'] });
          });
        });
      }
    });

    describe('mkdir', () => {
      it('creates nested folders and succeeds when they exist', async () => {
        await port.mkdir('A/B/C');
        await port.mkdir('A/B/C');
        expect((await stat(join(dir, 'A/B/C'))).isDirectory()).toBe(true);
        expect(changes).toContainEqual({ type: 'create', path: 'A/B/C', kind: 'folder' });
      });
      it('fails with WrongKind when a file is in the way', async () => {
        await expectCode(port.mkdir('top.md/sub'), 'WrongKind');
      });
    });

    describe('remove', () => {
      it('deletes a file', async () => {
        await port.remove('top.md');
        expect(await port.exists('top.md')).toBe(false);
        expect(changes).toContainEqual({ type: 'delete', path: 'top.md', kind: 'file' });
      });
      it('deletes a folder with everything in it', async () => {
        await port.remove('Notes');
        expect(await port.exists('Notes')).toBe(false);
        expect(await port.exists('Notes/Deep/inner.md')).toBe(false);
        expect(changes).toContainEqual({ type: 'delete', path: 'Notes', kind: 'folder' });
      });
      it('fails with NotFound for a missing path', async () => {
        await expectCode(port.remove('missing.md'), 'NotFound');
      });
    });

    describe('rename', () => {
      it('moves a file, creating the destination folders', async () => {
        await port.rename('top.md', 'Archive/2026/top.md');
        expect(await onDisk('Archive/2026/top.md')).toBe('top');
        expect(await port.exists('top.md')).toBe(false);
        expect(changes).toContainEqual({ type: 'rename', path: 'Archive/2026/top.md', oldPath: 'top.md', kind: 'file' });
      });
      it('moves a folder with its content', async () => {
        await port.rename('Notes', 'Moved');
        expect(await onDisk('Moved/Deep/inner.md')).toBe('inner');
        expect(changes).toContainEqual({ type: 'rename', path: 'Moved', oldPath: 'Notes', kind: 'folder' });
      });
      it('changes only the case of a name', async () => {
        await port.rename('top.md', 'Top.md');
        expect((await port.list('')).files).toContain('Top.md');
        expect(await onDisk('Top.md')).toBe('top');
      });
      it('refuses to replace a distinct file whose name differs only in case', async () => {
        await seed('Case.md', 'upper');
        await seed('case.md', 'lower');
        await expectCode(port.rename('case.md', 'Case.md'), 'AlreadyExists');
        expect(await onDisk('Case.md')).toBe('upper');
      });
      it('refuses to replace an existing destination', async () => {
        await expectCode(port.rename('top.md', 'Notes/existing.md'), 'AlreadyExists');
        expect(await onDisk('Notes/existing.md')).toBe('# Existing\n');
        expect(await onDisk('top.md')).toBe('top');
      });
      it('fails with NotFound for a missing source', async () => {
        await expectCode(port.rename('missing.md', 'other.md'), 'NotFound');
      });
    });

    describe('createExclusive', () => {
      it('creates a missing file and its parents, resolving true', async () => {
        expect(await port.createExclusive('.git/refs/heads/main.lock', 'abc\n')).toBe(true);
        expect(await onDisk('.git/refs/heads/main.lock')).toBe('abc\n');
        expect(changes).toContainEqual({ type: 'create', path: '.git/refs/heads/main.lock', kind: 'file' });
      });
      it('writes bytes exactly', async () => {
        const backing = Uint8Array.from([9, 0, 255, 7, 9]);
        expect(await port.createExclusive('index.lock', backing.subarray(1, 4))).toBe(true);
        expect(Array.from(await readFile(join(dir, 'index.lock')))).toEqual([0, 255, 7]);
      });
      it('resolves false and leaves the content when a file is there', async () => {
        expect(await port.createExclusive('Notes/existing.md', 'clobbered')).toBe(false);
        expect(await onDisk('Notes/existing.md')).toBe('# Existing\n');
        expect(changes).toEqual([]);
      });
      it('resolves false when a folder is there', async () => {
        expect(await port.createExclusive('Notes', 'x')).toBe(false);
        expect((await stat(join(dir, 'Notes'))).isDirectory()).toBe(true);
      });
      it('lets exactly one of two concurrent calls on one path create it', async () => {
        for (let round = 0; round < 10; round++) {
          const path = `locks/round-${round}.lock`;
          const results = await Promise.all([port.createExclusive(path, 'first'), port.createExclusive(path, 'second')]);
          expect(results.filter(Boolean)).toHaveLength(1);
          expect(await onDisk(path)).toBe(results[0] ? 'first' : 'second');
        }
      });
    });

    describe('replace', () => {
      it('moves a file over an existing one and reports both paths', async () => {
        await seed('.git/HEAD.lock', 'ref: refs/heads/next\n');
        await seed('.git/HEAD', 'ref: refs/heads/main\n');
        await port.replace('.git/HEAD.lock', '.git/HEAD');
        expect(await onDisk('.git/HEAD')).toBe('ref: refs/heads/next\n');
        expect(await port.exists('.git/HEAD.lock')).toBe(false);
        expect(changes).toContainEqual({ type: 'modify', path: '.git/HEAD', kind: 'file' });
        expect(changes).toContainEqual({ type: 'delete', path: '.git/HEAD.lock', kind: 'file' });
      });
      it('creates the target when it is missing', async () => {
        await seed('new.lock', 'new');
        await port.replace('new.lock', 'new');
        expect(await onDisk('new')).toBe('new');
        expect(await port.exists('new.lock')).toBe(false);
        expect(changes).toContainEqual({ type: 'create', path: 'new', kind: 'file' });
      });
      it("gives the target the source's modification time, as a rename does", async () => {
        const staged = new Date(Date.now() - 60_000);
        // Content read back from the lock, then given by the caller as git's lock protocol does: text and bytes.
        const cases = [
          ['.git/index', 'new index', undefined],
          ['.git/HEAD', 'ref: refs/heads/main\n', 'ref: refs/heads/main\n'],
          ['.git/index', new TextEncoder().encode('newer index'), new TextEncoder().encode('newer index')],
        ] as const;
        for (const [path, staging, content] of cases) {
          await seed(path, 'before');
          await seed(`${path}.lock`, staging);
          await utimes(join(dir, `${path}.lock`), staged, staged);
          const lock = await port.stat(`${path}.lock`);
          await port.replace(`${path}.lock`, path, content);
          expect(await port.stat(path)).toMatchObject({ size: lock?.size, mtime: lock?.mtime });
        }
      });
      it('fails with NotFound when the source is missing, leaving the target', async () => {
        await expectCode(port.replace('missing.lock', 'top.md'), 'NotFound');
        expect(await onDisk('top.md')).toBe('top');
      });
      it('keeps the target readable throughout many replaces', async () => {
        const ref = '.git/refs/heads/main';
        const rounds = 200;
        await port.write(ref, 'v-start\n');
        let done = false;
        const seen: string[] = [];
        const reader = (async () => {
          while (!done) {
            try {
              seen.push(await readFile(join(dir, ref), 'utf8'));
            } catch (error) {
              seen.push(`failed: ${String((error as { code?: unknown }).code)}`);
            }
          }
        })();
        for (let round = 0; round < rounds; round++) {
          expect(await port.createExclusive(`${ref}.lock`, `v${round}\n`)).toBe(true);
          await port.replace(`${ref}.lock`, ref);
        }
        done = true;
        await reader;
        expect(await onDisk(ref)).toBe(`v${rounds - 1}\n`);
        expect(seen.length).toBeGreaterThan(rounds / 10);
        expect(seen.filter((text) => text.startsWith('failed'))).toEqual([]);
        // An atomic rename shows the old content or the new, whole; the mobile fallback writes in place.
        if (platform.nodeFs) expect(seen.filter((text) => !/^v(-start|\d+)\n$/.test(text))).toEqual([]);
      });
    });

    describe('append', () => {
      it('creates the file and its parents, then appends to it', async () => {
        await port.append('.git/logs/refs/heads/main', 'one\n');
        await port.append('.git/logs/refs/heads/main', 'two\n');
        expect(await onDisk('.git/logs/refs/heads/main')).toBe('one\ntwo\n');
        expect(changes).toContainEqual({ type: 'create', path: '.git/logs/refs/heads/main', kind: 'file' });
        expect(changes).toContainEqual({ type: 'modify', path: '.git/logs/refs/heads/main', kind: 'file' });
      });
      it('keeps every line of concurrent appends', async () => {
        await Promise.all(Array.from({ length: 20 }, (_, i) => port.append('log', `line ${i}\n`)));
        expect((await onDisk('log')).split('\n').filter(Boolean).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `line ${i}`).sort());
      });
      it('fails with WrongKind for a folder', async () => {
        await expectCode(port.append('Notes', 'x'), 'WrongKind');
      });
    });

    describe('readLink', () => {
      it('is null for a file, a folder and a missing path', async () => {
        expect(await port.readLink('top.md')).toBeNull();
        expect(await port.readLink('Notes')).toBeNull();
        expect(await port.readLink('missing.md')).toBeNull();
        expect(await port.readLink('missing/deeper.md')).toBeNull();
      });
      if (platform.nodeFs) {
        it('returns the target of a link as stored, even one that leads nowhere', async () => {
          await symlink('../Notes/existing.md', join(dir, 'Notes/Deep/up.md'));
          await symlink('nowhere/at/all', join(dir, 'dangling'));
          expect(await port.readLink('Notes/Deep/up.md')).toBe('../Notes/existing.md');
          expect(await port.readLink('dangling')).toBe('nowhere/at/all');
        });
        it('lets createExclusive refuse a dangling link', async () => {
          await symlink('nowhere', join(dir, 'taken.lock'));
          expect(await port.createExclusive('taken.lock', 'x')).toBe(false);
          expect(await port.readLink('taken.lock')).toBe('nowhere');
        });
      }
    });

    describe('onChange', () => {
      it('stops reporting after unsubscribing', async () => {
        unsubscribe();
        await port.write('after.md', 'x');
        expect(changes).toEqual([]);
      });
    });
  });
}
