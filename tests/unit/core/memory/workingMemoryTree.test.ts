import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../../helpers/errors';
import { getAt, listAt, moveAt, parseWorkingPath, removeAt, setAt, sizeOf, type WorkingTree } from '../../../../src/core/memory/workingMemoryTree';

const errorOf = (action: () => unknown): Error => thrownBy(action, Error);

const LIMITS = { charLimit: 200, childLimit: 3 };

describe('working-memory trees', () => {
  it('set creates nodes on the way, get and list read them back, remove takes them away', () => {
    let tree: WorkingTree = {};
    tree = setAt(tree, ['tasks', 'todo', 'a'], 'Write docs', LIMITS);
    tree = setAt(tree, ['tasks', 'todo', 'b'], { due: 'Friday', done: false }, LIMITS);
    expect(getAt(tree, ['tasks', 'todo', 'b', 'due'])).toBe('Friday');
    expect(listAt(tree, ['tasks', 'todo'])).toEqual(['a', 'b/']);
    expect(listAt(tree, [])).toEqual(['tasks/']);
    tree = removeAt(tree, ['tasks', 'todo', 'a']);
    expect(tree).toEqual({ tasks: { todo: { b: { due: 'Friday', done: false } } } });
  });

  it('never changes the tree it was given', () => {
    const tree: WorkingTree = { a: 'x' };
    setAt(tree, ['b'], 'y', LIMITS);
    removeAt(tree, ['a']);
    expect(tree).toEqual({ a: 'x' });
  });

  it('moves a value and refuses to move onto an existing one or into itself', () => {
    const tree: WorkingTree = { todo: { a: 'x' }, done: {} };
    expect(moveAt(tree, ['todo', 'a'], ['done', 'a'], LIMITS)).toEqual({ todo: {}, done: { a: 'x' } });
    expect(errorOf(() => moveAt(tree, ['todo', 'a'], ['todo'], LIMITS))).toMatchObject({ code: 'WorkingMemory', data: { problem: 'bad-path' } });
    expect(() => moveAt(tree, ['todo'], ['todo', 'inner'], LIMITS)).toThrow(/inside/);
  });

  describe('when a limit would be exceeded', () => {
    it('refuses a fourth child with the limit, the current count and a hint', () => {
      const tree = { a: 1, b: 2, c: 3 };
      const error = captured(() => setAt(tree, ['d'], 4, LIMITS));
      expect(error).toMatchObject({ code: 'WorkingMemory', data: { problem: 'child-limit', limit: 3, size: 3, path: '/' } });
      expect(error.message).toMatch(/storage/);
      expect(setAt(tree, ['a'], 9, LIMITS)).toEqual({ a: 9, b: 2, c: 3 });
    });

    it('refuses a value whose own nodes have too many children', () => {
      expect(errorOf(() => setAt({}, ['x'], { a: 1, b: 2, c: 3, d: 4 }, LIMITS))).toMatchObject({ data: { problem: 'child-limit', path: '/x' } });
    });

    it('refuses a write over the character limit, saying the limit, the size now and after', () => {
      const tree = setAt({}, ['note'], 'x'.repeat(150), LIMITS);
      const error = captured(() => setAt(tree, ['more'], 'y'.repeat(60), LIMITS));
      expect(error).toMatchObject({ data: { problem: 'char-limit', limit: 200, size: sizeOf(tree) } });
      expect(error.message).toContain(`it holds ${sizeOf(tree)} now`);
      expect(error.message).toMatch(/Move what you do not need/);
    });

    it('lets a tree that is already over the limit (edited by hand) shrink', () => {
      const big: WorkingTree = { a: 'x'.repeat(300) };
      expect(setAt(big, ['a'], 'short', LIMITS)).toEqual({ a: 'short' });
      expect(errorOf(() => setAt(big, ['b'], 'more', LIMITS))).toMatchObject({ data: { problem: 'char-limit' } });
    });
  });

  describe('with hostile paths and values', () => {
    it.each(['/a/../b', '/a//b', '/__proto__/x', '/constructor', '/a/\u0000', '/' + 'x'.repeat(101), 'y'.repeat(501)])('refuses path %j', (path) => {
      expect(errorOf(() => parseWorkingPath(path))).toMatchObject({ code: 'WorkingMemory', data: { problem: 'bad-path' } });
    });

    it('does not pollute prototypes through keys of a value', () => {
      const value = JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
      expect(errorOf(() => setAt({}, ['x'], value, LIMITS))).toMatchObject({ data: { problem: 'bad-path' } });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('refuses functions, class instances, infinite numbers and deep nesting', () => {
      for (const value of [() => 1, new Date(), Number.POSITIVE_INFINITY, new Map(), deep(20)]) {
        expect(errorOf(() => setAt({}, ['x'], value, { charLimit: 10_000, childLimit: 8 }))).toMatchObject({ data: { problem: 'bad-value' } });
      }
    });

    it('says a path runs through a value, not a node', () => {
      expect(errorOf(() => setAt({ a: 'text' }, ['a', 'b'], 1, LIMITS))).toMatchObject({ data: { problem: 'not-a-folder' } });
      expect(errorOf(() => getAt({ a: 'text' }, ['a', 'b']))).toMatchObject({ data: { problem: 'not-a-folder' } });
      expect(errorOf(() => getAt({}, ['missing']))).toMatchObject({ data: { problem: 'not-found', path: '/missing' } });
    });
  });
});

function deep(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = { n: value };
  return value;
}

function captured(fn: () => unknown): Error & { code?: string; data?: Record<string, unknown> } {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}
