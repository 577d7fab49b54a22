import { RecursaError } from '../errors';

export type WorkingMemoryProblem = 'char-limit' | 'child-limit' | 'not-found' | 'not-a-folder' | 'bad-path' | 'bad-value' | 'unreadable';

/**
 * A working-memory operation that cannot be done: a limit would be exceeded, a path is missing or
 * runs through a value, or the note cannot be read. `data.problem` says which; limit errors carry
 * `limit` and `size` and say how to make room.
 */
export class WorkingMemoryError extends RecursaError {
  static readonly code = 'WorkingMemory';
  readonly code = 'WorkingMemory';

  constructor(problem: WorkingMemoryProblem, message: string, data: Record<string, unknown> = {}) {
    super(message, { problem, ...data });
  }
}
