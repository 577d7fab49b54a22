import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CancelledError, WriteLimitError } from '../../../../src/core/errors';
import { memForRun, type Mem } from '../../../../src/core/mem/createMem';
import { WriteBudget } from '../../../../src/core/mem/runScope';
import { RUNTIMES, useMemFixture } from '../../../helpers/memHarness';

describe.each(RUNTIMES)('mem bound to a run ($name)', (runtime) => {
  const fixture = useMemFixture(runtime);

  function bound(limit = Number.POSITIVE_INFINITY, signal = new AbortController().signal): { mem: Mem; budget: WriteBudget; refused: WriteLimitError[] } {
    const refused: WriteLimitError[] = [];
    const budget = new WriteBudget(limit, (error) => refused.push(error));
    return { mem: memForRun(fixture.mem, { signal, writeBudget: budget }) as Mem, budget, refused };
  }

  it('counts every byte each write puts on disk, whole files included', async () => {
    const { mem, budget } = bound();
    await mem.writeFile('a.md', 'héllo\n');
    expect(budget.bytesWritten).toBe(7);
    await fixture.seed('big.md', `${'x'.repeat(10_000)}\nword\n`);
    await mem.replaceInFile('big.md', 'word', 'term');
    expect(budget.bytesWritten).toBe(7 + 10_006);
    await mem.updateFile('a.md', 'héllo\n', 'bye\n');
    expect(budget.bytesWritten).toBe(7 + 10_006 + 4);
  });

  it('charges nothing for folders, renames and deletions', async () => {
    const { mem, budget } = bound();
    await fixture.seed('note.md', 'text\n');
    await mem.createDir('Folder');
    await mem.rename('note.md', 'Folder/note.md');
    await mem.deletePath('Folder/note.md');
    expect(budget.bytesWritten).toBe(0);
  });

  it('refuses the write that would pass the limit, writing nothing, and tells the run', async () => {
    const { mem, budget, refused } = bound(12_000);
    await fixture.seed('big.md', `${'x'.repeat(10_000)}\nword\n`);
    await mem.replaceInFile('big.md', 'word', 'once');
    const error = await mem.replaceInFile('big.md', 'once', 'twice').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WriteLimitError);
    expect((error as WriteLimitError).message).toContain('"big.md" was not written');
    expect(refused).toEqual([error]);
    expect(budget.bytesWritten).toBe(10_006);
    expect(await fixture.disk('big.md')).toBe(`${'x'.repeat(10_000)}\nonce\n`);
    await expect(mem.writeFile('new.md', 'x'.repeat(2_000))).rejects.toBeInstanceOf(WriteLimitError);
    await expect(stat(join(fixture.dir, 'new.md'))).rejects.toThrow();
  });

  it('once the run has ended, refuses every call with Cancelled, touching nothing', async () => {
    const controller = new AbortController();
    const { mem } = bound(Number.POSITIVE_INFINITY, controller.signal);
    await fixture.seed('note.md', 'text\n');
    controller.abort();
    await expect(mem.readFile('note.md')).rejects.toBeInstanceOf(CancelledError);
    await expect(mem.writeFile('note.md', 'changed\n')).rejects.toMatchObject({ code: 'Cancelled', caller: 'mem.writeFile' });
    await expect(mem.listFiles('')).rejects.toBeInstanceOf(CancelledError);
    expect(await readFile(join(fixture.dir, 'note.md'), 'utf8')).toBe('text\n');
  });

  it('leaves the unbound mem as it was: no budget, no signal', async () => {
    const controller = new AbortController();
    bound(1, controller.signal);
    controller.abort();
    await fixture.mem.writeFile('free.md', 'x'.repeat(100));
    expect(await fixture.disk('free.md')).toBe('x'.repeat(100));
  });
});

describe('memForRun', () => {
  it('cannot bind a mem that createMem did not make', () => {
    const wrapper = { readFile: () => Promise.resolve('') } as unknown as Mem;
    expect(memForRun(wrapper, { signal: new AbortController().signal })).toBeNull();
  });
});
