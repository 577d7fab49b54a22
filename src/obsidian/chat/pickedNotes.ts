/** A note or folder the user attached to the next request. */
export interface PickedNote {
  path: string;
  kind: 'note' | 'folder';
  /** The note's tokens (a folder: the notes under it), shown on its chip. */
  tokens: number;
}

/** Tokens of attached note text sent with one request; notes past it are sent by path only. */
export const PICKED_TEXT_TOKENS = 6000;

const HEADER = 'The user attached these notes and folders to the request; read them with mem when their text is not below:';

/** The paths a context block from `pickedContext` lists (folders end with `/`), in order. */
export function attachedPaths(context: string): string[] {
  const [list = ''] = context.split('\n\n', 1);
  const lines = list.split('\n');
  if (lines[0] !== HEADER) return [];
  return lines.slice(1).filter((line) => line.startsWith('- ')).map((line) => line.slice(2).replace(/\/ \(folder\)$/, '/'));
}

/**
 * The context block for the picked notes: every path, and the text of the notes that fit `budget`
 * tokens as `countTokens` counts them.
 */
export function pickedContext(picked: readonly PickedNote[], texts: ReadonlyMap<string, string>, countTokens: (text: string) => number, budget = PICKED_TEXT_TOKENS): string | null {
  if (picked.length === 0) return null;
  const lines = [HEADER];
  for (const note of picked) lines.push(`- ${note.kind === 'folder' ? `${note.path}/ (folder)` : note.path}`);
  let left = budget;
  const bodies: string[] = [];
  const skipped: string[] = [];
  for (const note of picked) {
    const text = texts.get(note.path);
    if (note.kind !== 'note' || text === undefined) continue;
    const tokens = countTokens(text);
    if (tokens > left) {
      skipped.push(note.path);
      continue;
    }
    left -= tokens;
    bodies.push(`<note path="${note.path.replace(/"/g, '&quot;')}">\n${text}\n</note>`);
  }
  if (skipped.length > 0) lines.push(`Too long to include here (read them if needed): ${skipped.join(', ')}`);
  return [lines.join('\n'), ...bodies].join('\n\n');
}

/** The chip's count: `850 tokens`, `1.2k tokens`. */
export function formatTokens(tokens: number): string {
  return tokens >= 1000 ? `${(tokens / 1000).toFixed(1)}k tokens` : `${tokens} ${tokens === 1 ? 'token' : 'tokens'}`;
}
