import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationStore, type Conversation } from '../../../../src/core/agent/ConversationStore';
import { NodeVaultPort } from '../../../../src/node/NodeVaultPort';
import { useTempDir } from '../../../helpers/tempVault';

const FOLDER = '.obsidian/plugins/recursa/conversations';
const conversation = (id: string, updated: string): Conversation => ({
  id,
  title: `Chat ${id}`,
  created: '2026-11-22T08:00:00.000Z',
  updated,
  messages: [
    { role: 'user', content: 'Hello' },
    { role: 'assistant', content: '<reply>Hi</reply>' },
  ],
});

describe('ConversationStore', () => {
  const temp = useTempDir();
  let port: NodeVaultPort;
  let store: ConversationStore;
  beforeEach(async () => {
    port = await NodeVaultPort.open(temp.dir, { watch: false });
    store = new ConversationStore(port, FOLDER);
  });
  afterEach(() => port.close());

  it('saves, loads and lists conversations newest first, surviving a new store (a restart)', async () => {
    await store.save(conversation('a1', '2026-11-22T09:00:00.000Z'));
    await store.save(conversation('b2', '2026-11-22T10:00:00.000Z'));
    const restarted = new ConversationStore(port, FOLDER);
    expect(await restarted.load('a1')).toEqual(conversation('a1', '2026-11-22T09:00:00.000Z'));
    expect((await restarted.list()).conversations.map((c) => c.id)).toEqual(['b2', 'a1']);
    await restarted.remove('a1');
    expect(await restarted.load('a1')).toBeNull();
  });

  it('reports and skips corrupted files instead of failing', async () => {
    await store.save(conversation('ok', '2026-11-22T09:00:00.000Z'));
    await mkdir(join(temp.dir, FOLDER), { recursive: true });
    await writeFile(join(temp.dir, FOLDER, 'broken.json'), '{"version": 1, "id": "broken", "messa');
    await writeFile(join(temp.dir, FOLDER, 'future.json'), JSON.stringify({ version: 99, id: 'future', title: 'x', messages: [] }));
    const { conversations, problems } = await store.list();
    expect(conversations.map((c) => c.id)).toEqual(['ok']);
    expect(problems.map((p) => p.file).sort()).toEqual([`${FOLDER}/broken.json`, `${FOLDER}/future.json`]);
    expect(await store.load('broken')).toBeNull();
  });

  it('refuses ids that could escape its folder', async () => {
    await expect(store.save(conversation('../../x', 'now'))).rejects.toThrow('invalid conversation id');
    expect(await store.load('../secret')).toBeNull();
  });
});
