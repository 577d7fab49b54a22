/**
 * The name a conflict copy gets: the note's name with ` (conflict YYYY-MM-DD)` before its
 * extension, in the same folder — `Notes/Plan.md` → `Notes/Plan (conflict 2026-11-25).md`. The copy
 * holds the remote's version; the date is the local day of the sync. When that name is taken,
 * `attempt` 2, 3, … gives `Plan (conflict 2026-11-25 2).md`.
 */
export function conflictCopyName(path: string, date: Date, attempt = 1): string {
  const slash = path.lastIndexOf('/');
  const folder = path.slice(0, slash + 1);
  const name = path.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const day = `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
  return `${folder}${stem} (conflict ${day}${attempt > 1 ? ` ${attempt}` : ''})${extension}`;
}
