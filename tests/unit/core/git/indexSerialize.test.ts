import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseIndex, type IndexEntry } from '../../../../src/core/git/indexFile';
import { serializeIndex, serializeIndexReusing, type SerializedIndex } from '../../../../src/core/git/indexSerialize';
import { Slicer } from '../../../../src/core/util/Slicer';

const OIDS = ['e69de29bb2d1d6434b8b29ae775a8c2d48c5391d', '0123456789abcdef0123456789abcdef01234567', 'ffffffffffffffffffffffffffffffffffffffff'];
/** Paths whose UTF-8 order differs from their UTF-16 order (an astral character against U+E000–U+FFFF), and long ones. */
const PATHS = ['a.md', 'b/c.md', 'b/d.md', 'é.md', '\u{1F600}.md', '\uE000.md', 'z'.repeat(40), 'deep/er/path/note.md', 'x.md', 'y y.md'];

const entryOf = (path: string, stage: number, oid: string, extended: boolean, size: number): IndexEntry => ({
  path,
  ctimeSeconds: 1_700_000_000,
  ctimeNanoseconds: 5,
  mtimeSeconds: 1_700_000_000 + size,
  mtimeNanoseconds: 7,
  dev: 1,
  ino: 2,
  mode: 0o100644,
  uid: 3,
  gid: 4,
  size,
  oid,
  stage,
  assumeValid: false,
  skipWorktree: extended,
  intentToAdd: false,
});

const entry = fc
  .record({ path: fc.constantFrom(...PATHS), oid: fc.constantFrom(...OIDS), extended: fc.boolean(), size: fc.nat({ max: 1000 }) })
  .map(({ path, oid, extended, size }) => entryOf(path, 0, oid, extended, size));

/** UTF-8 byte order, as git sorts. */
const gitOrder = (a: IndexEntry, b: IndexEntry): number => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)) || a.stage - b.stage;
const sortedUnique = (entries: IndexEntry[]): IndexEntry[] => {
  const byPath = new Map(entries.map((item) => [item.path, item]));
  return [...byPath.values()].sort(gitOrder);
};

/** A change a commit makes: entries gone, replaced (new objects) and added, the rest the very objects written before. */
interface Change {
  remove: number[];
  replace: { at: number; size: number; extended: boolean }[];
  add: IndexEntry[];
}
const change: fc.Arbitrary<Change> = fc.record({
  remove: fc.array(fc.nat({ max: 20 }), { maxLength: 3 }),
  replace: fc.array(fc.record({ at: fc.nat({ max: 20 }), size: fc.nat({ max: 1000 }), extended: fc.boolean() }), { maxLength: 3 }),
  add: fc.array(entry, { maxLength: 3 }),
});

function applied(entries: readonly IndexEntry[], { remove, replace, add }: Change): IndexEntry[] {
  const next = [...entries];
  for (const { at, size, extended } of replace) if (at < next.length) next[at] = entryOf((next[at] as IndexEntry).path, 0, OIDS[size % 3] as string, extended, size);
  const gone = new Set(remove.filter((at) => at < next.length).map((at) => (next[at] as IndexEntry).path));
  const kept = next.filter((item) => !gone.has(item.path));
  const added = sortedUnique(add).filter((item) => !kept.some((other) => other.path === item.path));
  return [...kept, ...added].sort(gitOrder);
}

describe('serializing an index from the one written before', () => {
  it('gives the bytes a full serialization gives, through a run of commits', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { maxLength: 10 }), fc.array(change, { minLength: 1, maxLength: 5 }), async (first, changes) => {
        let entries = sortedUnique(first);
        let written: SerializedIndex = await serializeIndexReusing({ entries }, null);
        let spare: Uint8Array | null = null;
        for (const step of changes) {
          entries = applied(entries, step);
          // The index before the last, as the cache hands it on, its bytes made garbage first.
          const next = await serializeIndexReusing({ entries }, written, undefined, spare?.fill(0xa5) ?? null);
          if (spare !== null && spare.length === next.bytes.length) expect(next.bytes).toBe(spare);
          spare = written.bytes;
          expect(next.bytes).toEqual(await serializeIndex({ entries }));
          const parsed = await parseIndex(next.bytes);
          expect(parsed.entries).toEqual(entries);
          expect(parsed.version).toBe(entries.some((item) => item.skipWorktree) ? 3 : 2);
          // Each offset is where its entry starts: the entry's path follows its fixed part there.
          entries.forEach((item, i) => {
            const nameStart = (next.offsets[i] as number) + 62 + (item.skipWorktree ? 2 : 0);
            expect(Buffer.from(next.bytes.subarray(nameStart, nameStart + Buffer.byteLength(item.path))).toString()).toBe(item.path);
          });
          written = next;
        }
      }),
      { numRuns: 300, seed: 31 },
    );
  });

  it('keeps the unchanged entries in place around a one-entry change', async () => {
    const entries = Array.from({ length: 1000 }, (_, i) => entryOf(`notes/${String(i).padStart(4, '0')}.md`, 0, OIDS[0] as string, false, i));
    const written = await serializeIndexReusing({ entries }, null);
    const next = entries.slice();
    next[500] = entryOf('notes/0500.md', 0, OIDS[1] as string, false, 9);
    const reused = await serializeIndexReusing({ entries: next }, written);
    expect(reused.bytes).toEqual(await serializeIndex({ entries: next }));
    // The entries before the change sit where they were.
    expect(reused.offsets.subarray(0, 500)).toEqual(written.offsets.subarray(0, 500));
  });

  it('fills the spare bytes it is given when they have the size needed, and never the index it copies from', async () => {
    const entries = Array.from({ length: 50 }, (_, i) => entryOf(`notes/${String(i).padStart(2, '0')}.md`, 0, OIDS[0] as string, false, i));
    const written = await serializeIndexReusing({ entries }, null);
    const next = entries.slice();
    next[7] = entryOf('notes/07.md', 0, OIDS[1] as string, true, 9);
    const expected = await serializeIndex({ entries: next });
    const spare = new Uint8Array(expected.length).fill(0xff);
    const reused = await serializeIndexReusing({ entries: next }, written, undefined, spare);
    expect(reused.bytes).toBe(spare);
    expect(reused.bytes).toEqual(expected);
    const tooSmall = new Uint8Array(expected.length - 8);
    expect((await serializeIndexReusing({ entries: next }, written, undefined, tooSmall)).bytes).not.toBe(tooSmall);
    const before = Uint8Array.from(written.bytes);
    const same = await serializeIndexReusing({ entries }, written, undefined, written.bytes);
    expect(same.bytes).not.toBe(written.bytes);
    expect(written.bytes).toEqual(before);
    expect(same.bytes).toEqual(before);
  });

  it('fills spare bytes full of junk with a whole index, extensions included, with nothing to copy from', async () => {
    const entries = PATHS.map((path, i) => entryOf(path, 0, OIDS[i % 3] as string, i % 2 === 0, i)).sort(gitOrder);
    const extensions = [{ signature: 'REUC', data: Uint8Array.of(1, 2, 3) }];
    const expected = await serializeIndex({ entries, extensions });
    const spare = new Uint8Array(expected.length).fill(0xee);
    const written = await serializeIndexReusing({ entries, extensions }, null, undefined, spare);
    expect(written.bytes).toBe(spare);
    expect(written.bytes).toEqual(expected);
  });

  it("writes in the caller's slicer's slices, ordering included, with the same bytes", async () => {
    const entries = Array.from({ length: 600 }, (_, i) => entryOf(`notes/${String(599 - i).padStart(4, '0')}.md`, 0, OIDS[0] as string, false, i));
    const slicer = new Slicer(0);
    const written = await serializeIndexReusing({ entries }, null, slicer);
    expect(written.bytes).toEqual(await serializeIndex({ entries }));
    // After putting them in order, then every 256 entries measured and every 256 written.
    expect(slicer.yields).toBe(1 + 2 + 2);
  });

  it('sorts entries given out of order, as the full serialization does, and refuses a path twice', async () => {
    const entries = PATHS.slice(0, 5).map((path, i) => entryOf(path, 0, OIDS[0] as string, false, i)).sort(gitOrder);
    const written = await serializeIndexReusing({ entries }, null);
    const shuffled = [entries[3], entries[0], entryOf('new.md', 0, OIDS[2] as string, false, 1), entries[1], entries[2], entries[4]] as IndexEntry[];
    const reused = await serializeIndexReusing({ entries: shuffled }, written);
    expect(reused.bytes).toEqual(await serializeIndex({ entries: shuffled }));
    expect(reused.entries.map((item) => item.path)).toEqual([...shuffled].sort(gitOrder).map((item) => item.path));
    const twice = [...entries.slice(0, 2), entryOf((entries[1] as IndexEntry).path, 0, OIDS[1] as string, false, 3), ...entries.slice(2)];
    await expect(serializeIndexReusing({ entries: twice }, written)).rejects.toThrow(/at most once per stage/);
  });
});
