import { cutPoint } from './textCuts';
import { toJsonSafe } from './toJsonSafe';
import { DEFAULT_JSON_SAFE_LIMITS } from './types';

/**
 * Formats console arguments the way a log line shows them (strings as is, other values as compact
 * JSON-safe text), capped.
 *
 * Top-level strings are written as they are; numbers, booleans, `null` and `undefined` as words;
 * bigints as `123n`; values that {@link toJsonSafe} turns into a string (functions, dates, …) as
 * that string; arrays and objects as compact JSON, converted with an output budget of the room left
 * on the line. Arguments are joined by spaces. A line longer than `maxChars`, or one whose objects
 * had to be cut, ends with `… [N more characters]` (or `… [truncated]` when N is not known) and stays
 * within `maxChars` in all.
 */
export function formatLogArguments(args: readonly unknown[], maxChars: number): string {
  const cap = Math.max(0, Math.floor(maxChars));
  let line = ''; // never longer than cap + 1, enough to know whether the cap was passed
  let omitted = 0; // characters known to be left out after `line`
  let exact = true; // false once an object's text was cut, so `omitted` is a lower bound
  args.forEach((arg, index) => {
    const room = cap + 1 - line.length;
    const piece = formatLogArgument(arg, room);
    const text = (index > 0 ? ' ' : '') + piece.text;
    const take = Math.max(0, Math.min(text.length, room));
    line += text.slice(0, take);
    omitted += text.length - take;
    if (!piece.complete) exact = false;
  });
  if (line.length <= cap && omitted === 0 && exact) return line;
  const marker = (kept: number): string => (exact ? `… [${line.length + omitted - kept} more characters]` : '… [truncated]');
  for (let kept = Math.min(line.length, cap); kept >= 0; kept--) {
    const at = cutPoint(line, kept);
    const withMarker = line.slice(0, at) + marker(at);
    if (withMarker.length <= cap) return withMarker;
  }
  return line.slice(0, cutPoint(line, cap)); // too short a cap for the marker
}

/** One argument as a log line shows it; an object's text is built for about `room` characters. */
function formatLogArgument(arg: unknown, room: number): { text: string; complete: boolean } {
  switch (typeof arg) {
    case 'string':
      return { text: arg, complete: true };
    case 'number':
    case 'boolean':
    case 'undefined':
      return { text: String(arg), complete: true };
    case 'bigint':
      return { text: `${arg}n`, complete: true };
    default: {
      if (arg === null) return { text: 'null', complete: true };
      if (room <= 0) return { text: '', complete: false };
      const { value, truncated } = toJsonSafe(arg, { maxTotalChars: Math.min(room, DEFAULT_JSON_SAFE_LIMITS.maxTotalChars) });
      return { text: typeof value === 'string' ? value : JSON.stringify(value), complete: truncated.length === 0 };
    }
  }
}
