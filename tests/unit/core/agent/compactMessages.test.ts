import { describe, expect, it } from 'vitest';
import { compactMessages } from '../../../../src/core/agent/compactMessages';
import type { ChatMessage } from '../../../../src/core/llm/types';
import { countTokens } from '../../../../src/core/tokens/countTokens';

const size = (messages: ChatMessage[]): number => messages.reduce((sum, message) => sum + countTokens(message.content) + 4, 0);
const result = (n: number): ChatMessage => ({ role: 'user', content: `[Execution Result] The code ran.\nReturned: ${JSON.stringify('x '.repeat(500) + n)}` });

describe('compactMessages', () => {
  const conversation: ChatMessage[] = [
    { role: 'user', content: 'First request' },
    { role: 'assistant', content: '<think>a</think><typescript>return 1</typescript>' },
    result(1),
    { role: 'assistant', content: '<reply>one</reply>' },
    { role: 'user', content: 'Second request' },
    { role: 'assistant', content: '<think>b</think><typescript>return 2</typescript>' },
    result(2),
  ];

  it('returns the conversation unchanged when it fits', () => {
    expect(compactMessages(conversation, 100_000)).toEqual(conversation);
  });

  it('summarises old execution results first, keeping the current request and what follows', () => {
    const limit = size(conversation) - 200;
    const compacted = compactMessages(conversation, limit);
    expect(compacted).toHaveLength(conversation.length);
    expect(compacted[2]?.content).toContain('omitted');
    expect(compacted.slice(4)).toEqual(conversation.slice(4));
    expect(size(compacted)).toBeLessThanOrEqual(limit);
  });

  it('then drops the oldest messages, starting the conversation with a user message', () => {
    const compacted = compactMessages(conversation, size(conversation.slice(4)) + 5);
    expect(compacted[0]?.role).toBe('user');
    expect(compacted.slice(-3)).toEqual(conversation.slice(4));
    expect(compacted.length).toBeLessThan(conversation.length);
  });

  it('never drops the current request, even over the limit', () => {
    expect(compactMessages(conversation, 1).slice(-3)).toEqual(conversation.slice(4));
  });
});
