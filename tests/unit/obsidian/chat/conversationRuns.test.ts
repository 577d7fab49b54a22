import { describe, expect, it } from 'vitest';
import { correctionMessage } from '../../../../src/core/agent/protocolParser';
import { withContext } from '../../../../src/core/agent/requestContext';
import { conversationRuns } from '../../../../src/obsidian/chat/conversationRuns';
import { countTokens } from '../../../../src/core/tokens/countTokens';
import { pickedContext } from '../../../../src/obsidian/chat/pickedNotes';

describe('conversationRuns', () => {
  it('splits a saved conversation into requests, with the code and reply of each', () => {
    const runs = conversationRuns([
      { role: 'user', content: 'Add a task' },
      { role: 'assistant', content: '<think>Reading.</think><typescript>return 1;</typescript>' },
      { role: 'user', content: '[Execution Result] The code ran (0 mem calls, 3 ms).\nReturned: 1' },
      { role: 'assistant', content: 'no tags at all' },
      { role: 'user', content: correctionMessage() },
      { role: 'assistant', content: '<think>Done.</think><reply>Added.</reply>' },
      { role: 'user', content: 'Thanks. And another?' },
      { role: 'assistant', content: '<typescript>throw new Error()</typescript>' },
      { role: 'user', content: '[Execution Error] Error on line 1: boom' },
    ]);
    expect(runs).toEqual([
      { request: 'Add a task', attached: [], code: ['return 1;'], think: 'Done.', reply: 'Added.' },
      { request: 'Thanks. And another?', attached: [], code: ['throw new Error()'], think: null, reply: null },
    ]);
  });

  describe('when the person attached notes', () => {
    it('shows what they typed, with the attached notes and folders, not the notes\' text', () => {
      const context = pickedContext(
        [
          { path: 'People/Sam.md', kind: 'note', tokens: 5 },
          { path: 'Projects', kind: 'folder', tokens: 20 },
        ],
        new Map([['People/Sam.md', '# Sam\n\nWorks on Alpha.\n']]),
        countTokens,
      );
      const runs = conversationRuns([
        { role: 'user', content: withContext('Compare them', context) },
        { role: 'assistant', content: '<reply>Done.</reply>' },
      ]);
      expect(runs).toEqual([{ request: 'Compare them', attached: ['People/Sam.md', 'Projects/'], code: [], think: null, reply: 'Done.' }]);
    });
  });

  it('is empty for an empty conversation', () => {
    expect(conversationRuns([])).toEqual([]);
  });
});
