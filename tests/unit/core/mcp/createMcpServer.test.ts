import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { NotFoundError, PathRefusedError } from '../../../../src/core/errors';
import { createMcpServer, MEM_REFERENCE_URI, READ_ONLY_TOOLS } from '../../../../src/core/mcp/createMcpServer';
import type { McpAskOptions, McpAskResult, McpBackend, McpCall } from '../../../../src/core/mcp/McpBackend';
import type { RunCodeResult } from '../../../../src/core/stack/runCode';

interface ToolResult {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

const okRun: RunCodeResult = { ok: true, value: 1, logs: [], error: null, memCalls: 0, durationMs: 1, truncated: [], commit: null, uncommitted: [], discarded: [] };

/** A backend whose methods answer from `overrides`, and which records the calls it got. */
function fakeBackend(overrides: Partial<McpBackend> = {}): McpBackend & { calls: { method: string; call: McpCall }[] } {
  const calls: { method: string; call: McpCall }[] = [];
  const backend: McpBackend = {
    ask: async (_query, options): Promise<McpAskResult> => ({ reply: 'done', sessionId: options.sessionId ?? 'conv-1', state: 'completed', error: null, commits: [] }),
    execute: async () => okRun,
    remember: async () => ({ id: 'm1', path: 'Memories/m1.md', commit: 'a'.repeat(40) }),
    recall: async () => ({ memories: [{ id: 'm1', path: 'Memories/m1.md', timestamp: '2026-01-01T00:00:00.000Z', tags: [], content: 'x', vault: null, score: 1 }], searched: ['this vault'], note: null }),
    search: async () => [{ path: 'A.md', score: 2, snippet: 'a' }],
    read: async (path) => `text of ${path}`,
    memReference: () => '### mem.readFile(path: string)',
    ...overrides,
  };
  const recorded = Object.fromEntries(
    Object.entries(backend).map(([method, fn]) => [
      method,
      (...args: unknown[]) => {
        const call = args.find((arg): arg is McpCall => typeof arg === 'object' && arg !== null && 'signal' in arg);
        if (call !== undefined) calls.push({ method, call });
        return (fn as (...a: unknown[]) => unknown)(...args);
      },
    ]),
  ) as unknown as McpBackend;
  return Object.assign(recorded, { calls });
}

const open: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});

async function connect(backend: McpBackend, readOnly = false, name = 'Unit Client'): Promise<Client> {
  const server = createMcpServer(backend, { version: '0.0.0', readOnly });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(clientSide);
  open.push(client, server);
  return client;
}

describe('createMcpServer', () => {
  describe('tools', () => {
    it('lists the six tools, each with an object output schema and a truthful read-only hint', async () => {
      const client = await connect(fakeBackend());
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['ask', 'execute', 'read', 'recall', 'remember', 'search']);
      for (const tool of tools) {
        expect(tool.outputSchema?.type).toBe('object');
        expect(tool.annotations?.readOnlyHint).toBe((READ_ONLY_TOOLS as readonly string[]).includes(tool.name));
      }
      const inputs = Object.fromEntries(tools.map((tool) => [tool.name, { keys: Object.keys(tool.inputSchema.properties ?? {}).sort(), required: (tool.inputSchema.required ?? []).slice().sort() }]));
      expect(inputs).toEqual({
        ask: { keys: ['query', 'sessionId'], required: ['query'] },
        execute: { keys: ['code', 'commit'], required: ['code'] },
        remember: { keys: ['content', 'tags'], required: ['content'] },
        recall: { keys: ['limit', 'query', 'scope', 'since', 'tags'], required: [] },
        search: { keys: ['limit', 'query'], required: ['query'] },
        read: { keys: ['path'], required: ['path'] },
      });
    });

    it('returns structured content that matches each output schema (the client checks it)', async () => {
      const client = await connect(fakeBackend());
      const calls: [string, Record<string, unknown>][] = [
        ['ask', { query: 'q' }],
        ['execute', { code: 'return 1' }],
        ['remember', { content: 'c' }],
        ['recall', {}],
        ['search', { query: 'q' }],
        ['read', { path: 'A.md' }],
      ];
      for (const [name, args] of calls) {
        const result = (await client.callTool({ name, arguments: args })) as ToolResult;
        expect(result.isError, name).toBeFalsy();
        expect(typeof result.structuredContent, name).toBe('object');
        expect(result.content[0]?.type, name).toBe('text');
      }
    });

    it('tells the backend which client calls', async () => {
      const backend = fakeBackend();
      const client = await connect(backend, false, 'Cursor');
      await client.callTool({ name: 'read', arguments: { path: 'A.md' } });
      expect(backend.calls.map((entry) => [entry.method, entry.call.client])).toEqual([['read', 'Cursor']]);
    });
  });

  describe('when the backend fails', () => {
    it('answers a Recursa error as an isError result led by its code, and keeps serving', async () => {
      const client = await connect(
        fakeBackend({
          read: async (path) => {
            if (path.startsWith('..')) throw new PathRefusedError(path, 'traversal', 'it leads out of the vault');
            throw new NotFoundError(path);
          },
        }),
      );
      const refused = (await client.callTool({ name: 'read', arguments: { path: '../x.md' } })) as ToolResult;
      expect(refused.isError).toBe(true);
      expect(refused.content[0]?.text).toMatch(/^PathRefused: /);
      const missing = (await client.callTool({ name: 'read', arguments: { path: 'B.md' } })) as ToolResult;
      expect(missing.isError).toBe(true);
      expect(missing.content[0]?.text).toMatch(/^NotFound: /);
      expect(((await client.callTool({ name: 'search', arguments: { query: 'a' } })) as ToolResult).isError).toBeFalsy();
    });

    it('answers any other error as an isError result too', async () => {
      const client = await connect(fakeBackend({ search: async () => Promise.reject(new Error('disk on fire')) }));
      const result = (await client.callTool({ name: 'search', arguments: { query: 'a' } })) as ToolResult;
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toContain('disk on fire');
    });

    it('answers arguments outside the input schema as an isError result without calling the backend', async () => {
      const backend = fakeBackend();
      const client = await connect(backend);
      const result = (await client.callTool({ name: 'recall', arguments: { limit: 1000 } })) as ToolResult;
      expect(result.isError).toBe(true);
      expect(backend.calls).toEqual([]);
    });

    it('marks a failed code run as an error, with the run as structured content', async () => {
      const failed: RunCodeResult = { ...okRun, ok: false, value: null, error: { code: 'MemCallLimit', message: 'too many calls' }, discarded: ['A.md'] };
      const client = await connect(fakeBackend({ execute: async () => failed }));
      const result = (await client.callTool({ name: 'execute', arguments: { code: 'for (;;) await mem.fileExists("a")' } })) as ToolResult;
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ ok: false, error: { code: 'MemCallLimit' }, discarded: ['A.md'] });
    });

    it('marks an ask that did not complete as an error, with the outcome as structured content', async () => {
      const client = await connect(fakeBackend({ ask: async () => ({ reply: null, sessionId: 'conv-2', state: 'failed', error: 'the model refused the key', commits: [] }) }));
      const result = (await client.callTool({ name: 'ask', arguments: { query: 'q' } })) as ToolResult;
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ state: 'failed', sessionId: 'conv-2', reply: null });
    });
  });

  describe('ask', () => {
    it('sends what the backend reports as progress notifications, in order, when the request has a progress token', async () => {
      const client = await connect(
        fakeBackend({
          ask: async (_query, options: McpAskOptions) => {
            options.onProgress('one');
            options.onProgress('two');
            return { reply: 'r', sessionId: 's', state: 'completed', error: null, commits: [] };
          },
        }),
      );
      const seen: { progress: number; message?: string }[] = [];
      await client.callTool({ name: 'ask', arguments: { query: 'q' } }, undefined, { onprogress: (event) => seen.push({ progress: event.progress, message: event.message }) });
      expect(seen).toEqual([
        { progress: 1, message: 'one' },
        { progress: 2, message: 'two' },
      ]);
    });

    it('aborts the backend\'s signal when the client cancels the request', async () => {
      let aborted: Promise<void> = Promise.resolve();
      const client = await connect(
        fakeBackend({
          ask: (_query, options) => {
            aborted = new Promise((resolve) => options.signal.addEventListener('abort', () => resolve(), { once: true }));
            return new Promise(() => undefined);
          },
        }),
      );
      const controller = new AbortController();
      const asked = client.callTool({ name: 'ask', arguments: { query: 'q' } }, undefined, { signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 20));
      controller.abort();
      await expect(asked).rejects.toThrow();
      await aborted;
    });

    it('passes sessionId on to continue a conversation', async () => {
      const client = await connect(fakeBackend());
      const result = (await client.callTool({ name: 'ask', arguments: { query: 'q', sessionId: 'conv-9' } })) as ToolResult;
      expect(result.structuredContent?.sessionId).toBe('conv-9');
    });
  });

  describe('when read-only', () => {
    it('offers only recall, search and read, and refuses the others', async () => {
      const backend = fakeBackend();
      const client = await connect(backend, true);
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([...READ_ONLY_TOOLS].sort());
      const refused = (await client.callTool({ name: 'remember', arguments: { content: 'x' } })) as ToolResult;
      expect(refused.isError).toBe(true);
      expect(backend.calls).toEqual([]);
    });
  });

  describe('the mem reference resource', () => {
    it('serves the backend\'s reference as Markdown', async () => {
      const client = await connect(fakeBackend(), true);
      expect((await client.listResources()).resources.map((resource) => [resource.uri, resource.mimeType])).toEqual([[MEM_REFERENCE_URI, 'text/markdown']]);
      const { contents } = await client.readResource({ uri: MEM_REFERENCE_URI });
      expect(contents).toEqual([{ uri: MEM_REFERENCE_URI, mimeType: 'text/markdown', text: '### mem.readFile(path: string)' }]);
    });
  });
});
