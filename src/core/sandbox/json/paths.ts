// Where a value sits inside the converted value, for truncation notes.

/** A path segment, formatted only when a note needs it. */
export interface Path {
  parent: Where;
  key: string | number;
}

/** `undefined` is the value itself. */
export type Where = Path | undefined;

export function formatPath(path: Where): string {
  const keys: Array<string | number> = [];
  for (let node = path; node; node = node.parent) keys.push(node.key);
  let text = 'value';
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i] as string | number;
    if (typeof key === 'number') text += `[${key}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(key)) text += `.${key}`;
    else text += `[${JSON.stringify(key)}]`;
  }
  return text;
}
