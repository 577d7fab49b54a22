import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { parseArgs } from 'node:util';
import type { AgentEvent } from '../core/agent/runAgent';
import { isRecursaError } from '../core/errors';
import { redactSecrets, secretsInUrl } from '../core/text/redactSecrets';
import { ALL_COMMAND_NAMES, helpText, isCommand, isSelfParsingCommand, usageHint, VERSION, type CommandName, type SelfParsingCommand } from './cliHelp';
import type { createNodeVaultRegistry } from './nodeVaultRegistry';
import { providerFromFlags } from './providerFlags';
// The commands' modules (the sandbox, git, the tokenizer…) are imported where a command runs, so
// --version and --help start as fast as Node does (tests/integration/cli-startup.test.ts).

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

/** The modules of the commands that read their own flags (`mcp`'s and `sync`'s differ from the rest). */
const SELF_PARSING = {
  mcp: async () => {
    const { mcpCommand, MCP_HELP } = await import('./mcpCommand');
    return { run: mcpCommand, help: MCP_HELP };
  },
  sync: async () => {
    const { syncCommand, SYNC_HELP } = await import('./syncCommand');
    return { run: syncCommand, help: SYNC_HELP };
  },
} satisfies Record<SelfParsingCommand, () => Promise<{ run: (argv: string[]) => Promise<number>; help: string }>>;

async function main(argv: string[]): Promise<number> {
  const [first, second] = argv;
  if (isSelfParsingCommand(first)) return (await SELF_PARSING[first]()).run(argv.slice(1));
  if (first === 'help' && isSelfParsingCommand(second)) {
    out((await SELF_PARSING[second]()).help);
    return 0;
  }
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
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    });
  } catch (error) {
    const command = argv.find((arg) => !arg.startsWith('-'));
    if (isSelfParsingCommand(command)) return usageErrorOf(`put "${command}" first: ${usageHint(command)}`, null);
    return usageErrorOf(error instanceof Error ? error.message : String(error), isCommand(command) ? command : null);
  }
  const { values, positionals } = parsed;
  secrets.push(values['api-key'] ?? '', ...secretsInUrl(values['base-url']));
  const [command, file, ...extra] = positionals;
  if (values.version === true) {
    out(`recursa ${VERSION}\n`);
    return 0;
  }
  if (command === 'help' || values.help === true) {
    const topic = command === 'help' ? file : command;
    if (topic !== undefined && !isCommand(topic)) return usageErrorOf(`no help for "${topic}": the commands are ${ALL_COMMAND_NAMES}`, null);
    out(helpText(topic ?? null));
    return 0;
  }
  if (command === undefined) {
    err(helpText());
    return 2;
  }
  if (isSelfParsingCommand(command)) return usageErrorOf(`put "${command}" first, before its flags`, null);
  if (!isCommand(command)) return usageErrorOf(`unknown command "${command}"`, null);
  const commandError = (message: string): number => usageErrorOf(message, command);
  if (command === 'ask') return askCommand(values, positionals.slice(1));
  if (command === 'remember') return (await import('./memoryCommands')).rememberCommand(values, positionals.slice(1), await registry(), commandError);
  if (command === 'recall') return (await import('./memoryCommands')).recallCommand(values, positionals.slice(1), await registry(), commandError);
  return runCommand(values, file, extra);
}

interface RunValues {
  vault?: string;
  commit?: string;
  'time-limit'?: string;
  provider?: string;
  model?: string;
}

async function runCommand(values: RunValues, file: string | undefined, extra: string[]): Promise<number> {
  const usageError = (message: string): number => usageErrorOf(message, 'run');
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
    const { runScript } = await import('./runScript');
    const result = await runScript(values.vault, code, { commit: values.commit, limits: timeMs === undefined ? {} : { timeMs } });
    out(`${JSON.stringify(result, null, 2)}\n`);
    if (result.discarded.length > 0) err(`recursa: the code failed, so its changes were undone: ${result.discarded.join(', ')}\n`);
    if (result.uncommitted.length > 0) err(uncommittedNotice(values.vault, result.uncommitted, result.ok));
    return result.ok ? 0 : 1;
  } catch (error) {
    // The vault could not be opened, or the commit failed (a lock another program holds, say).
    return failure(error);
  }
}

/** Which files a run left uncommitted, and how to keep or undo them. */
function uncommittedNotice(vault: string, paths: readonly string[], ok: boolean): string {
  const quoted = paths.map((path) => JSON.stringify(path)).join(' ');
  const why = ok ? 'no --commit was given' : 'the code failed, and the folder has no git history to undo them with';
  const them = paths.length === 1 ? 'it' : 'them';
  const lines = [`recursa: the code changed ${paths.length === 1 ? '1 file' : `${paths.length} files`} and left ${them} uncommitted (${why}):`, ...paths.map((path) => `  ${path}`)];
  if (ok) {
    lines.push(`To keep ${them}, run the code again with --commit MESSAGE, or commit ${them} yourself: git -C ${JSON.stringify(vault)} add -- ${quoted} && git -C ${JSON.stringify(vault)} commit -m MESSAGE`);
    lines.push(`To undo ${them}: git -C ${JSON.stringify(vault)} restore -- <changed files>, and delete the files the code created.`);
  }
  return `${lines.join('\n')}\n`;
}

/** A failure after the arguments were accepted: one JSON error object on standard output, exit 1. */
function failure(error: unknown, knownCode?: string): number {
  const code = knownCode ?? (isRecursaError(error) ? error.code : 'Failed');
  const message = error instanceof Error ? error.message : String(error);
  out(`${JSON.stringify({ ok: false, error: { code, message } }, null, 2)}\n`);
  err(`recursa: ${message}\n`);
  return 1;
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
async function registry(): Promise<ReturnType<typeof createNodeVaultRegistry>> {
  const { createNodeVaultRegistry } = await import('./nodeVaultRegistry');
  return createNodeVaultRegistry({ home: process.env.RECURSA_HOME ?? homedir() });
}

async function askCommand(values: AskValues, words: string[]): Promise<number> {
  const usageError = (message: string): number => usageErrorOf(message, 'ask');
  const env = process.env;
  if (values.vault === undefined) return usageError('--vault DIR is required');
  const request = words.join(' ').trim();
  if (request === '') return usageError('the request is missing');
  const parsedProvider = providerFromFlags(values, env);
  if (!parsedProvider.ok) return usageError(parsedProvider.message);
  const provider = parsedProvider.provider;
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
    const { ask } = await import('./ask');
    const outcome = await ask(values.vault, request, { provider, signal: controller.signal, onEvent, memory, vaultRegistry: await registry() });
    if (outcome.state === 'completed' && outcome.reply !== null) {
      out(`${outcome.reply}\n`);
      return 0;
    }
    const code = outcome.state === 'timed-out' ? 'TimeLimit' : outcome.state === 'cancelled' ? 'Cancelled' : 'RunFailed';
    return failure(new Error(`the run ${outcome.state}: ${outcome.error ?? 'no reply'}`), code);
  } catch (error) {
    return failure(error);
  }
}

function usageErrorOf(message: string, command: CommandName | null): number {
  err(`recursa: ${message}\n${usageHint(command)}\n`);
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
