import { describe, expect, it } from 'vitest';
import { memoryNotePath, newMemoryId, randomHex } from '../../../../src/core/memory/memoryLayout';
import { readMemoryNote, renderMemoryNote } from '../../../../src/core/memory/memoryNote';

describe('memory notes', () => {
  it('lay out as YYYY-MM-DD/HHMMSS_xxxx.md in local time, with mem_ ids of 16 hex characters', () => {
    expect(memoryNotePath('Memories', new Date(2026, 1, 4, 9, 5, 7), 'ab12')).toBe('Memories/2026-02-04/090507_ab12.md');
    expect(memoryNotePath('', new Date(2026, 1, 4, 9, 5, 7))).toMatch(/^2026-02-04\/090507_[0-9a-f]{4}\.md$/);
    expect(newMemoryId()).toMatch(/^mem_[0-9a-f]{16}$/);
    expect(new Set(Array.from({ length: 200 }, () => randomHex(16))).size).toBe(200);
  });

  it('round-trip through render and read', () => {
    const text = renderMemoryNote({
      id: 'mem_0123456789abcdef',
      timestamp: '2026-02-04T09:05:07.000Z',
      tags: ['auth', 'bug-fix'],
      source: { conversation: 'c1', run: 'run-1', note: 'Projects/Plan.md', commit: 'a'.repeat(40) },
      content: '## Fixed login\n\nThe token expired.',
    });
    expect(text.startsWith('---\nid: mem_0123456789abcdef\n')).toBe(true);
    expect(text).toContain('source:\n  conversation: c1\n  run: run-1\n  note: Projects/Plan.md\n');
    expect(readMemoryNote('Memories/2026-02-04/090507_ab12.md', text, 0)).toEqual({
      id: 'mem_0123456789abcdef',
      path: 'Memories/2026-02-04/090507_ab12.md',
      timestamp: '2026-02-04T09:05:07.000Z',
      time: Date.UTC(2026, 1, 4, 9, 5, 7),
      tags: ['auth', 'bug-fix'],
      content: '## Fixed login\n\nThe token expired.',
    });
  });

  describe('when the user edited the note by hand', () => {
    it('reads a note without frontmatter, taking the time from its name', () => {
      const record = readMemoryNote('Memories/2026-02-04/090507_ab12.md', 'Just a thought.\n', 5);
      expect(record).toMatchObject({ id: 'mem_Memories/2026-02-04/090507_ab12.md', time: new Date(2026, 1, 4, 9, 5, 7).getTime(), tags: [], content: 'Just a thought.' });
    });

    it('reads broken YAML as no fields, and falls back to the file time for a free name', () => {
      const record = readMemoryNote('Memories/idea.md', '---\ntags: [unclosed\n---\nBody', 1234);
      expect(record).toMatchObject({ time: 1234, tags: [], content: 'Body' });
    });

    it('accepts tags as a string, numbers as tags, and normalizes them', () => {
      expect(readMemoryNote('m.md', '---\ntags: Auth, Bug_Fix\n---\nx', 0).tags).toEqual(['auth', 'bug-fix']);
      expect(readMemoryNote('m.md', '---\ntags: [2026, {a: 1}, "Q 3"]\n---\nx', 0).tags).toEqual(['2026', 'q-3']);
    });
  });
});
