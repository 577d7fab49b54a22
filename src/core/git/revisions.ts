import git from 'isomorphic-git';
import { InvalidArgumentError, NotFoundError } from '../errors';
import { GIT_ROOT } from './gitFs';
import { resolveRef } from './refs';
import type { GitRepository } from './repository';

const REVISION = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}(?:[~^]\d{0,4})*$/;
const HEX = /^[0-9a-f]{4,40}$/;

/**
 * Resolves what a model or a user writes for a commit: a full or abbreviated hash, `HEAD`, a
 * branch or tag name, with `~N` / `^` suffixes (first parents). Anything else is refused before
 * it reaches the file system.
 */
export async function resolveRevision(repo: GitRepository, revision: string, argument: string): Promise<string> {
  const text = revision.trim();
  if (!REVISION.test(text) || text.includes('..') || text.includes('//')) {
    throw new InvalidArgumentError(argument, 'a commit hash, HEAD, HEAD~N or a branch name', JSON.stringify(revision.slice(0, 60)));
  }
  const base = /^[^~^]+/.exec(text)?.[0] ?? text;
  let oid = await resolveBase(repo, base);
  if (oid === null) throw new NotFoundError(`commit ${base}`);
  for (const [, op, digits] of text.slice(base.length).matchAll(/([~^])(\d*)/g)) {
    const steps = op === '~' ? (digits === '' ? 1 : Number(digits)) : 1;
    const parentIndex = op === '^' && digits !== '' ? Number(digits) - 1 : 0;
    for (let i = 0; i < steps; i++) {
      const parent: string | undefined = (await repo.readCommit(oid)).parents[parentIndex];
      if (parent === undefined) throw new NotFoundError(`commit ${text} (history is shorter)`);
      oid = parent;
    }
  }
  return oid;
}

async function resolveBase(repo: GitRepository, name: string): Promise<string | null> {
  if (name === 'HEAD') return (await repo.head()).oid;
  for (const ref of [`refs/heads/${name}`, `refs/tags/${name}`]) {
    const oid = await resolveRef(repo.vault, ref, repo.gitdir);
    if (oid !== null) return repo.store.peelToCommit(oid);
  }
  if (!HEX.test(name)) return null;
  if (name.length === 40) return (await repo.store.has(name)) ? name : null;
  try {
    return await git.expandOid({ fs: repo.store.fs, dir: GIT_ROOT, oid: name, cache: repo.store.cache });
  } catch {
    return null;
  }
}
