import type { Slicer } from './Slicer';

/**
 * Work written as a generator of steps: each `yield` is a point where it may pause. One body of
 * code serves callers that need the result at once and callers on the app's main thread, which
 * must not hold it for long.
 */
export type Steps<T> = Generator<void, T>;

/** Runs `steps` to their end without pausing. */
export function runSteps<T>(steps: Steps<T>): T {
  let step = steps.next();
  while (step.done !== true) step = steps.next();
  return step.value;
}

/** Runs `steps` to their end, pausing through `slicer` between them. */
export async function runStepsInSlices<T>(steps: Steps<T>, slicer: Slicer): Promise<T> {
  let step = steps.next();
  while (step.done !== true) {
    await slicer.maybeYield();
    step = steps.next();
  }
  return step.value;
}
