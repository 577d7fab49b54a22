import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mcpCommandLine } from './mcpCli';

/** A client connected over stdio to `recursa mcp ARGS` in a child process; `stderr()` is what it logged. */
export interface StdioSession {
  client: Client;
  stderr: () => string;
  close: () => Promise<void>;
}

/** Starts `recursa mcp ARGS` and connects the SDK's own client to it over stdio, as `clientName`. */
export async function connectStdio(args: string[], env: Record<string, string>, clientName = 'test-client'): Promise<StdioSession> {
  const [script, ...prefix] = await mcpCommandLine();
  const transport = new StdioClientTransport({ command: process.execPath, args: [script as string, ...prefix, ...args], env: { ...(process.env as Record<string, string>), ...env }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** Connects the SDK's client to a Streamable HTTP endpoint with the token. */
export async function connectHttp(url: string, token: string, clientName: string): Promise<Client> {
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

export interface McpHttpProcess {
  url: string;
  child: ChildProcessWithoutNullStreams;
  stderr: () => string;
  /** Stops the server (SIGTERM) and resolves with its exit code. */
  stop: () => Promise<number | null>;
}

/** Starts `recursa mcp --http --port 0 ARGS` and waits until it says where it listens. */
export async function startHttpProcess(args: string[], env: Record<string, string>): Promise<McpHttpProcess> {
  const [script, ...prefix] = await mcpCommandLine();
  const child = spawn(process.execPath, [script as string, ...prefix, '--http', '--port', '0', ...args], { env: { ...process.env, ...env } });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (found !== null) resolve(found[1] as string);
    });
    void exited.then((code) => reject(new Error(`the server exited (${String(code)}) before listening: ${stderr}`)));
  });
  return {
    url,
    child,
    stderr: () => stderr,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Runs `recursa mcp ARGS` to the end with nothing on standard input. */
export async function runMcp(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const [script, ...prefix] = await mcpCommandLine();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script as string, ...prefix, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end();
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
