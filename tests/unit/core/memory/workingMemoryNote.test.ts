import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../../helpers/errors';
import { readWorkingMemoryNote, renderWorkingMemoryNote } from '../../../../src/core/memory/workingMemoryNote';

const errorOf = (action: () => unknown): Error => thrownBy(action, Error);

describe('the working-memory note', () => {
  it('round-trips the tree through a YAML block a person can read', () => {
    const tree = { tasks: { todo: { report: 'Draft the Q3 report', 'with: colon': 'a: b' }, done: {} }, count: 3, flag: true, none: null, list: ['a', 1] };
    const text = renderWorkingMemoryNote(tree, { charLimit: 2048, childLimit: 8 });
    expect(text).toContain('# Working memory');
    expect(text).toContain('2048 characters');
    expect(text).toContain('```yaml\ntasks:\n  todo:\n    report: Draft the Q3 report\n');
    expect(readWorkingMemoryNote('wm.md', text)).toEqual(tree);
  });

  it('reads an empty note as an empty tree', () => {
    expect(readWorkingMemoryNote('wm.md', '')).toEqual({});
    expect(readWorkingMemoryNote('wm.md', renderWorkingMemoryNote({}, { charLimit: 10, childLimit: 2 }))).toEqual({});
  });

  it.each([
    ['no block', 'Some notes of my own'],
    ['broken YAML', '```yaml\na: [1,\n```\n'],
    ['a list at the top', '```yaml\n- a\n- b\n```\n'],
    ['a forbidden key', '```yaml\n__proto__:\n  x: 1\n```\n'],
  ])('says the note cannot be read when it has %s', (_case, text) => {
    expect(errorOf(() => readWorkingMemoryNote('wm.md', text))).toMatchObject({ code: 'WorkingMemory', data: { problem: 'unreadable', path: 'wm.md' } });
  });
});
