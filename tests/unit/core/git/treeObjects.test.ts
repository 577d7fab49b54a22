import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { modeString, sharedMode, treeContent, type TreeEntry } from '../../../../src/core/git/treeObjects';

/** git's order, from its definition: names as UTF-8 bytes, a subtree's name with a `/` after it. */
function gitOrderKey(entry: TreeEntry): number[] {
  return [...new TextEncoder().encode(entry.mode === '40000' ? `${entry.name}/` : entry.name)];
}

function compareBytes(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return a.length - b.length;
}

/** The tree's content spelled out entry by entry: `<mode> <name>\0<20 bytes>`. */
function expectedContent(entries: readonly TreeEntry[]): number[] {
  const ordered = [...entries].sort((a, b) => compareBytes(gitOrderKey(a), gitOrderKey(b)));
  return ordered.flatMap((entry) => [
    ...new TextEncoder().encode(`${entry.mode} ${entry.name}\0`),
    ...(entry.oid.match(/../g) ?? []).map((pair) => parseInt(pair, 16)),
  ]);
}

const oid = (n: number): string => n.toString(16).padStart(40, '0');

describe('treeContent', () => {
  it('writes entries given in git order as they are, and puts others in that order', () => {
    // In git order: "a-b" < "a.md" < "a/" (a tree) < "z"; "\uFFFD" (EF BF BD) < "😀" (F0 9F 98 80),
    // which UTF-16 order puts the other way round.
    const ordered: TreeEntry[] = [
      { mode: '100644', name: 'a-b', oid: oid(1) },
      { mode: '100644', name: 'a.md', oid: oid(2) },
      { mode: '40000', name: 'a', oid: oid(3) },
      { mode: '100755', name: 'z', oid: oid(4) },
      { mode: '100644', name: 'é.md', oid: oid(5) },
      { mode: '100644', name: '\uFFFD.md', oid: oid(6) },
      { mode: '120000', name: '😀.md', oid: oid(7) },
    ];
    const expected = expectedContent(ordered);
    expect([...treeContent(ordered)]).toEqual(expected);
    expect([...treeContent([...ordered].reverse())]).toEqual(expected);
    // Ordered as UTF-16 code units, not as git orders them.
    const byUnits = [...ordered].sort((a, b) => (a.name === b.name ? 0 : a.name < b.name ? -1 : 1));
    expect([...treeContent(byUnits)]).toEqual(expected);
  });

  it('gives the same bytes for any order of the same entries, names of any script', () => {
    const name = fc.string({ unit: fc.constantFrom('a', 'b', '-', '.', 'é', '\uFFFD', '\uE000', '😀', '漢', 'Z'), minLength: 1, maxLength: 6 });
    const entries = fc.uniqueArray(fc.record({ name, tree: fc.boolean() }), { selector: (entry) => entry.name, maxLength: 25 });
    fc.assert(
      fc.property(entries, fc.infiniteStream(fc.nat()), (picked, shuffle) => {
        const tree = picked.map((entry, i): TreeEntry => ({ mode: entry.tree ? '40000' : '100644', name: entry.name, oid: oid(i + 1) }));
        const expected = expectedContent(tree);
        const sorted = [...tree].sort((a, b) => compareBytes(gitOrderKey(a), gitOrderKey(b)));
        const shuffled = [...tree];
        const next = shuffle[Symbol.iterator]();
        for (let i = shuffled.length - 1; i > 0; i--) {
          const j = (next.next().value as number) % (i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j] as TreeEntry, shuffled[i] as TreeEntry];
        }
        expect([...treeContent(sorted)]).toEqual(expected);
        expect([...treeContent(shuffled)]).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses an id that is not 40 hex digits', () => {
    expect(() => treeContent([{ mode: '100644', name: 'a', oid: 'xyz' }])).toThrow('not an object id');
  });
});

describe('modes', () => {
  it('spells every mode git writes as git does, a tree without the leading zero', () => {
    expect([0o100644, 0o100755, 0o120000, 0o160000, 0o40000].map(modeString)).toEqual(['100644', '100755', '120000', '160000', '40000']);
  });

  it('spells any other mode in octal', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 0o177777 }), (mode) => {
        expect(parseInt(modeString(mode), 8)).toBe(mode);
      }),
    );
    expect(modeString(0o100664)).toBe('100664');
  });

  it("gives isomorphic-git's padded tree mode as git writes it, and any other mode unchanged", () => {
    expect(sharedMode('040000')).toBe('40000');
    for (const mode of ['100644', '100755', '120000', '160000', '40000', '100664']) expect(sharedMode(mode)).toBe(mode);
  });
});
