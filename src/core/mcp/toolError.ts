import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isRecursaError } from '../errors';

/**
 * A failure as a tool result the client's model can act on: `isError: true`, the error's code and
 * its message (Recursa's errors say what happened and what to do).
 */
export function toolError(error: unknown): CallToolResult {
  if (isRecursaError(error)) return { content: [{ type: 'text', text: `${error.code}: ${error.message}` }], isError: true };
  const message = error instanceof Error ? error.message : String(error);
  return { content: [{ type: 'text', text: `Failed: ${message}. Check the arguments and try again; if it keeps failing, the server's log (standard error) says more.` }], isError: true };
}
