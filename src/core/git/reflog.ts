import type { VaultPort } from '../ports';
import { settleAll } from '../util/settleAll';
import { formatSignature, type Signature } from './commitObjects';

const NO_COMMIT = '0'.repeat(40);

/**
 * Appends one line per ref to its reflog (`.git/logs/<ref>`) in git's format, so `git reflog`
 * can list — and recover — every branch move Recursa made:
 * `<old> <new> <name> <<email>> <seconds> <+hhmm>\t<message>`. Call it while holding the ref's lock.
 */
export async function appendReflog(
  vault: VaultPort,
  gitdir: string,
  refs: readonly string[],
  move: { from: string | null; to: string; who: Signature; message: string },
): Promise<void> {
  const line = `${move.from ?? NO_COMMIT} ${move.to} ${formatSignature(move.who)}\t${oneLine(move.message)}\n`;
  await settleAll(refs.map((ref) => vault.append(`${gitdir}/logs/${ref}`, line)));
}

/** `commit: <subject>`, or `commit (initial): <subject>` for a first commit, as `git commit` logs it. */
export function commitReflogMessage(message: string, initial: boolean): string {
  return `commit${initial ? ' (initial)' : ''}: ${message.split('\n', 1)[0] ?? ''}`;
}

function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').trim();
}
