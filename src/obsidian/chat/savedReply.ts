/** Characters a note name may not hold on some platform, or that Obsidian reads as link syntax. */
const UNSAFE = /[\\/:*?"<>|#^[\]]/g;
const MAX_NAME = 60;

/**
 * The path of a new note for a reply: named after the request's first line (cleaned of characters
 * a file name cannot hold), at the vault's root, with ` 2`, ` 3`, … when the name is taken.
 */
export function noteNameFor(request: string, exists: (path: string) => boolean): string {
  const line = (request.trim().split('\n', 1)[0] ?? '').replace(UNSAFE, ' ').replace(/\s+/g, ' ').trim();
  const cut = line.length > MAX_NAME ? line.slice(0, MAX_NAME).replace(/\s+\S*$/, '') || line.slice(0, MAX_NAME) : line;
  const base = cut.replace(/^\.+/, '').trim() || 'Recursa reply';
  for (let n = 1; ; n++) {
    const path = `${n === 1 ? base : `${base} ${n}`}.md`;
    if (!exists(path)) return path;
  }
}
