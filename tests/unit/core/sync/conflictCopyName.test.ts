import { describe, expect, it } from 'vitest';
import { conflictCopyName } from '../../../../src/core/sync/conflictCopyName';

const DAY = new Date(2026, 0, 5, 23, 30);

describe('conflictCopyName', () => {
  it('puts "(conflict YYYY-MM-DD)" before the extension, in the same folder', () => {
    expect(conflictCopyName('Notes/Plan.md', DAY)).toBe('Notes/Plan (conflict 2026-01-05).md');
    expect(conflictCopyName('Plan.md', DAY)).toBe('Plan (conflict 2026-01-05).md');
  });

  it('keeps only the last extension and names files without one', () => {
    expect(conflictCopyName('a/archive.tar.gz', DAY)).toBe('a/archive.tar (conflict 2026-01-05).gz');
    expect(conflictCopyName('a/README', DAY)).toBe('a/README (conflict 2026-01-05)');
    expect(conflictCopyName('a/.hidden', DAY)).toBe('a/.hidden (conflict 2026-01-05)');
  });

  describe('when the name is taken', () => {
    it('numbers the later attempts', () => {
      expect(conflictCopyName('Plan.md', DAY, 2)).toBe('Plan (conflict 2026-01-05 2).md');
    });
  });
});
