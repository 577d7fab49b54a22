import type { AgentService } from '../agent/AgentService';
import { MEM_REFERENCE } from '../agent/memReference.generated';
import { CancelledError, isRecursaError } from '../errors';
import type { MemSession } from '../mem/MemContext';
import { runCode, type CodeRunParts } from '../stack/runCode';
import { KeyedMutex } from '../util/KeyedMutex';
import { agentProgress } from './agentProgress';
import { AgentUnavailableError } from './AgentUnavailableError';
import { WritesPausedError } from './WritesPausedError';
import type { McpBackend, McpCall } from './McpBackend';

/** What the backend works with: one open vault (a `VaultStack`, or the command line's opened vault). */
export interface VaultMcpParts extends CodeRunParts {
  /** Whose run `mem` calls belong to; set for each call that writes (run id and client). */
  session: MemSession;
  /** The agent for `ask`; null when no model is configured (`ask` then says how to configure one). */
  agent: AgentService | null;
}

export interface VaultMcpBackendOptions {
  /** What `ask` answers when there is no agent: how to give the server a model. */
  noAgentMessage?: string;
  /** Hides secrets (API keys, credentials in URLs) in the agent's errors before a client sees them. */
  redact?: (text: string) => string;
  /**
   * Why calls that write must wait (a review open in the plugin, say), or null when they may run.
   * Asked in turn, just before each such call; a reason refuses the call with `WritesPaused`.
   */
  writesPaused?: () => Promise<string | null>;
  /** New run ids (for the run trailer of `execute` and `remember` commits). */
  newId?: () => string;
  /**
   * The queue the calls that write wait in, under `WRITES_KEY`. Share it with anything else that
   * writes through the same stack (the plugin's chat), so their runs never overlap. Default: the
   * backend's own.
   */
  writes?: KeyedMutex;
}

/** The key of the queue in `VaultMcpBackendOptions.writes` that writing calls take turns on. */
export const WRITES_KEY = 'vault-writes';

const DEFAULT_NO_AGENT = 'ask needs a model, and this server was started without one. Use execute, search, read, remember and recall, or restart the server with a model configured.';

/**
 * The MCP backend over one open vault. Calls that write (`ask`, `execute`, `remember`) run one at
 * a time, in order: they share the vault's write-set and session, so each commit holds exactly its
 * own call's work and names its client. Reads run at once.
 */
export function createVaultMcpBackend(parts: VaultMcpParts, options: VaultMcpBackendOptions = {}): McpBackend {
  const writes = options.writes ?? new KeyedMutex();
  const newId = options.newId ?? (() => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`);
  const redact = options.redact ?? ((text: string) => text);

  /** Runs `work` when the calls that write before it are done, as `call.client`, under a run id of its own. */
  const asWriter = <T>(call: McpCall, what: string, work: () => Promise<T>): Promise<T> =>
    writes.run(WRITES_KEY, async () => {
      if (call.signal.aborted) throw new CancelledError(what);
      const paused = (await options.writesPaused?.()) ?? null;
      if (paused !== null) throw new WritesPausedError(paused);
      const session = parts.session;
      const before = { runId: session.runId, client: session.client };
      session.runId = `mcp-${newId()}`;
      session.client = call.client;
      try {
        return await work();
      } finally {
        session.runId = before.runId;
        session.client = before.client ?? null;
      }
    });

  return {
    ask: (query, call) =>
      asWriter(call, 'the request', async () => {
        const agent = parts.agent;
        if (agent === null) throw new AgentUnavailableError(options.noAgentMessage ?? DEFAULT_NO_AGENT);
        const { conversation, outcome } = await agent.ask(query, {
          ...(call.sessionId === undefined ? {} : { conversationId: call.sessionId }),
          signal: call.signal,
          onEvent: agentProgress(call.onProgress),
        });
        return { reply: outcome.reply, sessionId: conversation.id, state: outcome.state, error: outcome.error === null ? null : redact(outcome.error), commits: outcome.commits };
      }),
    execute: (code, call) => asWriter(call, 'the code', () => runCode(parts, code, { signal: call.signal, ...(call.commit === undefined ? {} : { commit: call.commit }) })),
    remember: (content, tags, call) =>
      asWriter(call, 'remember', async () => {
        const { id, path } = await parts.mem.remember(content, tags ?? []);
        if (parts.git === null) return { id, path, commit: null };
        const commit = await parts.mem.commitChanges(`Remember: ${subjectOf(content)}`).catch((error: unknown) => {
          if (isRecursaError(error) && error.code === 'NothingToCommit') return null;
          throw error;
        });
        return { id, path, commit };
      }),
    recall: (recallOptions) =>
      parts.mem.recall({
        ...(recallOptions.query === undefined ? {} : { query: recallOptions.query }),
        ...(recallOptions.tags === undefined ? {} : { tags: recallOptions.tags }),
        ...(recallOptions.since === undefined ? {} : { since: recallOptions.since }),
        ...(recallOptions.limit === undefined ? {} : { limit: recallOptions.limit }),
        scope: recallOptions.scope === 'global' ? 'all' : 'vault',
      }),
    search: (query, limit) => parts.mem.search(query, limit === undefined ? {} : { limit }),
    read: (path) => parts.mem.readFile(path),
    memReference: () => MEM_REFERENCE,
  };
}

function subjectOf(content: string): string {
  const firstLine = content.trim().split('\n', 1)[0] ?? '';
  return firstLine.length > 60 ? `${firstLine.slice(0, 57)}...` : firstLine;
}
