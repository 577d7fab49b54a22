import { describe, expect, it } from 'vitest';
import { validateAction } from '../../../../../src/core/agent/actions/validateActions';
import type { RawAction } from '../../../../../src/core/agent/actions/types';

const raw = (fields: Partial<RawAction>): RawAction => ({ unknown: [], ...fields });

describe('validateAction', () => {
  it('accepts each kind with the fields it needs, normalizing kind and paths', () => {
    expect(validateAction(raw({ kind: ' SET ', target_path: '/working_memory//a/', content: 'x' }))).toEqual({ ok: true, action: { kind: 'set', target_path: '/working_memory/a', content: 'x' } });
    expect(validateAction(raw({ kind: 'mv', source_path: '/storage/a', target_path: '/working_memory/b' }))).toMatchObject({ ok: true });
    expect(validateAction(raw({ kind: 'ls', target_path: '/storage' }))).toEqual({ ok: true, action: { kind: 'ls', target_path: '/storage' } });
    expect(validateAction(raw({ kind: 'search', target_path: '/storage/', content: 'plan' }))).toEqual({ ok: true, action: { kind: 'search', target_path: '/storage', content: 'plan' } });
  });

  it.each([
    ['no kind', raw({ target_path: '/storage/a' }), /kind> is missing/],
    ['an unknown kind', raw({ kind: 'exec', target_path: '/storage/a' }), /unknown kind "exec"/],
    ['no target path', raw({ kind: 'get' }), /target_path> is missing/],
    ['a path outside both areas', raw({ kind: 'get', target_path: '/etc/passwd' }), /must start with \/working_memory\/ or \/storage\//],
    ['a look-alike prefix', raw({ kind: 'get', target_path: '/storage_evil/a' }), /must start with/],
    ['a relative path', raw({ kind: 'get', target_path: 'storage/a' }), /must start with/],
    ['mv without a source', raw({ kind: 'mv', target_path: '/storage/a' }), /source_path> is missing/],
    ['a source on another kind', raw({ kind: 'get', target_path: '/storage/a', source_path: '/storage/b' }), /belongs to mv only/],
    ['set without content', raw({ kind: 'set', target_path: '/storage/a' }), /needs <content>/],
    ['search without words', raw({ kind: 'search', target_path: '/storage', content: '  ' }), /needs words/],
    ['content on rm', raw({ kind: 'rm', target_path: '/storage/a', content: 'x' }), /belongs to set and search/],
    ['an unknown field', raw({ kind: 'get', target_path: '/storage/a', unknown: ['script'] }), /unknown field <script>/],
    ['an overlong path', raw({ kind: 'get', target_path: `/storage/${'a'.repeat(700)}` }), /longer than 600/],
    ['overlong content', raw({ kind: 'set', target_path: '/storage/a', content: 'x'.repeat(100_001) }), /limit is 100000/],
  ])('refuses %s, saying why', (_case, action, message) => {
    const result = validateAction(action);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.error).toMatch(message);
  });
});
