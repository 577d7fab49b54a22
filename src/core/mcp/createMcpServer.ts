import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import * as z from 'zod/v4';
import type { RunCodeResult } from '../stack/runCode';
import type { McpBackend, McpCall } from './McpBackend';
import { toolError } from './toolError';

export interface McpServerOptions {
  /** Offer only the tools that change nothing (`recall`, `search`, `read`) and the resource. */
  readOnly?: boolean;
  /** The server's version, told to clients in `initialize`. */
  version: string;
}

/** The `mem` reference, for clients writing `execute` code. */
export const MEM_REFERENCE_URI = 'recursa://mem-reference';

/** The tools a read-only server offers. */
export const READ_ONLY_TOOLS = ['recall', 'search', 'read'] as const;

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const runResultShape = {
  ok: z.boolean().describe('true when the code ran to the end'),
  value: z.unknown().describe('what the code returned, made JSON-safe; null when it returned nothing or failed'),
  logs: z.array(z.object({ level: z.enum(['log', 'info', 'warn', 'error', 'debug']), text: z.string() })),
  error: z.object({ code: z.string(), message: z.string(), line: z.number().optional(), name: z.string().optional() }).nullable(),
  memCalls: z.number(),
  durationMs: z.number(),
  truncated: z.array(z.string()),
  commit: z.string().nullable().describe('the commit made for `commit`, or null'),
  uncommitted: z.array(z.string()).describe('files written and left uncommitted (no `commit` given)'),
  discarded: z.array(z.string()).describe('files a failed run had changed, put back as they were'),
};

const memoryShape = z.object({
  id: z.string(),
  path: z.string(),
  timestamp: z.string(),
  tags: z.array(z.string()),
  content: z.string(),
  vault: z.string().nullable().describe('null for this vault, else the other vault\'s name'),
  score: z.number().nullable(),
});

/**
 * The MCP server over a backend, on no transport yet: the caller connects it (stdio, Streamable
 * HTTP). One server per connection; any number may share one backend. Failures come back as tool
 * results with `isError: true` and a message saying what to do, and the server keeps serving.
 *
 * @example
 * const server = createMcpServer(backend, { version: '0.1.0' });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(backend: McpBackend, options: McpServerOptions): McpServer {
  const server = new McpServer(
    { name: 'recursa', version: options.version },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'Recursa works on an Obsidian vault kept in git. Use recall at the start of a task and remember what you learn; search and read to find notes; ask to hand a whole request to the vault agent; execute to run TypeScript against the `mem` API (its reference is the resource ' +
        `${MEM_REFERENCE_URI}).`,
    },
  );
  const callOf = (extra: Extra): McpCall => ({ client: server.server.getClientVersion()?.name ?? null, signal: extra.signal });

  server.registerResource(
    'mem-reference',
    MEM_REFERENCE_URI,
    { title: 'The mem API', description: 'The reference of `mem`, the API `execute` code (and the vault agent) uses: every method with its arguments, result, errors and an example.', mimeType: 'text/markdown' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: backend.memReference() }] }),
  );

  server.registerTool(
    'recall',
    {
      title: 'Recall memories',
      description:
        'Searches the memories saved with `remember` (and notes the user keeps in the memory folder). Use it proactively at the start of a task, before answering questions about the user, their projects or earlier decisions: check what you or an earlier session already learned. With a query: fuzzy full text, best first; without one: newest first. `tags` match any; `since` keeps memories from then on ("12h", "1d", "2w", "today", "yesterday" or an ISO date). `scope: "global"` also searches every other vault registered on this device.',
      inputSchema: {
        query: z.string().max(1000).optional().describe('words to search for (typo-tolerant)'),
        tags: z.array(z.string()).max(50).optional().describe('any of these tags'),
        since: z.string().optional().describe('"12h", "1d", "2w", "today", "yesterday" or an ISO date'),
        limit: z.number().int().min(1).max(100).optional().describe('most memories, default 10'),
        scope: z.enum(['project', 'global']).optional().describe('"project" (this vault, the default) or "global" (every vault on this device)'),
      },
      outputSchema: { memories: z.array(memoryShape), searched: z.array(z.string()), note: z.string().nullable() },
      annotations: { title: 'Recall memories', readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded(async () => {
        const result = await backend.recall(args, callOf(extra));
        const text = result.memories.length === 0 ? 'No memories match.' : JSON.stringify(result, null, 2);
        return { content: [{ type: 'text', text: result.note === null ? text : `${text}\n\nNote: ${result.note}` }], structuredContent: { ...result } };
      }),
  );

  server.registerTool(
    'search',
    {
      title: 'Search notes',
      description: 'Full-text search over every note in the vault: prefix and typo-tolerant, titles and headings weighted above the body. Returns each hit\'s path, score and a snippet, best first; read a hit with `read`.',
      inputSchema: {
        query: z.string().min(1).max(1000).describe('words to look for'),
        limit: z.number().int().min(1).max(100).optional().describe('most hits, default 10'),
      },
      outputSchema: { hits: z.array(z.object({ path: z.string(), score: z.number(), snippet: z.string() })) },
      annotations: { title: 'Search notes', readOnlyHint: true, openWorldHint: false },
    },
    ({ query, limit }, extra) =>
      guarded(async () => {
        const hits = await backend.search(query, limit, callOf(extra));
        const text = hits.length === 0 ? `No note matches "${query}".` : hits.map((hit) => `${hit.path} (${hit.score.toFixed(2)})\n  ${hit.snippet}`).join('\n');
        return { content: [{ type: 'text', text }], structuredContent: { hits } };
      }),
  );

  server.registerTool(
    'read',
    {
      title: 'Read a note',
      description: 'Reads the full text of a file in the vault, by its vault-relative path (e.g. "Projects/Plan.md").',
      inputSchema: { path: z.string().min(1).max(1000).describe('vault-relative path, e.g. "Projects/Plan.md"') },
      outputSchema: { path: z.string(), content: z.string() },
      annotations: { title: 'Read a note', readOnlyHint: true, openWorldHint: false },
    },
    ({ path }, extra) =>
      guarded(async () => {
        const content = await backend.read(path, callOf(extra));
        return { content: [{ type: 'text', text: content }], structuredContent: { path, content } };
      }),
  );

  if (options.readOnly === true) return server;

  server.registerTool(
    'remember',
    {
      title: 'Remember',
      description:
        'Saves a memory that lasts beyond this conversation: a dated note in the vault\'s memory folder, committed to its history. Use it proactively, without being asked, when you finish a task, make a decision, learn a fact about the user or their projects, or solve a tricky problem. Write Markdown that stands on its own: what, why, which notes, what to watch out for. Find memories again with `recall`.',
      inputSchema: {
        content: z.string().min(1).max(20000).describe('the memory, in Markdown'),
        tags: z.array(z.string()).max(50).optional().describe('tags for filtering later'),
      },
      outputSchema: { id: z.string(), path: z.string(), commit: z.string().nullable() },
      annotations: { title: 'Remember', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ content, tags }, extra) =>
      guarded(async () => {
        const saved = await backend.remember(content, tags, callOf(extra));
        return { content: [{ type: 'text', text: `Remembered as ${saved.id} (${saved.path}).` }], structuredContent: { ...saved } };
      }),
  );

  server.registerTool(
    'execute',
    {
      title: 'Execute code',
      description:
        `Runs TypeScript against the vault in Recursa's sandbox: the body of an async function with \`mem\` in scope (top-level await and return work), e.g. \`return (await mem.search('plan')).map((hit) => hit.path);\`. The \`mem\` API is in the resource ${MEM_REFERENCE_URI}. Returns what the code returned and its console output. With \`commit\`, what the code wrote is committed with that message; without it, changes stay uncommitted. Code that fails commits nothing and its changes are undone.`,
      inputSchema: {
        code: z.string().min(1).max(200_000).describe('the body of an async function with `mem` in scope'),
        commit: z.string().min(1).max(4000).optional().describe('commit what the code wrote, with this message'),
      },
      outputSchema: runResultShape,
      annotations: { title: 'Execute code', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    ({ code, commit }, extra) =>
      guarded(async () => {
        const result = await backend.execute(code, { ...callOf(extra), ...(commit === undefined ? {} : { commit }) });
        const text = JSON.stringify(result);
        if (result.ok) return { content: [{ type: 'text', text }], structuredContent: { ...result } };
        return { content: [{ type: 'text', text: `${failedRunMessage(result)}\n\n${text}` }], structuredContent: { ...result }, isError: true };
      }),
  );

  server.registerTool(
    'ask',
    {
      title: 'Ask the vault agent',
      description:
        'Hands a request to Recursa\'s own agent, which works on the vault (reads, searches, writes notes, commits) with its model and returns its reply. Progress (its thinking and each code run) is reported while it works when the request carries a progress token. Pass the returned `sessionId` to continue the conversation.',
      inputSchema: {
        query: z.string().min(1).max(100_000).describe('the request, in plain language'),
        sessionId: z.string().min(1).max(200).optional().describe('continue this conversation (from an earlier result)'),
      },
      outputSchema: {
        reply: z.string().nullable(),
        sessionId: z.string(),
        state: z.enum(['completed', 'failed', 'timed-out', 'cancelled']),
        error: z.string().nullable(),
        commits: z.array(z.string()),
      },
      annotations: { title: 'Ask the vault agent', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    ({ query, sessionId }, extra) =>
      guarded(async () => {
        const progressToken = extra._meta?.progressToken;
        let progress = 0;
        const onProgress = (message: string): void => {
          if (progressToken === undefined) return;
          progress += 1;
          void extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, message } }).catch(() => undefined);
        };
        const outcome = await backend.ask(query, { ...callOf(extra), ...(sessionId === undefined ? {} : { sessionId }), onProgress });
        if (outcome.state === 'completed') return { content: [{ type: 'text', text: outcome.reply ?? '' }], structuredContent: { ...outcome } };
        const text = `The agent's run ${outcome.state}: ${outcome.error ?? 'no reply'}. ${outcome.commits.length > 0 ? `It committed ${outcome.commits.map((hash) => hash.slice(0, 7)).join(', ')} first. ` : ''}Ask again (with sessionId "${outcome.sessionId}" to continue the conversation).`;
        return { content: [{ type: 'text', text }], structuredContent: { ...outcome }, isError: true };
      }),
  );

  return server;
}

/** Runs a tool's work; a failure becomes a tool error that says what to do, never a protocol error. */
async function guarded(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    return toolError(error);
  }
}

function failedRunMessage(result: RunCodeResult): string {
  const error = result.error;
  const where = error?.line === undefined ? '' : ` (line ${error.line})`;
  const undone = result.discarded.length > 0 ? ` Its changes were undone (${result.discarded.join(', ')}).` : result.uncommitted.length > 0 ? ` It left these files changed: ${result.uncommitted.join(', ')}.` : '';
  return `The code failed: ${error?.code ?? 'Error'}: ${error?.message ?? 'unknown error'}${where}. Nothing was committed.${undone} Fix the code and call execute again (the mem API is in ${MEM_REFERENCE_URI}).`;
}
