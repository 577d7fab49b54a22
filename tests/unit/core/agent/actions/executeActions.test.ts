import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ActionJournal } from '../../../../../src/core/agent/actions/ActionJournal';
import { createActionRunner, type ActionRunner } from '../../../../../src/core/agent/actions/executeActions';
import { parseActionsResponse } from '../../../../../src/core/agent/actions/parseActions';
import type { ActionResult } from '../../../../../src/core/agent/actions/types';
import { openVault, type OpenedVault } from '../../../../../src/node/openVault';
import { useTempDir } from '../../../../helpers/tempVault';

const LOG = '.obsidian/plugins/recursa/action-log.json';
const PLAN = '# Plan\n\nShip the quarterly report before the board meeting on Friday.\n';

function actions(...parts: string[]): ReturnType<typeof parseActionsResponse>['actions'] {
  return parseActionsResponse(`<actions>${parts.join('')}</actions>`).actions;
}

function act(kind: string, target: string, extra: { source?: string; content?: string } = {}): string {
  return `<action><kind>${kind}</kind>${extra.source === undefined ? '' : `<source_path>${extra.source}</source_path>`}<target_path>${target}</target_path>${extra.content === undefined ? '' : `<content>${extra.content}</content>`}</action>`;
}

describe('the action executor', () => {
  const temp = useTempDir();
  let vault: OpenedVault;
  let runner: ActionRunner;
  beforeEach(async () => {
    await mkdir(join(temp.dir, 'Projects'), { recursive: true });
    await writeFile(join(temp.dir, 'Projects/Plan.md'), PLAN);
    vault = await openVault(temp.dir, { watch: false, git: false, workingMemoryCharLimit: 400, workingMemoryChildLimit: 4 });
    runner = createActionRunner(vault.mem, new ActionJournal(vault.port, LOG, 100), { resultChars: 40 });
  });
  afterEach(async () => vault.close());

  const run = (...parts: string[]): Promise<ActionResult[]> => runner.run(actions(...parts), 'run-1');

  it('works on the working memory: set (JSON becomes structure), get, ls, search, mv, rm', async () => {
    const results = await run(
      act('set', '/working_memory/tasks/todo/t1', { content: '{"title": "Write docs", "status": "pending"}' }),
      act('set', '/working_memory/tasks/todo/t2', { content: 'Fix the build' }),
      act('ls', '/working_memory/tasks/todo'),
      act('search', '/working_memory', { content: 'build' }),
      act('mv', '/working_memory/tasks/done/t2', { source: '/working_memory/tasks/todo/t2' }),
      act('get', '/working_memory/tasks'),
      act('rm', '/working_memory/tasks/todo/t1'),
    );
    expect(results.map((result) => [result.index, result.kind, result.status])).toEqual([
      [1, 'set', 'success'], [2, 'set', 'success'], [3, 'ls', 'success'], [4, 'search', 'success'], [5, 'mv', 'success'], [6, 'get', 'success'], [7, 'rm', 'success'],
    ]);
    expect(results[0]?.message).toMatch(/Set \(\d+ of 400 characters of working memory used\)/);
    expect(results[2]?.data).toEqual(['t1/', 't2']);
    expect(results[3]?.data).toEqual([{ path: '/working_memory/tasks/todo/t2', value: 'Fix the build' }]);
    expect(await vault.mem.workingMemory('get', '/')).toEqual({ tasks: { todo: {}, done: { t2: 'Fix the build' } } });
  });

  it('works on storage through mem: set writes a note, get reads it (cut), ls lists, search finds, mv renames, rm deletes', async () => {
    const results = await run(
      act('set', '/storage/Archive/2026-02/t1', { content: 'Done: write docs' }),
      act('get', '/storage/Projects/Plan'),
      act('ls', '/storage/Projects'),
      act('search', '/storage', { content: 'quarterly' }),
      act('mv', '/storage/Archive/old', { source: '/storage/Archive/2026-02/t1' }),
      act('rm', '/storage/Projects/Plan.md'),
    );
    expect(results.map((result) => result.status)).toEqual(['success', 'success', 'success', 'success', 'success', 'success']);
    expect(results[0]?.message).toBe('Wrote Archive/2026-02/t1.md.');
    expect(results[1]?.data).toBe(`${PLAN.slice(0, 40)}… [${PLAN.length - 40} more characters cut: get a smaller part, or search]`);
    expect(results[2]?.data).toEqual(['Plan.md']);
    expect(results[3]?.data).toEqual([{ path: '/storage/Projects/Plan.md', snippet: expect.stringContaining('quarterly') as unknown }]);
    expect(await readFile(join(temp.dir, 'Archive/old.md'), 'utf8')).toBe('Done: write docs\n');
    expect(vault.writeSet.paths()).toEqual(['Archive/2026-02/t1.md', 'Archive/old.md', 'Projects/Plan.md']);
  });

  it('moves between the areas: working memory to storage (archive) and back', async () => {
    await run(act('set', '/working_memory/tasks/done/t1', { content: '{"title": "Write docs"}' }));
    const [archive] = await run(act('mv', '/storage/Archive/t1', { source: '/working_memory/tasks/done/t1' }));
    expect(archive?.status).toBe('success');
    expect(JSON.parse(await readFile(join(temp.dir, 'Archive/t1.md'), 'utf8'))).toEqual({ title: 'Write docs' });
    expect(await vault.mem.workingMemory('get', '/tasks/done')).toEqual({});
    const [back] = await run(act('mv', '/working_memory/focus', { source: '/storage/Archive/t1' }));
    expect(back?.status).toBe('success');
    expect(await vault.mem.workingMemory('get', '/focus')).toEqual({ title: 'Write docs' });
    expect(await vault.mem.fileExists('Archive/t1.md')).toBe(false);
  });

  it('runs nothing when one action is invalid, and numbers every result', async () => {
    const results = await run(act('set', '/working_memory/a', { content: 'x' }), act('delete', '/storage/a'));
    expect(results).toMatchObject([
      { index: 1, status: 'error', error: expect.stringMatching(/not run: another action/) as unknown },
      { index: 2, status: 'error', kind: 'delete', error: expect.stringMatching(/invalid action: unknown kind/) as unknown },
    ]);
    expect(await vault.mem.workingMemory('get', '/')).toEqual({});
  });

  it('keeps going after a failed action, reporting the error with its code', async () => {
    const results = await run(act('get', '/storage/Missing/note'), act('set', '/working_memory/big', { content: 'x'.repeat(500) }), act('set', '/working_memory/ok', { content: 'fine' }));
    expect(results.map((result) => result.status)).toEqual(['error', 'error', 'success']);
    expect(results[0]?.error).toMatch(/nothing at \/storage\/Missing\/note/);
    expect(results[1]?.error).toMatch(/^WorkingMemory: Working memory is limited to 400 characters; it holds \d+ now/);
  });

  it('holds storage to the path policy', async () => {
    const results = await run(
      act('set', '/storage/.git/config', { content: 'x' }),
      act('set', '/storage/.obsidian/plugins/evil/main.js', { content: 'x' }),
      act('get', '/storage/../../etc/passwd'),
      act('rm', '/storage'),
    );
    expect(results.map((result) => result.status)).toEqual(['error', 'error', 'error', 'error']);
    expect(results.slice(0, 3).every((result) => result.error?.startsWith('PathRefused'))).toBe(true);
    expect(results[3]?.error).toMatch(/whole storage/);
    expect(vault.writeSet.size).toBe(0);
  });

  it('refuses more than 20 actions in one answer', async () => {
    const results = await run(...Array.from({ length: 21 }, (_, i) => act('set', `/working_memory/n${i}`, { content: 'x' })));
    expect(results).toHaveLength(21);
    expect(results.every((result) => result.status === 'error')).toBe(true);
    expect(results[20]?.error).toMatch(/at most 20 actions/);
  });
});

describe('the action journal', () => {
  const temp = useTempDir();

  it('continues the numbers across runs and restarts, and keeps the last N entries in the data folder', async () => {
    const first = await openVault(temp.dir, { watch: false, git: false });
    const runner = createActionRunner(first.mem, new ActionJournal(first.port, LOG, 3));
    await runner.run(actions(act('set', '/working_memory/a', { content: '1' }), act('set', '/working_memory/b', { content: '2' })), 'run-1');
    await runner.run(actions(act('get', '/working_memory/a')), 'run-2');
    await first.close();

    const second = await openVault(temp.dir, { watch: false, git: false });
    const journal = new ActionJournal(second.port, LOG, 3);
    expect(await journal.lastIndex()).toBe(3);
    const results = await createActionRunner(second.mem, journal).run(actions(act('ls', '/working_memory'), act('get', '/working_memory/zzz')), 'run-3');
    expect(results.map((result) => result.index)).toEqual([4, 5]);
    await second.close();

    const log = JSON.parse(await readFile(join(temp.dir, LOG), 'utf8')) as { lastIndex: number; entries: { index: number; run: string; status: string; content_summary?: string }[] };
    expect(log.lastIndex).toBe(5);
    expect(log.entries.map((entry) => [entry.index, entry.run, entry.status])).toEqual([[3, 'run-2', 'success'], [4, 'run-3', 'success'], [5, 'run-3', 'error']]);
  });

  it('starts over from an unreadable log without failing, and never reuses a number it still shows', async () => {
    await mkdir(join(temp.dir, '.obsidian/plugins/recursa'), { recursive: true });
    await writeFile(join(temp.dir, LOG), '{"version":1,"lastIndex":"x","entries":[{"index":41}]}');
    const vault = await openVault(temp.dir, { watch: false, git: false });
    expect(await new ActionJournal(vault.port, LOG, 10).lastIndex()).toBe(41);
    await writeFile(join(temp.dir, LOG), 'not json');
    const [result] = await createActionRunner(vault.mem, new ActionJournal(vault.port, LOG, 10)).run(actions(act('ls', '/working_memory')), 'r');
    expect(result?.index).toBe(1);
    await vault.close();
  });
});

describe('two journals over the same log', () => {
  const temp = useTempDir();

  it('never hand out the same number, whichever wrote last', async () => {
    const vault = await openVault(temp.dir, { watch: false, git: false });
    const first = createActionRunner(vault.mem, new ActionJournal(vault.port, LOG, 10));
    const second = createActionRunner(vault.mem, new ActionJournal(vault.port, LOG, 10));
    const ls = actions(act('ls', '/working_memory'));
    const numbers = [...(await first.run(ls, 'a')), ...(await second.run(ls, 'b')), ...(await first.run(ls, 'a'))].map((result) => result.index);
    expect(numbers).toEqual([1, 2, 3]);
    await vault.close();
  });
});
