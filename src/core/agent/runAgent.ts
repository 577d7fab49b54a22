import { isRecursaError } from '../errors';
import type { GitService } from '../git/GitService';
import type { ChatMessage, CompletionUsage, LlmProvider } from '../llm/types';
import type { MemSession } from '../mem/MemContext';
import type { WriteSet } from '../mem/WriteSet';
import type { RunLimits, RunResult } from '../sandbox/protocol';
import { countTokens } from '../tokens/countTokens';
import { DEFAULT_BUDGETS, type AgentBudgets } from './budgets';
import { compactMessages } from './compactMessages';
import { correctionMessage, parseResponse, StreamingParser } from './protocolParser';
import { formatRunResult } from './formatRunResult';
import { formatActionResults } from './actions/formatActionResults';
import { parseActionsResponse } from './actions/parseActions';
import type { ActionRunner } from './actions/executeActions';
import type { JsonValue } from '../sandbox/jsonSafe';

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
}

/** How many answers without a usable tag the model may give before the run fails. */
const MAX_CORRECTIONS = 2;

class RunStopped extends Error {
  constructor(readonly state: 'failed' | 'timed-out' | 'cancelled', message: string) {
    super(message);
  }
}

/**
 * The think-act-commit loop: the request goes to the model, the `<think>` text streams to the
 * user, each `<typescript>` block runs in the sandbox and its result goes back, until a
 * `<reply>`. Budgets (turns, wall time, tokens, `mem` calls) bound the run; the signal cancels it
 * at once. However the run ends, writes the model did not commit are committed, naming the run.
 */
export async function runAgent(request: string, history: readonly ChatMessage[], deps: AgentDeps, options: AgentRunOptions): Promise<AgentOutcome> {
  const budgets: AgentBudgets = { ...DEFAULT_BUDGETS, ...options.budgets };
  const emit = (event: AgentEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // A broken listener must not break the run.
    }
  };
  const started = Date.now();
  const controller = new AbortController();
  let stopReason: 'timed-out' | 'cancelled' | null = null;
  const stop = (reason: 'timed-out' | 'cancelled'): void => {
    stopReason ??= reason;
    controller.abort();
  };
  const onAbort = (): void => stop('cancelled');
  if (options.signal?.aborted === true) stop('cancelled');
  options.signal?.addEventListener('abort', onAbort);
  const timer = setTimeout(() => stop('timed-out'), budgets.timeMs);

  deps.session.runId = options.runId;
  const added: ChatMessage[] = [{ role: 'user', content: request }];
  const commits: string[] = [];
  let turns = 0;
  let tokens = 0;
  let memCalls = 0;
  let corrections = 0;
  let reply: string | null = null;
  let state: AgentOutcome['state'] = 'completed';
  let error: string | null = null;
  /** What the model should hear about its commits besides their hashes (paths the ignore rules kept out). */
  const commitNotes: string[] = [];
  /** True while the closing commit is made: its event is the one commit the loop itself asked for. */
  let closing = false;
  const commitListener = deps.git?.onEvent((event) => {
    if (event.type === 'commit' && event.run === options.runId) {
      commits.push(event.hash);
      emit({ type: 'commit', hash: event.hash, automatic: closing });
      if (event.ignored !== undefined && event.ignored.length > 0) {
        commitNotes.push(`Note: commit ${event.hash.slice(0, 7)} left out ${event.ignored.map((path) => `"${path}"`).join(', ')}: the vault's .gitignore excludes ${event.ignored.length === 1 ? 'it' : 'them'}, so ${event.ignored.length === 1 ? 'it stays' : 'they stay'} out of history.`);
      }
    }
  });

  /** One answer in the action protocol: what to send back, or the reply that ends the run. */
  const actionsTurn = async (text: string, shownThink: string): Promise<{ reply: string | null; feedback: string }> => {
    const parsed = parseActionsResponse(text);
    if (parsed.think !== shownThink && parsed.think !== '') emit({ type: 'think', turn: turns, text: parsed.think });
    emit({ type: 'usage', turns, tokens, memCalls });
    if (tokens > budgets.maxTokens) throw new RunStopped('failed', `The run used more than its budget of ${budgets.maxTokens} tokens.`);
    if (!parsed.usable) {
      corrections++;
      if (corrections > MAX_CORRECTIONS) throw new RunStopped('failed', 'The model did not answer in the expected format (<think>, <actions>, <reply>) after two corrections.');
      return { reply: null, feedback: actionsCorrection() };
    }
    if (parsed.actions.length === 0) {
      return parsed.reply !== null ? { reply: parsed.reply, feedback: '' } : { reply: null, feedback: 'Continue: send <actions>, or give the final <reply>.' };
    }
    if (deps.actions === undefined) throw new RunStopped('failed', 'The action protocol is on, but this agent has no action runner.');
    checkStopped();
    if (memCalls + parsed.actions.length > budgets.maxMemCalls) throw new RunStopped('failed', `The run used its budget of ${budgets.maxMemCalls} mem calls.`);
    emit({ type: 'state', state: 'acting' });
    emit({ type: 'code', turn: turns, index: 0, code: actionsText(text) });
    const begun = Date.now();
    const results = await deps.actions.run(parsed.actions, options.runId);
    memCalls += results.length;
    const failed = results.filter((result) => result.status === 'error').length;
    emit({
      type: 'result',
      turn: turns,
      index: 0,
      result: {
        ok: failed === 0,
        value: JSON.parse(JSON.stringify(results)) as JsonValue,
        logs: [],
        error: failed === 0 ? null : { code: 'ActionFailed', message: `${failed} of ${results.length} actions failed.` },
        memCalls: results.length,
        durationMs: Date.now() - begun,
        truncated: [],
      },
    });
    emit({ type: 'usage', turns, tokens, memCalls });
    checkStopped();
    if (parsed.reply !== null && failed === 0) return { reply: parsed.reply, feedback: '' };
    return { reply: null, feedback: formatActionResults(results) };
  };

  const checkStopped = (): void => {
    if (stopReason === 'cancelled') throw new RunStopped('cancelled', 'The run was cancelled.');
    if (stopReason === 'timed-out') throw new RunStopped('timed-out', `The run went over its time budget of ${Math.round(budgets.timeMs / 1000)} s.`);
  };

  const baseTokens = countTokens(deps.systemPrompt);
  emit({ type: 'state', state: 'accepted' });
  try {
    while (reply === null) {
      checkStopped();
      if (turns >= budgets.maxTurns) throw new RunStopped('failed', `The run used its ${budgets.maxTurns} turns without finishing.`);
      turns++;
      emit({ type: 'state', state: 'thinking' });
      const extra = deps.turnContext === undefined ? null : await deps.turnContext().catch((failure: unknown) => `(The working memory could not be read: ${failure instanceof Error ? failure.message : String(failure)})`);
      const system = extra === null || extra.trim() === '' ? deps.systemPrompt : `${deps.systemPrompt}\n\n${extra}`;
      const systemTokens = baseTokens + (system === deps.systemPrompt ? 0 : countTokens(system.slice(deps.systemPrompt.length)));
      const messages = compactMessages([...history, ...added], budgets.contextTokens - systemTokens);
      const parser = new StreamingParser();
      let shownThink = '';
      const completion = await deps.provider
        .complete(
          { system, messages },
          {
            signal: controller.signal,
            onText: (delta) => {
              parser.push(delta);
              const think = parser.thinkText();
              if (think !== shownThink) {
                shownThink = think;
                emit({ type: 'think', turn: turns, text: think });
              }
            },
          },
        )
        .catch((failure: unknown) => {
          checkStopped();
          throw failure;
        });
      tokens += usedTokens(completion.usage, system, messages, completion.text);
      added.push({ role: 'assistant', content: completion.text });
      if (deps.protocol === 'actions') {
        const step = await actionsTurn(completion.text, shownThink);
        if (step.reply !== null) {
          reply = step.reply;
          break;
        }
        added.push({ role: 'user', content: step.feedback });
        continue;
      }
      const parsed = parseResponse(completion.text);
      const think = parsed.thinks.at(-1) ?? '';
      if (think !== shownThink && think !== '') emit({ type: 'think', turn: turns, text: think });
      emit({ type: 'usage', turns, tokens, memCalls });
      if (tokens > budgets.maxTokens) throw new RunStopped('failed', `The run used more than its budget of ${budgets.maxTokens} tokens.`);

      if (!parsed.usable) {
        corrections++;
        if (corrections > MAX_CORRECTIONS) {
          throw new RunStopped('failed', 'The model did not answer in the expected format (<think>, <typescript>, <reply>) after two corrections.');
        }
        added.push({ role: 'user', content: correctionMessage() });
        continue;
      }

      if (parsed.code.length > 0) {
        emit({ type: 'state', state: 'acting' });
        const feedback: string[] = [];
        let allOk = true;
        for (const [index, code] of parsed.code.entries()) {
          checkStopped();
          emit({ type: 'code', turn: turns, index, code });
          const remainingCalls = budgets.maxMemCalls - memCalls;
          if (remainingCalls <= 0) throw new RunStopped('failed', `The run used its budget of ${budgets.maxMemCalls} mem calls.`);
          const result = await deps.runner.run(code, { signal: controller.signal, limits: { maxMemCalls: remainingCalls, timeMs: Math.max(1, Math.min(10_000, budgets.timeMs - (Date.now() - started))) } });
          memCalls += result.memCalls;
          emit({ type: 'result', turn: turns, index, result });
          checkStopped();
          feedback.push(formatRunResult(result, budgets.resultTokens));
          feedback.push(...commitNotes.splice(0));
          if (!result.ok) {
            allOk = false;
            break;
          }
        }
        emit({ type: 'usage', turns, tokens, memCalls });
        if (memCalls >= budgets.maxMemCalls) throw new RunStopped('failed', `The run used its budget of ${budgets.maxMemCalls} mem calls.`);
        if (parsed.reply !== null && allOk) {
          reply = parsed.reply;
          break;
        }
        added.push({ role: 'user', content: feedback.join('\n\n') });
        continue;
      }
      if (parsed.reply !== null) {
        reply = parsed.reply;
        break;
      }
      added.push({ role: 'user', content: 'Continue: act with <typescript>, or give the final <reply>.' });
    }
  } catch (failure) {
    if (failure instanceof RunStopped) {
      state = failure.state;
      error = failure.message;
    } else {
      state = stopReason ?? 'failed';
      error = isRecursaError(failure) || failure instanceof Error ? failure.message : String(failure);
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }

  // Nothing the agent changed is left out of history, however the run ended.
  if (deps.git !== null && deps.writeSet.size > 0) {
    emit({ type: 'state', state: 'committing' });
    closing = true;
    try {
      // Its commit event, like every commit of the run, is told by the listener above.
      await deps.git.commitAgentChanges(closingMessage(request, options.runId, state), options.runId);
    } catch (failure) {
      if (!(isRecursaError(failure) && failure.code === 'NothingToCommit')) {
        error = `${error === null ? '' : `${error} `}The changes could not be committed: ${failure instanceof Error ? failure.message : String(failure)}`;
        if (state === 'completed') state = 'failed';
      }
    }
  }
  commitListener?.();
  if (reply !== null && state === 'completed') {
    emit({ type: 'state', state: 'replying' });
    emit({ type: 'reply', text: reply });
  } else if (state === 'completed') {
    reply = null;
  }
  emit({ type: 'state', state });
  return { runId: options.runId, state, reply: state === 'completed' ? reply : null, error, commits, turns, tokens, memCalls, messages: added };
}

/** The correction for an answer in the action protocol without a usable tag. */
function actionsCorrection(): string {
  return (
    'Your answer had no <think>, <actions> or <reply> block, so nothing was done. ' +
    'Answer again: <think> with one short status sentence, then <actions> with <action> elements, or <reply> with the final answer when the work is done.'
  );
}

/** The `<actions>` part of an answer, for the user to see what ran. */
function actionsText(text: string): string {
  const start = text.search(/<actions?\s*>/i);
  if (start < 0) return text.trim();
  const end = text.toLowerCase().lastIndexOf('</actions>');
  return text.slice(start, end < 0 ? undefined : end + '</actions>'.length).trim();
}

function usedTokens(usage: CompletionUsage | null, system: string, messages: readonly ChatMessage[], answer: string): number {
  if (usage !== null) return usage.inputTokens + usage.outputTokens;
  return countTokens(system) + messages.reduce((sum, message) => sum + countTokens(message.content), 0) + countTokens(answer);
}

function closingMessage(request: string, runId: string, state: AgentOutcome['state']): string {
  const firstLine = request.trim().split('\n', 1)[0] ?? '';
  const subject = firstLine.length > 60 ? `${firstLine.slice(0, 57)}...` : firstLine;
  const how = state === 'completed' ? 'finished' : state === 'cancelled' ? 'was cancelled' : state === 'timed-out' ? 'ran out of time' : 'failed';
  return `Recursa: ${subject || 'agent changes'}\n\nCommitted when run ${runId} ${how}, with changes the agent had not committed itself.\n\nRequest: ${request.trim().slice(0, 1000)}`;
}
