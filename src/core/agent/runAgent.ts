import type { GitService } from '../git/GitService';
import type { ChatMessage, LlmProvider } from '../llm/types';
import type { MemSession } from '../mem/MemContext';
import type { WriteSet } from '../mem/WriteSet';
import type { RunLimits, RunResult } from '../sandbox/protocol';
import { loadTokenizer } from '../tokens/countTokens';
import type { ActionRunner } from './actions/executeActions';
import { AgentRun } from './AgentRun';
import type { AgentBudgets } from './budgets';

export type RunState = 'accepted' | 'thinking' | 'acting' | 'committing' | 'replying' | 'completed' | 'failed' | 'timed-out' | 'cancelled';

export type AgentEvent =
  | { type: 'state'; state: RunState }
  | { type: 'think'; turn: number; text: string }
  | { type: 'code'; turn: number; index: number; code: string }
  | { type: 'result'; turn: number; index: number; result: RunResult }
  | { type: 'reply'; text: string }
  | { type: 'commit'; hash: string; automatic: boolean }
  | { type: 'usage'; turns: number; tokens: number; memCalls: number };

/** Runs code for the agent: the sandbox, or anything with its `run`. */
export interface CodeRunner {
  run(code: string, options: { limits?: Partial<RunLimits>; signal?: AbortSignal }): Promise<RunResult>;
}

export interface AgentDeps {
  provider: LlmProvider;
  runner: CodeRunner;
  /** The vault's history; null when it has none (nothing is committed then). */
  git: GitService | null;
  writeSet: WriteSet;
  session: MemSession;
  systemPrompt: string;
  /** How the model acts: `code` (the default, `<typescript>`) or `actions` (XML actions for small models). */
  protocol?: 'code' | 'actions';
  /** Runs the model's actions; needed when `protocol` is `actions`. */
  actions?: ActionRunner;
  /** Read before every turn and put after the system prompt: what must be current each turn (the working memory). */
  turnContext?: () => Promise<string | null>;
}

export interface AgentRunOptions {
  runId: string;
  budgets?: Partial<AgentBudgets>;
  signal?: AbortSignal;
  onEvent?: (event: AgentEvent) => void;
  /** What the user attached (picked notes): sent to the model before the request, never in commits. */
  context?: string | null;
  /** Leave the run's changes uncommitted, for the user to review (`AgentOutcome.pending`). */
  deferCommit?: boolean;
}

export interface AgentOutcome {
  runId: string;
  state: Extract<RunState, 'completed' | 'failed' | 'timed-out' | 'cancelled'>;
  reply: string | null;
  /** Why the run did not complete, for the user. */
  error: string | null;
  /** Commits made during the run, oldest first (the model's own and the closing one). */
  commits: string[];
  turns: number;
  tokens: number;
  memCalls: number;
  /** What to append to the conversation: the request, the model's answers, the results. */
  messages: ChatMessage[];
  /** With `deferCommit`: the paths the agent changed and left uncommitted, sorted. */
  pending?: string[];
}

/**
 * The think-act-commit loop: the request goes to the model, the `<think>` text streams to the
 * user, each `<typescript>` block runs in the sandbox and its result goes back, until a
 * `<reply>`. Budgets (turns, wall time, tokens, `mem` calls) bound the run; the signal cancels it
 * at once. However the run ends, writes the model did not commit are committed, naming the run.
 */
export async function runAgent(request: string, history: readonly ChatMessage[], deps: AgentDeps, options: AgentRunOptions): Promise<AgentOutcome> {
  // The run counts tokens from its start; on a phone, reading the table at once held the app for seconds.
  await loadTokenizer();
  return new AgentRun(request, history, deps, options).run();
}
