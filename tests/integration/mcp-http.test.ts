import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitCli } from '../helpers/gitCli';
import { connectHttp, connectStdio, runMcp, startHttpProcess, type McpHttpProcess } from '../helpers/mcpProcess';
import { closedPortUrl, startModelServer, type ModelServer } from '../helpers/modelServer';
import { makeTempDir } from '../helpers/tempVault';

const TOKEN = 'test-token-0123456789abcdef';

interface ToolResult {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A raw request with Node's `http` (no SDK: the checks come before the protocol); the body is read up to its first event. */
function request(url: string, method: string, headers: Record<string, string>, body?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        // An SSE answer stays open; its first event is enough.
        if (text.includes('\n\n')) res.destroy();
      });
      res.on('close', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A raw POST of `initialize` with the given headers. */
function post(url: string, headers: Record<string, string>): Promise<RawResponse> {
  return request(url, 'POST', { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, INITIALIZE);
}

describe('recursa mcp --http', () => {
  let vault: { dir: string; remove: () => Promise<void> };
  let home: { dir: string; remove: () => Promise<void> };
  let server: McpHttpProcess;

  beforeAll(async () => {
    vault = await makeTempDir('recursa-mcp-http-');
    home = await makeTempDir('recursa-mcp-home-');
    gitCli(vault.dir, 'init', '-q');
    await writeFile(join(vault.dir, 'Welcome.md'), '# Welcome\n');
    server = await startHttpProcess(['--vault', vault.dir], { RECURSA_HOME: home.dir, RECURSA_MCP_TOKEN: TOKEN });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await vault.remove();
    await home.remove();
  });

  it('listens on 127.0.0.1 at /mcp', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  describe('when the token is missing or wrong', () => {
    it('answers 401 and serves nothing', async () => {
      const missing = await post(server.url, {});
      expect(missing.status).toBe(401);
      expect(missing.headers['www-authenticate']).toBe('Bearer');
      expect(JSON.parse(missing.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
      expect((await post(server.url, { authorization: 'Bearer wrong-token-0123456789abcdef' })).status).toBe(401);
      expect((await post(server.url, { authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
      expect((await post(server.url, { authorization: TOKEN })).status).toBe(401);
    });
  });

  describe('when the request comes from a foreign origin', () => {
    it('answers 403, even with the right token', async () => {
      for (const origin of ['https://evil.example', 'http://localhost.evil.example', 'null', 'file://']) {
        expect((await post(server.url, { authorization: `Bearer ${TOKEN}`, origin })).status).toBe(403);
      }
    });

    it('answers 403 to a host name that is not this machine (DNS rebinding)', async () => {
      for (const host of ['evil.example', `evil.example:${new URL(server.url).port}`]) {
        expect((await post(server.url, { authorization: `Bearer ${TOKEN}`, host })).status).toBe(403);
      }
    });

    it('checks the origin before the token', async () => {
      expect((await post(server.url, { origin: 'https://evil.example' })).status).toBe(403);
    });

    it('lets localhost origins on any port through', async () => {
      for (const origin of ['http://localhost:3000', 'https://127.0.0.1', 'http://[::1]:6274']) {
        const response = await post(server.url, { authorization: `Bearer ${TOKEN}`, origin });
        expect(response.status).toBe(200);
        expect(response.body).toContain('"serverInfo"');
      }
    });
  });

  it('answers 404 for other paths and for unknown sessions', async () => {
    expect((await request(server.url.replace('/mcp', '/other'), 'GET', { authorization: `Bearer ${TOKEN}` })).status).toBe(404);
    const unknown = await request(server.url, 'POST', { authorization: `Bearer ${TOKEN}`, 'mcp-session-id': 'nope', 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, '{"jsonrpc":"2.0","id":2,"method":"tools/list"}');
    expect(unknown.status).toBe(404);
    const noSession = await request(server.url, 'POST', { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, '{"jsonrpc":"2.0","id":3,"method":"tools/list"}');
    expect(noSession.status).toBe(400);
  });

  it('serves two clients at once: both commit, nothing is lost, each commit names its client', async () => {
    const clients: Client[] = await Promise.all([connectHttp(server.url, TOKEN, 'Cursor'), connectHttp(server.url, TOKEN, 'Claude Desktop')]);
    try {
      const calls = clients.flatMap((client, c) =>
        Array.from({ length: 4 }, (_, i) =>
          client.callTool({ name: 'execute', arguments: { code: `await mem.writeFile('Notes/c${c}-${i}.md', '# ${c} ${i}\\n'); return ${i};`, commit: `Note ${c}-${i}` } }) as Promise<ToolResult>,
        ),
      );
      const results = await Promise.all(calls);
      for (const result of results) expect(result.structuredContent).toMatchObject({ ok: true, uncommitted: [] });
      const hashes = results.map((result) => result.structuredContent?.commit as string);
      expect(new Set(hashes).size).toBe(8);
      // Every commit holds exactly its own note and names the client it was made for.
      for (const [index, hash] of hashes.entries()) {
        const c = Math.floor(index / 4);
        const i = index % 4;
        expect(gitCli(vault.dir, 'show', '--name-only', '--format=%s', hash).trim()).toBe(`Note ${c}-${i}\n\nNotes/c${c}-${i}.md`);
        expect(gitCli(vault.dir, 'log', '-1', '--format=%(trailers:key=Recursa-Client,valueonly)', hash).trim()).toBe(c === 0 ? 'Cursor' : 'Claude Desktop');
      }
      expect(gitCli(vault.dir, 'ls-files', 'Notes').trim().split('\n')).toHaveLength(8);
      expect(gitCli(vault.dir, 'status', '--porcelain', 'Notes').trim()).toBe('');
      gitCli(vault.dir, 'fsck', '--full', '--strict');
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  }, 60_000);

  it('returns errors as isError results over HTTP too, and the session keeps working', async () => {
    const client = await connectHttp(server.url, TOKEN, 'Cursor');
    try {
      const failed = (await client.callTool({ name: 'execute', arguments: { code: 'await mem.readFile("Missing.md")' } })) as ToolResult;
      expect(failed.isError).toBe(true);
      expect(failed.content[0]?.text).toContain('NotFound');
      const read = (await client.callTool({ name: 'read', arguments: { path: 'Welcome.md' } })) as ToolResult;
      expect(read.structuredContent).toEqual({ path: 'Welcome.md', content: '# Welcome\n' });
    } finally {
      await client.close();
    }
  }, 30_000);

  describe('the bridge (--bridge URL)', () => {
    it('forwards stdio to the HTTP server, client name included', async () => {
      const bridged = await connectStdio(['--bridge', server.url], { RECURSA_MCP_TOKEN: TOKEN, RECURSA_HOME: home.dir }, 'Bridged Client');
      try {
        const { tools } = await bridged.client.listTools();
        expect(tools.map((tool) => tool.name).sort()).toEqual(['ask', 'execute', 'read', 'recall', 'remember', 'search']);
        const result = (await bridged.client.callTool({ name: 'execute', arguments: { code: "await mem.writeFile('Bridged.md', 'via the bridge\\n'); return 'ok';", commit: 'Write through the bridge' } })) as ToolResult;
        expect(result.structuredContent).toMatchObject({ ok: true, value: 'ok' });
        expect(gitCli(vault.dir, 'log', '-1', '--format=%s%n%(trailers:key=Recursa-Client,valueonly)').trim()).toBe('Write through the bridge\nBridged Client');
        const failed = (await bridged.client.callTool({ name: 'read', arguments: { path: '.git/config' } })) as ToolResult;
        expect(failed.isError).toBe(true);
      } finally {
        await bridged.close();
      }
    }, 30_000);

    it('says in one line that no server is running, exit 1', async () => {
      const url = `${await closedPortUrl()}/mcp`;
      const result = await runMcp(['--bridge', url], { RECURSA_MCP_TOKEN: TOKEN });
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining(`no MCP server answers at ${url}`)]);
    }, 30_000);

    it('says so when the server refuses the token, exit 1', async () => {
      const result = await runMcp(['--bridge', server.url], { RECURSA_MCP_TOKEN: 'another-token-0123456789' });
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining('HTTP 401')]);
      expect(result.stderr).not.toContain('another-token-0123456789');
    }, 30_000);
  });

  it('stops on SIGTERM with exit code 0', async () => {
    const second = await startHttpProcess(['--vault', vault.dir, '--read-only'], { RECURSA_HOME: home.dir, RECURSA_MCP_TOKEN: TOKEN });
    const client = await connectHttp(second.url, TOKEN, 'Reader');
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['read', 'recall', 'search']);
    await client.close();
    expect(await second.stop()).toBe(0);
  }, 30_000);

  describe('with a model', () => {
    let model: ModelServer;
    let withModel: McpHttpProcess;
    beforeAll(async () => {
      model = await startModelServer();
      withModel = await startHttpProcess(['--vault', vault.dir, '--base-url', `${model.url}/v1`, '--model', 'scripted'], { RECURSA_HOME: home.dir, RECURSA_MCP_TOKEN: TOKEN, RECURSA_API_KEY: 'sk-http-secret' });
    }, 60_000);
    afterAll(async () => {
      await withModel?.stop();
      await model?.close();
    });

    it('streams ask progress over HTTP and commits with the client trailer', async () => {
      const client = await connectHttp(withModel.url, TOKEN, 'Cursor');
      try {
        model.script([
          { text: "<think>Writing it down.</think>\n<typescript>\nawait mem.writeFile('Http.md', 'over http\\n');\n</typescript>" },
          { text: '<reply>Done.</reply>' },
        ]);
        const progress: string[] = [];
        const result = (await client.callTool({ name: 'ask', arguments: { query: 'Write Http.md' } }, undefined, { onprogress: (event) => progress.push(String(event.message)) })) as ToolResult;
        expect(result.structuredContent).toMatchObject({ state: 'completed', reply: 'Done.' });
        expect(progress).toContain('Writing it down.');
        const [commit] = result.structuredContent?.commits as string[];
        expect(gitCli(vault.dir, 'log', '-1', '--format=%(trailers:key=Recursa-Client,valueonly)', commit as string).trim()).toBe('Cursor');
      } finally {
        await client.close();
      }
    }, 30_000);

    it('stops a cancelled ask, and the session keeps working', async () => {
      const client = await connectHttp(withModel.url, TOKEN, 'Cursor');
      try {
        model.script([{ hang: true }]);
        const controller = new AbortController();
        const asked = client.callTool({ name: 'ask', arguments: { query: 'Take forever' } }, undefined, { signal: controller.signal });
        await new Promise((resolve) => setTimeout(resolve, 500));
        controller.abort();
        await expect(asked).rejects.toThrow();
        const started = Date.now();
        const next = (await client.callTool({ name: 'execute', arguments: { code: 'return 3' } })) as ToolResult;
        expect(next.structuredContent).toMatchObject({ ok: true, value: 3 });
        expect(Date.now() - started).toBeLessThan(5000);
      } finally {
        await client.close();
      }
    }, 30_000);
  });
});
