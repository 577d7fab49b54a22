import { toVaultPath, type GitFs, type GitFsPromises } from '../git/gitFs';
import type { VaultPort } from '../ports';

/** Refs and shallow markers isomorphic-git would write straight to their files. */
const REF_FILE = /^\.git\/(refs\/|packed-refs$|shallow$|FETCH_HEAD$)/;
/** A pack or its index, written whole by fetch. */
const PACK_FILE = /^(\.git\/objects\/pack\/)([^/]+\.(?:pack|idx))$/;

let counter = 0;

/**
 * The fs client for isomorphic-git's `fetch`, over the repository's own, with two
 * changes that keep the repository valid for every other git program:
 *
 * - refs are never written by isomorphic-git (it writes them in place, without git's locks): what
 *   it would write is kept in `refWrites`, and sync moves the refs itself under the locks;
 * - a fetched pack and its index are written beside their names and moved into place, pack first,
 *   so a crash leaves no truncated pack (a pack without its index is one git does not read).
 */
export function transportFs(vault: VaultPort, base: GitFs): { fs: { promises: GitFsPromises }; refWrites: Map<string, string> } {
  const refWrites = new Map<string, string>();
  const promises: GitFsPromises = {
    ...base.promises,
    async readFile(path, options) {
      const vaultPath = typeof path === 'string' ? toVaultPath(path) : '';
      const kept = refWrites.get(vaultPath);
      if (kept === undefined) return base.promises.readFile(path, options);
      const encoding = typeof options === 'string' ? options : options?.encoding;
      return encoding === 'utf8' || encoding === 'utf-8' ? kept : new TextEncoder().encode(kept);
    },
    async writeFile(path, data, options) {
      const vaultPath = toVaultPath(path);
      if (REF_FILE.test(vaultPath)) {
        refWrites.set(vaultPath, typeof data === 'string' ? data : new TextDecoder().decode(data));
        return;
      }
      const pack = PACK_FILE.exec(vaultPath);
      if (pack === null) return base.promises.writeFile(path, data, options);
      const temporary = `${pack[1] as string}tmp_${Date.now().toString(36)}${(counter++).toString(36)}_${pack[2] as string}`;
      await (typeof data === 'string' ? vault.write(temporary, data) : vault.writeBinary(temporary, data));
      await vault.replace(temporary, vaultPath);
    },
    async unlink(path) {
      if (REF_FILE.test(toVaultPath(path))) return;
      return base.promises.unlink(path);
    },
  };
  return { fs: { promises }, refWrites };
}
