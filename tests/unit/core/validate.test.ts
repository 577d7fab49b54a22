import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../src/core/errors';
import { describeValue, requireArray, requireString } from '../../../src/core/validate';
import { thrownBy } from '../../helpers/errors';

describe('requireString', () => {
  it('returns a string unchanged', () => {
    expect(requireString('x', 'name')).toBe('x');
  });

  describe('when the value breaks a limit', () => {
    it.each([
      [42, {}, 'a string'],
      ['', { nonEmpty: true }, 'a non-empty string'],
      ['abcd', { maxLength: 3 }, 'at most 3 characters'],
    ])('refuses %j', (value, limits, expected) => {
      expect(thrownBy(() => requireString(value, 'arg', limits), InvalidArgumentError)).toMatchObject({
        code: 'InvalidArgument',
        data: { argument: 'arg', expected },
      });
    });
  });
});

describe('requireArray', () => {
  it('refuses non-arrays and long arrays', () => {
    expect(thrownBy(() => requireArray('x', 'paths', 2), InvalidArgumentError)).toMatchObject({ code: 'InvalidArgument' });
    expect(thrownBy(() => requireArray([1, 2, 3], 'paths', 2), InvalidArgumentError)).toMatchObject({ data: { expected: 'at most 2 items' } });
    expect(requireArray([1], 'paths', 2)).toEqual([1]);
  });
});

describe('describeValue', () => {
  it('describes without echoing content', () => {
    expect(describeValue('secret'.repeat(100))).toBe('a string of 600 characters');
    expect(describeValue(null)).toBe('null');
    expect(describeValue([1, 2])).toBe('an array of 2');
    expect(describeValue({ a: 1 })).toBe('an object');
    expect(describeValue(undefined)).toBe('undefined');
  });
});
