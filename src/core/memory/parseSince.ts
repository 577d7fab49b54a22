import { InvalidArgumentError } from '../errors';

/** The forms `since` accepts, for the error that lists them. */
export const SINCE_FORMS = '"12h" (hours), "1d" (days), "2w" (weeks), "today", "yesterday", or an ISO date such as "2026-01-15" or "2026-01-15T09:30"';

const RELATIVE = /^(\d{1,5})\s*([hdw])$/;
const UNIT_MS = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 } as const;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

/**
 * The moment a `since` filter starts, in milliseconds since the epoch. Relative forms count back
 * from `now`; `today` and `yesterday` are local midnight; a bare ISO date is local midnight of
 * that day, an ISO date-time is read as written (local time unless it names a zone).
 *
 * @throws InvalidArgument for anything else, listing the accepted forms.
 * @example
 * parseSince('2w', new Date('2026-03-15T12:00:00Z')); // the time two weeks before
 */
export function parseSince(value: unknown, now: Date = new Date()): number {
  const fail = (): never => {
    throw new InvalidArgumentError('since', `one of ${SINCE_FORMS}`, typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value);
  };
  if (typeof value !== 'string') return fail();
  const text = value.trim().toLowerCase();
  const relative = RELATIVE.exec(text);
  if (relative !== null) return now.getTime() - Number(relative[1]) * UNIT_MS[relative[2] as keyof typeof UNIT_MS];
  if (text === 'today' || text === 'yesterday') {
    const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate() - (text === 'yesterday' ? 1 : 0));
    return midnight.getTime();
  }
  if (ISO_DATE.test(text)) {
    const [year, month, day] = text.split('-').map(Number) as [number, number, number];
    const date = new Date(year, month - 1, day);
    if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return fail();
    return date.getTime();
  }
  if (ISO_DATE_TIME.test(value.trim())) {
    const time = new Date(value.trim().replace(' ', 'T')).getTime();
    if (Number.isFinite(time)) return time;
  }
  return fail();
}
