import { sha1, toHex } from './sha1';

/** The blob id git computes for `content` (`git hash-object`), without storing anything. */
export async function hashBlob(content: Uint8Array): Promise<string> {
  return (await hashedObject('blob', content)).oid;
}

/** `content` as git stores an object of `type` (its header, then the content), and that object's id. */
export async function hashedObject(type: 'blob' | 'tree' | 'commit', content: Uint8Array): Promise<{ oid: string; object: Uint8Array }> {
  const header = new TextEncoder().encode(`${type} ${content.byteLength}\0`);
  const object = new Uint8Array(header.byteLength + content.byteLength);
  object.set(header);
  object.set(content, header.byteLength);
  return { oid: toHex(await sha1(object)), object };
}
