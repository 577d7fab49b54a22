import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitService, SNAPSHOT_MESSAGE, type GitEvent } from '../../../../src/core/git/GitService';
import { createMem, DEFAULT_MEM_OPTIONS, WriteSet } from '../../../../src/core/mem';
import { gitCli } from '../../../helpers/gitCli';
import { RUNTIMES } from '../../../helpers/memHarness';
import { useTempDir } from '../../../helpers/tempVault';

const NOTES = 300;

describe.each(RUNTIMES)('the first snapshot of a vault ($name)', (runtime) => {
  const temp = useTempDir();

  async function open(): Promise<{ git: GitService; events: GitEvent[]; mem: ReturnType<typeof createMem>['mem']; dispose: () => Promise<void> }> {
    for (let i = 0; i < NOTES; i++) {
      await mkdir(join(temp.dir, `Folder ${i % 10}`), { recursive: true });
      await writeFile(join(temp.dir, `Folder ${i % 10}/Note ${i}.md`), `# Note ${i}\n\n${'text '.repeat(200)}\n`);
    }
    const { port, dispose } = await runtime.open(temp.dir);
    const writeSet = new WriteSet(port);
    const events: GitEvent[] = [];
    const git = await GitService.open(port, writeSet, { configDir: '.obsidian', sliceMs: 2 });
    git.onEvent((event) => events.push(event));
    const { mem } = createMem(port, DEFAULT_MEM_OPTIONS, { writeSet, git, session: { runId: 'run-1' } });
    return { git, events, mem, dispose: async () => { git.close(); await dispose(); } };
  }

  it('runs in the background, in slices, reporting progress', async () => {
    const { git, events, dispose } = await open();
    let timerFired = false;
    setTimeout(() => { timerFired = true; }, 0);
    const hash = await git.whenSnapshotDone();
    // The app's own timers ran while the snapshot was being stored.
    expect(timerFired).toBe(true);
    const progress = events.flatMap((event) => (event.type === 'snapshot-progress' ? [event.progress] : []));
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.every((p, i) => p.total === NOTES + 1 && (i === 0 || p.done >= (progress[i - 1]?.done ?? 0)))).toBe(true);
    expect(progress.at(-1)).toEqual({ done: NOTES + 1, total: NOTES + 1 });
    expect(events.at(-1)).toEqual({ type: 'snapshot-done', hash });
    expect(gitCli(temp.dir, 'log', '--format=%H %s').trim()).toBe(`${hash} ${SNAPSHOT_MESSAGE}`);
    expect(gitCli(temp.dir, 'ls-files').trim().split('\n')).toHaveLength(NOTES + 1);
    expect(gitCli(temp.dir, 'status', '--porcelain')).toBe('');
    expect(gitCli(temp.dir, 'fsck', '--full', '--strict')).toBe('');
    await dispose();
  });

  it('takes the original of a note the agent changes while the snapshot is reading it', async () => {
    for (let i = 0; i < 20; i++) await writeFile(join(temp.dir, `Note ${i}.md`), `# Note ${i}, the user's\n`);
    const { port, dispose } = await runtime.open(temp.dir);
    const writeSet = new WriteSet(port);
    let mem: ReturnType<typeof createMem>['mem'] | null = null;
    let agentWrite: Promise<boolean> | null = null;
    // The snapshot's read of Note 7 starts only once the agent's write of it has landed.
    const racing: typeof port = Object.create(port) as typeof port;
    racing.readBinary = async (path, options) => {
      if (path === 'Note 7.md' && agentWrite === null && mem !== null) {
        agentWrite = mem.writeFile('Note 7.md', '# Note 7, by the agent\n');
        await agentWrite;
      }
      return port.readBinary(path, options);
    };
    const git = await GitService.open(racing, writeSet, { configDir: '.obsidian' });
    mem = createMem(racing, DEFAULT_MEM_OPTIONS, { writeSet, git, session: { runId: 'run-1' } }).mem;
    await git.whenSnapshotDone();
    expect(agentWrite).not.toBeNull();
    expect(gitCli(temp.dir, 'show', 'HEAD:Note 7.md')).toBe("# Note 7, the user's\n");
    expect(await mem.getChangedFiles()).toEqual(['Note 7.md']);
    git.close();
    await dispose();
  });

  it('keeps the agent changes made meanwhile out of the snapshot and in the agent commit', async () => {
    const { git, mem, dispose } = await open();
    await mem.writeFile('Folder 3/Note 3.md', '# Note 3, by the agent\n');
    await mem.writeFile('Agent.md', 'new\n');
    await git.whenSnapshotDone();
    expect(gitCli(temp.dir, 'show', 'HEAD:Folder 3/Note 3.md')).toContain('text text');
    expect(gitCli(temp.dir, 'ls-files', 'Agent.md')).toBe('');
    expect(await mem.getChangedFiles()).toEqual(['Agent.md', 'Folder 3/Note 3.md']);
    await mem.commitChanges('Agent edits');
    expect(gitCli(temp.dir, 'show', '--name-status', '--format=', 'HEAD').trim().split('\n')).toEqual(['A\tAgent.md', 'M\tFolder 3/Note 3.md']);
    expect(gitCli(temp.dir, 'status', '--porcelain')).toBe('');
    await dispose();
  });
});
