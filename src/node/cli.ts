import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { runScript } from './runScript';

const USAGE = `Usage: recursa run --vault DIR [--commit MESSAGE] [--time-limit MS] FILE

Runs FILE (TypeScript, the body of an async function with \`mem\` in scope; "-" reads standard
input) in Recursa's sandbox against the vault folder DIR, and prints the result as JSON.
Exit code: 0 when the code succeeded, 1 when it failed, 2 for bad arguments.

  --vault DIR        the vault folder
  --commit MESSAGE   commit what the code wrote, with this message
  --time-limit MS    wall-time limit of the run (default 10000)
  --help             this text`;

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
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [command, file, ...extra] = positionals;
  if (command !== 'run') return usageError(command === undefined ? 'no command given' : `unknown command "${command}"`);
  if (values.vault === undefined) return usageError('--vault DIR is required');
  if (file === undefined) return usageError('the file to run is missing (use "-" for standard input)');
  if (extra.length > 0) return usageError(`unexpected arguments: ${extra.join(' ')}`);
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
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return result.ok ? 0 : 1;
  } catch (error) {
    // Could not open the vault or commit: not the code's fault, so not exit code 1.
    return usageError(error instanceof Error ? error.message : String(error));
  }
}

function usageError(message: string): number {
  process.stderr.write(`recursa: ${message}\n\n${USAGE}\n`);
  return 2;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

process.exitCode = await main(process.argv.slice(2));
