import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LinkGraph, type LinkEdge, type LinkList } from '../../../../src/core/graph/linkGraph';
import type { NoteLink } from '../../../../src/core/graph/parseNote';
import { LinkResolver } from '../../../../src/core/graph/resolveLink';
import { Slicer } from '../../../../src/core/util/Slicer';

const NAMES = ['Plan', 'Ideas', 'Café', 'Report'];
const FOLDERS = ['', 'a/', 'a/b/', 'c/'];
// Names differ in case across folders (`c/plan.md`), never within one: the resolver, like a
// case-insensitive file system, holds one file per path ignoring case.
const PATHS = FOLDERS.flatMap((folder) => [...NAMES.map((name) => `${folder}${folder === 'c/' ? name.toLowerCase() : name}.md`), `${folder}Plan.png`]);
const LINK_TEXTS = [...NAMES, 'plan', 'a/Plan', 'b/Plan', '../Plan', './Ideas', 'Plan.png', 'Nickname', 'Other name', 'Missing', 'c/Report.md'];
const ALIASES = ['Nickname', 'Other name', 'Plan', 'ideas'];

interface NoteState {
  links: NoteLink[];
  aliases: string[];
}

type Step =
  | { kind: 'write'; path: string; links: string[]; aliases: string[] }
  | { kind: 'delete'; path: string };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('write' as const),
    path: fc.constantFrom(...PATHS),
    links: fc.array(fc.constantFrom(...LINK_TEXTS), { maxLength: 4 }),
    aliases: fc.array(fc.constantFrom(...ALIASES), { maxLength: 2 }),
  }),
  fc.record({ kind: fc.constant('delete' as const), path: fc.constantFrom(...PATHS) }),
);

type LinkRef = Pick<NoteLink, 'target' | 'line'>;

/** Links as the graph is given them (the index gives it a note's packed facts). */
function listOf(links: readonly LinkRef[]): LinkList {
  return { linkCount: links.length, linkTarget: (i) => (links[i] as LinkRef).target, linkLine: (i) => (links[i] as LinkRef).line };
}

function linkTo(target: string, line: number): NoteLink {
  return { target, subpath: null, display: null, kind: 'wikilink', line };
}

/** A graph built in one go from the vault's current state: what the incremental one must equal. */
async function fresh(files: Set<string>, notes: Map<string, NoteState>): Promise<LinkGraph> {
  const graph = new LinkGraph();
  graph.beginBulk();
  for (const file of files) graph.addFile(file);
  for (const [path, note] of notes) graph.setNote(path, listOf(note.links), note.aliases);
  await graph.resolveAll(new Slicer());
  return graph;
}

function snapshot(graph: LinkGraph, files: Set<string>): { outgoing: Record<string, string[]>; incoming: Record<string, string[]> } {
  const outgoing: Record<string, string[]> = {};
  const incoming: Record<string, string[]> = {};
  for (const path of [...files].sort()) {
    outgoing[path] = graph.outgoingOf(path).map((edge) => `${edge.line}:${edge.target}`);
    incoming[path] = [...graph.incomingOf(path)].sort();
  }
  for (const text of LINK_TEXTS) incoming[`text:${text}`] = [...graph.incomingOf(text)].sort();
  return { outgoing, incoming };
}

/** Applies `change` to the model of the vault, and to `graph` as the index would. */
function apply(change: Step, files: Set<string>, notes: Map<string, NoteState>, graph: LinkGraph): void {
  if (change.kind === 'delete') {
    graph.removeFile(change.path);
    files.delete(change.path);
    notes.delete(change.path);
    return;
  }
  graph.addFile(change.path);
  files.add(change.path);
  if (!change.path.endsWith('.md')) return;
  const note = { links: change.links.map(linkTo), aliases: change.aliases };
  graph.setNote(change.path, listOf(note.links), note.aliases);
  notes.set(change.path, note);
}

describe('the link graph', () => {
  it('re-resolves only what a change can affect, and agrees with a graph built from scratch after every step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30 }), async (steps) => {
        const graph = new LinkGraph();
        const files = new Set<string>();
        const notes = new Map<string, NoteState>();
        for (const change of steps) {
          apply(change, files, notes, graph);
          expect(snapshot(graph, files)).toEqual(snapshot(await fresh(files, notes), files));
        }
      }),
      { numRuns: 200, seed: 5 },
    );
  });

  it('restores saved resolutions, and resolves again all that changes during the load can affect', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 20 }), fc.array(step, { maxLength: 6 }), fc.array(step, { minLength: 1, maxLength: 4 }), async (before, during, after) => {
        const files = new Set<string>();
        const notes = new Map<string, NoteState>();
        const scratch = new LinkGraph();
        for (const change of before) apply(change, files, notes, scratch);
        const saved = await fresh(files, notes);
        // A load: the same files, every note restored as saved, then what changed while the app was closed.
        const loaded = new LinkGraph();
        loaded.beginBulk();
        for (const file of files) loaded.addFile(file);
        for (const [path, note] of notes) {
          const edges = saved.outgoingOf(path);
          loaded.restoreNote(path, listOf(note.links), note.aliases, (i) => (edges[i] as LinkEdge).target);
        }
        for (const change of during) apply(change, files, notes, loaded);
        await loaded.resolveAll(new Slicer());
        expect(snapshot(loaded, files)).toEqual(snapshot(await fresh(files, notes), files));
        // And it follows changes afterwards as any graph does.
        for (const change of after) {
          apply(change, files, notes, loaded);
          expect(snapshot(loaded, files)).toEqual(snapshot(await fresh(files, notes), files));
        }
        apply({ kind: 'write', path: 'Plan.md', links: ['Nickname', 'Ideas'], aliases: ['Other name'] }, files, notes, loaded);
        expect(snapshot(loaded, files)).toEqual(snapshot(await fresh(files, notes), files));
      }),
      { numRuns: 200, seed: 7 },
    );
  });

  it('after a load, resolves a link to a note created later, and a link to an alias moved to another note', async () => {
    const graph = new LinkGraph();
    graph.beginBulk();
    for (const file of ['A.md', 'B.md', 'C.md']) graph.addFile(file);
    graph.restoreNote('A.md', listOf([linkTo('Z', 1)]), [], () => 'Z');
    graph.restoreNote('B.md', listOf([linkTo('Nick', 0)]), [], () => 'C.md');
    graph.restoreNote('C.md', listOf([]), ['Nick'], () => '');
    await graph.resolveAll(new Slicer());
    graph.addFile('Z.md');
    expect(graph.outgoingOf('A.md')).toEqual([{ target: 'Z.md', line: 1 }]);
    expect([...graph.incomingOf('Z.md')]).toEqual(['A.md']);
    graph.setNote('C.md', listOf([]), []);
    expect(graph.outgoingOf('B.md')).toEqual([{ target: 'Nick', line: 0 }]);
    graph.setNote('A.md', listOf([linkTo('Z', 1)]), ['Nick']);
    expect(graph.outgoingOf('B.md')).toEqual([{ target: 'A.md', line: 0 }]);
  });

  it('resolves again a link whose text leads by its folders to a file of another name, when a file of its own name comes', () => {
    const graph = new LinkGraph();
    for (const file of ['Index.md', 'Docs']) graph.addFile(file);
    // `Docs/x/..` walks back to the file `Docs`: a link named `..` resolved to a file named `docs`.
    graph.setNote('Index.md', listOf([linkTo('Docs/x/..', 2)]), []);
    expect(graph.outgoingOf('Index.md')).toEqual([{ target: 'Docs', line: 2 }]);
    graph.removeFile('Docs');
    expect(graph.outgoingOf('Index.md')).toEqual([{ target: 'Docs/x/..', line: 2 }]);
    graph.addFile('Docs');
    expect(graph.outgoingOf('Index.md')).toEqual([{ target: 'Docs', line: 2 }]);
  });

  it('takes a restored resolution as it was saved while no file or alias changes', async () => {
    const restore = (): LinkGraph => {
      const graph = new LinkGraph();
      graph.beginBulk();
      for (const file of ['Index.md', 'Old.md', 'Ideas.md']) graph.addFile(file);
      // As saved: `[[Ideas]]` went to Old.md (Ideas.md being one of the files since).
      graph.restoreNote('Index.md', listOf([linkTo('Ideas', 3)]), [], () => 'Old.md');
      return graph;
    };
    const kept = restore();
    await kept.resolveAll(new Slicer());
    expect(kept.outgoingOf('Index.md')).toEqual([{ target: 'Old.md', line: 3 }]);
    expect([...kept.incomingOf('Old.md')]).toEqual(['Index.md']);

    const resolvedAgain = restore();
    resolvedAgain.addFile('Later.md');
    await resolvedAgain.resolveAll(new Slicer());
    expect(resolvedAgain.outgoingOf('Index.md')).toEqual([{ target: 'Ideas.md', line: 3 }]);
    expect([...resolvedAgain.incomingOf('Old.md')]).toEqual([]);
    expect(() => new LinkGraph().restoreNote('Index.md', listOf([]), [], () => '')).toThrow(/bulk/);
  });

  it('resolves a link to a note created later, and back to its text when the note goes', () => {
    const graph = new LinkGraph();
    graph.addFile('Index.md');
    graph.setNote('Index.md', listOf([linkTo('Later', 0)]), []);
    expect(graph.outgoingOf('Index.md')).toEqual([{ target: 'Later', line: 0 }]);
    graph.addFile('Notes/Later.md');
    expect(graph.outgoingOf('Index.md')).toEqual([{ target: 'Notes/Later.md', line: 0 }]);
    expect([...graph.incomingOf('Notes/Later.md')]).toEqual(['Index.md']);
    graph.removeFile('Notes/Later.md');
    expect(graph.outgoingOf('Index.md')).toEqual([{ target: 'Later', line: 0 }]);
    expect([...graph.incomingOf('Notes/Later.md')]).toEqual([]);
  });
});

describe('the link resolver', () => {
  it('answers from its caches exactly as it answers the first time, from any folder', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...PATHS), { minLength: 1, maxLength: 12 }),
        fc.array(fc.tuple(fc.constantFrom(...PATHS), fc.constantFrom(...ALIASES)), { maxLength: 3 }),
        fc.array(fc.tuple(fc.constantFrom(...LINK_TEXTS, 'a/b/Ideas', '/Plan', ' Plan '), fc.constantFrom(...PATHS)), { minLength: 1, maxLength: 40 }),
        (files, aliases, lookups) => {
          const setUp = (): LinkResolver => {
            const resolver = new LinkResolver();
            for (const file of files) resolver.addFile(file);
            for (const [path, alias] of aliases) if (files.includes(path)) resolver.setAliases(path, [alias]);
            return resolver;
          };
          const warm = setUp();
          for (const [text, from] of lookups) expect(warm.resolve(text, from)).toBe(setUp().resolve(text, from));
        },
      ),
      { numRuns: 300, seed: 9 },
    );
  });
});
