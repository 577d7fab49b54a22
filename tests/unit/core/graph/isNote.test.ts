import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isNote } from '../../../../src/core/graph/indexedVault';

describe('isNote', () => {
  it('takes a path ending in .md, in any case, as a note', () => {
    for (const path of ['a.md', 'Folder/Note.MD', 'x.Md', 'x.mD', '.md', 'Ünïcode/Ärger.md']) expect(isNote(path), path).toBe(true);
  });

  it('takes nothing else as one', () => {
    for (const path of ['', 'md', '.m', 'a.mdx', 'a.md.bak', 'a_md', 'a.m d', 'a.nd', 'a.me', 'Folder.md/file.txt', 'a.\u{ff4d}d', 'a.m\u{ff44}', 'a.\u{1d426}d']) {
      expect(isNote(path), JSON.stringify(path)).toBe(false);
    }
  });

  it('agrees with lower-casing the path, for any text', () => {
    const tail = fc.constantFrom('.md', '.MD', '.mD', '.Md', '.m', 'md', '.mdd', '.nd', '.me', '.ld', '.\u0130d', '.m\u212a', '.\u1e3fd', '');
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 12 }), tail, (head, end) => {
        const path = `${head}${end}`;
        expect(isNote(path)).toBe(path.toLowerCase().endsWith('.md'));
      }),
      { numRuns: 2_000 },
    );
  });
});
