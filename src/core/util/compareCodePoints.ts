/**
 * Orders strings by Unicode code point, the same on every platform and locale (unlike
 * `localeCompare`, and unlike `<`, which compares UTF-16 code units and misorders characters
 * above U+FFFF against U+E000–U+FFFF).
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.codePointAt(i) ?? 0;
    const y = b.codePointAt(i) ?? 0;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}
