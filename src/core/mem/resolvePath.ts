import { PathRefusedError } from '../errors';
import type { NormalizeOptions } from '../paths/pathPolicy';
import { findUnlinkableCharacter, isProtectedPath } from '../paths/pathPolicy';
import { protectedFileOf } from '../paths/protectedFiles';
import { resolveLinks } from '../paths/resolveLinks';
import { requirePath } from '../validate';
import type { MemContext } from './MemContext';

/**
 * What a `mem` operation does at a path, which decides the checks it passes:
 * - `read`: reads or lists what the path leads to;
 * - `write`: creates or changes a file or folder there (its new names must be linkable, and it
 *   may not be a protected file);
 * - `remove`: deletes or moves the name itself — a link there is removed or moved, never what it
 *   points at — and it may not be a protected file.
 */
export type PathUse = 'read' | 'write' | 'remove';

/**
 * The one gate between a path from agent code and the vault: the path policy on the spelling,
 * then on where the path really leads once symbolic links are followed (inside the vault, outside
 * `.git`, the config folder and the trash folders), then the rules of `use`. Returns the path to
 * work on — with links resolved, so a write through a link inside the vault lands, and is
 * committed, at the file it leads to — or throws `PathRefusedError`.
 */
export async function resolvePath(ctx: MemContext, input: unknown, use: PathUse, options?: NormalizeOptions): Promise<string> {
  const path = requirePath(input, ctx.policy, options);
  if (path === '') return path;
  const resolution = await resolveLinks(ctx.vault, path, { followLast: use !== 'remove' });
  if (resolution.kind === 'outside') {
    throw new PathRefusedError(path, 'link-outside', 'a symbolic link on the way leads outside the vault; only what is inside the vault can be read or changed.');
  }
  if (resolution.kind === 'loop') {
    throw new PathRefusedError(path, 'link-loop', 'the symbolic links on the way lead round in a circle; use the path of the real file.');
  }
  const resolved = resolution.path;
  if (resolved !== path && isProtectedPath(resolved, ctx.policy)) {
    throw new PathRefusedError(path, 'protected-folder', "a symbolic link on the way leads into git's data, the trash, Obsidian's config or a protected folder, which the agent may not read or change.");
  }
  if (use !== 'read') refuseProtectedFiles(ctx, [resolved], path);
  if (use === 'write') await refuseUnlinkableNames(ctx, resolved, path);
  return resolved;
}

/**
 * Refuses when any of `paths` is a protected file (`.gitignore`, `.gitattributes`, `.gitmodules`,
 * the vault's `AGENTS.md`) and the user has not allowed the agent to change them. `shown` is the
 * path as the caller gave it, for the message.
 */
export function refuseProtectedFiles(ctx: MemContext, paths: readonly string[], shown: string): void {
  if (ctx.options.editProtectedFiles) return;
  for (const path of paths) {
    const file = protectedFileOf(path);
    if (file === undefined) continue;
    const what = file === shown ? 'it is' : `it would change "${file}", which is`;
    throw new PathRefusedError(shown, 'protected-file', `${what} a file that steers git or the agent (.gitignore, .gitattributes, .gitmodules, AGENTS.md); only the user may change it, or allow the agent to (Recursa's settings: "Let the agent edit git and instruction files"; the library: editProtectedFiles).`);
  }
}

/**
 * Refuses a name the write would create that Obsidian cannot link to. Only names not on disk yet
 * count: an existing `C# notes/` folder or `Q&A #2.md` note may still be written to.
 */
async function refuseUnlinkableNames(ctx: MemContext, path: string, shown: string): Promise<void> {
  const names = path.split('/');
  for (let depth = names.length; depth > 0; depth--) {
    if ((await ctx.vault.stat(names.slice(0, depth).join('/'))) !== null) return;
    const character = findUnlinkableCharacter(names[depth - 1] as string);
    if (character !== undefined) {
      throw new PathRefusedError(shown, 'unlinkable-character', `new file and folder names may not contain ${JSON.stringify(character)} (nor any of # ^ [ ] |): Obsidian cannot link to such a name. Replace it, e.g. with "-".`);
    }
  }
}
