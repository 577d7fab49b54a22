import type * as Obsidian from 'obsidian';

/**
 * The promise `requestUrl` returns, which also offers `.arrayBuffer`, `.text` and `.json` as
 * promises. Getters, so a rejected request leaves no unhandled rejection behind in them.
 */
export function requestUrlPromise(response: Promise<Obsidian.RequestUrlResponse>): Obsidian.RequestUrlResponsePromise {
  const derived = <T>(pick: (value: Obsidian.RequestUrlResponse) => T): PropertyDescriptor => ({ get: () => response.then(pick) });
  return Object.defineProperties(response, {
    arrayBuffer: derived((value) => value.arrayBuffer),
    text: derived((value) => value.text),
    json: derived((value): unknown => value.json),
  }) as Obsidian.RequestUrlResponsePromise;
}
