import { readTextIfExists, type VaultPort } from '../ports';

/** Where HEAD points, and the file a new commit moves. */
export interface HeadState {
  /** The branch (`main`), or null when HEAD is detached. */
  branch: string | null;
  /** The file to update on commit: `.git/refs/heads/<branch>`, or `.git/HEAD` when detached. */
  refFile: string;
  /** The commit HEAD resolves to, or null on a branch with no commits yet. */
  oid: string | null;
}

const OID = /^[0-9a-f]{40}$/;

export async function readHead(vault: VaultPort, gitdir = '.git'): Promise<HeadState> {
  const head = (await readTextIfExists(vault, `${gitdir}/HEAD`))?.trim();
  if (head === undefined) throw new Error(`${gitdir}/HEAD is missing`);
  if (OID.test(head)) return { branch: null, refFile: `${gitdir}/HEAD`, oid: head };
  const match = /^ref: (refs\/heads\/.+)$/.exec(head);
  if (match === null) throw new Error(`${gitdir}/HEAD is not a branch or a commit: "${head.slice(0, 80)}"`);
  const ref = match[1] as string;
  return { branch: ref.slice('refs/heads/'.length), refFile: `${gitdir}/${ref}`, oid: await resolveRef(vault, ref, gitdir) };
}

/** A ref's commit from its loose file, else from `packed-refs`; null when it does not exist. */
export async function resolveRef(vault: VaultPort, ref: string, gitdir = '.git'): Promise<string | null> {
  const loose = (await readTextIfExists(vault, `${gitdir}/${ref}`))?.trim();
  if (loose !== undefined && OID.test(loose)) return loose;
  const packed = await readTextIfExists(vault, `${gitdir}/packed-refs`);
  if (packed === null) return null;
  for (const line of packed.split('\n')) {
    if (line.endsWith(` ${ref}`) && OID.test(line.slice(0, 40))) return line.slice(0, 40);
  }
  return null;
}
