import { readFile, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import esbuild from 'esbuild';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { VaultStack } from '../../src/core/stack/VaultStack';
import { createNodeSandboxWorker } from '../../src/node/nodeSandboxWorker';
import { clientConfigs } from '../../src/obsidian/mcp/clientConfigs';
import { PluginMcpServer, type McpServerStatus } from '../../src/obsidian/mcp/PluginMcpServer';
import { createObsidianHttpTransport } from '../../src/obsidian/obsidianHttpTransport';
import { ObsidianVaultPort } from '../../src/obsidian/ObsidianVaultPort';
import { mcpStatusText } from '../../src/obsidian/settings/mcpSettingRows';
import { MCP_TOKEN_SECRET, type McpSettings } from '../../src/obsidian/settings/pluginSettings';
import { gitCli } from '../helpers/gitCli';
import { connectHttp } from '../helpers/mcpProcess';
import { closedPortUrl, startModelServer, type ModelServer } from '../helpers/modelServer';
import { createTestApp, type App } from '../helpers/obsidian/app';
import { setTestPlatform } from '../helpers/obsidian/platform';
import { makeTempDir } from '../helpers/tempVault';

interface ToolResult {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

const freePort = async (): Promise<number> => Number(new URL(await closedPortUrl()).port);

describe('the MCP server inside the plugin', () => {
  let model: ModelServer;
  let vault: { dir: string; remove: () => Promise<void> };
  let app: App;
  let stack: VaultStack;
  let server: PluginMcpServer;
  const clients: Client[] = [];
  const errors: unknown[] = [];
  /** What the plugin says while a chat run's changes wait for review (null: none does). */
  let underReview: string | null = null;
  const settings = (patch: Partial<McpSettings> = {}): McpSettings => ({ enabled: true, port: 0, readOnly: false, ...patch });
  const agentSettings = () => ({ provider: { kind: 'openai' as const, baseUrl: `${model.url}/v1`, model: 'scripted', maxRetries: 0 } });

  beforeAll(async () => {
    model = await startModelServer();
  });
  afterAll(async () => {
    await model.close();
  });
  beforeEach(async () => {
    // The desktop app: Electron's window.require reaches Node's builtins.
    setTestPlatform('desktop');
    vi.stubGlobal('window', { require: createRequire(import.meta.url), setTimeout, clearTimeout });
    vault = await makeTempDir('recursa-mcp-plugin-');
    gitCli(vault.dir, 'init', '-q');
    await writeFile(join(vault.dir, 'Welcome.md'), '# Welcome\n');
    app = await createTestApp(vault.dir);
    stack = await VaultStack.open(new ObsidianVaultPort(app), {
      mem: { configDir: '.obsidian' },
      git: {},
      graph: false,
      session: { runId: 'plugin' },
      sandbox: { createWorker: () => createNodeSandboxWorker() },
      agent: { transport: createObsidianHttpTransport, vaultName: 'Test', dataDir: '.obsidian/plugins/recursa' },
    });
    await stack.git?.whenSnapshotDone();
    server = new PluginMcpServer({
      stack: () => stack,
      agent: () => stack.agent(agentSettings()),
      writesPaused: () => Promise.resolve(underReview),
      secrets: app.secretStorage,
      version: '0.0.0-test',
      redact: (text) => text,
      onError: (error) => errors.push(error),
    });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
    await server.stop();
    await stack.close();
    await vault.remove();
    vi.unstubAllGlobals();
    setTestPlatform('desktop');
  });

  const running = (): Extract<McpServerStatus, { state: 'running' }> => {
    const status = server.status();
    if (status.state !== 'running') throw new Error(`the server is not running: ${JSON.stringify(status)}`);
    return status;
  };
  const connect = async (name: string, token = app.secretStorage.getSecret(MCP_TOKEN_SECRET) ?? ''): Promise<Client> => {
    const client = await connectHttp(running().url, token, name);
    clients.push(client);
    return client;
  };

  it('is off until the setting turns it on, then serves 127.0.0.1 with a token kept in secret storage', async () => {
    await server.apply(settings({ enabled: false }));
    expect(server.status()).toEqual({ state: 'off' });
    const port = await freePort();
    await server.apply(settings({ port }));
    expect(running()).toMatchObject({ url: `http://127.0.0.1:${port}/mcp`, port, readOnly: false, sessions: 0 });
    const token = app.secretStorage.getSecret(MCP_TOKEN_SECRET);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const client = await connect('Claude Code');
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['ask', 'execute', 'read', 'recall', 'remember', 'search']);
    expect(running().sessions).toBe(1);
    await server.apply(settings({ enabled: false, port }));
    expect(server.status()).toEqual({ state: 'off' });
    await expect(connectHttp(`http://127.0.0.1:${port}/mcp`, token as string, 'late')).rejects.toThrow();
  });

  it('commits through the plugin\'s stack with the run and client trailers, which the history shows', async () => {
    await server.apply(settings({ port: await freePort() }));
    const client = await connect('Cursor');
    const result = (await client.callTool({ name: 'execute', arguments: { code: "await mem.writeFile('Inbox/Idea.md', '# Idea\\n'); return 1;", commit: 'Add an idea' } })) as ToolResult;
    expect(result.structuredContent).toMatchObject({ ok: true, value: 1 });
    const hash = result.structuredContent?.commit as string;
    expect(gitCli(vault.dir, 'log', '-1', '--format=%H%n%(trailers:key=Recursa-Run,valueonly)%(trailers:key=Recursa-Client,valueonly)').trim().split('\n')).toEqual([hash, expect.stringMatching(/^mcp-/), 'Cursor']);
    const { loadHistory } = await import('../../src/obsidian/history/historyModel');
    const history = await loadHistory(stack.git as NonNullable<typeof stack.git>);
    expect(history.commits[0]).toMatchObject({ hash, client: 'Cursor', files: ['Inbox/Idea.md'] });
    gitCli(vault.dir, 'fsck', '--strict');
  });

  it('lets the chat and MCP clients work at once: their runs take turns and each commit holds only its own work', async () => {
    await server.apply(settings({ port: await freePort() }));
    const client = await connect('Claude Desktop');
    const chat = server.guardAgent(stack.agent(agentSettings()));
    if (chat === null) throw new Error('the stack has an agent host');
    // The chat writes Chat.md in its first turn and commits after a slow second one; the clients
    // call while Chat.md is written and not yet committed.
    model.script([
      { text: "<think>Writing.</think>\n<typescript>\nawait mem.writeFile('Chat.md', '# From the chat\\n');\n</typescript>" },
      { text: '<reply>Wrote Chat.md.</reply>', delayMs: 100 },
    ]);
    const asked = chat.ask('Write Chat.md');
    for (let i = 0; i < 200 && !(await stat(join(vault.dir, 'Chat.md')).then(() => true, () => false)); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const executed = Promise.all(
      [0, 1, 2].map((i) => client.callTool({ name: 'execute', arguments: { code: `await mem.writeFile('Mcp${i}.md', '${i}');`, commit: `MCP ${i}` } }) as Promise<ToolResult>),
    );
    const [{ outcome }, results] = await Promise.all([asked, executed]);
    expect(outcome.state).toBe('completed');
    const [chatCommit] = outcome.commits;
    expect(gitCli(vault.dir, 'show', '--name-only', '--format=%(trailers:key=Recursa-Client,valueonly)', chatCommit as string).trim()).toBe('Chat.md');
    for (const [i, result] of results.entries()) {
      expect(gitCli(vault.dir, 'show', '--name-only', '--format=%(trailers:key=Recursa-Client,valueonly)', result.structuredContent?.commit as string).trim().split('\n').filter((line) => line !== '')).toEqual(['Claude Desktop', `Mcp${i}.md`]);
    }
    expect(gitCli(vault.dir, 'status', '--porcelain', '--', 'Chat.md', 'Mcp0.md', 'Mcp1.md', 'Mcp2.md').trim()).toBe('');
  }, 30_000);

  it('refuses calls that write while a chat run waits for review, so they cannot sweep its changes into their commits', async () => {
    await server.apply(settings({ port: await freePort() }));
    const client = await connect('Cursor');
    underReview = 'A chat run is under review.';
    try {
      const refused = (await client.callTool({ name: 'execute', arguments: { code: "await mem.writeFile('Mcp.md', 'x');", commit: 'MCP' } })) as ToolResult;
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('WritesPaused');
      expect(gitCli(vault.dir, 'status', '--porcelain', '--', 'Mcp.md')).toBe('');
      const read = (await client.callTool({ name: 'read', arguments: { path: 'Welcome.md' } })) as ToolResult;
      expect(read.isError ?? false).toBe(false);
    } finally {
      underReview = null;
    }
    const done = (await client.callTool({ name: 'execute', arguments: { code: "await mem.writeFile('Mcp.md', 'x');", commit: 'MCP' } })) as ToolResult;
    expect(gitCli(vault.dir, 'show', '--name-only', '--format=', done.structuredContent?.commit as string).trim()).toBe('Mcp.md');
  });

  it('refuses the old token once it is regenerated, and takes the new one', async () => {
    await server.apply(settings({ port: await freePort() }));
    const old = server.token();
    const fresh = await server.regenerateToken();
    expect(fresh).not.toBe(old);
    expect(app.secretStorage.getSecret(MCP_TOKEN_SECRET)).toBe(fresh);
    await expect(connectHttp(running().url, old, 'stale')).rejects.toThrow();
    const client = await connect('fresh', fresh);
    expect((await client.listTools()).tools).toHaveLength(6);
  });

  it('offers only the read-only tools when the setting says so', async () => {
    await server.apply(settings({ port: await freePort(), readOnly: true }));
    expect(running().readOnly).toBe(true);
    const client = await connect('Reader');
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['read', 'recall', 'search']);
  });

  it('says why it could not start when the port is taken, without the token', async () => {
    const port = await freePort();
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      await server.apply(settings({ port }));
      const status = server.status();
      expect(status).toMatchObject({ state: 'failed', port });
      expect(mcpStatusText(status)).toContain(String(port));
      expect(JSON.stringify(status)).not.toContain(server.token());
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('is absent on mobile', async () => {
    setTestPlatform('phone');
    vi.stubGlobal('window', { setTimeout, clearTimeout });
    expect(PluginMcpServer.available()).toBe(false);
    await server.apply(settings({ port: await freePort() }));
    expect(server.status()).toEqual({ state: 'unavailable' });
  });
});

describe('the copy-paste configurations', () => {
  it('give Claude Code and Cursor the URL and token, and Claude Desktop the bridge', () => {
    const [code, desktop, cursor] = clientConfigs('http://127.0.0.1:27125/mcp', 'abc123');
    expect(code?.text).toContain('--transport http recursa http://127.0.0.1:27125/mcp --header "Authorization: Bearer abc123"');
    expect(JSON.parse(desktop?.text ?? '')).toEqual({ mcpServers: { recursa: { command: 'recursa', args: ['mcp', '--bridge', 'http://127.0.0.1:27125/mcp'], env: { RECURSA_MCP_TOKEN: 'abc123' } } } });
    expect(JSON.parse(cursor?.text ?? '')).toEqual({ mcpServers: { recursa: { url: 'http://127.0.0.1:27125/mcp', headers: { Authorization: 'Bearer abc123' } } } });
  });
});

describe('the plugin bundle', () => {
  it('never loads the MCP server at start-up: the SDK is reached only through a dynamic import', async () => {
    // Bundled as ES modules with splitting, each dynamic import becomes its own chunk: what the
    // entry chunk holds is what start-up (and mobile) loads.
    const result = await esbuild.build({
      entryPoints: ['src/main.ts'],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      outdir: join(process.cwd(), 'node_modules/.cache/recursa-mcp-split'),
      write: false,
      metafile: true,
      external: ['obsidian', 'electron', '@codemirror/*', '@lezer/*', 'recursa:*'],
      logLevel: 'silent',
    });
    const outputs = Object.values(result.metafile.outputs);
    const inputsOf = (output: (typeof outputs)[number] | undefined): string[] => Object.keys(output?.inputs ?? {});
    const hasSdk = (output: (typeof outputs)[number] | undefined): boolean => inputsOf(output).some((input) => input.includes('@modelcontextprotocol/sdk'));
    // main.js holds the plugin's class; `onload` imports the rest of the plugin, the setting's server among it.
    const entry = outputs.find((output) => output.entryPoint === 'src/main.ts');
    const parts = outputs.find((output) => inputsOf(output).includes('src/obsidian/pluginParts.ts'));
    expect(hasSdk(entry)).toBe(false);
    expect(entry?.imports.some((imported) => imported.kind === 'dynamic-import' && imported.path.includes('pluginParts'))).toBe(true);
    expect(inputsOf(parts)).toContain('src/obsidian/mcp/PluginMcpServer.ts');
    expect(hasSdk(parts)).toBe(false);
    const server = outputs.find((output) => inputsOf(output).includes('src/obsidian/mcp/startPluginMcpServer.ts'));
    expect(hasSdk(server)).toBe(true);
    // Nothing imports the server's chunk statically.
    for (const output of outputs) for (const imported of output.imports) if (imported.kind === 'import-statement') expect(imported.path).not.toContain('startPluginMcpServer');
  });

  it('keeps main.js within 2 MB with the server in it', async () => {
    const size = (await readFile('main.js')).byteLength;
    expect(size).toBeLessThanOrEqual(2_000_000);
  });
});
