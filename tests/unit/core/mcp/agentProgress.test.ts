import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../../src/core/agent/runAgent';
import { agentProgress } from '../../../../src/core/mcp/agentProgress';

function told(events: AgentEvent[]): string[] {
  const messages: string[] = [];
  const onEvent = agentProgress((message) => messages.push(message));
  for (const event of events) onEvent(event);
  return messages;
}

const think = (turn: number, text: string): AgentEvent => ({ type: 'think', turn, text });

describe('agentProgress', () => {
  it('tells each think line once, as soon as it is complete', () => {
    const messages: string[] = [];
    const onEvent = agentProgress((message) => messages.push(message));
    onEvent(think(1, 'Look'));
    expect(messages).toEqual([]);
    onEvent(think(1, 'Looking at the inbox.\nThen'));
    expect(messages).toEqual(['Looking at the inbox.']);
    onEvent(think(1, 'Looking at the inbox.\nThen the plan.\n'));
    expect(messages).toEqual(['Looking at the inbox.', 'Then the plan.']);
  });

  it('tells the last, unfinished line when the model stops thinking', () => {
    expect(told([think(1, 'One.\nTwo'), { type: 'state', state: 'acting' }])).toEqual(['One.', 'Two']);
  });

  it('starts over for each turn and skips blank lines', () => {
    expect(told([think(1, 'First turn.'), think(2, '\n\nSecond turn.\n'), { type: 'reply', text: 'done' }])).toEqual(['First turn.', 'Second turn.']);
  });

  it('tells each code run, its outcome and each commit', () => {
    const messages = told([
      think(1, 'Writing.'),
      { type: 'code', turn: 1, index: 0, code: "await mem.writeFile('A.md', 'a');\nreturn 1;" },
      { type: 'result', turn: 1, index: 0, result: { ok: false, value: null, logs: [], error: { code: 'NotFound', message: 'No file' }, memCalls: 1, durationMs: 3, truncated: [] } },
      { type: 'commit', hash: 'abcdef0123456789', automatic: true },
    ]);
    expect(messages).toEqual(['Writing.', "Running code (turn 1): await mem.writeFile('A.md', 'a'); …", 'The code failed: NotFound: No file', 'Committed abcdef0.']);
  });

  it('ignores the thinking state, which comes before every think', () => {
    expect(told([{ type: 'state', state: 'thinking' }, think(1, 'Hm'), { type: 'state', state: 'thinking' }])).toEqual([]);
  });
});
