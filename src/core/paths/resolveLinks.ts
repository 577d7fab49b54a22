import type { VaultPort } from '../ports';

/** Where a vault path leads once every symbolic link on the way is followed. */
export type LinkResolution =
  /** Inside the vault: the path with every link replaced by its target (the input when no link was on the way). */
  | { kind: 'inside'; path: string }
  /** A link on the way leads out of the vault folder. */
  | { kind: 'outside' }
  /** The links go round in circles (or nest deeper than any real vault needs). */
  | { kind: 'loop' };

/** Links followed before a path counts as a loop; Linux's own limit is 40. */
const MAX_LINKS = 40;

export interface ResolveLinksOptions {
  /**
   * Follow a link at the last name too (reading or writing a file). False for operations on the
   * name itself (deleting or moving a link removes or moves the link, not what it points at).
   */
  followLast: boolean;
}

/**
 * Follows the symbolic links in `path` (normalized, vault-relative) name by name, through the
 * port's `readLink`, the way the operating system would: a link's target replaces the names read
 * so far, relative to the folder holding the link, or from the vault root when it is absolute and
 * starts with the vault's folder. Names after the first missing one cannot be links and are kept.
 *
 * Links are resolved here rather than with `realpath` because a path being written usually does
 * not exist yet, and a dangling link at its end would be followed by the write. Where the port
 * has no links (Obsidian mobile: its adapter cannot make or report them), every path resolves to
 * itself.
 *
 * An absolute target that names the vault folder by another spelling (through a link above the
 * vault, say) counts as outside: refusing is the safe mistake.
 */
export async function resolveLinks(vault: VaultPort, path: string, options: ResolveLinksOptions): Promise<LinkResolution> {
  const pending = path === '' ? [] : path.split('/').reverse();
  const resolved: string[] = [];
  let followed = 0;
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (name === '' || name === '.') continue;
    if (name === '..') {
      if (resolved.length === 0) return { kind: 'outside' };
      resolved.pop();
      continue;
    }
    const candidate = [...resolved, name].join('/');
    const isLast = pending.length === 0;
    const target = isLast && !options.followLast ? null : await vault.readLink(candidate);
    if (target === null) {
      resolved.push(name);
      continue;
    }
    if (++followed > MAX_LINKS) return { kind: 'loop' };
    const names = splitTarget(target, vault.root);
    if (names === null) return { kind: 'outside' };
    if (names.absolute) resolved.length = 0;
    for (let i = names.names.length - 1; i >= 0; i--) pending.push(names.names[i] as string);
  }
  return { kind: 'inside', path: resolved.join('/') };
}

/**
 * The names of a link target, and whether they start from the vault root; null for an absolute
 * target outside the vault folder.
 */
function splitTarget(target: string, root: string): { absolute: boolean; names: string[] } | null {
  const names = (text: string): string[] => text.split(/[/\\]/);
  if (!isAbsolute(target)) return { absolute: false, names: names(target) };
  const inside = withinRoot(target, root);
  return inside === null ? null : { absolute: true, names: names(inside) };
}

/** `/x`, `\x`, `C:\x`, `C:/x`, `\\server\share`. */
function isAbsolute(target: string): boolean {
  return target.startsWith('/') || target.startsWith('\\') || /^[A-Za-z]:/.test(target);
}

/** The part of an absolute `target` below `root`, or null when it is not below it. */
function withinRoot(target: string, root: string): string | null {
  const slashes = (text: string): string => text.replace(/\\/g, '/').replace(/\/+$/, '');
  const base = slashes(root);
  const full = slashes(target);
  // Windows compares names without case; a drive letter says which kind of root this is.
  const fold = /^[A-Za-z]:/.test(base) ? (text: string): string => text.toLowerCase() : (text: string): string => text;
  if (base === '') return null;
  if (fold(full) === fold(base)) return '';
  return fold(full).startsWith(`${fold(base)}/`) ? full.slice(base.length + 1) : null;
}
