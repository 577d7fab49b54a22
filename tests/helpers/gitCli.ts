import { execFileSync } from 'node:child_process';

/**
 * Runs the real `git` CLI in `dir` — the reference for "this is a valid repository". Global and
 * system config are ignored so the machine's settings cannot change what a test sees.
 */
export function gitCli(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: GIT_ENV });
}

/** The environment every test runs the `git` CLI in: no system or global config, a fixed identity. */
export const GIT_ENV: Record<string, string | undefined> = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Test User',
  GIT_AUTHOR_EMAIL: 'user@example.com',
  GIT_COMMITTER_NAME: 'Test User',
  GIT_COMMITTER_EMAIL: 'user@example.com',
};
