import { stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { isRecursaError } from '../core/errors';
import { redactSecrets, secretsInUrl } from '../core/text/redactSecrets';

/** `recursa help sync`. */
export const SYNC_HELP = `Usage: recursa sync --vault DIR [--remote URL]

Syncs the vault's history with its git remote over HTTP(S): fetches, merges (a fast-forward, or a
merge commit with both parents; never a rebase), then pushes (never a force push). Notes both
sides changed in different places are merged line by line; where the edits overlap, or for binary
files, the vault's version stays and the remote's is saved beside it as
"Name (conflict YYYY-MM-DD).ext". A file the remote changed that holds uncommitted
edits here is left as it is (the remote's version is saved beside it). Prints one JSON object:
{"ok":true,"fetched":N,"pushed":N,"merged":BOOL,"conflicts":[...],"copies":[...],"uncommitted":[...]}.
Credentials come from RECURSA_GIT_USERNAME and RECURSA_GIT_TOKEN; they are never stored or printed.

  --vault DIR        the vault folder
  --remote URL       set remote "origin" to URL first (credentials in it are used, never stored)
  -h, --help         this text

Exit code: 0 on success (conflicts included), 1 when the sync failed ({"ok":false,"code":...,"message":...}
with code AuthFailed, Unreachable, Rejected, Conflict or GitBusy), 2 for bad arguments.
`;

/** `recursa sync …`: parses its flags, syncs, prints one JSON object; resolves to the exit code. */
export async function syncCommand(argv: string[]): Promise<number> {
  const env = process.env;
  const secrets: string[] = [env.RECURSA_GIT_TOKEN ?? ''];
  const print = (text: string, stream: { write(text: string): unknown }): void => {
    stream.write(redactSecrets(text, secrets));
  };
  const usage = (message: string): number => {
    print(`recursa: ${message}\nUsage: recursa sync --vault DIR [--remote URL]\nRun "recursa help sync" for more.\n`, process.stderr);
    return 2;
  };
  let values: { vault?: string; remote?: string; help?: boolean };
  try {
    const parsed = parseArgs({ args: argv, allowPositionals: true, options: { vault: { type: 'string' }, remote: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
    values = parsed.values;
    secrets.push(...secretsInUrl(values.remote));
    if (parsed.positionals.length > 0) return usage(`unexpected arguments: ${parsed.positionals.join(' ')}`);
  } catch (error) {
    return usage(error instanceof Error ? error.message : String(error));
  }
  if (values.help === true) {
    print(SYNC_HELP, process.stdout);
    return 0;
  }
  if (values.vault === undefined || values.vault.trim() === '') return usage('--vault DIR is required');
  if (values.remote !== undefined && values.remote.trim() === '') return usage('--remote needs a URL');
  const folder = await stat(values.vault).catch(() => null);
  if (folder === null || !folder.isDirectory()) return usage(`--vault ${values.vault} is not a folder`);
  try {
    const { syncVault } = await import('./syncVault');
    const result = await syncVault(values.vault, {
      remote: values.remote,
      username: env.RECURSA_GIT_USERNAME || undefined,
      token: env.RECURSA_GIT_TOKEN || undefined,
    });
    print(`${JSON.stringify(result)}\n`, process.stdout);
    return 0;
  } catch (error) {
    const code = isRecursaError(error) ? error.code : 'Failed';
    const message = error instanceof Error ? error.message : String(error);
    if (code === 'InvalidArgument') return usage(message);
    print(`${JSON.stringify({ ok: false, code, message })}\n`, process.stdout);
    print(`recursa: ${message}\n`, process.stderr);
    return 1;
  }
}
