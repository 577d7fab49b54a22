import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** The built command line (`npm test` builds first). */
export const CLI = join(process.cwd(), 'dist/cli.mjs');

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built command line as a child process, asynchronously, so that a model server in this
 * process can answer it. The registry of vaults goes to `home`, never the user's home folder.
 */
export function runCli(args: string[], home: string, env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, RECURSA_HOME: home, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
