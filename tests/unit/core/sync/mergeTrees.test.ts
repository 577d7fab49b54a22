import { describe, expect, it } from 'vitest';
import type { BlobRef } from '../../../../src/core/git/treeEdit';
import { mergeTrees, type FileMap } from '../../../../src/core/sync/mergeTrees';

/** Blobs by id, as text (null: binary). */
function store(): { blob(text: string | null, id?: string): BlobRef; readText(oid: string): Promise<string | null>; writeText(text: string): Promise<string> } {
  const texts = new Map<string, string | null>();
  let next = 0;
  return {
    blob(text, id) {
      const oid = id ?? `blob${next++}`;
      texts.set(oid, text);
      return { oid, mode: '100644' };
    },
    readText: (oid) => Promise.resolve(texts.get(oid) ?? null),
    writeText(text) {
      const oid = `merged${next++}`;
      texts.set(oid, text);
      return Promise.resolve(oid);
    },
  };
}

const files = (entries: Record<string, BlobRef>): FileMap => new Map(Object.entries(entries));

describe('mergeTrees', () => {
  it('takes each side\'s changes to different files, deletions included', async () => {
    const s = store();
    const [a, b, c] = [s.blob('a\n'), s.blob('b\n'), s.blob('c\n')];
    const [a2, c2] = [s.blob('a2\n'), s.blob('c2\n')];
    const result = await mergeTrees({ bases: [files({ 'a.md': a, 'b.md': b, 'c.md': c })], ours: files({ 'a.md': a2, 'b.md': b, 'c.md': c }), theirs: files({ 'a.md': a, 'c.md': c2 }), ...s });
    expect([...result.changes]).toEqual([
      ['b.md', null],
      ['c.md', c2],
    ]);
    expect(result.conflicts).toEqual([]);
  });

  it('keeps a file one side modified and the other deleted', async () => {
    const s = store();
    const [base, edited] = [s.blob('x\n'), s.blob('x\ny\n')];
    const theirsEdited = await mergeTrees({ bases: [files({ 'n.md': base })], ours: files({}), theirs: files({ 'n.md': edited }), ...s });
    expect([...theirsEdited.changes]).toEqual([['n.md', edited]]);
    const oursEdited = await mergeTrees({ bases: [files({ 'n.md': base })], ours: files({ 'n.md': edited }), theirs: files({}), ...s });
    expect([...oursEdited.changes]).toEqual([]);
  });

  it('merges edits to different lines of one note', async () => {
    const s = store();
    const base = s.blob('1\n2\n3\n4\n5\n');
    const result = await mergeTrees({ bases: [files({ 'n.md': base })], ours: files({ 'n.md': s.blob('1\n2\n3\n4\nfive\n') }), theirs: files({ 'n.md': s.blob('one\n2\n3\n4\n5\n') }), ...s });
    const merged = result.changes.get('n.md');
    expect(merged).toBeDefined();
    expect(await s.readText((merged as BlobRef).oid)).toBe('one\n2\n3\n4\nfive\n');
    expect(result.conflicts).toEqual([]);
  });

  describe('when the edits cannot be combined', () => {
    it('reports overlapping edits, binary files and files added differently on both sides, changing nothing', async () => {
      const s = store();
      const text = s.blob('a\nb\nc\n');
      const binary = s.blob(null);
      const theirsText = s.blob('a\nB2\nc\n');
      const theirsBinary = s.blob(null);
      const theirsNew = s.blob('theirs\n');
      const result = await mergeTrees({
        bases: [files({ 'n.md': text, 'p.png': binary })],
        ours: files({ 'n.md': s.blob('a\nB1\nc\n'), 'p.png': s.blob(null), 'new.md': s.blob('ours\n') }),
        theirs: files({ 'n.md': theirsText, 'p.png': theirsBinary, 'new.md': theirsNew }),
        ...s,
      });
      expect(result.changes.size).toBe(0);
      expect(result.conflicts).toEqual([
        { path: 'n.md', theirs: theirsText },
        { path: 'new.md', theirs: theirsNew },
        { path: 'p.png', theirs: theirsBinary },
      ]);
    });
  });

  describe('when there are several merge bases', () => {
    it('takes the side that changed a file both bases agree on, and keeps both when each kept a different base', async () => {
      const s = store();
      const [same, v1, v2, edited] = [s.blob('same\n'), s.blob('v1\n'), s.blob('v2\n'), s.blob('edited\n')];
      const result = await mergeTrees({
        bases: [files({ 'a.md': same, 'b.md': v1 }), files({ 'a.md': same, 'b.md': v2 })],
        ours: files({ 'a.md': same, 'b.md': v1 }),
        theirs: files({ 'a.md': edited, 'b.md': v2 }),
        ...s,
      });
      expect([...result.changes]).toEqual([['a.md', edited]]);
      expect(result.conflicts).toEqual([{ path: 'b.md', theirs: v2 }]);
    });
  });
});
