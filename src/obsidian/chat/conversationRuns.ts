import type { ChatMessage } from '../../core/llm/types';
import { correctionMessage, parseResponse } from '../../core/agent/protocolParser';
import { contextOf, requestOf } from '../../core/agent/requestContext';
import { attachedPaths } from './pickedNotes';

/** One past exchange of a saved conversation, as the chat shows it again. */
export interface PastRun {
  /** What the user typed (without the notes' text that went with it). */
  request: string;
  /** The notes and folders the user attached (folders end with `/`). */
  attached: string[];
  /** The code the model ran, in order. */
  code: string[];
  /** The last think text. */
  think: string | null;
  reply: string | null;
}

/**
 * Splits a saved conversation into the user's requests and what the agent did for each. The loop
 * also sends the model user messages of its own — execution results, format corrections, "continue"
 * — which are feedback within a run, not requests.
 */
export function conversationRuns(messages: readonly ChatMessage[]): PastRun[] {
  const runs: PastRun[] = [];
  let current: PastRun | null = null;
  for (const message of messages) {
    if (message.role === 'user') {
      if (current !== null && isFeedback(message.content)) continue;
      const context = contextOf(message.content);
      current = { request: requestOf(message.content), attached: context === null ? [] : attachedPaths(context), code: [], think: null, reply: null };
      runs.push(current);
      continue;
    }
    if (current === null) continue;
    const parsed = parseResponse(message.content);
    current.code.push(...parsed.code);
    current.think = parsed.thinks.at(-1) ?? current.think;
    if (parsed.reply !== null) current.reply = parsed.reply;
  }
  return runs;
}

function isFeedback(content: string): boolean {
  return content.startsWith('[Execution Result]') || content.startsWith('[Execution Error]') || content === correctionMessage() || content.startsWith('Continue: act with <typescript>');
}
