import { InvalidArgumentError } from '../errors';
import { workingMemoryStore, type WorkingMemoryLocation, type WorkingMemorySize } from '../memory/workingMemoryStore';
import type { WorkingValue } from '../memory/workingMemoryTree';
import { describeValue } from '../validate';
import { resolvePath } from './resolvePath';
import type { MemContext } from './MemContext';

/**
 * Your working memory: a small scratchpad that is always in your prompt (you see it every turn),
 * kept as a note the user can read. Paths are `/`-separated (`/tasks/todo/write-report`); nodes
 * are created as needed. It is limited (by default 2048 characters in all, 8 children per node):
 * a write over a limit fails with the limit, the current size and a hint — move what you do not
 * need right now into notes in the vault (storage) and keep here only the current plan and state.
 * Operations: `get` (a value, `"/"` for everything), `set` (text, number, true/false, list or
 * object), `remove`, `list` (a node's children, nodes ending in `/`), `move` (value is the new path).
 *
 * @param operation `"get"`, `"set"`, `"remove"`, `"list"` or `"move"`.
 * @param path The `/`-path, e.g. `"/tasks/todo"`; `"/"` is the whole working memory.
 * @param value For `set`, the value; for `move`, the destination path.
 * @returns `get`: the value; `list`: child names; `set`/`remove`/`move`: `{size, limit}` in characters.
 * @throws WorkingMemory with `data.problem` `char-limit` or `child-limit` (with `limit` and `size`),
 *   `not-found`, `not-a-folder`, `bad-path`, `bad-value` or `unreadable`; InvalidArgument for an
 *   unknown operation; PathRefused if the working-memory note setting is refused.
 * @example
 * await mem.workingMemory('set', '/tasks/todo/report', 'Draft the Q3 report by Friday');
 * const todo = await mem.workingMemory('list', '/tasks/todo');
 */
export async function workingMemory(ctx: MemContext, operation: 'get' | 'set' | 'remove' | 'list' | 'move', path: string, value?: unknown): Promise<WorkingValue | string[] | WorkingMemorySize> {
  const location = await workingMemoryLocation(ctx);
  switch (operation) {
    case 'get':
      return workingMemoryStore.get(location, path);
    case 'list':
      return workingMemoryStore.list(location, path);
    case 'set':
      if (value === undefined) throw new InvalidArgumentError('value', 'the value to set (text, a number, true/false, a list or an object)', 'undefined');
      return workingMemoryStore.set(location, path, value);
    case 'remove':
      return workingMemoryStore.remove(location, path);
    case 'move':
      return workingMemoryStore.move(location, path, value);
    default:
      throw new InvalidArgumentError('operation', '"get", "set", "remove", "list" or "move"', typeof operation === 'string' ? JSON.stringify((operation as string).slice(0, 40)) : describeValue(operation));
  }
}

export async function workingMemoryLocation(ctx: MemContext): Promise<WorkingMemoryLocation> {
  return {
    vault: ctx.vault,
    writeSet: ctx.writeSet,
    note: await resolvePath(ctx, ctx.options.workingMemoryNote, 'write'),
    charLimit: ctx.options.workingMemoryCharLimit,
    childLimit: ctx.options.workingMemoryChildLimit,
  };
}
