import { describe, expect, it } from 'vitest';
import { relativeTime } from '../../../../src/obsidian/chat/relativeTime';

describe('relativeTime', () => {
  const now = new Date(2026, 10, 26, 15, 30);
  const ago = (minutes: number): string => new Date(now.getTime() - minutes * 60_000).toISOString();

  it('says how long ago, in the words a person uses', () => {
    expect([ago(0), ago(5), ago(150)].map((iso) => relativeTime(iso, now))).toEqual(['just now', '5 min ago', '2 h ago']);
  });

  it('counts calendar days for older times', () => {
    expect(relativeTime(new Date(2026, 10, 25, 23, 0).toISOString(), now)).toBe('yesterday');
    expect(relativeTime(new Date(2026, 10, 22, 12, 0).toISOString(), now)).toBe('4 days ago');
  });

  it('gives the date after a week, and the text itself when it is not a date', () => {
    expect(relativeTime(new Date(2026, 9, 1, 12, 0).toISOString(), now)).not.toMatch(/ago|yesterday/);
    expect(relativeTime('not a date', now)).toBe('not a date');
  });
});
