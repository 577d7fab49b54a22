import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** The notes every chat test starts from. */
export const NOTES: Record<string, string> = {
  'Projects/Alpha.md': '# Alpha\n\nShip the first version by Friday.\n\n## Tasks\n- [ ] Write the announcement\n',
  'People/Sam.md': '# Sam\n\nWorks on [[Projects/Alpha]].\n',
  'Inbox.md': 'Remember to call Sam about Alpha.\n',
};

export async function seedNotes(dir: string): Promise<void> {
  for (const [path, text] of Object.entries(NOTES)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

/** A model answer in the Recursa protocol. */
export function answer(parts: { think?: string; code?: string; reply?: string }): string {
  return [
    parts.think === undefined ? '' : `<think>${parts.think}</think>`,
    parts.code === undefined ? '' : `<typescript>\n${parts.code}\n</typescript>`,
    parts.reply === undefined ? '' : `<reply>${parts.reply}</reply>`,
  ].join('\n');
}
