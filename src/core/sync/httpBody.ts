/** A request or response body as isomorphic-git's HTTP client passes it: chunks of bytes. */
export type HttpBody = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/** `parts` joined into one array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((size, part) => size + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.byteLength;
  }
  return joined;
}

/** Every chunk of `body`, joined into one array. */
export async function collectBody(body: HttpBody): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of body) parts.push(part);
  return concatBytes(parts);
}

/** `bytes` as a body of one chunk. */
export async function* singleChunk(bytes: Uint8Array): AsyncGenerator<Uint8Array, void, undefined> {
  yield bytes;
}

/** `parts` as a body, one chunk each (not joined: the client may send them as they are). */
export async function* chunks(parts: readonly Uint8Array[]): AsyncGenerator<Uint8Array, void, undefined> {
  for (const part of parts) yield part;
}
