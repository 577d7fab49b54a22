import { WorkingMemoryError } from './WorkingMemoryError';

/** A value in working memory: text, a number, a flag, a list, or a node with named children. */
export type WorkingValue = string | number | boolean | null | WorkingValue[] | WorkingTree;
export interface WorkingTree {
  [name: string]: WorkingValue;
}

export interface WorkingLimits {
  /** Most characters of the whole tree, counted as compact JSON. */
  charLimit: number;
  /** Most direct children of any node. */
  childLimit: number;
}

const MAX_PATH_CHARS = 500;
const MAX_NAME_CHARS = 100;
const MAX_DEPTH = 12;
/** Names that would reach an object's prototype instead of a child. */
const FORBIDDEN_NAMES = new Set(['__proto__', 'constructor', 'prototype']);
const HINT = 'Move what you do not need this minute to storage (the vault: mem.writeFile, or an action to /storage/…), or remove what is done.';

/** `/tasks/todo/a` (leading slash optional; `/` or `''` is the root) as its names. */
export function parseWorkingPath(path: unknown): string[] {
  if (typeof path !== 'string') throw new WorkingMemoryError('bad-path', 'A working-memory path must be a string such as "/tasks/todo".', { path: typeof path });
  if (path.length > MAX_PATH_CHARS) throw new WorkingMemoryError('bad-path', `A working-memory path may have at most ${MAX_PATH_CHARS} characters.`, { length: path.length });
  const trimmed = path.trim().replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return [];
  return trimmed.split('/').map((name) => checkName(name, path));
}

function checkName(name: string, path: string): string {
  const bad = name === '' || name === '.' || name === '..' || name.length > MAX_NAME_CHARS || hasControl(name) || FORBIDDEN_NAMES.has(name);
  if (bad) {
    throw new WorkingMemoryError('bad-path', `"${path.slice(0, 80)}" is not a working-memory path: names must be 1 to ${MAX_NAME_CHARS} characters, not "." or "..", without control characters or "//", and not ${[...FORBIDDEN_NAMES].join(', ')}.`, { path: path.slice(0, 200) });
  }
  return name;
}

function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

export function displayPath(names: readonly string[]): string {
  return `/${names.join('/')}`;
}

export function isNode(value: WorkingValue | undefined): value is WorkingTree {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function sizeOf(tree: WorkingTree): number {
  return JSON.stringify(tree).length;
}

/** A plain, bounded copy of a value from untrusted code; throws `bad-value` for anything else. */
export function toWorkingValue(value: unknown, depth = 0): WorkingValue {
  if (depth > MAX_DEPTH) throw new WorkingMemoryError('bad-value', `Working memory nests at most ${MAX_DEPTH} levels deep.`);
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new WorkingMemoryError('bad-value', 'Numbers in working memory must be finite.');
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => toWorkingValue(item, depth + 1));
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const node: WorkingTree = {};
    for (const [name, child] of Object.entries(value)) node[checkName(name, name)] = toWorkingValue(child, depth + 1);
    return node;
  }
  throw new WorkingMemoryError('bad-value', `Working memory holds text, numbers, true/false, null, lists and nodes (plain objects); got ${typeof value}.`);
}

/** The value at `names`. */
export function getAt(tree: WorkingTree, names: readonly string[]): WorkingValue {
  let value: WorkingValue = tree;
  for (const [depth, name] of names.entries()) {
    if (!isNode(value)) throw new WorkingMemoryError('not-a-folder', `${displayPath(names.slice(0, depth))} holds a value, not a node, so ${displayPath(names)} cannot exist.`, { path: displayPath(names) });
    if (!Object.hasOwn(value, name)) throw new WorkingMemoryError('not-found', `Nothing at ${displayPath(names)} in working memory. List a node to see what is there.`, { path: displayPath(names) });
    value = value[name] as WorkingValue;
  }
  return value;
}

/** The children of the node at `names`: nodes end with `/`. */
export function listAt(tree: WorkingTree, names: readonly string[]): string[] {
  const value = getAt(tree, names);
  if (!isNode(value)) throw new WorkingMemoryError('not-a-folder', `${displayPath(names)} holds a value, not a node; get it instead.`, { path: displayPath(names) });
  return Object.entries(value).map(([name, child]) => (isNode(child) ? `${name}/` : name));
}

/** A new tree with `value` at `names` (creating nodes on the way), checked against the limits. */
export function setAt(tree: WorkingTree, names: readonly string[], raw: unknown, limits: WorkingLimits): WorkingTree {
  const value = toWorkingValue(raw);
  if (names.length === 0) {
    if (!isNode(value)) throw new WorkingMemoryError('bad-value', 'The root of working memory must be a node (an object).');
    checkChildren(value, [], limits);
    return checkSize(tree, value, limits, '/');
  }
  const next = structuredClone(tree);
  let node = next;
  for (const [depth, name] of names.slice(0, -1).entries()) {
    const child = node[name];
    if (child === undefined || !Object.hasOwn(node, name)) {
      checkRoom(node, names.slice(0, depth), limits);
      node[name] = {};
    } else if (!isNode(child)) {
      throw new WorkingMemoryError('not-a-folder', `${displayPath(names.slice(0, depth + 1))} holds a value, not a node; remove it or choose another path.`, { path: displayPath(names) });
    }
    node = node[name] as WorkingTree;
  }
  const last = names[names.length - 1] as string;
  if (!Object.hasOwn(node, last)) checkRoom(node, names.slice(0, -1), limits);
  if (isNode(value)) checkChildren(value, [...names], limits);
  node[last] = value;
  return checkSize(tree, next, limits, displayPath(names));
}

/** A new tree without the value at `names`. */
export function removeAt(tree: WorkingTree, names: readonly string[]): WorkingTree {
  if (names.length === 0) return {};
  getAt(tree, names);
  const next = structuredClone(tree);
  const parent = getAt(next, names.slice(0, -1)) as WorkingTree;
  delete parent[names[names.length - 1] as string];
  return next;
}

/** A new tree with the value at `from` moved to `to` (which must not exist). */
export function moveAt(tree: WorkingTree, from: readonly string[], to: readonly string[], limits: WorkingLimits): WorkingTree {
  const value = getAt(tree, from);
  if (from.length === 0 || to.length === 0) throw new WorkingMemoryError('bad-path', 'The root of working memory cannot be moved, nor replaced by a move.');
  if (to.length > from.length && from.every((name, i) => to[i] === name)) throw new WorkingMemoryError('bad-path', `${displayPath(to)} is inside ${displayPath(from)}.`);
  try {
    getAt(tree, to);
    throw new WorkingMemoryError('bad-path', `${displayPath(to)} already exists; remove it first or choose another name.`, { path: displayPath(to) });
  } catch (error) {
    if (!(error instanceof WorkingMemoryError) || error.data.problem !== 'not-found') throw error;
  }
  const removed = removeAt(tree, from);
  // Moving never grows the tree by more than the longer name, so only the shape is checked.
  return setAt(removed, to, value, { ...limits, charLimit: Math.max(limits.charLimit, sizeOf(tree) + displayPath(to).length) });
}

function checkRoom(node: WorkingTree, names: readonly string[], limits: WorkingLimits): void {
  const count = Object.keys(node).length;
  if (count >= limits.childLimit) {
    throw new WorkingMemoryError(
      'child-limit',
      `${displayPath(names)} already has ${count} children, the limit is ${limits.childLimit}. Group them under a new node, or ${HINT.charAt(0).toLowerCase()}${HINT.slice(1)}`,
      { path: displayPath(names), limit: limits.childLimit, size: count },
    );
  }
}

function checkChildren(value: WorkingTree, names: string[], limits: WorkingLimits): void {
  const count = Object.keys(value).length;
  if (count > limits.childLimit) {
    throw new WorkingMemoryError('child-limit', `The node for ${displayPath(names)} has ${count} children, the limit is ${limits.childLimit}. ${HINT}`, { path: displayPath(names), limit: limits.childLimit, size: count });
  }
  for (const [name, child] of Object.entries(value)) if (isNode(child)) checkChildren(child, [...names, name], limits);
}

/** A write may not take the tree over the limit; one that shrinks an over-full tree (edited by hand) is fine. */
function checkSize(before: WorkingTree, after: WorkingTree, limits: WorkingLimits, path: string): WorkingTree {
  const size = sizeOf(before);
  const next = sizeOf(after);
  if (next > limits.charLimit && next > size) {
    throw new WorkingMemoryError(
      'char-limit',
      `Working memory is limited to ${limits.charLimit} characters; it holds ${size} now and this write to ${path} would make it ${next}. ${HINT}`,
      { path, limit: limits.charLimit, size, wouldBe: next },
    );
  }
  return after;
}
