import { throwIfCancelled } from '../../errors';
import { compareCodePoints } from '../../util/compareCodePoints';
import { Slicer } from '../../util/Slicer';
import { Evaluator, PAUSE_EVERY } from './queryEvaluator';
import type { QueryNode } from './queryNode';
import type { EvaluateOptions, QueryableNote, QueryMatch, QuerySource } from './querySource';

/**
 * Evaluates a parsed query over every note of `source`.
 *
 * `outgoing-link` resolves its target from each note's folder, as Obsidian resolves that note's
 * links; `backlink` resolves its page from the vault root. An unresolved target falls back to
 * comparing paths case-insensitively, with or without `.md`. A property value matches when it
 * equals the query's value ignoring case, with `[[...]]` links in either read as their page names,
 * or when both are links that resolve to the same note.
 *
 * Cost: walks every note once per term, in slices: the event loop gets a turn every `sliceMs`,
 * and an aborted `signal` ends the evaluation there with a `CancelledError`.
 *
 * @param node a query from `parseQuery`.
 * @param source the notes and link resolution.
 * @returns the matching notes, sorted by path.
 */
export async function evaluateQuery(node: QueryNode, source: QuerySource, options: EvaluateOptions = {}): Promise<QueryMatch[]> {
  const { signal } = options;
  const slicer = new Slicer(options.sliceMs ?? 20, () => {
    throwIfCancelled(signal, 'the graph query');
    return Promise.resolve();
  });
  throwIfCancelled(signal, 'the graph query');
  const evaluator = new Evaluator(source, slicer);
  const outcome = await evaluator.evaluate(node);
  const matches: QueryMatch[] = [];
  const pauseEvery = PAUSE_EVERY;
  for (let i = 0; i < evaluator.notes.length; i++) {
    if ((i & pauseEvery) === pauseEvery) await slicer.maybeYield();
    const lines = outcome[i];
    if (lines === null || lines === undefined) continue;
    const note = evaluator.notes[i] as QueryableNote;
    matches.push({ filePath: note.path, matches: matchedTexts(note, lines) });
  }
  return matches.sort((a, b) => compareCodePoints(a.filePath, b.filePath));
}

/** The text of a note's matched lines, in line order. */
function matchedTexts(note: QueryableNote, lines: ReadonlySet<number>): string[] {
  const wanted = [...lines].sort((a, b) => a - b);
  let values: (string | undefined)[] = [];
  if (wanted.length > 0 && note.lineTexts !== undefined) values = note.lineTexts(wanted);
  else if (wanted.length > 0) {
    const noteLines = note.text.split('\n');
    values = wanted.map((line) => noteLines[line]);
  }
  return values.filter((value) => value !== undefined);
}
