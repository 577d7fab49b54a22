import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { VaultStack } from '../../../src/core/stack/VaultStack';
import { createNodeSandboxWorker } from '../../../src/node/nodeSandboxWorker';
import { createObsidianHttpTransport } from '../../../src/obsidian/obsidianHttpTransport';
import { ObsidianVaultPort } from '../../../src/obsidian/ObsidianVaultPort';
import { gitCli } from '../../helpers/gitCli';
import { startModelServer, type ModelServer } from '../../helpers/modelServer';
import { createTestApp } from '../../helpers/obsidian/app';
import { setTestPlatform } from '../../helpers/obsidian/platform';
import { useTempDir } from '../../helpers/tempVault';

const PLUGIN_DIR = '.obsidian/plugins/recursa';

describe("the plugin's agent with memory and the action protocol", () => {
  const temp = useTempDir();
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer();
    // On a phone: Obsidian's requestUrl carries the requests; the window has timers but no Node.
    setTestPlatform('phone');
    vi.stubGlobal('window', { setTimeout, clearTimeout });
  });
  afterAll(async () => {
    vi.unstubAllGlobals();
    setTestPlatform('desktop');
    await server.close();
  });
  let dispose: () => void = () => undefined;
  afterEach(() => dispose());

  it('runs actions over the working memory, keeps the last N log entries in the plugin folder, and shows memories', async () => {
    const app = await createTestApp(temp.dir);
    const stack = await VaultStack.open(new ObsidianVaultPort(app), {
      mem: { configDir: '.obsidian', workingMemoryNote: 'Recursa/Working memory.md' },
      git: {},
      graph: false,
      session: { runId: 'plugin' },
      sandbox: { createWorker: () => createNodeSandboxWorker() },
      agent: { transport: createObsidianHttpTransport, vaultName: 'Test', dataDir: PLUGIN_DIR },
    });
    dispose = () => void stack.close();
    await stack.git?.whenSnapshotDone();
    await stack.mem.remember('The user works on the Atlas project.', ['projects']);
    await stack.mem.commitChanges('Remember the project');
    const agent = stack.agent({ provider: { kind: 'openai', baseUrl: `${server.url}/v1`, model: 'small', maxRetries: 0, protocol: 'actions' }, actionLogSize: 2 });
    if (agent === null) throw new Error('The stack has a sandbox and an agent host, so it must give an agent.');
    const set = (name: string): string => `<action><kind>set</kind><target_path>/working_memory/atlas/${name}</target_path><content>${name}</content></action>`;
    server.script([
      { text: `<think>Noting.</think><actions>${set('a')}${set('b')}${set('c')}</actions>` },
      { text: '<think>Done.</think><reply>Noted.</reply>' },
    ]);
    server.requests.length = 0;
    const { outcome } = await agent.ask('Note the Atlas tasks.');
    expect(outcome.error).toBeNull();
    expect(outcome).toMatchObject({ state: 'completed', reply: 'Noted.' });
    const system = JSON.stringify(server.requests[0]?.body);
    expect(system).toContain('The user works on the Atlas project.');
    expect(system).toContain('/working_memory/');
    expect(JSON.stringify(server.requests[1]?.body)).toContain('atlas:\\n  a: a\\n  b: b\\n  c: c\\n');
    const log = JSON.parse(await readFile(join(temp.dir, PLUGIN_DIR, 'action-log.json'), 'utf8')) as { lastIndex: number; entries: { index: number }[] };
    expect(log).toMatchObject({ lastIndex: 3, entries: [{ index: 2 }, { index: 3 }] });
    expect(gitCli(temp.dir, 'log', '-1', '--name-only', '--format=%s').trim().split('\n')).toEqual(['Recursa: Note the Atlas tasks.', '', 'Recursa/Working memory.md']);
  });
});
