import type { ChatMessage, CompletionUsage, LlmProvider } from '../llm/types';
import { countTokens } from '../tokens/countTokens';
import { compactMessages } from './compactMessages';
import { StreamingParser } from './protocolParser';
import type { AgentDeps } from './runAgent';

export interface TurnPrompt {
  system: string;
  messages: ChatMessage[];
}

export interface ModelAnswer {
  text: string;
  /** The `<think>` text last told while the answer streamed. */
  shownThink: string;
  /** Tokens the turn used, sent and received. */
  tokens: number;
}

/**
 * What the model sees in one turn: the system prompt with the turn context after it, and the
 * conversation compacted to fit the context window beside that system prompt.
 */
export async function turnPrompt(deps: Pick<AgentDeps, 'systemPrompt' | 'turnContext'>, conversation: readonly ChatMessage[], contextTokens: number, baseTokens: number): Promise<TurnPrompt> {
  const extra = deps.turnContext === undefined ? null : await deps.turnContext().catch((failure: unknown) => `(The working memory could not be read: ${failure instanceof Error ? failure.message : String(failure)})`);
  const system = extra === null || extra.trim() === '' ? deps.systemPrompt : `${deps.systemPrompt}\n\n${extra}`;
  const systemTokens = baseTokens + (system === deps.systemPrompt ? 0 : countTokens(system.slice(deps.systemPrompt.length)));
  return { system, messages: compactMessages(conversation, contextTokens - systemTokens) };
}

/** Asks the model for one answer, telling its `<think>` text each time it grows while the answer streams. */
export async function streamAnswer(provider: LlmProvider, prompt: TurnPrompt, signal: AbortSignal, onThink: (text: string) => void): Promise<ModelAnswer> {
  const parser = new StreamingParser();
  let shownThink = '';
  const completion = await provider.complete({ system: prompt.system, messages: prompt.messages }, {
    signal,
    onText: (delta) => {
      parser.push(delta);
      const think = parser.thinkText();
      if (think !== shownThink) {
        shownThink = think;
        onThink(think);
      }
    },
  });
  return { text: completion.text, shownThink, tokens: usedTokens(completion.usage, prompt, completion.text) };
}

function usedTokens(usage: CompletionUsage | null, prompt: TurnPrompt, answer: string): number {
  if (usage !== null) return usage.inputTokens + usage.outputTokens;
  return countTokens(prompt.system) + prompt.messages.reduce((sum, message) => sum + countTokens(message.content), 0) + countTokens(answer);
}
