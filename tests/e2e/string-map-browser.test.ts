// `StringMap` and `StringSet` in Chromium: the strings they are given stay out of V8's string
// table, where a `Map`'s keys go (src/core/util/StringMap.ts says why that matters). The table is
// read from a heap snapshot: the children of "(Internalized strings)" under "(GC roots)".
import { fileURLToPath } from 'node:url';
import esbuild from 'esbuild';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '../helpers/chromium';

const STRING_MAP = fileURLToPath(new URL('../../src/core/util/StringMap.ts', import.meta.url));
const KEYS = 2000;

interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; edge_fields: string[] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** The strings in the page's string table now (a full collection first, as every snapshot does). */
async function internalizedStrings(session: CDPSession): Promise<Set<string>> {
  const chunks: string[] = [];
  const onChunk = (event: { chunk: string }): void => void chunks.push(event.chunk);
  session.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  await session.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  session.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  const { snapshot, nodes, edges, strings } = JSON.parse(chunks.join('')) as HeapSnapshot;
  const nodeFields = snapshot.meta.node_fields.length;
  const edgeFields = snapshot.meta.edge_fields.length;
  const firstEdge: number[] = [];
  for (let node = 0, edge = 0; node < nodes.length; node += nodeFields) {
    firstEdge.push(edge);
    edge += (nodes[node + 4] as number) * edgeFields;
  }
  const children = (node: number): number[] =>
    Array.from({ length: nodes[node * nodeFields + 4] as number }, (_, k) => (edges[(firstEdge[node] as number) + k * edgeFields + 2] as number) / nodeFields);
  const name = (node: number): string => strings[nodes[node * nodeFields + 1] as number] as string;
  const roots = children(0).find((node) => name(node) === '(GC roots)');
  const table = roots === undefined ? undefined : children(roots).find((node) => name(node) === '(Internalized strings)');
  if (table === undefined) throw new Error('the heap snapshot has no "(Internalized strings)" root');
  return new Set(children(table).map(name));
}

describe('StringMap in Chromium: keys stay out of the string table', () => {
  let browser: Browser | undefined;
  let page: Page;
  let session: CDPSession;

  beforeAll(async () => {
    const bundle = await esbuild.build({ entryPoints: [STRING_MAP], bundle: true, format: 'iife', globalName: 'StringMaps', write: false });
    browser = await chromium.launch({ executablePath: findChromium(), args: ['--no-sandbox'] });
    page = await browser.newPage();
    await page.setContent('<!doctype html><title>StringMap</title>');
    await page.addScriptTag({ content: bundle.outputFiles[0]?.text ?? '' });
    session = await page.context().newCDPSession(page);
    await session.send('HeapProfiler.enable');
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('leaves the keys of a StringMap and the values of a StringSet out, where a Map and a Set put theirs in', async () => {
    await page.evaluate((count) => {
      interface Maps {
        StringMap: new <V>() => Map<string, V>;
        StringSet: new () => Set<string>;
      }
      const { StringMap, StringSet } = (globalThis as unknown as { StringMaps: Maps }).StringMaps;
      // Flat strings made at run time, as a note's text yields them.
      const fresh = (tag: string): string[] => Array.from({ length: count }, (_, i) => JSON.parse(JSON.stringify(`${tag}-${i}-${Math.random().toString(36).slice(2)}`)) as string);
      const ours = { map: fresh('string-map-key'), set: fresh('string-set-value') };
      const theirs = { map: fresh('native-map-key'), set: fresh('native-set-value') };
      const stringMap = new StringMap<number>();
      const stringSet = new StringSet();
      for (const [i, key] of ours.map.entries()) stringMap.set(key, i);
      for (const key of ours.map) if (stringMap.get(key) === undefined || !stringMap.has(key)) throw new Error('lost a key');
      for (const key of ours.map.slice(0, count / 2)) stringMap.delete(key);
      for (const value of ours.set) stringSet.add(value);
      for (const value of ours.set) if (!stringSet.has(value)) throw new Error('lost a value');
      const nativeMap = new Map<string, number>();
      const nativeSet = new Set<string>();
      for (const [i, key] of theirs.map.entries()) nativeMap.set(key, i);
      for (const value of theirs.set) nativeSet.add(value);
      // Everything stays alive through the snapshot.
      Object.assign(globalThis, { kept: { ours, theirs, stringMap, stringSet, nativeMap, nativeSet } });
    }, KEYS);
    const table = [...(await internalizedStrings(session))];
    const counted = (prefix: string): number => table.filter((text) => text.startsWith(`${prefix}-`)).length;
    // The control: this engine does put a Map's keys and a Set's values in its string table.
    expect(counted('native-map-key')).toBe(KEYS);
    expect(counted('native-set-value')).toBe(KEYS);
    expect(counted('string-map-key')).toBe(0);
    expect(counted('string-set-value')).toBe(0);
  });
});
