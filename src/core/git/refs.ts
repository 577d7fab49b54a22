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

/**
 * Reads HEAD and the commit it resolves to. With `likelyRef` (the branch HEAD named last time),
 * that branch's file is read beside HEAD rather than after it: one file-system step, not two,
 * when HEAD still names it.
 */
export async function readHead(vault: VaultPort, gitdir = '.git', likelyRef?: string): Promise<HeadState> {
  const early = likelyRef === undefined ? null : readTextIfExists(vault, `${gitdir}/${likelyRef}`);
  // Awaited below only when HEAD names that branch; a failure otherwise is not unhandled.
  early?.catch(() => undefined);
  const head = (await readTextIfExists(vault, `${gitdir}/HEAD`))?.trim();
  if (head === undefined) throw new Error(`${gitdir}/HEAD is missing`);
  if (OID.test(head)) return { branch: null, refFile: `${gitdir}/HEAD`, oid: head };
  const match = /^ref: (refs\/heads\/.+)$/.exec(head);
  if (match === null) throw new Error(`${gitdir}/HEAD is not a branch or a commit: "${head.slice(0, 80)}"`);
  const ref = match[1] as string;
  const loose = ref === likelyRef && early !== null ? await early : undefined;
  return { branch: ref.slice('refs/heads/'.length), refFile: `${gitdir}/${ref}`, oid: await resolveRef(vault, ref, gitdir, loose) };
}

/**
 * A ref's commit from its loose file, else from `packed-refs`; null when it does not exist.
 * `looseText` is the loose file's content when the caller read it already (null: no such file).
 */
export async function resolveRef(vault: VaultPort, ref: string, gitdir = '.git', looseText?: string | null): Promise<string | null> {
  const loose = (looseText === undefined ? await readTextIfExists(vault, `${gitdir}/${ref}`) : looseText)?.trim();
  if (loose !== undefined && OID.test(loose)) return loose;
  const packed = await readTextIfExists(vault, `${gitdir}/packed-refs`);
  if (packed === null) return null;
  for (const line of packed.split('\n')) {
    if (line.endsWith(` ${ref}`) && OID.test(line.slice(0, 40))) return line.slice(0, 40);
  }
  return null;
}
