import { DEFAULT_MEMORY_PROMPT_TOKENS, type AgentMemory } from '../memory/agentMemory';
import type { AgentBudgets } from './budgets';
import type { Conversation, ConversationStore } from './ConversationStore';
import { runAgent, type AgentDeps, type AgentEvent, type AgentOutcome } from './runAgent';
import { buildSystemPrompt, type PromptLayers } from './systemPrompt';

export interface AgentServiceDeps extends Omit<AgentDeps, 'systemPrompt'> {
  conversations: ConversationStore;
  /** The prompt layers as they are now (AGENTS.md, the user's instructions, the runtime context). */
  promptLayers: () => Promise<PromptLayers>;
  budgets?: Partial<AgentBudgets>;
  /** New ids for conversations and runs. */
  newId: () => string;
  now?: () => Date;
  /**
   * Memory in the prompt: relevant and recent memories when a conversation starts, the working
   * memory every turn. Without it the prompt has neither.
   */
  memory?: AgentMemory;
  /** Token budget of the memories placed in the prompt when a conversation starts (a setting). */
  memoryPromptTokens?: number;
}

export interface AgentAskOptions {
  conversationId?: string;
  signal?: AbortSignal;
  onEvent?: (event: AgentEvent) => void;
  /** What the user attached (picked notes), sent before the request. */
  context?: string | null;
  /** Leave the run's changes uncommitted for the user to review. */
  deferCommit?: boolean;
}

export interface AskResult {
  conversation: Conversation;
  outcome: AgentOutcome;
}

const TITLE_CHARS = 60;

/**
 * Conversations with the agent: each request runs through the loop with the conversation so far,
 * and the conversation — request, answers, results — is saved after every run, however it ended,
 * so it survives a restart and can be resumed.
 */
export class AgentService {
  constructor(private readonly deps: AgentServiceDeps) {}

  /**
   * Runs `request` in its conversation. `context` (the notes the user attached) reaches the model
   * with the request but not the title or the commits; `deferCommit` leaves the changes for review.
   */
  async ask(request: string, options: AgentAskOptions = {}): Promise<AskResult> {
    const now = (this.deps.now ?? (() => new Date()))();
    const existing = options.conversationId === undefined ? null : await this.deps.conversations.load(options.conversationId);
    const conversation: Conversation = existing ?? {
      id: options.conversationId ?? this.deps.newId(),
      title: titleOf(request),
      created: now.toISOString(),
      updated: now.toISOString(),
      messages: [],
    };
    const layers = { ...(await this.deps.promptLayers()) };
    const memory = this.deps.memory;
    if (memory !== undefined && conversation.messages.length === 0) {
      layers.memories = await memory.preamble(request, this.deps.memoryPromptTokens ?? DEFAULT_MEMORY_PROMPT_TOKENS).catch(() => null);
    }
    const systemPrompt = buildSystemPrompt({ ...layers, protocol: this.deps.protocol ?? layers.protocol });
    this.deps.session.conversationId = conversation.id;
    const turnContext = memory === undefined ? undefined : () => memory.workingMemory();
    const outcome = await runAgent(request, conversation.messages, { ...this.deps, systemPrompt, turnContext }, {
      runId: `run-${this.deps.newId()}`,
      budgets: this.deps.budgets,
      signal: options.signal,
      onEvent: options.onEvent,
      context: options.context,
      deferCommit: options.deferCommit,
    });
    const updated: Conversation = { ...conversation, updated: (this.deps.now ?? (() => new Date()))().toISOString(), messages: [...conversation.messages, ...outcome.messages] };
    await this.deps.conversations.save(updated);
    return { conversation: updated, outcome };
  }
}

function titleOf(request: string): string {
  const line = request.trim().split('\n', 1)[0] ?? '';
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line || 'New conversation';
}
