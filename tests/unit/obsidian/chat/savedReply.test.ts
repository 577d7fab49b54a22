import { describe, expect, it } from 'vitest';
import { noteNameFor } from '../../../../src/obsidian/chat/savedReply';

describe('noteNameFor', () => {
  const none = (): boolean => false;

  it('names the note after the first line of the request', () => {
    expect(noteNameFor('What should I do today?\nAnd tomorrow?', none)).toBe('What should I do today.md');
  });

  it('leaves out characters a file name or a link cannot hold', () => {
    expect(noteNameFor('Plan: Q3/Q4 [draft] #launch | "final"', none)).toBe('Plan Q3 Q4 draft launch final.md');
  });

  it('cuts a long request at a word', () => {
    const name = noteNameFor('Summarise every note about the launch of the product in Europe and the marketing review that follows', none);
    expect(name).toBe('Summarise every note about the launch of the product in.md');
  });

  it('never names a hidden file, and has a name for an empty request', () => {
    expect(noteNameFor('...', none)).toBe('Recursa reply.md');
    expect(noteNameFor('   ', none)).toBe('Recursa reply.md');
  });

  describe('when the name is taken', () => {
    it('counts up', () => {
      const taken = new Set(['Notes.md', 'Notes 2.md']);
      expect(noteNameFor('Notes', (path) => taken.has(path))).toBe('Notes 3.md');
    });
  });
});
