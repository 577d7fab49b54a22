import { describe, expect, it } from 'vitest';
import { RUNTIMES, useMemFixture } from '../../../helpers/memHarness';

describe.each(RUNTIMES)('rename ($name)', (runtime) => {
  const vault = useMemFixture(runtime);

  it('moves a file into a new folder and records both paths', async () => {
    await vault.seed('Inbox/meeting.md', 'notes');
    expect(await vault.mem.rename('Inbox/meeting.md', 'Meetings/2026/Planning.md')).toBe(true);
    expect(await vault.disk('Meetings/2026/Planning.md')).toBe('notes');
    expect(await vault.mem.fileExists('Inbox/meeting.md')).toBe(false);
    expect(vault.context.writeSet.list()).toEqual([
      { path: 'Inbox/meeting.md', existedBefore: true },
      { path: 'Meetings/2026/Planning.md', existedBefore: false },
    ]);
  });

  it('moves a folder with its content', async () => {
    await vault.seed('A/x.md', 'x');
    await vault.mem.rename('A', 'B');
    expect(await vault.disk('B/x.md')).toBe('x');
  });

  it('never replaces an existing destination', async () => {
    await vault.seed('a.md', 'a');
    await vault.seed('b.md', 'b');
    await expect(vault.mem.rename('a.md', 'b.md')).rejects.toMatchObject({
      code: 'AlreadyExists',
      data: { path: 'b.md', caller: 'mem.rename' },
    });
    expect(await vault.disk('b.md')).toBe('b');
    expect(vault.context.writeSet.size).toBe(0);
  });

  it('refuses to move a folder into itself', async () => {
    await vault.seed('A/x.md', 'x');
    await expect(vault.mem.rename('A', 'A/B')).rejects.toMatchObject({ code: 'InvalidArgument', data: { argument: 'newPath' } });
  });

  it('fails with NotFound for a missing source, even when the names are equal', async () => {
    await expect(vault.mem.rename('missing.md', 'other.md')).rejects.toMatchObject({ code: 'NotFound' });
    await expect(vault.mem.rename('missing.md', 'missing.md')).rejects.toMatchObject({ code: 'NotFound' });
  });

  it('refuses to move anything into or out of protected folders', async () => {
    await vault.seed('a.md', 'a');
    await expect(vault.mem.rename('a.md', '.obsidian/plugins/evil/main.js')).rejects.toMatchObject({ code: 'PathRefused' });
    await expect(vault.mem.rename('.git/config', 'config.md')).rejects.toMatchObject({ code: 'PathRefused' });
  });
});
