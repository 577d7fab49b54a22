// Cutting text without splitting a surrogate pair.

export function cutString(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end);
}

export function cutPoint(text: string, at: number): number {
  const last = text.charCodeAt(at - 1);
  return at > 0 && at < text.length && last >= 0xd800 && last <= 0xdbff ? at - 1 : at;
}
