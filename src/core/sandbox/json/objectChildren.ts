// The child tasks of an error or any other object: its own enumerable string-keyed properties.

import { errorPrototype, getterOf, ownKeys, tryCall } from './builtIns';
import type { JsonOutput } from './output';
import { readInherited, readOwn } from './ownProperties';
import type { Path, Where } from './paths';
import { propertyTask, valueTask, type Slot, type Task } from './tasks';
import type { JsonObject } from './types';

const MAX_STACK_CHARS = 2000;

/** The tasks for one object's properties, in order, and the keys they fill. */
class KeyedChildren {
  readonly tasks: Task[] = [];
  readonly taken = new Set<string>();

  constructor(
    private readonly path: Where,
    private readonly container: JsonObject,
  ) {}

  add(key: string, task: (path: Path, slot: Slot) => Task | undefined): void {
    const made = task({ parent: this.path, key }, { holder: this.container, key });
    if (made) {
      this.tasks.push(made);
      this.taken.add(key);
    }
  }
}

/**
 * An object's own enumerable string-keyed properties; for an error (`errorChain` given) its
 * `name`, `message`, `stack` and `cause` first.
 */
export function objectChildren(
  output: JsonOutput,
  object: object,
  errorChain: readonly object[] | undefined,
  ofClass: string | undefined,
  depth: number,
  path: Where,
  container: JsonObject,
): Task[] | undefined {
  let keys: Array<string | symbol>;
  try {
    keys = ownKeys(object);
  } catch {
    return undefined;
  }
  const children = new KeyedChildren(path, container);
  if (errorChain) addErrorFields(children, object, errorChain, depth);
  else if (ofClass !== undefined) children.add('[Class]', (p, s) => ({ kind: 'json', value: ofClass, path: p, slot: s }));
  addOwnProperties(output, children, object, keys, depth, path);
  return children.tasks;
}

/** An error's `name` (`"Error"` when unreadable), then its `message`, `stack` and `cause` when present. */
function addErrorFields(children: KeyedChildren, object: object, errorChain: readonly object[], depth: number): void {
  const name = readInherited(object, 'name', errorChain);
  children.add('name', (p, s) => ({ kind: 'json', value: name.kind === 'data' && typeof name.value === 'string' ? name.value : 'Error', path: p, slot: s }));
  const message = readInherited(object, 'message', errorChain);
  if (message.kind === 'data' && typeof message.value === 'string') children.add('message', (p, s) => valueTask(message.value, depth + 1, p, s));
  const stack = errorStack(object, errorChain);
  if (stack) children.add('stack', (p, s) => valueTask(stack, depth + 1, p, s, MAX_STACK_CHARS));
  const cause = readOwn(object, 'cause');
  if (cause.kind === 'data') children.add('cause', (p, s) => valueTask(cause.value, depth + 1, p, s));
}

/** The object's own enumerable string-keyed properties not taken yet, up to `maxKeys`. */
function addOwnProperties(
  output: JsonOutput,
  children: KeyedChildren,
  object: object,
  keys: ReadonlyArray<string | symbol>,
  depth: number,
  path: Where,
): void {
  let kept = 0;
  let stringKeys = 0;
  for (const key of keys) {
    if (typeof key !== 'string') continue;
    stringKeys++;
    if (kept >= output.limits.maxKeys || children.taken.has(key)) continue;
    const read = readOwn(object, key);
    if ((read.kind === 'data' || read.kind === 'accessor') && !read.enumerable) continue;
    if (read.kind === 'missing') continue;
    kept++;
    children.add(key, (p, s) => propertyTask(read, depth, p, s));
  }
  if (kept >= output.limits.maxKeys && stringKeys > kept) output.note(path, `object with ${stringKeys} keys cut to ${kept}`);
}

/**
 * An error's stack: an own (or inherited) data property, or the value of the `stack` accessor
 * this realm's `Error.prototype` defines (SES installs one); no other getter is called.
 */
function errorStack(error: object, chain: readonly object[]): string | undefined {
  const read = readInherited(error, 'stack', chain);
  if (read.kind === 'data') return typeof read.value === 'string' ? read.value : undefined;
  if (read.kind !== 'accessor') return undefined;
  const trusted = getterOf(errorPrototype, 'stack');
  if (trusted === undefined || read.getter !== trusted) return undefined;
  const stack = tryCall(trusted, error)?.result;
  return typeof stack === 'string' ? stack : undefined;
}
