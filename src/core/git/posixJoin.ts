/**
 * `path.join` as isomorphic-git calls it, written for Recursa and put in place of the library's
 * own copy when the plugin is bundled (`esbuild.config.mjs`): that copy comes from a library under
 * the LGPL, which an MIT plugin cannot carry. The semantics are POSIX `path.join`: the non-empty
 * parts joined by `/`, then `.` and empty segments dropped and `..` applied, a leading `/` and a
 * trailing `/` kept. Like the library, a backslash counts as a separator. Windows drive letters are
 * not handled: Recursa's git paths are always rooted at `/` (`GIT_ROOT`).
 */
export function posixJoin(...parts: string[]): string {
  let joined = '';
  for (const part of parts) {
    if (part.length === 0) continue;
    joined = joined.length === 0 ? part : `${joined}/${part}`;
  }
  return normalize(joined.replaceAll('\\', '/'));
}

/** A `.` or `..` segment, or an empty one (`//`): only then is there anything to normalize. */
const NEEDS_WORK = /(^|\/)\.{1,2}(\/|$)|\/\//;

function normalize(path: string): string {
  if (path.length === 0) return '.';
  if (!NEEDS_WORK.test(path)) return path;
  const absolute = path.startsWith('/');
  const trailing = path.endsWith('/');
  const kept: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment !== '..') kept.push(segment);
    else if (kept.length > 0 && kept[kept.length - 1] !== '..') kept.pop();
    else if (!absolute) kept.push('..');
  }
  const body = kept.join('/');
  if (absolute) return trailing && body.length > 0 ? `/${body}/` : `/${body}`;
  if (body.length === 0) return trailing ? './' : '.';
  return trailing ? `${body}/` : body;
}
