import packageJson from '../../package.json';

/** The commands of the `recursa` command line. */
export type CommandName = 'run' | 'ask' | 'remember' | 'recall';

export const COMMANDS: readonly CommandName[] = ['run', 'ask', 'remember', 'recall'];

export const VERSION: string = packageJson.version;

const SYNOPSIS: Record<CommandName, string> = {
  run: 'recursa run --vault DIR [--commit MESSAGE] [--time-limit MS] FILE',
  ask: 'recursa ask --vault DIR [--provider openai|anthropic] [--base-url URL] [--model M] [--api-key K] [--protocol code|actions] "request"',
  remember: 'recursa remember --vault DIR [--tag T]... "content"',
  recall: 'recursa recall --vault DIR [--query Q] [--tag T]... [--since S] [--limit N] [--scope vault|all] [--json]',
};

const DESCRIPTION: Record<CommandName, string> = {
  run: `Runs FILE (TypeScript, the body of an async function with \`mem\` in scope; "-" reads standard
input) in Recursa's sandbox against the vault folder DIR and prints the result as JSON. With
--commit, what the code wrote is committed; without it, the files it changed are listed on
standard error and left uncommitted. Code that fails commits nothing, and in a vault with history
its changes are undone.`,
  ask: `Runs one request through the agent (model, sandbox, vault, git). The agent's status lines go to
standard error, its reply to standard output. Settings also come from RECURSA_PROVIDER,
RECURSA_BASE_URL, RECURSA_MODEL, RECURSA_API_KEY and RECURSA_PROTOCOL. A local model needs no key:
  recursa ask --vault DIR --base-url http://localhost:11434/v1 --model llama3.1 "…"   (Ollama)
  recursa ask --vault DIR --base-url http://localhost:1234/v1 --model <loaded model> "…"  (LM Studio)`,
  remember: 'Saves a memory note (Memories/YYYY-MM-DD/HHMMSS_xxxx.md) and commits it; prints its id and path.',
  recall: 'Prints the memories matching the query, tags and time, newest first without a query (--json: the whole result as JSON).',
};

/** Each option, and the commands it belongs to (none: every command). */
const OPTIONS: readonly [flag: string, text: string, commands: readonly CommandName[]][] = [
  ['--vault DIR', 'the vault folder', []],
  ['--commit MESSAGE', 'commit what the code wrote, with this message', ['run']],
  ['--time-limit MS', 'wall-time limit of the run (default 10000)', ['run']],
  ['--provider NAME', 'openai (any OpenAI-compatible server) or anthropic; default openai', ['ask']],
  ['--base-url URL', 'default https://api.openai.com/v1 or https://api.anthropic.com', ['ask']],
  ['--model M', 'the model name', ['ask']],
  ['--api-key K', 'the API key (local servers need none)', ['ask']],
  ['--protocol P', 'code (TypeScript, the default) or actions (XML actions, for small models)', ['ask']],
  ['--tag T', 'a tag; repeat for more (recall: any of them)', ['remember', 'recall']],
  ['--query Q', 'words to search for, typo-tolerant', ['recall']],
  ['--since S', '12h, 1d, 2w, today, yesterday or an ISO date', ['recall']],
  ['--limit N', 'most memories, 1-100 (default 10)', ['recall']],
  ['--scope S', 'vault (default) or all: every vault Recursa opened on this device', ['recall']],
  ['--json', 'print JSON', ['remember', 'recall']],
  ['--memory-folder F', 'the memory folder (default Memories/)', ['remember', 'recall', 'ask']],
];

/** Commands that read their own flags and keep their own help (`recursa help mcp`). */
export const SELF_PARSING_COMMANDS = {
  mcp: { synopsis: 'recursa mcp --vault DIR [--http --port N | --bridge URL] [--read-only] [--model M …]', summary: 'Serves the vault to MCP clients (Claude Code, Claude Desktop, Cursor) over stdio or HTTP.' },
  sync: { synopsis: 'recursa sync --vault DIR [--remote URL]', summary: "Syncs the vault's history with its git remote: fetch, merge, push (never forced)." },
} as const;

export type SelfParsingCommand = keyof typeof SELF_PARSING_COMMANDS;

export function isSelfParsingCommand(name: string | undefined): name is SelfParsingCommand {
  return name === 'mcp' || name === 'sync';
}

/** Every command's name, for messages. */
export const ALL_COMMAND_NAMES = `${[...COMMANDS, 'mcp'].join(', ')} and sync`;

const EXIT_CODES = 'Exit code: 0 on success, 1 when the work failed (run, ask: one JSON error object with a `code` on standard output), 2 for bad arguments.';

function optionLines(command: CommandName | null): string {
  const shown = OPTIONS.filter(([, , commands]) => command === null || commands.length === 0 || commands.includes(command));
  const lines = shown.map(([flag, text, commands]) => {
    const owners = command === null && commands.length > 0 ? `(${commands.join(', ')}) ` : '';
    return `  ${flag.padEnd(19)}${owners}${text}`;
  });
  return [...lines, `  ${'-h, --help'.padEnd(19)}this text`, ...(command === null ? [`  ${'--version'.padEnd(19)}the version`] : [])].join('\n');
}

/** The whole help, or one command's. */
export function helpText(command: CommandName | null = null): string {
  if (command !== null) {
    return `Usage: ${SYNOPSIS[command]}\n\n${DESCRIPTION[command]}\n\n${optionLines(command)}\n\n${EXIT_CODES}\n`;
  }
  const synopses = [...COMMANDS.map((name) => SYNOPSIS[name]), ...Object.values(SELF_PARSING_COMMANDS).map((command) => command.synopsis)];
  const synopsis = synopses.map((line, i) => `${i === 0 ? 'Usage: ' : '       '}${line}`).join('\n');
  const ownHelp = Object.entries(SELF_PARSING_COMMANDS).map(([name, command]) => `${name}: ${command.summary} See "recursa help ${name}".`);
  const descriptions = [...COMMANDS.map((name) => `${name}: ${DESCRIPTION[name]}`), ...ownHelp].join('\n\n');
  return `${synopsis}\n       recursa help [COMMAND]\n       recursa --version\n\n${descriptions}\n\n${optionLines(null)}\n\n${EXIT_CODES}\n`;
}

/** What follows a bad-arguments message: the command's synopsis and where to read more. */
export function usageHint(command: CommandName | SelfParsingCommand | null): string {
  if (command === null) return 'Run "recursa --help" to see the commands.';
  if (isSelfParsingCommand(command)) return `${SELF_PARSING_COMMANDS[command].synopsis}\nRun "recursa help ${command}" for more.`;
  return `Usage: ${SYNOPSIS[command]}\nRun "recursa help ${command}" for more.`;
}

export function isCommand(name: string | undefined): name is CommandName {
  return name !== undefined && (COMMANDS as readonly string[]).includes(name);
}
