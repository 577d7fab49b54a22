import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { parseArgs } from 'node:util';
import type { AgentEvent } from '../core/agent/runAgent';
import type { ProviderSettings } from '../core/llm/types';
import { redactSecrets, secretsInUrl } from '../core/text/redactSecrets';
import { ask } from './ask';
import { createNodeVaultRegistry } from './nodeVaultRegistry';
import { recallCommand, rememberCommand } from './memoryCommands';
import { runScript } from './runScript';

const USAGE = `Usage: recursa run --vault DIR [--commit MESSAGE] [--time-limit MS] FILE
       recursa ask --vault DIR [--provider openai|anthropic] [--base-url URL] [--model M] [--api-key K] [--protocol code|actions] "request"
       recursa remember --vault DIR [--tag T]... "content"
       recursa recall --vault DIR [--query Q] [--tag T]... [--since S] [--limit N] [--scope vault|all] [--json]

run: runs FILE (TypeScript, the body of an async function with \`mem\` in scope; "-" reads
standard input) in Recursa's sandbox against the vault folder DIR, and prints the result as JSON.
Exit code: 0 when the code succeeded, 1 when it failed, 2 for bad arguments.

ask: runs one request through the agent (model, sandbox, vault, git). The agent's status lines go
to standard error, its reply to standard output. Settings also come from RECURSA_PROVIDER,
RECURSA_BASE_URL, RECURSA_MODEL, RECURSA_API_KEY and RECURSA_PROTOCOL. Exit code: 0 on a reply, 1 when the run
failed, 2 for bad arguments.

remember: saves a memory note (Memories/YYYY-MM-DD/HHMMSS_xxxx.md) and commits it; prints its id
and path. recall: prints the memories matching the query, tags and time, newest first without a
query (--json: the whole result as JSON). Exit code: 0 on success, 1 when it failed, 2 for bad
arguments.

  --vault DIR        the vault folder
  --commit MESSAGE   (run) commit what the code wrote, with this message
  --time-limit MS    (run) wall-time limit of the run (default 10000)
  --provider NAME    (ask) openai (any OpenAI-compatible server) or anthropic; default openai
  --base-url URL     (ask) default https://api.openai.com/v1 or https://api.anthropic.com
  --model M          (ask) the model name
  --api-key K        (ask) the API key (local servers need none)
  --protocol P       (ask) code (TypeScript, the default) or actions (XML actions, for small models)
  --tag T            (remember, recall) a tag; repeat for more (recall: any of them)
  --query Q          (recall) words to search for, typo-tolerant
  --since S          (recall) 12h, 1d, 2w, today, yesterday or an ISO date
  --limit N          (recall) most memories, 1-100 (default 10)
  --scope S          (recall) vault (default) or all: every vault Recursa opened on this device
  --json             (remember, recall) print JSON
  --memory-folder F  (remember, recall, ask) the memory folder (default Memories/)
  --help             this text`;

const DEFAULT_BASE_URL = { openai: 'https://api.openai.com/v1', anthropic: 'https://api.anthropic.com' } as const;

/** What the command line was given that must never be printed: API keys, credentials in base URLs. */
const secrets: string[] = [process.env.RECURSA_API_KEY ?? '', ...secretsInUrl(process.env.RECURSA_BASE_URL)];

/** Writes to standard output, with every secret redacted. */
function out(text: string): void {
  process.stdout.write(redactSecrets(text, secrets));
}

/** Writes to standard error, with every secret redacted. */
function err(text: string): void {
  process.stderr.write(redactSecrets(text, secrets));
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        vault: { type: 'string' },
        commit: { type: 'string' },
        'time-limit': { type: 'string' },
        provider: { type: 'string' },
        'base-url': { type: 'string' },
        model: { type: 'string' },
        'api-key': { type: 'string' },
        protocol: { type: 'string' },
        tag: { type: 'string', multiple: true },
        query: { type: 'string' },
        since: { type: 'string' },
        limit: { type: 'string' },
        scope: { type: 'string' },
        json: { type: 'boolean' },
        'memory-folder': { type: 'string' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  secrets.push(values['api-key'] ?? '', ...secretsInUrl(values['base-url']));
  if (values.help === true) {
    out(`${USAGE}\n`);
    return 0;
  }
  const [command, file, ...extra] = positionals;
  if (command === 'ask') return askCommand(values, positionals.slice(1));
  if (command === 'remember') return rememberCommand(values, positionals.slice(1), registry(), usageError);
  if (command === 'recall') return recallCommand(values, positionals.slice(1), registry(), usageError);
  if (command !== 'run') return usageError(command === undefined ? 'no command given' : `unknown command "${command}"`);
  if (values.vault === undefined) return usageError('--vault DIR is required');
  if (file === undefined) return usageError('the file to run is missing (use "-" for standard input)');
  if (extra.length > 0) return usageError(`unexpected arguments: ${extra.join(' ')}`);
  if (values.provider !== undefined || values.model !== undefined) return usageError('--provider and --model belong to the ask command');
  const timeMs = values['time-limit'] === undefined ? undefined : Number(values['time-limit']);
  if (timeMs !== undefined && (!Number.isInteger(timeMs) || timeMs < 1)) return usageError('--time-limit wants a whole number of milliseconds');
  if (values.commit?.trim() === '') return usageError('--commit needs a message');

  let code: string;
  try {
    code = file === '-' ? await readStdin() : await readFile(file, 'utf8');
  } catch (error) {
    return usageError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const result = await runScript(values.vault, code, { commit: values.commit, limits: timeMs === undefined ? {} : { timeMs } });
    out(`${JSON.stringify(result, null, 2)}\n`);
    return result.ok ? 0 : 1;
  } catch (error) {
    // Could not open the vault or commit: not the code's fault, so not exit code 1.
    return usageError(error instanceof Error ? error.message : String(error));
  }
}

interface AskValues {
  vault?: string;
  provider?: string;
  'base-url'?: string;
  model?: string;
  'api-key'?: string;
  protocol?: string;
  'memory-folder'?: string;
}

/** The registry of vaults in the user's home folder (`RECURSA_HOME` moves it, for tests and portable setups). */
function registry(): ReturnType<typeof createNodeVaultRegistry> {
  return createNodeVaultRegistry({ home: process.env.RECURSA_HOME ?? homedir() });
}

async function askCommand(values: AskValues, words: string[]): Promise<number> {
  const env = process.env;
  if (values.vault === undefined) return usageError('--vault DIR is required');
  const request = words.join(' ').trim();
  if (request === '') return usageError('the request is missing');
  const kind = values.provider ?? env.RECURSA_PROVIDER ?? 'openai';
  if (kind !== 'openai' && kind !== 'anthropic') return usageError(`unknown provider "${kind}" (use openai or anthropic)`);
  const model = values.model ?? env.RECURSA_MODEL;
  if (model === undefined || model.trim() === '') return usageError('--model (or RECURSA_MODEL) is required');
  const protocol = values.protocol ?? env.RECURSA_PROTOCOL ?? 'code';
  if (protocol !== 'code' && protocol !== 'actions') return usageError(`unknown protocol "${protocol}" (use code or actions)`);
  const provider: ProviderSettings = {
    kind,
    baseUrl: values['base-url'] ?? env.RECURSA_BASE_URL ?? DEFAULT_BASE_URL[kind],
    model,
    apiKey: values['api-key'] ?? env.RECURSA_API_KEY,
    protocol,
  };
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  let lastThink = '';
  const onEvent = (event: AgentEvent): void => {
    if (event.type === 'think') lastThink = event.text;
    if (event.type === 'state' && event.state !== 'thinking' && lastThink !== '') {
      err(`… ${lastThink}\n`);
      lastThink = '';
    }
    if (event.type === 'commit') err(`✓ committed ${event.hash.slice(0, 7)}\n`);
  };
  try {
    const memory = values['memory-folder'] === undefined ? undefined : { memoryFolder: values['memory-folder'] };
    const outcome = await ask(values.vault, request, { provider, signal: controller.signal, onEvent, memory, vaultRegistry: registry() });
    if (outcome.state === 'completed' && outcome.reply !== null) {
      out(`${outcome.reply}\n`);
      return 0;
    }
    err(`recursa: the run ${outcome.state}: ${outcome.error ?? 'no reply'}\n`);
    return 1;
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
}

function usageError(message: string): number {
  err(`recursa: ${message}\n\n${USAGE}\n`);
  return 2;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

process.exitCode = await main(process.argv.slice(2)).catch((error: unknown) => {
  // Printed here, not by Node: Node would print the message and stack as they are, secrets included.
  err(`recursa: ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
});
