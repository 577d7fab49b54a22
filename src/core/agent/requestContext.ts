/**
 * Context the user attached to a request (the notes they picked): the model reads it before the
 * request, in the same message, while the conversation's title, the commit message and the chat
 * show only what the user typed. The block is marked so it can be taken off again when a saved
 * conversation is shown.
 */
const OPEN = '[Attached by the user]\n';
const CLOSE = '\n[End of attached context]\n\n';

/** The message the model gets: the context block, then the request. No context, just the request. */
export function withContext(request: string, context: string | null | undefined): string {
  const text = context?.trim() ?? '';
  return text === '' ? request : `${OPEN}${text}${CLOSE}${request}`;
}

/** What the user typed, from a message `withContext` made (any other message is returned as is). */
export function requestOf(message: string): string {
  if (!message.startsWith(OPEN)) return message;
  const end = message.lastIndexOf(CLOSE);
  return end < 0 ? message : message.slice(end + CLOSE.length);
}

/** The context block of a message `withContext` made, or null when it has none. */
export function contextOf(message: string): string | null {
  if (!message.startsWith(OPEN)) return null;
  const end = message.lastIndexOf(CLOSE);
  return end < 0 ? null : message.slice(OPEN.length, end);
}
