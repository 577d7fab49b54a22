/** The lines containing `text`, ignoring case; text with line breaks matches across lines. */
export function contentLines(noteText: string, text: string): number[] {
  const wanted = text.toLowerCase();
  const whole = noteText.toLowerCase();
  // Most notes do not contain the text: one search of the whole note rules them out.
  if (!whole.includes(wanted)) return [];
  const lowered = whole.split('\n');
  if (!wanted.includes('\n')) {
    const found: number[] = [];
    lowered.forEach((line, i) => {
      if (line.includes(wanted)) found.push(i);
    });
    return found;
  }
  return linesSpanned(lowered, wanted);
}

/** Every line that some occurrence of `wanted` (which holds a line break) covers, in part or whole. */
function linesSpanned(lowered: string[], wanted: string): number[] {
  const starts: number[] = [];
  let offset = 0;
  for (const line of lowered) {
    starts.push(offset);
    offset += line.length + 1;
  }
  const body = lowered.join('\n');
  const lineAt = (index: number): number => {
    let line = 0;
    while (line + 1 < starts.length && (starts[line + 1] ?? Infinity) <= index) line++;
    return line;
  };
  const found = new Set<number>();
  for (let at = body.indexOf(wanted); at >= 0; at = body.indexOf(wanted, at + 1)) {
    for (let line = lineAt(at); line <= lineAt(at + wanted.length - 1); line++) found.add(line);
  }
  return [...found];
}
