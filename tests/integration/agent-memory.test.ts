import { readdir, readFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentMemory } from '../../src/core/memory/agentMemory';
import { memoryNotePath } from '../../src/core/memory/memoryLayout';
import { renderMemoryNote } from '../../src/core/memory/memoryNote';
import { countTokens } from '../../src/core/tokens/countTokens';
import type { OpenVaultOptions } from '../../src/node/openVault';
import { gitCli } from '../helpers/gitCli';
import { openAgentService } from '../helpers/agentService';
import { lastUserOf, startModelServer, systemOf, type ModelServer } from '../helpers/modelServer';
import { useTempDir } from '../helpers/tempVault';

describe('memory across conversations, through the scripted model server', () => {
  const temp = useTempDir();
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer();
  });
  afterAll(async () => server.close());

  const service = (dir: string, vault: OpenVaultOptions = {}, memoryPromptTokens?: number): ReturnType<typeof openAgentService> =>
    openAgentService(dir, server.url, { vault, extra: (opened) => ({ memory: createAgentMemory(opened.mem, opened.context), memoryPromptTokens }) });

  it('remembers in one conversation, and after a restart recalls it and finds it in the new conversation\'s prompt', async () => {
    server.script([
      { text: "<think>Noting that.</think><typescript>const saved = await mem.remember('The user\\'s favourite colour is teal; use it for highlights.', ['Preferences', 'colour']);\nreturn saved;</typescript>" },
      { text: '<think>Done.</think><reply>Noted: teal.</reply>' },
    ]);
    server.requests.length = 0;
    const first = await service(temp.dir);
    const told = await first.agent.ask('My favourite colour is teal.');
    await first.close();
    expect(told.outcome.state).toBe('completed');
    expect(systemOf(server.requests[0])).toMatch(/mem\.remember\(content, tags\)` without asking/);
    const saved = JSON.parse(/Returned: (\{.*\})/.exec(lastUserOf(server.requests[1]))?.[1] ?? '{}') as { id: string; path: string };
    expect(saved.id).toMatch(/^mem_[0-9a-f]{16}$/);
    const note = await readFile(join(temp.dir, saved.path), 'utf8');
    expect(note).toContain(`id: ${saved.id}\n`);
    expect(note).toContain('tags:\n  - preferences\n  - colour\n');
    expect(note).toContain(`  conversation: ${told.conversation.id}\n`);
    expect(note).toMatch(/ {2}run: run-id\d+/);
    expect(gitCli(temp.dir, 'log', '-1', '--name-only', '--format=%s').trim().split('\n')).toEqual(['Recursa: My favourite colour is teal.', '', saved.path]);

    server.script([
      { text: "<think>Checking my memory.</think><typescript>return (await mem.recall({ query: 'favorite colour', tags: ['preferences'] })).memories.map((m) => m.content);</typescript>" },
      { text: '<think>Found it.</think><reply>Teal.</reply>' },
    ]);
    server.requests.length = 0;
    const second = await service(temp.dir);
    const asked = await second.agent.ask('Which colour should the highlights be?');
    expect(asked.outcome.reply).toBe('Teal.');
    const prompt = systemOf(server.requests[0]);
    expect(prompt).toContain('## Memories from earlier work');
    expect(prompt).toContain("The user's favourite colour is teal; use it for highlights.");
    expect(prompt).toContain('[preferences, colour]');
    expect(lastUserOf(server.requests[1])).toContain("Returned: [\"The user's favourite colour is teal; use it for highlights.\"]");

    // A resumed conversation keeps its history; the memories were for its start.
    server.script([{ text: '<think>Answering.</think><reply>Still teal.</reply>' }]);
    server.requests.length = 0;
    await second.agent.ask('And the borders?', { conversationId: asked.conversation.id });
    await second.close();
    expect(systemOf(server.requests[0])).not.toContain('## Memories from earlier work');
  });

  it('puts the most relevant and the most recent memories in the prompt within the token budget', async () => {
    await mkdir(temp.dir, { recursive: true });
    const now = Date.now();
    for (let i = 0; i < 30; i++) {
      const at = new Date(now - (i + 1) * 3_600_000);
      const content = i === 29 ? 'The quarterly budget spreadsheet lives in Finance/Budget.md.' : `Routine memory ${i}: ${'filler words '.repeat(10)}`;
      const path = memoryNotePath('Memories', at, String(i).padStart(4, '0'));
      await mkdir(join(temp.dir, path, '..'), { recursive: true });
      await writeFile(join(temp.dir, path), renderMemoryNote({ id: `mem_${String(i).padStart(16, '0')}`, timestamp: at.toISOString(), tags: [], source: { conversation: null, run: null, note: null, commit: null }, content }));
    }
    server.script([{ text: '<think>Answering.</think><reply>Finance/Budget.md.</reply>' }]);
    server.requests.length = 0;
    const opened = await service(temp.dir, {}, 200);
    await opened.agent.ask('Where is the quarterly budget?');
    await opened.close();
    const prompt = systemOf(server.requests[0]);
    const section = prompt.slice(prompt.indexOf('## Memories from earlier work'), prompt.indexOf('## Context'));
    expect(countTokens(section.trim())).toBeLessThanOrEqual(200);
    expect(section).toContain('The quarterly budget spreadsheet lives in Finance/Budget.md.');
    expect(section).toContain('Routine memory 0:');
    expect(section).not.toContain('Routine memory 20:');
  });

  it('shows the working memory in the prompt every turn, and a write over its limit fails with the limit, the size and a hint', async () => {
    server.script([
      { text: "<think>Planning.</think><typescript>return await mem.workingMemory('set', '/plan', { step: 'Collect the invoices' });</typescript>" },
      { text: "<think>Adding detail.</think><typescript>await mem.workingMemory('set', '/plan/detail', 'x'.repeat(300));</typescript>" },
      { text: '<think>Done.</think><reply>Planned.</reply>' },
    ]);
    server.requests.length = 0;
    const opened = await service(temp.dir, { workingMemoryCharLimit: 200, workingMemoryNote: 'Recursa/Working memory.md' });
    const { outcome } = await opened.agent.ask('Plan the invoices.');
    await opened.close();
    expect(outcome.state).toBe('completed');
    expect(systemOf(server.requests[0])).toMatch(/## Working memory \(2 of 200 characters used; at most 200 characters, 8 children per node\)\n\nKept in the note "Recursa\/Working memory.md".\n\n\(empty\)/);
    expect(systemOf(server.requests[1])).toContain('```yaml\nplan:\n  step: Collect the invoices\n```');
    const failure = lastUserOf(server.requests[2]);
    const size = JSON.stringify({ plan: { step: 'Collect the invoices' } }).length;
    expect(failure).toContain(`[Execution Error] WorkingMemoryError on line 1: Working memory is limited to 200 characters; it holds ${size} now`);
    expect(failure).toMatch(/Move what you do not need this minute to storage/);
    expect(gitCli(temp.dir, 'show', 'HEAD:Recursa/Working memory.md')).toContain('step: Collect the invoices');
    expect(await readdir(join(temp.dir, 'Recursa'))).toEqual(['Working memory.md']);
  });
});
