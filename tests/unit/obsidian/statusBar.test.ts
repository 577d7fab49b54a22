import { describe, expect, it } from 'vitest';
import { formatStatus, type StatusState } from '../../../src/obsidian/statusBar';

const idle: StatusState = { indexing: null, snapshot: null, agentCommitsToday: null };

describe('formatStatus', () => {
  it('shows nothing before anything is known', () => {
    expect(formatStatus(idle)).toEqual({ text: '', label: '' });
  });

  describe('when the search index is being built', () => {
    it('shows the share of notes done, and the counts in the label', () => {
      expect(formatStatus({ ...idle, indexing: { done: 450, total: 1000 } })).toEqual({
        text: 'Indexing 45%',
        label: 'Building the search index: 450 of 1000 notes',
      });
    });

    it('drops the part once every note is indexed, and never shows more than 100% or a division by zero', () => {
      expect(formatStatus({ ...idle, indexing: { done: 1000, total: 1000 } }).text).toBe('');
      expect(formatStatus({ ...idle, indexing: { done: 0, total: 0 } }).text).toBe('');
      expect(formatStatus({ ...idle, indexing: { done: 1, total: 3 } }).text).toBe('Indexing 33%');
    });
  });

  describe('when git is known', () => {
    it('counts the agent\'s commits today, in words for none and one', () => {
      expect(formatStatus({ ...idle, agentCommitsToday: 0 }).text).toBe('No agent commits today');
      expect(formatStatus({ ...idle, agentCommitsToday: 1 }).text).toBe('1 agent commit today');
      expect(formatStatus({ ...idle, agentCommitsToday: 3 })).toEqual({
        text: '3 agent commits today',
        label: '3 agent commits today. Select to show the agent\'s history',
      });
    });

    it('says when history is off', () => {
      expect(formatStatus({ ...idle, agentCommitsToday: 'off' }).text).toBe('History off');
    });
  });

  it('joins the parts that have something to say', () => {
    expect(formatStatus({ indexing: { done: 1, total: 4 }, snapshot: { done: 10, total: 20 }, agentCommitsToday: 2 })).toEqual({
      text: 'Indexing 25% · Saving history 50% · 2 agent commits today',
      label:
        'Building the search index: 1 of 4 notes. Saving the first snapshot of the vault: 10 of 20 files. 2 agent commits today. Select to show the agent\'s history',
    });
  });
});
