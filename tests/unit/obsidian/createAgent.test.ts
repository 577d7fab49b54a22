import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { App as ObsidianApp } from 'obsidian';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GitService } from '../../../src/core/git/GitService';
import { createMem, DEFAULT_MEM_OPTIONS, WriteSet } from '../../../src/core/mem';
import { Sandbox } from '../../../src/core/sandbox/Sandbox';
import { createNodeSandboxWorker } from '../../../src/node/nodeSandboxWorker';
import { createAgent } from '../../../src/obsidian/createAgent';
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
    const port = new ObsidianVaultPort(app);
    const writeSet = new WriteSet(port);
    const git = await GitService.open(port, writeSet, { configDir: '.obsidian' });
    await git.whenSnapshotDone();
    const session = { runId: 'plugin' };
    const mem = createMem(port, { ...DEFAULT_MEM_OPTIONS, workingMemoryNote: 'Recursa/Working memory.md' }, { writeSet, git, session });
    await mem.mem.remember('The user works on the Atlas project.', ['projects']);
    await mem.mem.commitChanges('Remember the project');
    const sandbox = new Sandbox(() => createNodeSandboxWorker(), mem.mem);
    dispose = () => {
      sandbox.dispose();
      git.close();
    };
    const agent = createAgent(
      { app: app as unknown as ObsidianApp, port, sandbox, git, writeSet, session, pluginDir: PLUGIN_DIR, mem },
      { provider: { kind: 'openai', baseUrl: `${server.url}/v1`, model: 'small', maxRetries: 0, protocol: 'actions' }, actionLogSize: 2 },
    );
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
