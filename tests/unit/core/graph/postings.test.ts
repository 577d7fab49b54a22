import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptySnapshot, FIELD_COUNT, frequencyAt, MAX_FREQUENCY, PostingsBuilder, SortedPostingsWriter, type PostingsSnapshot } from '../../../../src/core/graph/postings';
import { Slicer } from '../../../../src/core/util/Slicer';

/** Terms in an order that is not their sorted one, with Unicode, surrogate pairs and some of 13 code units or more. */
const TERMS = ['garden', 'budget', 'gardens', 'über', 'café', '東京', '😀', 'ｱ', 'internationalization', 'a', 'zz', 'kubernetes-cluster'];

interface Posting {
  term: string;
  field: number;
  frequency: number;
}

const posting = fc.record({
  term: fc.constantFrom(...TERMS),
  field: fc.integer({ min: 0, max: FIELD_COUNT - 1 }),
  frequency: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 250, max: 300 }), fc.constant(2 ** 31)),
});
/** Documents 0, 1, 2, …, each with its postings (none for some), each term and field at most once. */
const corpus = fc.array(
  fc.uniqueArray(posting, { selector: (p) => `${p.field} ${p.term}`, maxLength: 8 }),
  { maxLength: 30 },
);

/** What each term holds in each field: [document, frequency] with documents ascending. */
type Model = Map<string, [number, number][][]>;

function modelOf(documents: readonly (readonly Posting[])[]): Model {
  const model: Model = new Map();
  documents.forEach((postings, document) => {
    for (const { term, field, frequency } of postings) {
      let fields = model.get(term);
      if (fields === undefined) model.set(term, (fields = Array.from({ length: FIELD_COUNT }, () => [])));
      fields[field]?.push([document, Math.min(frequency, MAX_FREQUENCY)]);
    }
  });
  return model;
}

function byUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Checks the snapshot's layout and that it holds exactly what `model` says. */
function expectSnapshotOf(snapshot: PostingsSnapshot, model: Model): void {
  const terms = [...model.keys()].sort(byUnits);
  expect([...snapshot.dictionary.list()]).toEqual(terms);
  expect(snapshot.starts.length).toBe(terms.length * FIELD_COUNT + 1);
  expect(snapshot.starts[0]).toBe(0);
  expect(snapshot.starts[snapshot.starts.length - 1]).toBe(snapshot.documents.length);
  expect(snapshot.frequencies.length).toBe(Math.ceil(snapshot.documents.length / 2));
  for (const term of terms) {
    const id = snapshot.dictionary.idOf(term);
    for (let field = 0; field < FIELD_COUNT; field += 1) {
      const from = snapshot.starts[id * FIELD_COUNT + field] as number;
      const to = snapshot.starts[id * FIELD_COUNT + field + 1] as number;
      const actual: [number, number][] = [];
      for (let at = from; at < to; at += 1) actual.push([snapshot.documents[at] as number, frequencyAt(snapshot.frequencies, at)]);
      expect(actual, `${term} in field ${field}`).toEqual(model.get(term)?.[field]);
    }
  }
}

/** Every posting's frequency, in order. */
function frequenciesOf(snapshot: PostingsSnapshot): number[] {
  return Array.from({ length: snapshot.documents.length }, (_, at) => frequencyAt(snapshot.frequencies, at));
}

async function build(documents: readonly (readonly Posting[])[]): Promise<PostingsSnapshot> {
  const builder = new PostingsBuilder();
  documents.forEach((postings, document) => {
    for (const { term, field, frequency } of postings) builder.add(document, field, term, frequency);
  });
  return builder.finish(new Slicer(1));
}

/** A corpus of `count` documents with three postings each: more than one chunk of 65,536. */
function largeCorpus(count: number): Posting[][] {
  return Array.from({ length: count }, (_, document) => [
    { term: `t${document % 97}`, field: document % FIELD_COUNT, frequency: (document * 7919) % 70_000 },
    { term: `u${document % 13}`, field: (document + 1) % FIELD_COUNT, frequency: document % 5 },
    { term: TERMS[document % TERMS.length] as string, field: 2 - (document % FIELD_COUNT), frequency: 1 },
  ]);
}

describe('the postings builder', () => {
  it('groups the postings by term and field, documents ascending, frequencies clamped to 4 bits', async () => {
    await fc.assert(
      fc.asyncProperty(corpus, async (documents) => {
        expectSnapshotOf(await build(documents), modelOf(documents));
      }),
      { numRuns: 200, seed: 17 },
    );
  });

  it('keeps every posting across chunks of 65,536', async () => {
    const documents = largeCorpus(25_000);
    const snapshot = await build(documents);
    expect(snapshot.documents.length).toBe(75_000);
    expectSnapshotOf(snapshot, modelOf(documents));
  });

  it('gives way at least every 16,384 postings while it places them', async () => {
    // How often finishing looks at its slicer; only the postings differ between the two corpora
    // (the same terms), and each of the three passes over them (join the keys, rank them, place
    // them) is to look after every 16,384 or fewer: 75,000 more postings, at least 3 × 4 more looks.
    const looksFor = async (documents: Posting[][]): Promise<number> => {
      const builder = new PostingsBuilder();
      documents.forEach((postings, document) => {
        for (const { term, field, frequency } of postings) builder.add(document, field, term, frequency);
      });
      let looks = 0;
      const slicer = new Slicer(1);
      const look = slicer.maybeYield.bind(slicer);
      slicer.maybeYield = () => {
        looks += 1;
        return look();
      };
      expectSnapshotOf(await builder.finish(slicer), modelOf(documents));
      return looks;
    };
    const fewer = await looksFor(largeCorpus(25_000));
    expect((await looksFor(largeCorpus(50_000))) - fewer).toBeGreaterThanOrEqual(12);
  });

  it('clamps frequencies at 15 and keeps those below, two to a byte', async () => {
    const builder = new PostingsBuilder();
    builder.add(0, 0, 'a', 14);
    builder.add(1, 0, 'a', 15);
    builder.add(2, 0, 'a', 16);
    builder.add(3, 0, 'a', 1e9);
    builder.add(4, 0, 'a', 0);
    const snapshot = await builder.finish(new Slicer(1));
    expect([...snapshot.documents]).toEqual([0, 1, 2, 3, 4]);
    expect(frequenciesOf(snapshot)).toEqual([14, 15, 15, 15, 0]);
    expect([...snapshot.frequencies]).toEqual([14 | (15 << 4), 15 | (15 << 4), 0]);
  });

  it('skips documents without postings and takes a document in several calls', async () => {
    const builder = new PostingsBuilder();
    builder.add(2, 1, 'b', 3);
    builder.add(2, 0, 'a', 1);
    builder.add(5, 1, 'b', 4);
    builder.add(5, 2, 'a', 2);
    const snapshot = await builder.finish(new Slicer(1));
    expect([...snapshot.dictionary.list()]).toEqual(['a', 'b']);
    // a: title [2], headings [], body [5]; b: title [], headings [2, 5], body [].
    expect([...snapshot.starts]).toEqual([0, 1, 1, 2, 2, 4, 4]);
    expect([...snapshot.documents]).toEqual([2, 5, 2, 5]);
    expect(frequenciesOf(snapshot)).toEqual([1, 2, 3, 4]);
  });

  it('refuses a document below the last one, and keeps what it had', async () => {
    const builder = new PostingsBuilder();
    builder.add(0, 0, 'a', 1);
    builder.add(3, 0, 'b', 1);
    expect(() => builder.add(2, 0, 'c', 1)).toThrow();
    expect(() => builder.add(0, 1, 'a', 1)).toThrow();
    builder.add(3, 1, 'a', 2);
    const snapshot = await builder.finish(new Slicer(1));
    expectSnapshotOf(
      snapshot,
      new Map([
        ['a', [[[0, 1]], [[3, 2]], []]],
        ['b', [[[3, 1]], [], []]],
      ]),
    );
  });

  it('counts a field word by word: the same snapshot as counting them first, refused words left out', async () => {
    const words = fc.array(fc.constantFrom(...TERMS, 'the', ''), { maxLength: 40 });
    const keep = (word: string): boolean => word !== '' && word !== 'the';
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(words, words, words), { maxLength: 12 }), async (documents) => {
        const counted: Posting[][] = documents.map((fields) =>
          fields.flatMap((fieldWords, field) => {
            const counts = new Map<string, number>();
            for (const word of fieldWords.filter(keep)) counts.set(word, (counts.get(word) ?? 0) + 1);
            return [...counts].map(([term, frequency]) => ({ term, field, frequency }));
          }),
        );
        const builder = new PostingsBuilder(keep);
        const distinct = documents.map((fields, document) =>
          fields.map((fieldWords, field) => {
            builder.startField(document, field);
            // Words as ranges of a longer text, as a note's words are.
            for (const word of fieldWords) builder.countWord(`<${word}>`, 1, word.length + 1);
            return builder.endField();
          }),
        );
        expect(distinct).toEqual(documents.map((fields) => fields.map((fieldWords) => new Set(fieldWords.filter(keep)).size)));
        expectSnapshotOf(await builder.finish(new Slicer(1)), modelOf(counted));
      }),
      { numRuns: 200, seed: 29 },
    );
  });

  it('gives the empty snapshot when given nothing', async () => {
    const empty = emptySnapshot();
    expect(empty.dictionary.size).toBe(0);
    expect([...empty.starts]).toEqual([0]);
    expect(empty.documents.length).toBe(0);
    expect(empty.frequencies.length).toBe(0);
    const built = await new PostingsBuilder().finish(new Slicer(1));
    expect(built.dictionary.size).toBe(0);
    expect([...built.starts]).toEqual([...empty.starts]);
    expect(built.documents.length).toBe(0);
    expect(built.frequencies.length).toBe(0);
  });
});

/** Writes `model` term by term in the order of `terms`. */
async function write(model: Model, terms: readonly string[]): Promise<PostingsSnapshot | null> {
  const writer = new SortedPostingsWriter();
  for (const term of terms) writer.addTerm(term, model.get(term) ?? []);
  return writer.finish(new Slicer(1));
}

describe('the sorted postings writer', () => {
  it('writes terms given in order into the snapshot the builder makes', async () => {
    await fc.assert(
      fc.asyncProperty(corpus, async (documents) => {
        const model = modelOf(documents);
        const written = await write(model, [...model.keys()].sort(byUnits));
        expect(written).not.toBeNull();
        expectSnapshotOf(written as PostingsSnapshot, model);
        const built = await build(documents);
        expect([...(written as PostingsSnapshot).starts]).toEqual([...built.starts]);
        expect([...(written as PostingsSnapshot).documents]).toEqual([...built.documents]);
        expect([...(written as PostingsSnapshot).frequencies]).toEqual([...built.frequencies]);
      }),
      { numRuns: 150, seed: 23 },
    );
  });

  it('keeps every posting across chunks of 65,536', async () => {
    const documents = largeCorpus(25_000);
    const model = modelOf(documents);
    const written = await write(model, [...model.keys()].sort(byUnits));
    expect(written?.documents.length).toBe(75_000);
    expectSnapshotOf(written as PostingsSnapshot, model);
  });

  it('takes missing fields as empty', async () => {
    const writer = new SortedPostingsWriter();
    writer.addTerm('a', [[[1, 2]]]);
    writer.addTerm('b', []);
    writer.addTerm('c', [[], [], [[0, 1], [4, 7]]]);
    const snapshot = await writer.finish(new Slicer(1));
    expect([...(snapshot?.starts ?? [])]).toEqual([0, 1, 1, 1, 1, 1, 1, 1, 1, 3]);
    expect([...(snapshot?.documents ?? [])]).toEqual([1, 0, 4]);
    expect(frequenciesOf(snapshot as PostingsSnapshot)).toEqual([2, 1, 7]);
  });

  it('clamps frequencies at 15, as the builder does', async () => {
    const writer = new SortedPostingsWriter();
    writer.addTerm('a', [[[0, 70_000], [1, 256], [2, 15], [3, 14]]]);
    const snapshot = await writer.finish(new Slicer(1));
    expect(frequenciesOf(snapshot as PostingsSnapshot)).toEqual([15, 15, 15, 14]);
  });

  it('gives null for terms out of order or repeated', async () => {
    await fc.assert(
      fc.asyncProperty(corpus, fc.nat(), fc.nat(), async (documents, first, second) => {
        const model = modelOf(documents);
        const terms = [...model.keys()].sort(byUnits);
        fc.pre(terms.length >= 2);
        const a = first % terms.length;
        const b = second % terms.length;
        fc.pre(a !== b);
        const swapped = [...terms];
        [swapped[a], swapped[b]] = [terms[b] as string, terms[a] as string];
        expect(await write(model, swapped)).toBeNull();
        expect(await write(model, [...terms.slice(0, b + 1), terms[b] as string, ...terms.slice(b + 1)])).toBeNull();
      }),
      { numRuns: 100, seed: 29 },
    );
    expect(await write(new Map(), ['b', 'a'])).toBeNull();
    expect(await write(new Map(), ['a', 'a'])).toBeNull();
    expect(await write(new Map(), ['ｱ', '😀'])).toBeNull();
    const empty = await write(new Map(), []);
    expect(empty?.dictionary.size).toBe(0);
    expect([...(empty?.starts ?? [])]).toEqual([0]);
  });
});
