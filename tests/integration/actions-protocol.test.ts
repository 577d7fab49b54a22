import { existsSync } from 'node:fs';
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderSettings } from '../../src/core/llm/types';
import { SNAPSHOT_MESSAGE } from '../../src/core/git/GitService';
import { ask } from '../../src/node/ask';
import { gitCli } from '../helpers/gitCli';
import { lastUserOf, startModelServer, systemOf, type ModelServer } from '../helpers/modelServer';
import { useTempDir } from '../helpers/tempVault';

const WM_NOTE = 'Memories/Working memory.md';
const LOG = '.obsidian/plugins/recursa/action-log.json';

function action(kind: string, target: string, extra: { source?: string; content?: string } = {}): string {
  return `  <action>\n    <kind>${kind}</kind>\n${extra.source === undefined ? '' : `    <source_path>${extra.source}</source_path>\n`}    <target_path>${target}</target_path>\n${extra.content === undefined ? '' : `    <content>${extra.content}</content>\n`}  </action>`;
}
const actions = (think: string, ...parts: string[]): string => `<think>${think}</think>\n<actions>\n${parts.join('\n')}\n</actions>`;

describe("the action protocol for small models: lkjagent's task management, end to end", () => {
  const temp = useTempDir();
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer();
  });
  afterAll(async () => server.close());

  const provider = (): ProviderSettings => ({ kind: 'openai', baseUrl: `${server.url}/v1`, model: 'small-local', maxRetries: 0, protocol: 'actions' });

  it('adds tasks, moves one to done, archives it to storage — across two runs, with the vault and its history checked', async () => {
    await mkdir(join(temp.dir, 'Projects'), { recursive: true });
    await writeFile(join(temp.dir, 'Projects/Secret plan.md'), '# Secret plan\n\nSTORAGE-ONLY-CONTENT: never shown unless fetched.\n');

    // Run 1: add three tasks and look at storage.
    server.script([
      {
        text: actions(
          'Adding the three tasks.',
          action('set', '/working_memory/tasks/todo/write_docs', { content: '{"title": "Write the docs", "priority": "high"}' }),
          action('set', '/working_memory/tasks/todo/fix_build', { content: '{"title": "Fix the build", "priority": "high"}' }),
          action('set', '/working_memory/tasks/todo/plan_sprint', { content: 'Plan the next sprint' }),
          action('ls', '/storage/Projects'),
        ),
      },
      { text: '<think>Done.</think>\n<reply>Added three tasks.</reply>' },
    ]);
    server.requests.length = 0;
    const first = await ask(temp.dir, 'Add tasks: write the docs, fix the build, plan the sprint.', { provider: provider() });
    expect(first).toMatchObject({ state: 'completed', reply: 'Added three tasks.' });
    const firstSystem = systemOf(server.requests[0]);
    expect(firstSystem).toContain('<actions>');
    expect(firstSystem).toContain('| mv | source_path, target_path |');
    expect(firstSystem).not.toContain('<typescript>');
    expect(firstSystem).toContain('## Working memory (2 of 2048 characters used');
    const results1 = lastUserOf(server.requests[1]);
    expect(results1).toContain('_1 set /working_memory/tasks/todo/write_docs: success — Set (');
    expect(results1).toContain('_3 set /working_memory/tasks/todo/plan_sprint: success');
    expect(results1).toMatch(/_4 ls \/storage\/Projects: success\n\[\n "Secret plan\.md"\n\]/);
    expect(systemOf(server.requests[1])).toContain('    fix_build:\n      title: Fix the build\n      priority: high\n');

    // Run 2, a new process as far as the vault is concerned: mark one done, archive it; one action fails.
    server.script([
      { text: actions('Marking the build fixed.', action('mv', '/working_memory/tasks/done/fix_build', { source: '/working_memory/tasks/todo/fix_build' })) },
      {
        text: actions(
          'Archiving it.',
          action('mv', '/storage/archived_tasks/2026-11/fix_build', { source: '/working_memory/tasks/done/fix_build' }),
          action('get', '/storage/archived_tasks/2026-10/nothing_here'),
        ),
      },
      { text: '<think>Finished.</think>\n<reply>The build task is done and archived.</reply>' },
    ]);
    server.requests.length = 0;
    const second = await ask(temp.dir, 'The build is fixed: mark it done and archive it.', { provider: provider() });
    expect(second).toMatchObject({ state: 'completed', reply: 'The build task is done and archived.' });
    expect(systemOf(server.requests[0])).toContain('    plan_sprint: Plan the next sprint\n');
    expect(lastUserOf(server.requests[1])).toContain('_5 mv /working_memory/tasks/todo/fix_build -> /working_memory/tasks/done/fix_build: success');
    const results2 = lastUserOf(server.requests[2]);
    expect(results2).toContain('_6 mv /working_memory/tasks/done/fix_build -> /storage/archived_tasks/2026-11/fix_build: success — Moved to storage as archived_tasks/2026-11/fix_build.md');
    expect(results2).toContain('_7 get /storage/archived_tasks/2026-10/nothing_here: error — nothing at /storage/archived_tasks/2026-10/nothing_here');
    expect(results2).toContain('1 action failed');

    // Storage content reached the model only through actions.
    for (const request of server.requests) expect(JSON.stringify(request.body)).not.toContain('STORAGE-ONLY-CONTENT');

    // The vault.
    expect(JSON.parse(await readFile(join(temp.dir, 'archived_tasks/2026-11/fix_build.md'), 'utf8'))).toEqual({ title: 'Fix the build', priority: 'high' });
    const note = await readFile(join(temp.dir, WM_NOTE), 'utf8');
    expect(note).toContain('```yaml\ntasks:\n  todo:\n    write_docs:\n      title: Write the docs\n      priority: high\n    plan_sprint: Plan the next sprint\n  done: {}\n```');

    // Its history, read by the git CLI.
    expect(gitCli(temp.dir, 'log', '--format=%s').trim().split('\n')).toEqual([
      'Recursa: The build is fixed: mark it done and archive it.',
      'Recursa: Add tasks: write the docs, fix the build, plan the sprint.',
      SNAPSHOT_MESSAGE,
    ]);
    expect(gitCli(temp.dir, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n').sort()).toEqual([WM_NOTE, 'archived_tasks/2026-11/fix_build.md']);
    expect(gitCli(temp.dir, 'show', '--name-only', '--format=', 'HEAD~1').trim()).toBe(WM_NOTE);
    expect(gitCli(temp.dir, 'show', 'HEAD~1:' + WM_NOTE)).toContain('    fix_build:\n');
    expect(gitCli(temp.dir, 'log', '-1', '--format=%B', 'HEAD')).toMatch(/Recursa-Run: run-/);
    expect(gitCli(temp.dir, 'status', '--porcelain', '--untracked-files=no')).toBe('');
    expect(gitCli(temp.dir, 'ls-files')).not.toContain('action-log.json');
    gitCli(temp.dir, 'fsck', '--strict');

    // The action log: every action, numbered across both runs.
    const log = JSON.parse(await readFile(join(temp.dir, LOG), 'utf8')) as { lastIndex: number; entries: { index: number; kind: string; status: string; content_summary?: string }[] };
    expect(log.lastIndex).toBe(7);
    expect(log.entries.map((entry) => `${entry.index}:${entry.kind}:${entry.status}`)).toEqual(['1:set:success', '2:set:success', '3:set:success', '4:ls:success', '5:mv:success', '6:mv:success', '7:get:error']);
    expect(log.entries[2]?.content_summary).toBe('Plan the next sprint');
  });

  it('corrects an answer without actions or reply, and runs nothing from an invalid batch', async () => {
    server.script([
      { text: 'I will add the task now.' },
      { text: actions('Adding.', action('set', '/working_memory/a', { content: 'x' }), action('set', '/etc/passwd', { content: 'x' })) },
      { text: '<think>Giving up.</think><reply>I could not do it.</reply>' },
    ]);
    server.requests.length = 0;
    const outcome = await ask(temp.dir, 'Add a task.', { provider: provider() });
    expect(outcome.state).toBe('completed');
    expect(lastUserOf(server.requests[1])).toMatch(/no <think>, <actions> or <reply> block/);
    const results = lastUserOf(server.requests[2]);
    expect(results).toContain('_1 set /working_memory/a: error — not run: another action in this answer is invalid');
    expect(results).toContain('_2 set /etc/passwd: error — invalid action: <target_path> "/etc/passwd" must start with /working_memory/ or /storage/.');
    expect(gitCli(temp.dir, 'log', '--format=%s').trim().split('\n')).toEqual([SNAPSHOT_MESSAGE]);
  });

  it('holds actions to the mem-call budget: a batch that would go over it does not run', async () => {
    server.script([{ text: actions('Adding.', action('set', '/working_memory/a', { content: '1' }), action('set', '/working_memory/b', { content: '2' }), action('set', '/working_memory/c', { content: '3' })) }]);
    const outcome = await ask(temp.dir, 'Add three things.', { provider: provider(), budgets: { maxMemCalls: 2 } });
    expect(outcome).toMatchObject({ state: 'failed', error: 'The run used its budget of 2 mem calls.' });
    expect(existsSync(join(temp.dir, WM_NOTE))).toBe(false);
  });
});
