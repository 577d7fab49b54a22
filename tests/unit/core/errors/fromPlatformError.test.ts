import { describe, expect, it } from 'vitest';
import { NotFoundError, fromPlatformError, isMissingPathError, platformErrorCode } from '../../../../src/core/errors';

const fsError = (code: string): Error => Object.assign(new Error(`${code}: failed`), { code });

describe('fromPlatformError', () => {
  it.each([
    ['read', 'ENOENT', 'NotFound'],
    ['read', 'ENOTDIR', 'NotFound'],
    ['read', 'EISDIR', 'WrongKind'],
    ['list', 'ENOTDIR', 'WrongKind'],
    ['mkdir', 'EEXIST', 'WrongKind'],
    ['rename', 'EEXIST', 'AlreadyExists'],
    ['write', 'EACCES', 'Io'],
  ])('maps %s failing with %s to %s', (operation, code, expected) => {
    expect(fromPlatformError(operation, 'a/b.md', fsError(code))).toMatchObject({ code: expected, data: { path: 'a/b.md' } });
  });

  it('passes a RecursaError through unchanged', () => {
    const original = new NotFoundError('x.md');
    expect(fromPlatformError('read', 'other.md', original)).toBe(original);
  });

  it('describes a thrown non-error', () => {
    expect(fromPlatformError('write', 'a.md', 'disk full')).toMatchObject({ code: 'Io', data: { detail: 'disk full' } });
  });
});

describe('platformErrorCode', () => {
  it('reads a string code and ignores anything else', () => {
    expect(platformErrorCode(fsError('ENOENT'))).toBe('ENOENT');
    expect(platformErrorCode({ code: 7 })).toBeUndefined();
    expect(platformErrorCode(null)).toBeUndefined();
    expect(isMissingPathError(fsError('ENOTDIR'))).toBe(true);
    expect(isMissingPathError(fsError('EPERM'))).toBe(false);
  });
});
