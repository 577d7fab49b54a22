import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { GitBusyError } from '../../../../src/core/errors';
import { GitService } from '../../../../src/core/git/GitService';
import { LockedUpdate } from '../../../../src/core/git/lockedUpdate';
import { createMem, DEFAULT_MEM_OPTIONS, WriteSet } from '../../../../src/core/mem';
import type { VaultPort } from '../../../../src/core/ports';
import { NodeVaultPort } from '../../../../src/node/NodeVaultPort';
import { CrashingPort, SimulatedCrash } from '../../../helpers/crashingPort';
import { rejectionOf } from '../../../helpers/errors';
import { gitCli } from '../../../helpers/gitCli';
import { useGitVault } from '../../../helpers/gitVault';
import { nodeRuntime } from '../../../helpers/memHarness';
import { useTempDir } from '../../../helpers/tempVault';

const seed = async (dir: string): Promise<void> => {
  await writeFile(join(dir, 'a.md'), 'a v1\n');
  await writeFile(join(dir, 'b.md'), 'b v1\n');
};

describe('git locks held by another program', () => {
  const vault = useGitVault(nodeRuntime, { before: seed, options: { lockWait: { timeoutMs: 200, pollMs: 10 } } });

  it('waits, then reports the lock clearly and leaves it where it is', async () => {
    await writeFile(join(vault.dir, '.git/index.lock'), 'held by another tool');
    await vault.mem.writeFile('a.md', 'a v2\n');
    const head = gitCli(vault.dir, 'rev-parse', 'HEAD').trim();
    const error = await rejectionOf(() => vault.mem.commitChanges('Edit a'), GitBusyError);
    expect(error.data).toMatchObject({ lock: '.git/index.lock' });
    expect(error.data.waitedMs).toBeGreaterThanOrEqual(200);
    expect(error.message).toContain('.git/index.lock');
    expect(await readFile(join(vault.dir, '.git/index.lock'), 'utf8')).toBe('held by another tool');
    expect(gitCli(vault.dir, 'rev-parse', 'HEAD').trim()).toBe(head);
    // The write-set survives: once the other program is done, the commit goes through.
    await rm(join(vault.dir, '.git/index.lock'));
    await vault.mem.commitChanges('Edit a');
    expect(gitCli(vault.dir, 'status', '--porcelain')).toBe('');
  });

  it('goes ahead as soon as the other program lets go', async () => {
    await writeFile(join(vault.dir, '.git/refs/heads/main.lock'), '');
    await vault.mem.writeFile('a.md', 'a v2\n');
    setTimeout(() => void rm(join(vault.dir, '.git/refs/heads/main.lock')), 50);
    await vault.mem.commitChanges('Edit a');
    expect(gitCli(vault.dir, 'log', '-1', '--format=%s').trim()).toBe('Edit a');
  });
});

describe('locks left behind', () => {
  const vault = useGitVault(nodeRuntime, { before: seed, options: { lockWait: { timeoutMs: 300, pollMs: 10, staleAfterMs: 60_000 } } });

  it('removes a lock older than the stale age, says so, and commits', async () => {
    const events: unknown[] = [];
    vault.git.onEvent((event) => events.push(event));
    await writeFile(join(vault.dir, '.git/index.lock'), 'left by a crashed git');
    const old = new Date(Date.now() - 120_000);
    await utimes(join(vault.dir, '.git/index.lock'), old, old);
    await vault.mem.writeFile('a.md', 'a v2\n');
    await vault.mem.commitChanges('Edit a');
    expect(events).toContainEqual(expect.objectContaining({ type: 'stale-lock-removed', lock: '.git/index.lock' }));
    expect(existsSync(join(vault.dir, '.git/index.lock'))).toBe(false);
    expect(gitCli(vault.dir, 'fsck', '--full', '--strict')).toBe('');
  });

  it('removes the clearing mark a process left when it died clearing a lock, and then the lock', async () => {
    await mkdir(join(vault.dir, '.git/recursa'), { recursive: true });
    await writeFile(join(vault.dir, '.git/index.lock'), 'left by a crashed git');
    await writeFile(join(vault.dir, '.git/recursa/clearing-index.lock'), '');
    const old = new Date(Date.now() - 120_000);
    for (const path of ['index.lock', 'recursa/clearing-index.lock']) await utimes(join(vault.dir, '.git', path), old, old);
    await vault.mem.writeFile('a.md', 'a v2\n');
    await vault.mem.commitChanges('Edit a');
    expect(existsSync(join(vault.dir, '.git/index.lock'))).toBe(false);
    expect(await readdir(join(vault.dir, '.git/recursa'))).toEqual([]);
    expect(gitCli(vault.dir, 'status', '--porcelain')).toBe('');
  });

  it("finishes a stopped process's decided update and undoes an undecided one, touching only the locks its journal names", async () => {
    const head = gitCli(vault.dir, 'rev-parse', 'HEAD').trim();
    const next = gitCli(vault.dir, 'commit-tree', '-p', head, '-m', 'made by a process that then died', `${head}^{tree}`).trim();
    await mkdir(join(vault.dir, '.git/recursa'), { recursive: true });
    await writeFile(join(vault.dir, '.git/refs/heads/main.lock'), `${next}\n`);
    await writeFile(join(vault.dir, '.git/recursa/journal-dead1.log'), 'lock .git/refs/heads/main\ndecided\n');
    const old = new Date(Date.now() - 120_000);
    // As the process wrote them: the lock's content, then "decided" in its journal.
    await utimes(join(vault.dir, '.git/refs/heads/main.lock'), old.getTime() / 1000 - 1, old.getTime() / 1000 - 1);
    await utimes(join(vault.dir, '.git/recursa/journal-dead1.log'), old, old);
    await vault.mem.writeFile('a.md', 'a v3\n');
    const hash = await vault.mem.commitChanges('After the recovery');
    expect(gitCli(vault.dir, 'rev-parse', `${hash}^`).trim()).toBe(next);
    expect(existsSync(join(vault.dir, '.git/recursa/journal-dead1.log'))).toBe(false);
    // An undecided journal: its lock goes, the ref stays.
    await writeFile(join(vault.dir, '.git/refs/heads/main.lock'), '0123');
    await writeFile(join(vault.dir, '.git/recursa/journal-dead2.log'), 'lock .git/refs/heads/main\nlock .git/refs/heads/other\ndeci');
    await utimes(join(vault.dir, '.git/recursa/journal-dead2.log'), old, old);
    await vault.mem.writeFile('a.md', 'a v4\n');
    const after = await vault.mem.commitChanges('After the undo');
    expect(gitCli(vault.dir, 'rev-parse', `${after}^`).trim()).toBe(hash);
    expect(gitCli(vault.dir, 'fsck', '--full', '--strict')).toBe('');
    expect((await readdir(join(vault.dir, '.git/recursa'))).filter((name) => name.endsWith('.log'))).toEqual([]);
  });

  it("does not move a lock someone took after a stopped process's decided update over the file", async () => {
    const head = gitCli(vault.dir, 'rev-parse', 'HEAD').trim();
    await mkdir(join(vault.dir, '.git/recursa'), { recursive: true });
    await writeFile(join(vault.dir, '.git/recursa/journal-dead1.log'), 'lock .git/refs/heads/main\ndecided\n');
    const old = new Date(Date.now() - 120_000);
    await utimes(join(vault.dir, '.git/recursa/journal-dead1.log'), old, old);
    // The stopped process's lock is gone; a live process has just taken the branch's lock.
    await writeFile(join(vault.dir, '.git/refs/heads/main.lock'), 'recursa alive\n');
    await writeFile(join(vault.dir, '.git/recursa/journal-alive.log'), 'lock .git/refs/heads/main\n');
    await vault.mem.writeFile('a.md', 'a v2\n');
    await rejectionOf(() => vault.mem.commitChanges('Edit a'), GitBusyError);
    expect(await readFile(join(vault.dir, '.git/refs/heads/main.lock'), 'utf8')).toBe('recursa alive\n');
    expect(gitCli(vault.dir, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(existsSync(join(vault.dir, '.git/recursa/journal-dead1.log'))).toBe(false);
  });

  it('leaves a lock alone that a journal names, however old, while another process recovers it', async () => {
    await mkdir(join(vault.dir, '.git/recursa'), { recursive: true });
    const old = new Date(Date.now() - 120_000);
    // Claimed by a live recovery: the lock is its to finish or undo.
    await writeFile(join(vault.dir, '.git/recursa/recovering-other-1a2b3c4d.log'), 'lock .git/index\nlock .git/refs/heads/main\n');
    await writeFile(join(vault.dir, '.git/index.lock'), 'recursa dead2\n');
    await writeFile(join(vault.dir, '.git/refs/heads/main.lock'), 'content staged by the stopped process\n');
    for (const lock of ['index.lock', 'refs/heads/main.lock']) await utimes(join(vault.dir, '.git', lock), old, old);
    await vault.mem.writeFile('a.md', 'a v2\n');
    await rejectionOf(() => vault.mem.commitChanges('Edit a'), GitBusyError);
    expect(await readFile(join(vault.dir, '.git/index.lock'), 'utf8')).toBe('recursa dead2\n');
    // The branch's lock is older than the stale age (60 s here), and still not removed.
    await rm(join(vault.dir, '.git/index.lock'));
    await rejectionOf(() => vault.mem.commitChanges('Edit a'), GitBusyError);
    expect(await readFile(join(vault.dir, '.git/refs/heads/main.lock'), 'utf8')).toBe('content staged by the stopped process\n');
  });

  it('leaves a live journal and its lock alone, and reports GitBusy', async () => {
    await mkdir(join(vault.dir, '.git/recursa'), { recursive: true });
    await writeFile(join(vault.dir, '.git/index.lock'), 'recursa alive\n');
    await writeFile(join(vault.dir, '.git/recursa/journal-alive.log'), 'lock .git/index\n');
    await vault.mem.writeFile('a.md', 'a v2\n');
    await rejectionOf(() => vault.mem.commitChanges('Edit a'), GitBusyError);
    expect(await readFile(join(vault.dir, '.git/index.lock'), 'utf8')).toBe('recursa alive\n');
  });
});

describe('LockedUpdate', () => {
  const temp = useTempDir();

  it('lets one of two processes waiting for one abandoned lock clear it, so the other cannot remove the lock it then takes', async () => {
    await mkdir(join(temp.dir, '.git'), { recursive: true });
    await writeFile(join(temp.dir, '.git/index.lock'), 'left by a crashed git');
    const old = new Date(Date.now() - 120_000);
    await utimes(join(temp.dir, '.git/index.lock'), old, old);
    const port = await NodeVaultPort.open(temp.dir, { watch: false });
    const wait = { timeoutMs: 400, pollMs: 10, staleAfterMs: 60_000 };
    // The first process is slow to remove the lock it found abandoned.
    let letGo: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    let removing: () => void = () => undefined;
    const reachedRemove = new Promise<void>((resolve) => (removing = resolve));
    const slow = Object.create(port) as VaultPort;
    slow.remove = async (path: string) => {
      if (path === '.git/index.lock') {
        removing();
        await held;
      }
      return port.remove(path);
    };
    const first = LockedUpdate.acquire(slow, '.git', ['.git/index'], { id: 'first' }, wait);
    await reachedRemove;
    // Meanwhile the second finds the same lock abandoned.
    const second = LockedUpdate.acquire(port, '.git', ['.git/index'], { id: 'second' }, wait);
    await new Promise((resolve) => setTimeout(resolve, 100));
    letGo();
    // Once the lock is gone either may take it, but only one, and nobody removes it from under it.
    const outcomes = await Promise.allSettled([first, second]);
    const taken = outcomes.flatMap((outcome, at) => (outcome.status === 'fulfilled' ? [{ update: outcome.value, id: at === 0 ? 'first' : 'second' }] : []));
    expect(taken).toHaveLength(1);
    expect(outcomes.find((outcome) => outcome.status === 'rejected')?.reason).toBeInstanceOf(GitBusyError);
    const [{ update, id }] = taken as [{ update: LockedUpdate; id: string }];
    expect(await readFile(join(temp.dir, '.git/index.lock'), 'utf8')).toBe(`recursa ${id}\n`);
    await update.release();
    expect(existsSync(join(temp.dir, '.git/index.lock'))).toBe(false);
    expect(await readdir(join(temp.dir, '.git/recursa'))).toEqual([]);
    port.close();
  });

  it("starts a fresh journal when the owner's last one could not be removed, so old lines never count", async () => {
    await mkdir(join(temp.dir, '.git/recursa'), { recursive: true });
    await writeFile(join(temp.dir, '.git/recursa/journal-me.log'), 'lock .git/index\ndecided\n');
    const port = await NodeVaultPort.open(temp.dir, { watch: false });
    const owner = { id: 'me', journalLeft: true };
    const update = await LockedUpdate.acquire(port, '.git', ['.git/refs/heads/main'], owner);
    expect(await readFile(join(temp.dir, '.git/refs/heads/main.lock'), 'utf8')).toBe('recursa me\n');
    await update.stage('.git/refs/heads/main', `${'a'.repeat(40)}\n`);
    expect(await readFile(join(temp.dir, '.git/recursa/journal-me.log'), 'utf8')).toBe('lock .git/refs/heads/main\n');
    await update.release();
    expect(existsSync(join(temp.dir, '.git/refs/heads/main.lock'))).toBe(false);
    expect(existsSync(join(temp.dir, '.git/recursa/journal-me.log'))).toBe(false);
    expect(owner.journalLeft).toBe(false);
    port.close();
  });

  it('names locks taken together in one append before it stages content, and a lock it holds before it waits for another', async () => {
    const port = await NodeVaultPort.open(temp.dir, { watch: false });
    const journal = join(temp.dir, '.git/recursa/journal-me.log');
    let appends = 0;
    const append = port.append.bind(port);
    port.append = (path, data) => {
      appends++;
      return append(path, data);
    };
    // The note is written while the update goes on; staging content waits for it.
    const stageWrites: string[] = [];
    const write = port.write.bind(port);
    port.write = async (path, data) => {
      if (path.endsWith('.lock') && !data.startsWith('recursa ')) stageWrites.push(await readFile(journal, 'utf8'));
      return write(path, data);
    };
    const together = await LockedUpdate.acquire(port, '.git', ['.git/index', '.git/HEAD'], { id: 'me' });
    await together.stage('.git/HEAD', 'ref: refs/heads/main\n');
    expect(stageWrites).toEqual(['lock .git/index\nlock .git/HEAD\n']);
    expect(appends).toBe(1);
    await together.release();
    port.write = write;

    await mkdir(join(temp.dir, '.git/refs/heads'), { recursive: true });
    await writeFile(join(temp.dir, '.git/refs/heads/main.lock'), 'held by another tool');
    const waiting = LockedUpdate.acquire(port, '.git', ['.git/index', '.git/refs/heads/main'], { id: 'me' }, { timeoutMs: 5_000, pollMs: 10 });
    await vi.waitFor(async () => expect(await readFile(journal, 'utf8').catch(() => '')).toBe('lock .git/index\n'));
    await rm(join(temp.dir, '.git/refs/heads/main.lock'));
    const update = await waiting;
    await update.stage('.git/refs/heads/main', `${'a'.repeat(40)}\n`);
    expect(await readFile(journal, 'utf8')).toBe('lock .git/index\nlock .git/refs/heads/main\n');
    await update.release();
    port.close();
  });

  it('takes every lock in one step where none is held, and gives back those it took when one is', async () => {
    const port = await NodeVaultPort.open(temp.dir, { watch: false });
    await mkdir(join(temp.dir, '.git/refs/heads'), { recursive: true });
    const targets = ['.git/index', '.git/refs/heads/main'];
    const tries: string[] = [];
    let running = 0;
    let together = 0;
    const create = port.createExclusive.bind(port);
    port.createExclusive = async (path, data) => {
      tries.push(path);
      together = Math.max(together, ++running);
      try {
        return await create(path, data);
      } finally {
        running--;
      }
    };
    const free = await LockedUpdate.acquire(port, '.git', targets, { id: 'me' });
    expect(together).toBe(2);
    await free.release();

    await writeFile(join(temp.dir, '.git/index.lock'), 'held by another tool');
    tries.length = 0;
    const waiting = LockedUpdate.acquire(port, '.git', targets, { id: 'me' }, { timeoutMs: 5_000, pollMs: 10 });
    // Waiting for the index's lock, in order, it holds no other: the branch's was given back.
    await vi.waitFor(() => expect(tries.filter((path) => path === '.git/index.lock').length).toBeGreaterThanOrEqual(3));
    expect(existsSync(join(temp.dir, '.git/refs/heads/main.lock'))).toBe(false);
    await rm(join(temp.dir, '.git/index.lock'));
    const update = await waiting;
    expect(await readFile(join(temp.dir, '.git/index.lock'), 'utf8')).toBe('recursa me\n');
    expect(await readFile(join(temp.dir, '.git/refs/heads/main.lock'), 'utf8')).toBe('recursa me\n');
    await update.release();
    expect(existsSync(join(temp.dir, '.git/index.lock'))).toBe(false);
    expect(existsSync(join(temp.dir, '.git/refs/heads/main.lock'))).toBe(false);
    port.close();
  });

  it('hands the port the content each lock was staged with when it moves the lock into place', async () => {
    const port: VaultPort & { close(): void } = await NodeVaultPort.open(temp.dir, { watch: false });
    const moves: [string, string, unknown][] = [];
    const replace = port.replace.bind(port);
    port.replace = (from, to, content) => {
      moves.push([from, to, content]);
      return replace(from, to, content);
    };
    const index = Uint8Array.from([68, 73, 82, 67]);
    const update = await LockedUpdate.acquire(port, '.git', ['.git/index', '.git/refs/heads/main'], { id: 'me' });
    await update.stage('.git/index', index);
    await update.stage('.git/refs/heads/main', 'abc\n');
    await update.apply();
    expect(moves).toEqual([
      ['.git/index.lock', '.git/index', index],
      ['.git/refs/heads/main.lock', '.git/refs/heads/main', 'abc\n'],
    ]);
    expect(await readFile(join(temp.dir, '.git/refs/heads/main'), 'utf8')).toBe('abc\n');
    port.close();
  });
});

describe('a crash in the middle of a commit', () => {
  const temp = useTempDir();

  /** Opens the vault on a port that dies at the `step`-th change of the commit; returns what happened. */
  async function commitCrashingAt(dir: string, step: number): Promise<'crashed' | 'committed'> {
    const inner = await NodeVaultPort.open(dir, { watch: false });
    const port = new CrashingPort(inner);
    const writeSet = new WriteSet(port);
    const git = await GitService.open(port, writeSet, { configDir: '.obsidian' });
    const { mem } = createMem(port, DEFAULT_MEM_OPTIONS, { writeSet, git, session: { runId: 'crash' } });
    await mem.writeFile('a.md', 'a v2\n');
    await mem.writeFile('New/c.md', 'c\n');
    await mem.deletePath('b.md');
    port.crashAfter(step);
    try {
      await mem.commitChanges('Agent work');
      return 'committed';
    } catch (error) {
      // mem wraps errors it does not know as IoError, keeping the message.
      if (error instanceof SimulatedCrash || (error instanceof Error && error.message.includes('simulated crash'))) return 'crashed';
      throw error;
    } finally {
      git.close();
      inner.close();
    }
  }

  it('leaves a repository git accepts, with every note intact, at every step', async () => {
    let outcome: 'crashed' | 'committed' = 'crashed';
    let step = 0;
    for (; outcome === 'crashed'; step++) {
      const dir = join(temp.dir, `step-${step}`);
      await mkdir(dir);
      await seed(dir);
      gitCli(dir, 'init', '-q', '-b', 'main');
      gitCli(dir, 'add', '-A');
      gitCli(dir, 'commit', '-q', '-m', 'base');
      outcome = await commitCrashingAt(dir, step);

      // Restart: opening the vault again recovers whatever the crash left.
      const reopened = await NodeVaultPort.open(dir, { watch: false });
      // The crashed process is gone at once here, so its leftovers count as abandoned at once.
      const git = await GitService.open(reopened, new WriteSet(reopened), { configDir: '.obsidian', lockWait: { abandonedJournalMs: 0 } });
      git.close();
      reopened.close();

      expect(gitCli(dir, 'fsck', '--full', '--strict', '--no-dangling'), `step ${step}`).toBe('');
      expect(existsSync(join(dir, '.git/index.lock')), `step ${step}`).toBe(false);
      expect(existsSync(join(dir, '.git/refs/heads/main.lock')), `step ${step}`).toBe(false);
      expect(existsSync(join(dir, '.git/recursa')) ? (await readdir(join(dir, '.git/recursa'))).filter((name) => name.endsWith('.log')) : [], `step ${step}`).toEqual([]);
      expect(await readFile(join(dir, 'a.md'), 'utf8')).toBe('a v2\n');
      expect(await readFile(join(dir, 'New/c.md'), 'utf8')).toBe('c\n');
      expect(existsSync(join(dir, 'b.md'))).toBe(false);
      const subjects = gitCli(dir, 'log', '--format=%s').trim().split('\n');
      const status = gitCli(dir, 'status', '--porcelain', '--untracked-files=all');
      if (subjects[0] === 'Agent work') {
        expect(status, `step ${step}`).toBe('');
      } else {
        expect(subjects, `step ${step}`).toEqual(['base']);
        expect(status, `step ${step}`).toBe(' M a.md\n D b.md\n?? New/c.md\n');
      }
    }
    // Every change the commit makes was a crash point before one finally went through.
    expect(step).toBeGreaterThan(10);
  }, 60_000);
});
