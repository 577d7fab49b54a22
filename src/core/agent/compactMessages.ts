import type { ChatMessage } from '../llm/types';
import { countTokens } from '../tokens/countTokens';

const RESULT_PREFIXES = ['[Execution Result]', '[Execution Error]'];
const CACHED_COUNTS = 512;
/** Token counts of recent message texts: every turn sends the whole conversation again. */
const counts = new Map<string, number>();

function tokensOf(text: string): number {
  const known = counts.get(text);
  if (known !== undefined) return known;
  const count = countTokens(text) + 4;
  if (counts.size >= CACHED_COUNTS) counts.delete(counts.keys().next().value as string);
  counts.set(text, count);
  return count;
}
const OMITTED = '[Execution result omitted to keep the conversation within the context window.]';

/**
 * Keeps a conversation under `maxTokens`: first the oldest execution results are replaced by a
 * one-line note, then the oldest messages are dropped, always keeping the latest user message
 * and everything after it. Returns a new array; the input is untouched.
 */
export function compactMessages(messages: readonly ChatMessage[], maxTokens: number): ChatMessage[] {
  const out = messages.map((message) => ({ ...message }));
  const sizes = out.map((message) => tokensOf(message.content));
  let total = sizes.reduce((sum, size) => sum + size, 0);
  if (total <= maxTokens) return out;
  const lastUser = lastRequestIndex(out);
  for (let i = 0; i < lastUser && total > maxTokens; i++) {
    const message = out[i] as ChatMessage;
    if (message.role === 'user' && RESULT_PREFIXES.some((prefix) => message.content.startsWith(prefix))) {
      message.content = OMITTED;
      const size = tokensOf(OMITTED);
      total -= (sizes[i] as number) - size;
      sizes[i] = size;
    }
  }
  let first = 0;
  while (total > maxTokens && first < lastUser) {
    total -= sizes[first] as number;
    first++;
  }
  // A conversation sent to a model starts with the user.
  while (first < lastUser && out[first]?.role !== 'user') first++;
  return out.slice(first);
}

/** The index of the request that started the current run: the last user message that is not a result. */
function lastRequestIndex(messages: readonly ChatMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as ChatMessage;
    if (message.role === 'user' && !RESULT_PREFIXES.some((prefix) => message.content.startsWith(prefix))) return i;
  }
  return 0;
}
