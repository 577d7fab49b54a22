import { compareCodePoints, compareUnits, hasSurrogate } from './compareCodePoints';
import type { Slicer } from './Slicer';
import { runStepsInSlices, type Steps } from './steps';

/** Values the engine sorts in one go: a few hundred are well under a millisecond on a phone. */
const RUN = 256;
/** Values placed between pauses while the runs are merged. */
const MERGE_STEP = 1024;

/**
 * `values` sorted by `compare` into a new array, pausing through `slicer`. An engine's sort is
 * one piece of work: a first snapshot's 10,000 paths, sorted by it, held a phone's main thread
 * for 60 ms in one task. Runs the engine sorts are merged pair by pair instead (a stable sort).
 */
export function sortInSlices<T>(values: readonly T[], compare: (a: T, b: T) => number, slicer: Slicer): Promise<T[]> {
  return runStepsInSlices(mergeSort(values, compare, false), slicer);
}

/**
 * Strings sorted as `sort()` sorts them (by UTF-16 code unit) into a new array, pausing through
 * `slicer`: the runs are sorted by the engine's own comparison, several times faster than a
 * comparator it calls.
 */
export function sortStringsInSlices(values: readonly string[], slicer: Slicer): Promise<string[]> {
  return runStepsInSlices(mergeSort(values, compareUnits, true), slicer);
}

/** `values` sorted by code point into a new array, as `sortByCodePoints` sorts, pausing through `slicer`. */
export function sortByCodePointsInSlices(values: readonly string[], slicer: Slicer): Promise<string[]> {
  return values.some(hasSurrogate) ? sortInSlices(values, compareCodePoints, slicer) : sortStringsInSlices(values, slicer);
}

/**
 * A bottom-up merge sort, pausing (yielding) after each run sorted but the last and every
 * `MERGE_STEP` values merged. `engineOrder`: the runs are sorted by `sort()` with no comparator,
 * which must then agree with `compare`.
 */
function* mergeSort<T>(values: readonly T[], compare: (a: T, b: T) => number, engineOrder: boolean): Steps<T[]> {
  const length = values.length;
  let from: T[] = [];
  for (let start = 0; start < length; start += RUN) {
    const run = values.slice(start, start + RUN);
    if (engineOrder) run.sort();
    else run.sort(compare);
    for (const value of run) from.push(value);
    // No pause after the last run: a list of one run (a commit's few paths) is sorted at once.
    if (start + RUN < length) yield;
  }
  let to = new Array<T>(length);
  let placed = 0;
  for (let width = RUN; width < length; width *= 2) {
    for (let left = 0; left < length; left += 2 * width) {
      const middle = Math.min(left + width, length);
      const end = Math.min(left + 2 * width, length);
      let i = left;
      let j = middle;
      let k = left;
      while (i < middle && j < end) {
        // The left run's value first on a tie: the sort is stable.
        to[k++] = compare(from[j] as T, from[i] as T) < 0 ? (from[j++] as T) : (from[i++] as T);
        if (++placed % MERGE_STEP === 0) yield;
      }
      while (i < middle) to[k++] = from[i++] as T;
      while (j < end) to[k++] = from[j++] as T;
    }
    [from, to] = [to, from];
  }
  return from;
}
