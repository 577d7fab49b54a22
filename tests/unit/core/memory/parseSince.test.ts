import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../../helpers/errors';
import { parseSince } from '../../../../src/core/memory/parseSince';

const errorOf = (action: () => unknown): Error => thrownBy(action, Error);

const NOW = new Date(2026, 1, 4, 15, 30, 0);

describe('parseSince', () => {
  it('counts hours, days and weeks back from now', () => {
    expect(parseSince('12h', NOW)).toBe(NOW.getTime() - 12 * 3_600_000);
    expect(parseSince('1d', NOW)).toBe(NOW.getTime() - 86_400_000);
    expect(parseSince('2w', NOW)).toBe(NOW.getTime() - 14 * 86_400_000);
    expect(parseSince(' 3D ', NOW)).toBe(NOW.getTime() - 3 * 86_400_000);
  });

  it('reads today and yesterday as local midnight', () => {
    expect(parseSince('today', NOW)).toBe(new Date(2026, 1, 4).getTime());
    expect(parseSince('Yesterday', NOW)).toBe(new Date(2026, 1, 3).getTime());
    expect(parseSince('yesterday', new Date(2026, 2, 1, 0, 5))).toBe(new Date(2026, 1, 28).getTime());
  });

  it('reads ISO dates as local midnight and date-times as written', () => {
    expect(parseSince('2026-01-15', NOW)).toBe(new Date(2026, 0, 15).getTime());
    expect(parseSince('2026-01-15T09:30', NOW)).toBe(new Date(2026, 0, 15, 9, 30).getTime());
    expect(parseSince('2026-01-15T09:30:00Z', NOW)).toBe(Date.UTC(2026, 0, 15, 9, 30));
  });

  it.each(['', 'soon', '1y', '-1d', '1.5d', '2026-02-30', '2026-13-01', 'last week', '1d ago', '99999999h'])('refuses %j, listing the accepted forms', (value) => {
    expect(errorOf(() => parseSince(value, NOW))).toMatchObject({ code: 'InvalidArgument', data: { argument: 'since' } });
    expect(() => parseSince(value, NOW)).toThrow(/"12h".*"1d".*"2w".*"today".*"yesterday".*ISO date/);
  });

  it('refuses values that are not strings', () => {
    expect(errorOf(() => parseSince(7, NOW))).toMatchObject({ code: 'InvalidArgument' });
    expect(errorOf(() => parseSince({ toString: () => '1d' }, NOW))).toMatchObject({ code: 'InvalidArgument' });
  });
});
